#include "context.h"

#include <benchmark/benchmark.h>
#include <oneapi/tbb/version.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "chbench/simd.h"
#include "families_json.h"
#include "registry_json.h"

namespace chbench::bench {

namespace {

std::string cpuinfo_field(const std::string& cpuinfo, const std::string& field) {
  std::ifstream in(cpuinfo);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) != 0) continue;
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    auto value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    return value;
  }
  return "unknown";
}

// Runs a short command and returns its first line of output, or "".
std::string first_line_of(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::array<char, 256> buf{};
  std::string out;
  if (fgets(buf.data(), buf.size(), pipe.get())) out = buf.data();
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// The architecture this binary was compiled for, as uname -m and qemu name it.
constexpr const char* kArch =
#if defined(__aarch64__)
    "aarch64";
#elif defined(__x86_64__)
    "x86_64";
#else
    "";
#endif

}  // namespace

std::string emulation_evidence(const std::string& cpuinfo) {
  std::vector<std::string> signs;
  // x86 kernels list vendor_id and flags per CPU; arm64 ones CPU implementer
  // and Features.
  const bool x86_cpu = cpuinfo_field(cpuinfo, "vendor_id") != "unknown";
  const bool arm_cpu = cpuinfo_field(cpuinfo, "CPU implementer") != "unknown";
  const std::string arch = kArch;
  if ((arch == "aarch64" && x86_cpu) || (arch == "x86_64" && arm_cpu))
    signs.push_back(std::string(cpuinfo) + " describes " + (x86_cpu ? "an x86" : "an Arm") +
                    " CPU (" + cpuinfo_field(cpuinfo, "model name") + ") but this is an " + arch +
                    " binary");
  const std::string model = cpuinfo_field(cpuinfo, "model name");
  if (model.rfind("QEMU", 0) == 0) signs.push_back("the CPU model is '" + model + "'");
  if (!arch.empty()) {
    const std::string entry = "/proc/sys/fs/binfmt_misc/qemu-" + arch;
    std::ifstream in(entry);
    std::string first;
    if (std::getline(in, first) && first == "enabled")
      signs.push_back("binfmt_misc runs " + arch + " binaries through qemu (" + entry + ")");
  }
  std::string out;
  for (const auto& sign : signs) {
    if (!out.empty()) out += "; ";
    out += sign;
  }
  return out;
}

void add_run_context(const std::string& sweep, const std::string& cpuinfo,
                     const std::string& emulated) {
  using benchmark::AddCustomContext;
  // The commit is read when the bench runs, so a rebuilt binary never reports a
  // stale one; "-dirty" marks uncommitted changes in the source tree. What
  // scripts/run.sh itself rewrites after a run (the results index, the guide
  // and its plot) is output, not source: a run after a run stays clean.
  std::string commit =
      first_line_of("git -C '" CHBENCH_SOURCE_DIR "' rev-parse --short=12 HEAD 2>/dev/null");
  if (commit.empty())
    commit = "unknown";
  else if (!first_line_of("git -C '" CHBENCH_SOURCE_DIR
                          "' status --porcelain --untracked-files=no -- . ':!results' "
                          "':!docs/guide.md' ':!docs/guide_nodes.*' 2>/dev/null")
                .empty())
    commit += "-dirty";
  AddCustomContext("chbench_commit", commit);
  AddCustomContext("chbench_build_type", CHBENCH_BUILD_TYPE);
  AddCustomContext("chbench_compiler", CHBENCH_COMPILER);
  std::string flags = CHBENCH_CXX_FLAGS;
  flags.erase(0, flags.find_first_not_of(' '));
  AddCustomContext("chbench_cxx_flags", flags);
  // How it was built: toolchains/<toolchain>.cmake, the CMake preset, and the
  // x86-64 level the build must not dispatch below (none: the one-lane
  // fallback and up).
  AddCustomContext("chbench_toolchain", CHBENCH_TOOLCHAIN);
  AddCustomContext("chbench_preset", *CHBENCH_PRESET ? CHBENCH_PRESET : "none");
  AddCustomContext("chbench_baseline", *CHBENCH_BASELINE ? CHBENCH_BASELINE : "none");
  AddCustomContext("chbench_target_arch", CHBENCH_TARGET_ARCH);
  AddCustomContext("chbench_cross_compiled", CHBENCH_CROSS_COMPILED ? "yes" : "no");
  AddCustomContext("chbench_emulated", emulated.empty() ? "no" : "yes: " + emulated);
  AddCustomContext("chbench_cpu_model", cpuinfo_field(cpuinfo, "model name"));
  // Arm kernels name no model and list "Features" instead of "flags".
  std::string cpu_flags = cpuinfo_field(cpuinfo, "flags");
  if (cpu_flags == "unknown") cpu_flags = cpuinfo_field(cpuinfo, "Features");
  AddCustomContext("chbench_cpu_flags", cpu_flags);
  // The CPU's own identity ("unknown" where cpuinfo lacks the field): x86
  // vendor, family, model number and stepping; Arm implementer, part, variant
  // and revision. scripts/cpu_identity.py never merges runs whose identities
  // differ. "model\t" is the line of the x86 model number ("model\t\t: 17"),
  // not "model name".
  static constexpr std::pair<const char*, const char*> kIdentity[] = {
      {"chbench_cpu_vendor", "vendor_id"},
      {"chbench_cpu_family", "cpu family"},
      {"chbench_cpu_model_number", "model\t"},
      {"chbench_cpu_stepping", "stepping"},
      {"chbench_cpu_implementer", "CPU implementer"},
      {"chbench_cpu_part", "CPU part"},
      {"chbench_cpu_variant", "CPU variant"},
      {"chbench_cpu_revision", "CPU revision"}};
  for (const auto& [key, field] : kIdentity) AddCustomContext(key, cpuinfo_field(cpuinfo, field));
  // As the kernels library sees them: compiled there, runnable on this CPU
  // (what the targets family forces, one after another), and the one dispatch
  // picks for every other configuration.
  AddCustomContext("chbench_hwy_targets_compiled", simd::target_names(simd::compiled_targets()));
  AddCustomContext("chbench_hwy_targets_supported", simd::target_names(simd::runnable_targets()));
  AddCustomContext("chbench_hwy_target", simd::dispatched_target_name());
  AddCustomContext("chbench_mul64", simd::mul64_path_name(simd::mul64_path()));
  AddCustomContext("chbench_tbb_version", TBB_runtime_version());
  AddCustomContext("chbench_benchmark_version", CHBENCH_BENCHMARK_VERSION);
  const unsigned xxh = XXH_versionNumber();  // major * 10000 + minor * 100 + release
  AddCustomContext("chbench_xxhash_version", std::to_string(xxh / 10000) + "." +
                                                 std::to_string(xxh / 100 % 100) + "." +
                                                 std::to_string(xxh % 100));
  AddCustomContext("chbench_hardware_threads", std::to_string(std::thread::hardware_concurrency()));
  AddCustomContext("chbench_sweep", sweep);
  // What every scheme and kernel is, and every family and the parameters its
  // names carry, for the plot scripts.
  AddCustomContext("chbench_registry", registry_json());
  FamilyContext families;
  families.max_threads = std::max(1u, std::thread::hardware_concurrency());
  families.targets = simd::runnable_targets();
  AddCustomContext("chbench_families", families_json(families));
}

}  // namespace chbench::bench
