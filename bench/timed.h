// The one timed loop every configuration runs, and its counters.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>

#include "canary.h"
#include "config.h"
#include "workbench.h"

namespace chbench::bench {

// Google Benchmark's function for configuration `index` of the run: forces
// its Highway target (for the build, the check and the timing alike), runs
// the noise canary (once per configuration, before it is prepared), prepares
// it on the workbench (SkipWithError when that fails), then times batch after
// batch of the pool, and records the counters: keys, nodes, vnodes, tokens,
// threads_requested, threads_ran, ns_per_key, keys_per_second, memory_bytes,
// bytes_per_token, build_ms, build_shared_ms, in_flight, window_bits,
// table_size (Maglev's M where the configuration sets one); for bounded loads
// balance_factor and capacity (of one batch); with removals
// removed_pct, survivors (nodes in service), remove_us and readd_us
// (Prepared: the table rebuilt with one more removal, one re-add); for
// SIMD kernels the Highway target that ran (label, hwy_target,
// hwy_target_forced); the noise record (canary.h): canary_compute_ns,
// canary_memory_ns, canary_ratio, canary_ms, steal_ms, load_avg_1m, noisy (0
// or 1); and with Config::thread_cpu each arena slot's CPU time in the timed
// loop, thread_cpu_ms_<slot> (slot 0 is the calling thread).
void time_config(benchmark::State& state, Workbench& bench, NoiseMonitor& noise, const Config& c,
                 std::size_t index);

}  // namespace chbench::bench
