// chbench_bench's own command line (CLI11): the options, their help from the
// registry and the families, and the configurations they select.
#pragma once

#include <CLI/CLI.hpp>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sweep.h"

namespace chbench::bench {

struct Options {
  std::string sweep = "quick";
  std::optional<std::string> families, schemes, kernels;
  std::optional<uint32_t> nodes, vnodes;
  std::optional<uint64_t> keys;
  std::optional<unsigned> threads;
  std::optional<unsigned> in_flight, window_bits;
  std::optional<double> removed_fraction;
  std::optional<std::string> removal_order;
  // Custom run: the count parameters the names carry besides V (--table-size,
  // --capacity, ...), at their places in kParams.
  std::array<std::optional<uint32_t>, kParamCount> counts;
  std::string target;
  std::string mul64;  // "native", "split", or "" for the CPU's (simd::Mul64Path)
  unsigned max_threads = 1;
  std::string interleave = "point";  // a comparison group: a family's point, or its family
  std::optional<unsigned> rounds;
  std::optional<double> min_time;
  std::optional<unsigned> visits;
  std::optional<double> revisit_margin;
  std::optional<double> state_margin;
  double noise_margin = 0.15;   // NoiseRule::margin
  std::string canary_baseline;  // "COMPUTE_NS,MEMORY_NS" of an earlier run, "" none
  bool list = false;
  bool allow_emulated = false;
  bool corrupt_one_owner = false;  // test hook, hidden from --help
  bool help_benchmark = false;
  std::string cpuinfo = "/proc/cpuinfo";  // test hook: read this instead
};

// Prints "chbench_bench: error: <message>" on stderr and exits with status 2
// (bad input).
[[noreturn]] void fail(const std::string& message);

// Adds every option to `app`, bound to `o`, with help text from the registry
// (schemes, aliases, kernels, knobs) and the family list.
void add_options(CLI::App& app, Options& o);

// The configurations the options select, family by family: the quick or full
// sweep narrowed by --families, --schemes and --kernels, or one custom
// configuration per selected kernel when any of --nodes, --vnodes, --keys,
// --threads, --in-flight, --cluster-window, --target, --removed-fraction,
// --removal-order or a parameter's option is given (family "custom"). Refuses bad input through
// fail(): unknown names, empty lists, counts of 0, a parameter outside its
// entry's range or for a named kernel whose scheme does not take it (the
// others are left out), a fleet past its scheme's
// limits (SchemeInfo::check), a knob value outside the kernel's range or for
// a kernel without a knob, a removed fraction outside [0, 1), a removal order
// that a scheme named with --schemes or --kernels cannot honour
// (removal_refusal; with no selection, those kernels are left out), a node
// list that alone would not fit in memory.
std::vector<FamilySweep> configs_from(const Options& o);

// --canary-baseline's "COMPUTE_NS,MEMORY_NS": two positive numbers; fail()
// otherwise.
std::pair<double, double> parse_canary_baseline(const std::string& text);

// Refuses (fail()) when `bytes` exceed nine tenths of the memory the machine
// has available: "<what> would need about X GiB but only Y GiB ...".
void check_fits(const std::string& what, uint64_t bytes);

// Google Benchmark takes a count of 0 or a negative time without a word:
// `flag` (e.g. "--benchmark_repetitions=") must hold a number in [lo, hi].
void check_benchmark_number(const std::string& arg, const std::string& flag, double lo, double hi);

// Google Benchmark opens --benchmark_out only after the sweep is set up, and
// exits with status 1 (an ownership mismatch, here) when it cannot: check it
// can be written before anything runs. A file this creates is removed again.
void check_out_file(const std::string& path);

}  // namespace chbench::bench
