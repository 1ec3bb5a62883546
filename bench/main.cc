// chbench_bench: times every kernel of every scheme over a sweep of node, token,
// batch and thread counts, after checking each configuration's owners against
// the scheme's reference. Google Benchmark writes the console and the JSON.
// This file wires the parts: the command line (cli.h), the sweep
// (sweep.h, families/), the plan and its estimate (plan.h), the workbench
// that prepares and checks (workbench.h), the rounds that time each
// comparison group (rounds.h), their report through Google Benchmark
// (timed.h).
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "canary.h"
#include "chbench/memory.h"
#include "chbench/simd.h"
#include "cli.h"
#include "context.h"
#include "plan.h"
#include "profiles.h"
#include "progress.h"
#include "rounds.h"
#include "timed.h"
#include "workbench.h"

namespace chbench::bench {
namespace {

std::string description() {
  std::string schemes;
  for (const SchemeInfo& s : all_scheme_infos())
    schemes += (schemes.empty() ? "" : ", ") + std::string(s.title);
  return "chbench_bench: ns per key of every consistent-hashing kernel (" + schemes +
         "),\nchecked owner for owner against each scheme's reference before it is timed;\n"
         "the kernels compared at one configuration are timed together, interleaved in\n"
         "rounds, with 95 % intervals of their medians and of their ratios.\n"
         "Google Benchmark's own flags (--benchmark_out=FILE, --benchmark_filter=REGEX, ...) "
         "pass through;\n--help-benchmark lists them. Exit status: 0 ok, 1 an ownership "
         "mismatch, 2 bad input,\n3 refused to time an emulated CPU (see --allow-emulated).";
}

// The flags of Google Benchmark's own timing, which the rounds replace
// (rounds.h), and the option that does their work here.
const std::pair<std::string, std::string> kTimingFlags[] = {
    {"--benchmark_repetitions", "--rounds"},
    {"--benchmark_min_time", "--min-time"},
    {"--benchmark_min_warmup_time", "--min-time (every slice is warmed up)"},
    {"--benchmark_enable_random_interleaving", "nothing: each comparison group is interleaved"},
    {"--benchmark_list_tests", "--list (the rounds run before Google Benchmark lists anything)"}};

// Our defaults first, then the user's --benchmark_* flags (later flags win in
// Google Benchmark, so theirs override ours), each checked: Google Benchmark
// answers a bad value of these with its usage and status 0.
std::vector<std::string> benchmark_args(const char* argv0, const std::vector<std::string>& extras) {
  std::vector<std::string> args = {argv0, "--benchmark_display_aggregates_only=true",
                                   "--benchmark_report_aggregates_only=true"};
  const std::vector<std::pair<std::string, std::vector<std::string>>> enums = {
      {"--benchmark_format=", {"console", "json", "csv"}},
      {"--benchmark_out_format=", {"console", "json", "csv"}},
      {"--benchmark_time_unit=", {"ns", "us", "ms", "s"}}};
  for (const auto& extra : extras) {
    for (const auto& [flag, instead] : kTimingFlags)
      if (extra == flag || extra.rfind(flag + "=", 0) == 0)
        fail(flag +
             " does not apply: the bench times comparison groups in rounds "
             "(docs/measurement.md); use " +
             instead);
    for (const auto& [prefix, allowed] : enums)
      if (extra.rfind(prefix, 0) == 0 &&
          std::find(allowed.begin(), allowed.end(), extra.substr(prefix.size())) == allowed.end())
        fail("bad value in '" + extra + "' (see --help-benchmark)");
    if (extra.rfind("--benchmark_out=", 0) == 0) check_out_file(extra.substr(16));
    args.push_back(extra);  // --benchmark_filter too: apply_filter reads it, then drops it
  }
  return args;
}

// The value of the last `--flag=` among the arguments, or "".
std::string last_value(const std::vector<std::string>& args, const std::string& flag) {
  std::string value;
  for (const auto& arg : args)
    if (arg.rfind(flag, 0) == 0) value = arg.substr(flag.size());
  return value;
}

// Google Benchmark's --benchmark_filter (POSIX extended regex, a leading '-'
// negates), applied here to the configurations' names (Config::name, without
// the suffixes Google Benchmark appends to a benchmark's), so that --list,
// the memory check, the progress and the rounds see the configurations that
// will run; Google Benchmark then reports all it is given.
void apply_filter(std::vector<FamilySweep>& sweep, const std::string& filter) {
  if (filter.empty() || filter == "all") return;
  const bool negate = filter.front() == '-';
  try {
    const std::regex re(negate ? filter.substr(1) : filter, std::regex::extended);
    for (auto& f : sweep)
      std::erase_if(f.configs,
                    [&](const Config& c) { return std::regex_search(c.name(), re) == negate; });
  } catch (const std::regex_error&) {
    fail("--benchmark_filter=" + filter + " is not a valid regular expression");
  }
  std::erase_if(sweep, [](const FamilySweep& f) { return f.configs.empty(); });
  if (sweep.empty()) fail("no configuration matches --benchmark_filter=" + filter);
}

// The memory the plan holds at its peak: the caches of earlier
// configurations (plan.h) with the one prepared.
void check_memory(const std::vector<Config>& configs, const Plan& plan) {
  if (configs.empty()) return;
  const std::size_t worst = plan.peak_step();
  check_fits(configs[worst].name(),
             std::max(plan.step(worst).peak_bytes, config_bytes(configs[worst])));
}

// --list: every configuration, its memory and its estimated seconds, each family's count and
// estimated time against its quick budget, the total, the Highway targets.
void print_list(const std::vector<FamilySweep>& sweep, const std::vector<Config>& configs,
                const Plan& plan, const TimeModel& model, bool quick) {
  for (std::size_t j = 0; j < configs.size(); ++j)
    std::printf("%-60s %10.1f MiB %9.2f s\n", configs[j].name().c_str(),
                config_bytes(configs[j]) / 1048576.0,
                plan.step(j).seconds + plan.step(j).later_seconds);
  std::printf("%zu configuration%s\n", configs.size(), configs.size() == 1 ? "" : "s");
  std::size_t i = 0;
  for (const auto& f : sweep) {
    double seconds = 0;
    for (std::size_t j = 0; j < f.configs.size(); ++j, ++i)
      seconds += plan.step(i).seconds + plan.step(i).later_seconds;
    const std::string name(f.family ? f.family->name : "custom");
    std::printf("family %-10s %5zu configuration%s, estimated %7s", name.c_str(), f.configs.size(),
                f.configs.size() == 1 ? "" : "s", clock_string(seconds).c_str());
    if (quick && f.family)
      std::printf(" (quick budget %s for one visit; budget kept %zu of %zu points)",
                  clock_string(f.family->quick_budget_s).c_str(), f.points_kept, f.points_quick);
    std::printf("\n");
  }
  const std::size_t groups = comparison_groups(configs).size();
  const unsigned visits = group_visits(model, model.rounds);
  std::printf(
      "estimated time %s for %zu configuration%s in %zu comparison group%s: %u rounds in %u "
      "visit%s, each member at least %g s a round, and building and checking "
      "(docs/measurement.md)\n",
      clock_string(plan.seconds()).c_str(), configs.size(), configs.size() == 1 ? "" : "s", groups,
      groups == 1 ? "" : "s", model.rounds, visits, visits == 1 ? "" : "s", model.min_time_s);
  std::size_t group_visits_made = 0;
  for (const GroupSpan& g : comparison_groups(configs))
    group_visits_made += plan.step(g.first).visits;
  std::printf(
      "noise canary: about %.1f s of it (%.0f ms before each visit of a comparison group)\n",
      kCanaryEstimateSeconds * static_cast<double>(group_visits_made),
      kCanaryEstimateSeconds * 1e3);
  const std::size_t peak = plan.peak_step();
  // As check_memory counts it: the plan's caches, or the configuration's own
  // bytes (its node names included) where those are more.
  std::printf(
      "memory at the peak about %.1f MiB, at %s (what earlier configurations left "
      "included)\n",
      std::max(plan.step(peak).peak_bytes, config_bytes(configs[peak])) / 1048576.0,
      configs[peak].name().c_str());
  std::printf("Highway targets: %s; 64-bit lane multiplies %s\n", simd::targets_summary().c_str(),
              simd::mul64_path_name(simd::mul64_path()));
}

// Timings under an emulator say nothing about any CPU: refuse them (status
// 3), or mark them when asked to run anyway. Returns the evidence, "" none.
std::string check_emulation(const Options& o) {
  const std::string emulated = emulation_evidence(o.cpuinfo);
  if (!emulated.empty() && !o.allow_emulated) {
    std::fprintf(stderr,
                 "chbench_bench: error: refusing to time an emulated CPU (%s); run the bench "
                 "on the target machine, or pass --allow-emulated to run anyway with the results "
                 "marked as emulated\n",
                 emulated.c_str());
    std::exit(3);
  }
  if (!emulated.empty())
    std::fprintf(stderr,
                 "chbench_bench: WARNING: emulated CPU (%s): the timings mean nothing; the "
                 "results record chbench_emulated\n",
                 emulated.c_str());
  return emulated;
}

// The L2 and L3 data cache sizes Google Benchmark reads from sysfs, else
// the C library's (sysconf, from CPUID on x86), 0 when neither knows. Some
// VMs show no cache in sysfs: on one, every configuration was judged by the
// memory loop as if the private cache were 0 bytes, and all were flagged.
struct CacheSizes {
  std::size_t l2 = 0, l3 = 0;
};
CacheSizes cache_sizes() {
  CacheSizes sizes;
  for (const auto& cache : benchmark::CPUInfo::Get().caches) {
    if (cache.type == "Instruction" || cache.size <= 0) continue;
    if (cache.level == 2) sizes.l2 = std::max<std::size_t>(sizes.l2, cache.size);
    if (cache.level == 3) sizes.l3 = std::max<std::size_t>(sizes.l3, cache.size);
  }
#if defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
  const auto from_libc = [](int name) {
    const long size = sysconf(name);
    return size > 0 ? static_cast<std::size_t>(size) : std::size_t{0};
  };
  if (sizes.l2 == 0) sizes.l2 = from_libc(_SC_LEVEL2_CACHE_SIZE);
  if (sizes.l3 == 0) sizes.l3 = from_libc(_SC_LEVEL3_CACHE_SIZE);
#endif
  return sizes;
}

// The context's "chbench_noise": a JSON string with the rule, the canary's
// size and the calibration (canary.h).
std::string noise_context(const NoiseMonitor& noise, const std::optional<CanarySample>& baseline) {
  auto sample = [](const CanarySample& s) {
    return nlohmann::json{{"compute_ns", s.compute_ns}, {"memory_ns", s.memory_ns}};
  };
  nlohmann::json j = {{"margin", noise.rule().margin},
                      {"min_steal_ms", noise.rule().min_steal_ms},
                      {"private_cache_bytes", noise.rule().private_cache_bytes},
                      {"buffer_bytes", noise.buffer_bytes()},
                      {"compute_steps", Canary::kComputeSteps},
                      {"compute_chains", Canary::kComputeChains},
                      {"memory_steps", Canary::kMemorySteps},
                      {"rounds", Canary::kRounds},
                      {"calibration", sample(noise.calibration())},
                      {"best_at_start", sample(noise.best())},
                      {"baseline", baseline ? sample(*baseline) : nlohmann::json(nullptr)}};
  return j.dump();
}

// Google Benchmark reports what the rounds measured: one benchmark a
// configuration, one repetition a round (timed.h).
void register_rounds(const std::vector<Config>& configs, const std::vector<MemberRounds>& rounds,
                     std::vector<unsigned>& next) {
  next.assign(configs.size(), 0);
  for (std::size_t i = 0; i < configs.size(); ++i)
    benchmark::RegisterBenchmark(configs[i].name().c_str(),
                                 [&configs, &rounds, &next, i](benchmark::State& st) {
                                   report_round(st, configs[i], rounds[i], next[i]++);
                                 })
        ->UseManualTime()
        ->Iterations(1)
        ->Repetitions(static_cast<int>(std::max<std::size_t>(1, rounds[i].ns_per_key.size())))
        ->Unit(benchmark::kMillisecond);
}

int run(const Options& o, const std::vector<Config>& configs, const Plan& plan,
        const TimeModel& model, const std::string& emulated) {
  std::optional<CanarySample> baseline;
  if (!o.canary_baseline.empty()) {
    const auto [compute, memory] = parse_canary_baseline(o.canary_baseline);
    baseline = CanarySample{compute, memory};
  }
  const CacheSizes caches = cache_sizes();
  NoiseMonitor noise(NoiseRule{.margin = o.noise_margin, .private_cache_bytes = caches.l2},
                     canary_buffer_bytes(caches.l2, caches.l3), baseline);
  noise.calibrate();
  const std::size_t groups = comparison_groups(configs).size();
  const unsigned visits = group_visits(model, model.rounds);
  std::fprintf(stderr,
               "chbench_bench: %zu configuration%s, %zu comparison group%s, %u round%s each "
               "(fewer for slow batches) in %u visit%s, about %s\n",
               configs.size(), configs.size() == 1 ? "" : "s", groups, groups == 1 ? "" : "s",
               model.rounds, model.rounds == 1 ? "" : "s", visits, visits == 1 ? "" : "s",
               clock_string(plan.seconds()).c_str());
  Workbench bench(configs, plan, o.corrupt_one_owner);
  Progress progress(plan, configs);
  const std::vector<MemberRounds> rounds =
      time_groups(configs, bench, noise, plan, model, progress);
  std::vector<unsigned> next;
  register_rounds(configs, rounds, next);
  add_run_context(o.sweep, o.cpuinfo, emulated);
  benchmark::AddCustomContext("chbench_noise", noise_context(noise, baseline));
  benchmark::AddCustomContext("chbench_libmemcached_version", libmemcached_version());
  benchmark::AddCustomContext("chbench_repetitions", std::to_string(model.rounds));
  benchmark::AddCustomContext("chbench_timing", timing_json(model));
  benchmark::AddCustomContext("chbench_groups", groups_json(configs, rounds));
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (bench.failures() > 0) {
    std::fprintf(stderr,
                 "chbench_bench: FAILED: %d configuration(s) did not match the reference or "
                 "could not be prepared (see above)\n",
                 bench.failures());
    return 1;
  }
  if (ran == 0) {
    std::fprintf(stderr, "chbench_bench: error: no benchmark matched --benchmark_filter\n");
    return 2;
  }
  return 0;
}

}  // namespace
}  // namespace chbench::bench

