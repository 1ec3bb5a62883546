// Interference caught while it happens. Before every configuration the bench
// times a short fixed canary: a compute-bound loop (independent chains of
// multiply-xorshift steps, as many as keep the multiplier busy) and a
// memory-bound one (a dependent chase of random
// reads over a buffer larger than L2, allocated once). Beside it, per
// repetition, the host's steal time (/proc/stat) and, per configuration, the
// 1-minute load average. A configuration is flagged noisy when the compute
// loop strays more than a margin above the run's best canary so far, when the
// memory loop does and the configuration's working set (tables, key hashes,
// owners) outgrows the core's private cache (L2), or when the host stole more of a repetition than
// the margin allows.
//
// Why both loops: a process hammering memory on the other core slows the
// lookups that live in L2/L3 by up to 2x while the bench's own CPU time stays
// at 97% of its wall time (measured with ring/bucketed at 65,500 tokens), so
// time-slicing is not the signal; the memory chase sees the shared cache and
// memory controller, the compute chains see a slower, time-sliced or shared
// core. Why several chains: a single dependent chain waits on each multiply's
// latency and leaves the core's ports idle, so another tenant's thread on
// the same physical core (the vCPU's hyperthread sibling on the host) does
// not slow it; eight chains need the ports' throughput, as the SIMD kernels
// do. Measured on the Zen 5 VM of this project over 40 s with this VM idle:
// one chain strayed more than 15% above its best in 6 of 777 samples, eight
// chains in 329, and in two back-to-back quick sweeps compute-bound
// configurations the one chain never flagged moved by up to 1.7x.
//
// Why the memory loop judges only configurations past L2: on a cloud VM the
// L3 is shared with other tenants, who evict the chase's buffer from it at
// any time (measured on the Zen 5 VM of this project, with this VM idle: the
// 4 MiB chase ran at 14 ns a read back to back and at 37-150 ns after 100 ms
// of compute, DRAM's latency), while a configuration whose tables fit in its
// own core's L2 does not depend on that cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace chbench::bench {

// One canary: the wall-clock nanoseconds of each loop (each the best of a few
// rounds, see Canary).
struct CanarySample {
  double compute_ns = 0;
  double memory_ns = 0;
};

// The element-wise minimum; a 0 (no value) gives way to the other side.
CanarySample best_of(const CanarySample& a, const CanarySample& b) noexcept;

// How far `sample` strays above `best`: the larger of compute_ns ÷
// best.compute_ns and memory_ns ÷ best.memory_ns (a loop whose best is 0 counts
// as 1). Below 1 when the sample is faster than the best.
double canary_ratio(const CanarySample& sample, const CanarySample& best) noexcept;

// When a configuration is noisy.
struct NoiseRule {
  // --noise-margin: a fraction (0.15 = 15%).
  double margin = 0.15;
  // Steal below this never flags: /proc/stat counts in ticks of 10 ms
  // (USER_HZ 100), so one tick in a 70 ms repetition must not.
  double min_steal_ms = 20;
  // The core's private cache (L2), bytes: a configuration whose working set
  // (its tables, key hashes and owners) is at most this big is judged by the
  // compute loop alone. 0: by both always.
  std::size_t private_cache_bytes = 0;

  // Whether the memory loop judges a configuration of `working_set_bytes`.
  bool judges_memory(std::size_t working_set_bytes) const noexcept {
    return working_set_bytes > private_cache_bytes;
  }
  // The ratio that judges a configuration of `working_set_bytes`: canary_ratio,
  // or the compute loop's alone when the memory loop does not judge it.
  double judged_ratio(const CanarySample& sample, const CanarySample& best,
                      std::size_t working_set_bytes) const noexcept;
  // The canary strayed: judged_ratio > 1 + margin (canary_ratio for any
  // configuration past the private cache, the default).
  bool strayed(const CanarySample& sample, const CanarySample& best,
               std::size_t working_set_bytes = SIZE_MAX) const noexcept;
  // The host stole too much of a repetition of `wall_ms`: more than
  // max(min_steal_ms, margin × wall_ms) over all CPUs.
  bool stolen(double steal_ms, double wall_ms) const noexcept;
};

// The run's best canary so far, and the verdict on each new one: the flagging
// logic, apart from any timing.
class CanaryJudge {
 public:
  struct Verdict {
    double ratio = 1;              // canary_ratio(sample, the best before it)
    double compute_ratio = 1;      // the compute loop's alone
    bool strayed = false;          // NoiseRule::strayed past the private cache
    bool compute_strayed = false;  // the compute loop's ratio past the margin
  };
  CanaryJudge(NoiseRule rule, CanarySample best) : rule_(rule), best_(best) {}
  // Judges `sample` against the best so far, then keeps the better of the
  // two, loop by loop, as the best.
  Verdict judge(const CanarySample& sample);
  const CanarySample& best() const noexcept { return best_; }
  const NoiseRule& rule() const noexcept { return rule_; }

 private:
  NoiseRule rule_;
  CanarySample best_;
};

// The memory loop's buffer: 4 × the L2 size, at most half the L3 (so that on
// a quiet machine the chase runs from L2 and L3, and a neighbour that fills
// the shared cache or the memory bus shows), at least 1 MiB; 8 MiB when the
// sizes are unknown (0). Bytes.
std::size_t canary_buffer_bytes(std::size_t l2_bytes, std::size_t l3_bytes) noexcept;

