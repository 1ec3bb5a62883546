#include "canary.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <vector>

namespace chbench::bench {

namespace {

// Keeps `value` alive without any instruction (GCC and Clang).
template <class T>
inline void keep(T const& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

double ns_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

constexpr std::size_t kLineBytes = 64;

}  // namespace

// ---- the rule -------------------------------------------------------------------------

CanarySample best_of(const CanarySample& a, const CanarySample& b) noexcept {
  auto min = [](double x, double y) { return x <= 0 ? y : y <= 0 ? x : std::min(x, y); };
  return {min(a.compute_ns, b.compute_ns), min(a.memory_ns, b.memory_ns)};
}

double canary_ratio(const CanarySample& sample, const CanarySample& best) noexcept {
  auto ratio = [](double x, double base) { return base > 0 && x > 0 ? x / base : 1.0; };
  return std::max(ratio(sample.compute_ns, best.compute_ns),
                  ratio(sample.memory_ns, best.memory_ns));
}

double NoiseRule::judged_ratio(const CanarySample& sample, const CanarySample& best,
                               std::size_t working_set_bytes) const noexcept {
  if (judges_memory(working_set_bytes)) return canary_ratio(sample, best);
  return canary_ratio({sample.compute_ns, 0}, {best.compute_ns, 0});
}

bool NoiseRule::strayed(const CanarySample& sample, const CanarySample& best,
                        std::size_t working_set_bytes) const noexcept {
  return judged_ratio(sample, best, working_set_bytes) > 1 + margin;
}

bool NoiseRule::stolen(double steal_ms, double wall_ms) const noexcept {
  return steal_ms > std::max(min_steal_ms, margin * wall_ms);
}

CanaryJudge::Verdict CanaryJudge::judge(const CanarySample& sample) {
  const Verdict v{canary_ratio(sample, best_), rule_.judged_ratio(sample, best_, 0),
                  rule_.strayed(sample, best_), rule_.strayed(sample, best_, 0)};
  best_ = best_of(best_, sample);
  return v;
}

std::size_t canary_buffer_bytes(std::size_t l2_bytes, std::size_t l3_bytes) noexcept {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  if (l2_bytes == 0) return 8 * kMiB;
  std::size_t bytes = 4 * l2_bytes;
  if (l3_bytes != 0) bytes = std::min(bytes, l3_bytes / 2);
  return std::max(bytes, kMiB);
}

// ---- the loops ------------------------------------------------------------------------

struct alignas(kLineBytes) Canary::Line {
  uint32_t next;
  uint32_t pad[kLineBytes / 4 - 1];
};

Canary::Canary(std::size_t buffer_bytes)
    : count_(std::max<std::size_t>(2, buffer_bytes / kLineBytes)) {
  lines_ = std::make_unique<Line[]>(count_);
  // Sattolo's algorithm: a uniformly random permutation with one cycle.
  std::vector<uint32_t> order(count_);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(0x63616e617279ULL);  // "canary"
  for (std::size_t i = count_ - 1; i > 0; --i) {
    const std::size_t j = std::uniform_int_distribution<std::size_t>(0, i - 1)(rng);
    std::swap(order[i], order[j]);
  }
  for (std::size_t i = 0; i < count_; ++i) lines_[i].next = order[i];
}

Canary::~Canary() = default;

std::size_t Canary::buffer_bytes() const noexcept { return count_ * kLineBytes; }

double Canary::compute_round() {
  static_assert(kComputeSteps % kComputeChains == 0);
  const auto start = std::chrono::steady_clock::now();
  uint64_t x[kComputeChains];
  std::copy(std::begin(state_), std::end(state_), x);
  for (uint64_t i = 0; i < kComputeSteps / kComputeChains; ++i) {
    for (int c = 0; c < kComputeChains; ++c) {
      x[c] = x[c] * 0x5851f42d4c957f2dULL + 0x14057b7ef767814fULL;
      x[c] ^= x[c] >> 29;
      keep(x[c]);  // one step at a time: no vectorising, no unrolled closed form
    }
  }
  std::copy(std::begin(x), std::end(x), state_);
  return ns_since(start);
}

double Canary::memory_round() {
  const auto start = std::chrono::steady_clock::now();
  uint32_t at = at_;
  for (uint64_t i = 0; i < kMemorySteps; ++i) at = lines_[at].next;
  keep(at);
  at_ = at;
  return ns_since(start);
}

CanarySample Canary::run() {
  uint64_t sum = 0;
  for (std::size_t i = 0; i < count_; ++i) sum += lines_[i].next;
  keep(sum);
  CanarySample best;
  for (int r = 0; r < kRounds; ++r) best = best_of(best, {compute_round(), memory_round()});
  return best;
}

// ---- the host ---------------------------------------------------------------------------

double host_steal_ms(const std::string& stat_file) {
  std::ifstream in(stat_file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    if (!(fields >> name) || name != "cpu") continue;
    // user nice system idle iowait irq softirq steal ...
    unsigned long long value = 0;
    for (int i = 0; i < 8; ++i)
      if (!(fields >> value)) return 0;
    return static_cast<double>(value) * 10.0;  // USER_HZ = 100 on Linux
  }
  return 0;
}

double load_average_1m() noexcept {
  double load[1];
  return getloadavg(load, 1) == 1 ? load[0] : -1;
}

// ---- the monitor --------------------------------------------------------------------------

NoiseMonitor::NoiseMonitor(NoiseRule rule, std::size_t buffer_bytes,
                           std::optional<CanarySample> baseline, std::string stat_file)
    : judge_(rule, {}),
      canary_(buffer_bytes),
      baseline_(baseline),
      stat_file_(std::move(stat_file)) {}

void NoiseMonitor::calibrate() {
  CanarySample own;
  for (int i = 0; i < kCalibrationRounds; ++i) own = best_of(own, canary_.run());
  calibration_ = own;
  judge_ = CanaryJudge(judge_.rule(), best_of(baseline_.value_or(CanarySample{}), own));
}

void NoiseMonitor::before_config(std::size_t index) {
  if (index == index_) return;
  index_ = index;
  const auto start = std::chrono::steady_clock::now();
  config_ = NoiseRecord{};
  config_.load_avg_1m = load_average_1m();
  config_.canary = canary_.run();
  config_.canary_ms = ns_since(start) * 1e-6;
  verdict_ = judge_.judge(config_.canary);
  config_.canary_ratio = verdict_.ratio;
}

NoiseRecord combined(const NoiseRecord& a, const NoiseRecord& b) {
  NoiseRecord r = a.canary_ratio >= b.canary_ratio ? a : b;
  r.canary_ms = a.canary_ms + b.canary_ms;
  r.steal_ms = a.steal_ms + b.steal_ms;
  r.load_avg_1m = std::max(a.load_avg_1m, b.load_avg_1m);
  r.noisy = a.noisy || b.noisy;
  return r;
}

void NoiseMonitor::start_repetition() { steal_start_ = host_steal_ms(stat_file_); }

NoiseRecord NoiseMonitor::finish_repetition(double wall_ms, std::size_t working_set_bytes) const {
  NoiseRecord r = config_;
  r.steal_ms = std::max(0.0, host_steal_ms(stat_file_) - steal_start_);
  r.memory_judged = judge_.rule().judges_memory(working_set_bytes);
  r.canary_ratio = r.memory_judged ? verdict_.ratio : verdict_.compute_ratio;
  const bool strayed = r.memory_judged ? verdict_.strayed : verdict_.compute_strayed;
  r.noisy = strayed || judge_.rule().stolen(r.steal_ms, wall_ms);
  return r;
}

}  // namespace chbench::bench
