// The bench's noise canary (bench/canary.h): the rule that flags a
// configuration noisy from its canary samples and the host's steal time, the
// buffer size, /proc/stat's steal column, and the monitor end to end with a
// stat file the test writes.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "canary.h"

using chbench::bench::canary_buffer_bytes;
using chbench::bench::canary_ratio;
using chbench::bench::CanaryJudge;
using chbench::bench::CanarySample;
using chbench::bench::host_steal_ms;
using chbench::bench::NoiseMonitor;
using chbench::bench::NoiseRule;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// A /proc/stat text whose "cpu" line has `steal` ticks (and `columns` values).
std::string stat_text(unsigned long long steal, int columns = 10) {
  const unsigned long long values[] = {158807, 157856, 51431, 342680, 482, 0, 183, steal, 0, 0};
  std::ostringstream text;
  text << "cpu ";
  for (int i = 0; i < columns; ++i) text << ' ' << values[i];
  text << "\ncpu0 68776 78127 24653 183978 61 0 67 393 0 0\nintr 1 2 3\n";
  return text.str();
}

struct TempFile {
  std::string path;
  explicit TempFile(const std::string& text) {
    char name[] = "/tmp/chbench-canary-XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    path = name;
    write(text);
  }
  ~TempFile() { std::remove(path.c_str()); }
  void write(const std::string& text) const { std::ofstream(path) << text; }
};

}  // namespace

TEST_CASE("canary_ratio is the worse loop's time over its best", "[canary]") {
  const CanarySample best{1000, 2000};
  CHECK(canary_ratio(best, best) == Approx(1.0));
  CHECK(canary_ratio({1200, 2000}, best) == Approx(1.2));
  CHECK(canary_ratio({1000, 3000}, best) == Approx(1.5));
  CHECK(canary_ratio({1100, 3000}, best) == Approx(1.5));
  CHECK(canary_ratio({900, 1800}, best) == Approx(0.9));
  // A loop without a best (0) counts as 1.
  CHECK(canary_ratio({5000, 2000}, {0, 2000}) == Approx(1.0));
  CHECK(canary_ratio({0, 0}, best) == Approx(1.0));
}

TEST_CASE("best_of keeps each loop's minimum, ignoring zeros", "[canary]") {
  const CanarySample a{1000, 3000}, b{2000, 2500};
  const CanarySample best = chbench::bench::best_of(a, b);
  CHECK(best.compute_ns == 1000);
  CHECK(best.memory_ns == 2500);
  const CanarySample from_none = chbench::bench::best_of({}, a);
  CHECK(from_none.compute_ns == 1000);
  CHECK(from_none.memory_ns == 3000);
}

TEST_CASE("NoiseRule flags a canary past the margin and steal past its bound", "[canary]") {
  const NoiseRule rule{0.15, 20};
  const CanarySample best{1000, 2000};
  CHECK_FALSE(rule.strayed({1140, 2000}, best));
  CHECK(rule.strayed({1160, 2000}, best));
  CHECK_FALSE(rule.strayed({1000, 2290}, best));
  CHECK(rule.strayed({1000, 2310}, best));
  CHECK_FALSE(rule.strayed({800, 1500}, best));  // faster is never noise
  // One 10 ms tick in a 70 ms repetition is not enough; two are.
  CHECK_FALSE(rule.stolen(10, 70));
  CHECK(rule.stolen(30, 70));
  // Past the floor, the margin of the repetition's wall time decides.
  CHECK_FALSE(rule.stolen(100, 1000));
  CHECK_FALSE(rule.stolen(150, 1000));
  CHECK(rule.stolen(160, 1000));
  CHECK_FALSE(rule.stolen(0, 0));
  const NoiseRule loose{1.0, 20};
  CHECK_FALSE(loose.strayed({1900, 3900}, best));
  CHECK(loose.strayed({2100, 2000}, best));
}

