// Google Benchmark's side of a configuration: it reports the rounds the
// configuration's comparison group was timed in (rounds.h), one repetition
// per round, and its counters.
#pragma once

#include <benchmark/benchmark.h>

#include "config.h"
#include "rounds.h"

namespace chbench::bench {

// Google Benchmark's function for a configuration, registered with one
// iteration and manual time: each call reports the next of its rounds (the
// repetitions run in round order), its iteration time the seconds one batch
// of K keys took in that round; SkipWithError when the configuration was not
// timed. Counters: keys, nodes, tokens, threads_requested, threads_ran,
// ns_per_key and keys_per_second (the round's), memory_bytes,
// bytes_per_token, build_ms, build_shared_ms, in_flight, window_bits, the
// `field` of each parameter whose kParams entry has a counter, where the
// configuration names it (Config::named_count: vnodes always, table_size
// where the configuration sets Maglev's M); for bounded
// loads balance_factor and capacity (of one batch); with removals
// removed_pct, survivors (nodes in service), remove_us and readd_us; for
// SIMD kernels the Highway target that ran (label, hwy_target,
// hwy_target_forced); the rounds' statistics, the same in every round:
// rounds, group (its index in the results' chbench_groups), batches (of a
// slice), ns_per_key_lo and ns_per_key_hi (the 95 % interval of the median),
// and with a reference in the group (reference_of) ratio, ratio_lo and
// ratio_hi; the group's noise record (canary.h): canary_compute_ns,
// canary_memory_ns, canary_ratio, canary_memory_judged, canary_ms, steal_ms,
// load_avg_1m, noisy (0 or 1); and with Config::thread_cpu each arena slot's
// CPU time a timed batch, thread_cpu_ms_<slot> (slot 0 is the calling
// thread): its CPU time over every visit's rounds (their warm-ups included)
// ÷ the batches they timed, to set beside the round's time of a batch.
void report_round(benchmark::State& state, const Config& c, const MemberRounds& r, unsigned round);

}  // namespace chbench::bench
