#include "timed.h"

#include "chbench/simd.h"

namespace chbench::bench {

namespace {

void set_noise_counters(benchmark::State& state, const NoiseRecord& n) {
  state.counters["canary_compute_ns"] = n.canary.compute_ns;
  state.counters["canary_memory_ns"] = n.canary.memory_ns;
  state.counters["canary_ratio"] = n.canary_ratio;
  state.counters["canary_memory_judged"] = n.memory_judged ? 1 : 0;
  state.counters["canary_ms"] = n.canary_ms;
  state.counters["steal_ms"] = n.steal_ms;
  state.counters["load_avg_1m"] = n.load_avg_1m;
  state.counters["noisy"] = n.noisy ? 1 : 0;
}

void set_round_counters(benchmark::State& state, const MemberRounds& r) {
  state.counters["rounds"] = static_cast<double>(r.ns_per_key.size());
  state.counters["group"] = static_cast<double>(r.group);
  state.counters["batches"] = static_cast<double>(r.batches);
  state.counters["ns_per_key_kept"] = r.ns_median;
  state.counters["rounds_kept"] = static_cast<double>(r.rounds_kept);
  if (r.ns_interval) {
    state.counters["ns_per_key_lo"] = r.ns_interval->lo;
    state.counters["ns_per_key_hi"] = r.ns_interval->hi;
  }
  if (r.ratio) state.counters["ratio"] = *r.ratio;
  if (r.ratio_interval) {
    state.counters["ratio_lo"] = r.ratio_interval->lo;
    state.counters["ratio_hi"] = r.ratio_interval->hi;
  }
  const double batches_timed = static_cast<double>(r.ns_per_key.size() * r.batches);
  for (std::size_t slot = 0; slot < r.thread_cpu_ns.size() && batches_timed > 0; ++slot)
    if (r.thread_cpu_ns[slot] != 0)
      state.counters["thread_cpu_ms_" + std::to_string(slot)] =
          static_cast<double>(r.thread_cpu_ns[slot]) * 1e-6 / batches_timed;
}

void set_counters(benchmark::State& state, const Config& c, const MemberRounds& r,
                  double ns_per_key) {
  state.counters["keys"] = static_cast<double>(c.keys);
  state.counters["nodes"] = c.nodes;
  state.counters["tokens"] = static_cast<double>(c.tokens());
  state.counters["threads_requested"] = c.threads;
  state.counters["threads_ran"] = r.threads_ran;
  state.counters["ns_per_key"] = ns_per_key;
  state.counters["keys_per_second"] = 1e9 / ns_per_key;
  state.counters["memory_bytes"] = static_cast<double>(r.memory_bytes);
  if (c.tokens() != 0 && !c.is_floor())
    state.counters["bytes_per_token"] =
        static_cast<double>(r.memory_bytes) / static_cast<double>(c.tokens());
  state.counters["build_ms"] = r.build_ms;
  if (r.build_shared_ms != 0) state.counters["build_shared_ms"] = r.build_shared_ms;
  if (c.in_flight != 0) state.counters["in_flight"] = c.in_flight;
  if (c.window_bits != 0) state.counters["window_bits"] = c.window_bits;
  for (const ParamInfo& p : kParams)  // the parameters that name a counter (V, M)
    if (const std::optional<uint32_t> v = c.named_count(p); v && p.counter)
      state.counters[std::string(p.field)] = *v;
  if (c.removals) {
    state.counters["removed_pct"] = c.removals->fraction * 100;
    state.counters["survivors"] = c.survivors();
    if (r.remove_us >= 0) state.counters["remove_us"] = r.remove_us;
    if (r.readd_us >= 0) state.counters["readd_us"] = r.readd_us;
  }
  if (c.path == Path::kBounded) {  // bounded loads: c and the capacity of one batch
    state.counters["balance_factor"] = c.balance_factor;
    state.counters["capacity"] = static_cast<double>(r.capacity);
  }
  if (c.kernel && c.kernel->simd) {
    // The Highway target that ran, forced or dispatched: name and HWY_* bit.
    const int64_t target = c.target != 0 ? c.target : simd::dispatched_target();
    state.SetLabel(simd::target_name(target));
    state.counters["hwy_target"] = static_cast<double>(target);
    state.counters["hwy_target_forced"] = c.target != 0;
  }
}

}  // namespace

void report_round(benchmark::State& state, const Config& c, const MemberRounds& r, unsigned round) {
  if (!r.error.empty() || round >= r.ns_per_key.size()) {
    state.SkipWithError(r.error.empty() ? "not timed" : r.error.c_str());
    return;
  }
  const double ns_per_key = r.ns_per_key[round];
  for (auto _ : state) state.SetIterationTime(ns_per_key * static_cast<double>(c.keys) * 1e-9);
  state.SetItemsProcessed(static_cast<int64_t>(c.keys));
  set_counters(state, c, r, ns_per_key);
  set_round_counters(state, r);
  set_noise_counters(state, r.noise);
}

}  // namespace chbench::bench