TEST_CASE("NoiseRule judges by the memory loop only past the private cache", "[canary]") {
  const NoiseRule rule{.margin = 0.15, .private_cache_bytes = 1 * kMiB};
  const CanarySample best{1000, 2000};
  const CanarySample l3_evicted{1050, 6000};  // a neighbour took the shared cache
  const CanarySample slow_core{1300, 2000};   // time-sliced or slowed down
  CHECK_FALSE(rule.judges_memory(1 * kMiB));
  CHECK(rule.judges_memory(1 * kMiB + 1));
  CHECK(rule.judged_ratio(l3_evicted, best, 512 * 1024) == Approx(1.05));
  CHECK(rule.judged_ratio(l3_evicted, best, 4 * kMiB) == Approx(3.0));
  CHECK_FALSE(rule.strayed(l3_evicted, best, 1 * kMiB));
  CHECK(rule.strayed(l3_evicted, best, 1 * kMiB + 1));
  CHECK(rule.strayed(slow_core, best, 0));  // the compute loop judges every configuration
  CHECK(rule.strayed(slow_core, best, 4 * kMiB));
  CHECK(rule.strayed(l3_evicted, best));  // no working set given: both loops judge
  // Without a private cache size (0), the memory loop judges everything but an empty set.
  const NoiseRule unknown{.margin = 0.15};
  CHECK(unknown.strayed(l3_evicted, best, 1));
}

TEST_CASE("CanaryJudge judges against the best so far, then keeps the better", "[canary]") {
  CanaryJudge judge(NoiseRule{0.15, 20}, {1000, 2000});
  auto v = judge.judge({1010, 2050});
  CHECK_FALSE(v.strayed);
  CHECK(v.ratio == Approx(1.025));
  v = judge.judge({1000, 3000});  // a neighbour fills the cache
  CHECK(v.strayed);
  CHECK(v.ratio == Approx(1.5));
  CHECK_FALSE(v.compute_strayed);
  CHECK(v.compute_ratio == Approx(1.0));
  CHECK(judge.best().memory_ns == 2000);  // a noisy sample never raises the best
  v = judge.judge({950, 1600});           // quieter than the calibration
  CHECK_FALSE(v.strayed);
  CHECK(judge.best().compute_ns == 950);
  CHECK(judge.best().memory_ns == 1600);
  // The first sample, fine then, is now past the margin of the new best.
  v = judge.judge({1010, 2050});
  CHECK(v.strayed);
  CHECK(v.ratio == Approx(2050.0 / 1600));
}

TEST_CASE("canary_buffer_bytes is 4 x L2 within half the L3, at least 1 MiB", "[canary]") {
  CHECK(canary_buffer_bytes(1 * kMiB, 32 * kMiB) == 4 * kMiB);     // Zen 4
  CHECK(canary_buffer_bytes(kMiB / 2, 32 * kMiB) == 2 * kMiB);     // Zen 3
  CHECK(canary_buffer_bytes(2 * kMiB, 8 * kMiB) == 4 * kMiB);      // half the L3
  CHECK(canary_buffer_bytes(2 * kMiB, 0) == 8 * kMiB);             // no L3 known
  CHECK(canary_buffer_bytes(128 * 1024, 512 * 1024) == 1 * kMiB);  // the floor
  CHECK(canary_buffer_bytes(0, 0) == 8 * kMiB);
}

TEST_CASE("host_steal_ms reads the steal column of /proc/stat's cpu line", "[canary]") {
  TempFile stat(stat_text(751));
  CHECK(host_steal_ms(stat.path) == Approx(7510.0));
  stat.write(stat_text(751, 7));  // a kernel without the column
  CHECK(host_steal_ms(stat.path) == 0);
  stat.write("intr 1 2 3\n");  // no cpu line
  CHECK(host_steal_ms(stat.path) == 0);
  CHECK(host_steal_ms("/nonexistent/chbench/stat") == 0);
  // The real file, where there is one: a number, never negative.
  CHECK(host_steal_ms() >= 0);
}

TEST_CASE("NoiseMonitor flags a repetition the host stole from", "[canary]") {
  TempFile stat(stat_text(100));
  // A margin of 10 keeps the canary itself from straying (a ratio above 11),
  // so the steal alone decides; the floor of 20 ms still holds.
  NoiseMonitor monitor(NoiseRule{10.0, 20}, 1 * kMiB, std::nullopt, stat.path);
  monitor.calibrate();
  CHECK(monitor.calibration().compute_ns > 0);
  CHECK(monitor.calibration().memory_ns > 0);
  CHECK(monitor.buffer_bytes() == 1 * kMiB);
  monitor.before_config(0);
  monitor.start_repetition();
  stat.write(stat_text(101));  // 10 ms stolen
  auto r = monitor.finish_repetition(1.0);
  CHECK(r.steal_ms == Approx(10.0));
  CHECK_FALSE(r.noisy);
  CHECK(r.canary.compute_ns > 0);
  CHECK(r.canary_ms > 0);
  monitor.start_repetition();
  stat.write(stat_text(106));  // 50 ms more
  r = monitor.finish_repetition(1.0);
  CHECK(r.steal_ms == Approx(50.0));
  CHECK(r.noisy);
}

