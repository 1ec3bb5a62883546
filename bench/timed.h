// The one timed loop every configuration runs, and its counters.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>

#include "config.h"
#include "workbench.h"

namespace chbench::bench {

// Google Benchmark's function for configuration `index` of the run: forces
// its Highway target (for the build, the check and the timing alike),
// prepares it on the workbench (SkipWithError when that fails), then times
// batch after batch of the pool, and records the counters: keys, nodes,
// vnodes, tokens, threads_requested, threads_ran, ns_per_key,
// keys_per_second, memory_bytes, bytes_per_token, build_ms, build_shared_ms,
// in_flight, window_bits, and for SIMD kernels the Highway target that ran
// (label, hwy_target, hwy_target_forced).
void time_config(benchmark::State& state, Workbench& bench, const Config& c, std::size_t index);

}  // namespace chbench::bench