// The two loops. Not thread-safe; one per process is enough.
class Canary {
 public:
  // Each loop's fixed work: multiply-xorshift steps (over kComputeChains
  // independent chains) and dependent reads, and the rounds of each whose
  // best is the sample. About 0.1 ms and 0.5 ms a round on a 2.6 GHz Zen
  // core, 3-4 ms in all with the buffer's warm-up.
  static constexpr uint64_t kComputeSteps = 400'000;
  static constexpr int kComputeChains = 8;
  static constexpr uint64_t kMemorySteps = 40'000;
  static constexpr int kRounds = 3;

  // Allocates and links the buffer (`buffer_bytes` rounded down to 64-byte
  // lines, at least 2): one random cycle through every line (Sattolo's
  // algorithm, fixed seed), so every read depends on the one before and no
  // prefetcher can guess it.
  explicit Canary(std::size_t buffer_bytes);
  ~Canary();
  Canary(const Canary&) = delete;
  Canary& operator=(const Canary&) = delete;

  // Reads the buffer once in order (it comes back into the caches the last
  // configuration evicted it from), then times kRounds rounds of each loop;
  // each loop's sample is its fastest round.
  CanarySample run();
  std::size_t buffer_bytes() const noexcept;

 private:
  struct Line;
  double compute_round();
  double memory_round();
  std::unique_ptr<Line[]> lines_;
  std::size_t count_ = 0;
  uint32_t at_ = 0;                                            // where the chase goes on
  uint64_t state_[kComputeChains] = {1, 2, 3, 4, 5, 6, 7, 8};  // where the chains go on
};

// Steal time of all CPUs since boot in ms: the 8th value of the "cpu" line
// of `stat_file` (normally /proc/stat, in USER_HZ = 100 ticks a second);
// 0 when the file, the line or the column is absent (no hypervisor
// accounting, another OS). Never throws.
double host_steal_ms(const std::string& stat_file = "/proc/stat");

// The 1-minute load average (getloadavg), or -1 when unavailable.
double load_average_1m() noexcept;

// What the bench records with each repetition (timed.cc).
struct NoiseRecord {
  CanarySample canary;        // before the configuration
  double canary_ratio = 1;    // the judged loops' ratio to the run's best before the
                              // configuration: both (canary_ratio), or compute's alone
                              // where the memory loop does not judge (memory_judged)
  bool memory_judged = true;  // the memory loop judged it (working set past the private cache)
  double canary_ms = 0;       // wall time the canary took, warm-up included
  double steal_ms = 0;        // host steal during this repetition's timed loop
  double load_avg_1m = 0;     // at the configuration's canary
  bool noisy = false;         // canary strayed (NoiseRule::strayed), or steal over the bound
};

// The record of a configuration timed in two visits (TimeModel::visits):
// the canary and its ratio of the visit it strayed most in, the steal and
// the canaries' wall time added, the higher load, noisy if either was.
NoiseRecord combined(const NoiseRecord& a, const NoiseRecord& b);

// The run's canary: calibrated once, run before each configuration, the best
// so far kept; per repetition the steal read around the timed loop.
class NoiseMonitor {
 public:
  static constexpr int kCalibrationRounds = 10;

  // `baseline`: the best canary of an earlier run of the same machine (a
  // retry of its noisy configurations): the calibration keeps whichever is
  // faster, loop by loop, so a retry is judged by the first run's standard.
  NoiseMonitor(NoiseRule rule, std::size_t buffer_bytes, std::optional<CanarySample> baseline,
               std::string stat_file = "/proc/stat");

  // The best of kCalibrationRounds canaries (and the baseline), the run's
  // first best. Call before the first configuration.
  void calibrate();
  const CanarySample& calibration() const noexcept { return calibration_; }
  const CanarySample& best() const noexcept { return judge_.best(); }
  const NoiseRule& rule() const noexcept { return judge_.rule(); }
  std::size_t buffer_bytes() const noexcept { return canary_.buffer_bytes(); }

  // Before comparison group `index` (its first configuration's index) is
  // prepared: runs the canary when `index` differs from the last one seen,
  // judges it against the best so far and then keeps the better of the two
  // as the best.
  void before_config(std::size_t index);
  // A later visit of the run's groups (TimeModel::visits) starts: the next
  // before_config runs the canary even for the configuration of the last one.
  void new_visit() noexcept { index_ = SIZE_MAX; }
  // Around a repetition's timed loop; `working_set_bytes`: the configuration's
  // tables, key hashes and owners, which decide whether the memory loop judges it.
  void start_repetition();
  NoiseRecord finish_repetition(double wall_ms, std::size_t working_set_bytes = SIZE_MAX) const;

 private:
  CanaryJudge judge_;
  Canary canary_;
  std::optional<CanarySample> baseline_;
  std::string stat_file_;
  CanarySample calibration_;
  std::size_t index_ = SIZE_MAX;
  NoiseRecord config_;  // the current configuration's canary part
  CanaryJudge::Verdict verdict_;
  double steal_start_ = 0;
};

}  // namespace chbench::bench
