#include "context.h"

#include <benchmark/benchmark.h>
#include <oneapi/tbb/version.h>
#include <xxhash.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>

#include "chbench/simd.h"

namespace chbench::bench {

namespace {

std::string cpuinfo_field(const std::string& field) {
  std::ifstream in("/proc/cpuinfo");
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

}  // namespace

void add_run_context(const std::string& sweep) {
  using benchmark::AddCustomContext;
  // The commit is read when the bench runs, so a rebuilt binary never reports a
  // stale one; "-dirty" marks uncommitted changes in the source tree.
  std::string commit =
      first_line_of("git -C '" CHBENCH_SOURCE_DIR "' rev-parse --short=12 HEAD 2>/dev/null");
  if (commit.empty())
    commit = "unknown";
  else if (!first_line_of("git -C '" CHBENCH_SOURCE_DIR
                          "' status --porcelain --untracked-files=no 2>/dev/null")
                .empty())
    commit += "-dirty";
  AddCustomContext("chbench_commit", commit);
  AddCustomContext("chbench_build_type", CHBENCH_BUILD_TYPE);
  AddCustomContext("chbench_compiler", CHBENCH_COMPILER);
  std::string flags = CHBENCH_CXX_FLAGS;
  flags.erase(0, flags.find_first_not_of(' '));
  AddCustomContext("chbench_cxx_flags", flags);
  AddCustomContext("chbench_cpu_model", cpuinfo_field("model name"));
  AddCustomContext("chbench_cpu_flags", cpuinfo_field("flags"));
  // As the kernels library sees them: compiled there, runnable on this CPU
  // (what the targets family forces, one after another), and the one dispatch
  // picks for every other configuration.
  int64_t compiled = 0, runnable = 0;
  for (int64_t t : simd::compiled_targets()) compiled |= t;
  for (int64_t t : simd::runnable_targets()) runnable |= t;
  AddCustomContext("chbench_hwy_targets_compiled", simd::target_names(compiled));
  AddCustomContext("chbench_hwy_targets_supported", simd::target_names(runnable));
  AddCustomContext("chbench_hwy_target", simd::dispatched_target_name());
  AddCustomContext("chbench_tbb_version", TBB_runtime_version());
  AddCustomContext("chbench_benchmark_version", CHBENCH_BENCHMARK_VERSION);
  const unsigned xxh = XXH_versionNumber();  // major * 10000 + minor * 100 + release
  AddCustomContext("chbench_xxhash_version", std::to_string(xxh / 10000) + "." +
                                                 std::to_string(xxh / 100 % 100) + "." +
                                                 std::to_string(xxh % 100));
  AddCustomContext("chbench_hardware_threads", std::to_string(std::thread::hardware_concurrency()));
  AddCustomContext("chbench_sweep", sweep);
}

}  // namespace chbench::bench