int main(int argc, char** argv) {
  using namespace chbench::bench;
  // Large buffers always come from fresh mappings and go back on free (no
  // dynamic mmap threshold), so one configuration's tables (a 16M-token ring
  // is hundreds of MiB) do not shape the memory of the ones timed after it.
  mallopt(M_MMAP_THRESHOLD, 1 << 20);

  Options o;
  CLI::App app{description(), "chbench_bench"};
  add_options(app, o);
  // CLI11 parses ours and leaves the rest to Google Benchmark; anything left
  // after both is an unknown flag.
  app.allow_extras();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "chbench_bench: error: " << e.what() << " (see --help)\n";
    return 2;
  }
  if (o.help_benchmark) {
    char help[] = "--help";
    char* bargv[] = {argv[0], help, nullptr};
    int bargc = 2;
    benchmark::Initialize(&bargc, bargv);  // prints the usage and exits
  }
  const bool full = o.sweep == "full";
  TimeModel model = full ? kFullModel : kQuickModel;
  if (o.rounds) model.rounds = *o.rounds;
  if (o.min_time) model.min_time_s = *o.min_time;
  if (o.visits) model.visits = *o.visits;
  if (o.revisit_margin) model.revisit_margin = *o.revisit_margin;
  if (o.state_margin) model.state_margin = *o.state_margin;
  auto bench_args = benchmark_args(argv[0], app.remaining());
  std::vector<char*> bargv;
  for (auto& a : bench_args) bargv.push_back(a.data());
  bargv.push_back(nullptr);
  int bargc = static_cast<int>(bench_args.size());
  benchmark::Initialize(&bargc, bargv.data());
  if (bargc > 1) fail(std::string("unknown option '") + bargv[1] + "' (see --help)");
  if (!o.canary_baseline.empty()) parse_canary_baseline(o.canary_baseline);
  std::optional<chbench::simd::ForcedMul64Path> mul64;
  if (!o.mul64.empty())
    mul64.emplace(o.mul64 == "native" ? chbench::simd::Mul64Path::kNative
                                      : chbench::simd::Mul64Path::kSplit);

  std::vector<FamilySweep> sweep;
  try {
    sweep = configs_from(o);
  } catch (const std::bad_alloc&) {
    // The checks build fleets (SchemeInfo::check); the memory they are
    // refused for is the one-line message, like check_fits.
    fail("checking the options ran out of memory; lower --nodes, --vnodes or --keys");
  } catch (const std::exception& e) {
    fail(e.what());
  }
  if (sweep.empty()) fail("the selection leaves no configuration to run");
  apply_filter(sweep, last_value(bench_args, "--benchmark_filter="));
  benchmark::SetBenchmarkFilter("all");  // the configurations left are all to report
  std::vector<Config> configs;
  for (const auto& f : sweep) configs.insert(configs.end(), f.configs.begin(), f.configs.end());
  const Plan plan(configs, model);
  check_memory(configs, plan);
  if (o.list) {
    print_list(sweep, configs, plan, model, !full);
    return 0;
  }
  const std::string emulated = check_emulation(o);
  return run(o, configs, plan, model, emulated);
}
