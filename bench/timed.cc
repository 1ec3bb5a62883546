#include "timed.h"

#include <chrono>
#include <optional>

#include "batch.h"
#include "chbench/simd.h"

namespace chbench::bench {

namespace {

// Each iteration looks up the next batch of the pool (pool_windows); returns
// the nanoseconds the iterations took.
template <class Batch>
double timed_loop(benchmark::State& state, const Batch& batch, Prepared& p, uint64_t keys) {
  const uint64_t windows = pool_windows(keys);
  uint64_t w = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    batch(w * keys, (w + 1) * keys);
    benchmark::DoNotOptimize(p.out.data());
    benchmark::ClobberMemory();
    if (++w == windows) w = 0;
  }
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

// The noise record of the repetition (canary.h), and the CPU time each
// thread of the team spent in the timed loop when the configuration asks.
void set_noise_counters(benchmark::State& state, const Config& c, const Prepared& p,
                        const NoiseRecord& r) {
  state.counters["canary_compute_ns"] = r.canary.compute_ns;
  state.counters["canary_memory_ns"] = r.canary.memory_ns;
  state.counters["canary_ratio"] = r.canary_ratio;
  state.counters["canary_memory_judged"] = r.memory_judged ? 1 : 0;
  state.counters["canary_ms"] = r.canary_ms;
  state.counters["steal_ms"] = r.steal_ms;
  state.counters["load_avg_1m"] = r.load_avg_1m;
  state.counters["noisy"] = r.noisy ? 1 : 0;
  if (!c.thread_cpu || c.path != Path::kThroughput) return;
  const auto cpu = p.team->cpu_ns_per_slot();
  for (std::size_t slot = 0; slot < cpu.size(); ++slot)
    if (cpu[slot] != 0)
      state.counters["thread_cpu_ms_" + std::to_string(slot)] =
          static_cast<double>(cpu[slot]) * 1e-6;
}

void set_counters(benchmark::State& state, const Config& c, const Prepared& p, double ns) {
  const double ns_per_key = ns / (static_cast<double>(state.iterations()) * c.keys);
  state.counters["keys"] = static_cast<double>(c.keys);
  state.counters["nodes"] = c.nodes;
  state.counters["vnodes"] = c.vnodes;
  state.counters["tokens"] = static_cast<double>(c.tokens());
  state.counters["threads_requested"] = c.threads;
  state.counters["threads_ran"] = p.threads_ran;
  state.counters["ns_per_key"] = ns_per_key;
  state.counters["keys_per_second"] = 1e9 / ns_per_key;
  state.counters["memory_bytes"] = static_cast<double>(p.memory_bytes);
  if (c.tokens() != 0 && !c.is_stream())
    state.counters["bytes_per_token"] =
        static_cast<double>(p.memory_bytes) / static_cast<double>(c.tokens());
  state.counters["build_ms"] = p.build_ms;
  if (p.build_shared_ms != 0) state.counters["build_shared_ms"] = p.build_shared_ms;
  if (c.in_flight != 0) state.counters["in_flight"] = c.in_flight;
  if (c.window_bits != 0) state.counters["window_bits"] = c.window_bits;
  if (c.scheme_table_size() != 0) state.counters["table_size"] = c.scheme_table_size();
  if (c.removals) {
    state.counters["removed_pct"] = c.removals->fraction * 100;
    state.counters["survivors"] = c.survivors();
    if (p.remove_us >= 0) state.counters["remove_us"] = p.remove_us;
    if (p.readd_us >= 0) state.counters["readd_us"] = p.readd_us;
  }
  if (c.path == Path::kBounded) {  // bounded loads: c and the capacity of one batch
    state.counters["balance_factor"] = c.balance_factor;
    state.counters["capacity"] = static_cast<double>(p.loads->capacity());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * c.keys));
  if (c.kernel && c.kernel->simd) {
    // The Highway target that ran, forced or dispatched: name and HWY_* bit.
    state.SetLabel(simd::dispatched_target_name());
    state.counters["hwy_target"] = static_cast<double>(simd::dispatched_target());
    state.counters["hwy_target_forced"] = c.target != 0;
  }
}

}  // namespace

void time_config(benchmark::State& state, Workbench& bench, NoiseMonitor& noise, const Config& c,
                 std::size_t index) {
  // Process-global, so set here, outside the TBB region that runs the
  // kernel; lifted on return.
  std::optional<simd::ForcedTarget> forced;
  try {
    forced.emplace(c.target);
  } catch (const std::exception& e) {
    const std::string error = c.name() + ": " + e.what();
    bench.fail(index, error);
    state.SkipWithError(error.c_str());
    return;
  }
  // The canary goes first: the configuration's preparation then brings its
  // own tables back into the caches the canary's buffer took.
  noise.before_config(index);
  Prepared& p = bench.prepare(index);
  if (!p.error.empty()) {
    state.SkipWithError(p.error.c_str());
    return;
  }
  const bool team = c.path == Path::kThroughput || c.path == Path::kBounded;
  if (team) p.team->reset_threads_seen();
  noise.start_repetition();
  const double ns =
      with_batch(c.path, p, [&](const auto& batch) { return timed_loop(state, batch, p, c.keys); });
  // The working set: the tables, the key hashes read and the owners written.
  const std::size_t working_set = p.memory_bytes + c.keys * (sizeof(uint64_t) + sizeof(uint32_t));
  const NoiseRecord record = noise.finish_repetition(ns * 1e-6, working_set);
  // Threads that ran chunks during this repetition's timed iterations.
  if (team) p.threads_ran = p.team->threads_seen();
  set_counters(state, c, p, ns);
  set_noise_counters(state, c, p, record);
}

}  // namespace chbench::bench