TEST_CASE("NoiseMonitor judges a working set in L2 by the compute loop", "[canary]") {
  // A baseline whose memory loop no real canary reaches (1 ns for 40,000
  // reads) and a margin of 1000 that no compute loop of a busy machine
  // passes: only the memory loop strays, whatever the machine's load.
  const CanarySample baseline{1e12, 1.0};
  NoiseMonitor monitor(NoiseRule{.margin = 1000, .private_cache_bytes = 1 * kMiB}, 1 * kMiB,
                       baseline, "/nonexistent/chbench/stat");
  monitor.calibrate();
  monitor.before_config(0);
  monitor.start_repetition();
  auto r = monitor.finish_repetition(100.0, 256 * 1024);
  CHECK_FALSE(r.memory_judged);
  CHECK_FALSE(r.noisy);
  CHECK(r.canary_ratio < 1001);  // the compute loop's alone, what judged it
  CHECK(r.canary_ratio > 0);
  r = monitor.finish_repetition(100.0, 8 * kMiB);
  CHECK(r.memory_judged);
  CHECK(r.noisy);
  CHECK(r.canary_ratio > 1001);  // the memory loop's, the slower
}

TEST_CASE("NoiseMonitor keeps a faster baseline from an earlier run", "[canary]") {
  const CanarySample baseline{1.0, 1.0};  // faster than any real canary
  NoiseMonitor monitor(NoiseRule{0.15, 20}, 1 * kMiB, baseline, "/nonexistent/chbench/stat");
  monitor.calibrate();
  CHECK(monitor.best().compute_ns == 1.0);
  CHECK(monitor.best().memory_ns == 1.0);
  CHECK(monitor.calibration().compute_ns > 1.0);
  // Judged by that standard, every canary of this run strays.
  monitor.before_config(0);
  monitor.start_repetition();
  const auto r = monitor.finish_repetition(100.0);
  CHECK(r.noisy);
  CHECK(r.canary_ratio > 1.15);
  CHECK(r.steal_ms == 0);
}

TEST_CASE("a record of two visits keeps the worse canary and adds the steal", "[canary]") {
  chbench::bench::NoiseRecord quiet, strayed;
  quiet.canary = CanarySample{100, 200};
  quiet.canary_ratio = 1.02;
  quiet.canary_ms = 1.5;
  quiet.steal_ms = 10;
  quiet.load_avg_1m = 0.5;
  strayed.canary = CanarySample{130, 210};
  strayed.canary_ratio = 1.30;
  strayed.canary_ms = 2.0;
  strayed.steal_ms = 30;
  strayed.load_avg_1m = 0.25;
  strayed.noisy = true;
  for (const auto& r :
       {chbench::bench::combined(quiet, strayed), chbench::bench::combined(strayed, quiet)}) {
    CHECK(r.canary.compute_ns == 130);
    CHECK(r.canary_ratio == 1.30);
    CHECK(r.canary_ms == 3.5);
    CHECK(r.steal_ms == 40);
    CHECK(r.load_avg_1m == 0.5);
    CHECK(r.noisy);
  }
  CHECK_FALSE(chbench::bench::combined(quiet, quiet).noisy);
}

TEST_CASE("NoiseMonitor runs the canary again for a configuration in a later visit", "[canary]") {
  NoiseMonitor monitor(NoiseRule{0.15, 20}, 1 * kMiB, std::nullopt, "/nonexistent/chbench/stat");
  monitor.calibrate();
  monitor.before_config(0);
  monitor.start_repetition();
  const auto first = monitor.finish_repetition(1.0);
  monitor.before_config(0);  // the same configuration: its canary stands
  monitor.start_repetition();
  CHECK(monitor.finish_repetition(1.0).canary_ms == first.canary_ms);
  monitor.new_visit();
  monitor.before_config(0);  // a later visit: a canary of its own
  monitor.start_repetition();
  CHECK(monitor.finish_repetition(1.0).canary_ms != first.canary_ms);
}
