// Family latency: the ring kernels one key at a time, each key waiting for the
// previous owner (abseil's latency benchmarks), beside the stream baseline.
#include "family.h"

namespace chbench::bench {

namespace {

constexpr Ring kFull[] = {{10, 1},     {10, 10},     {10, 100},    {100, 100},    {655, 100},
                          {3000, 100}, {10000, 100}, {30000, 100}, {100000, 100}, {160000, 100}};

struct Ranked {
  Ring ring;
  int rank;
};
// Quick: 6.6 x 10^4 and 10^6 tokens first (inside and past L2); a ring of
// 1.6 x 10^7 tokens costs a miss chain of about 1 us a key for each of the
// eight members, more than the quick budget holds.
constexpr Ranked kQuick[] = {
    {{10, 1}, 2}, {{10, 100}, 3}, {{655, 100}, 0}, {{10000, 100}, 1}, {{160000, 100}, 4}};

Point ring_point(Ring r, uint64_t keys, int rank) {
  Point p;
  for (const KernelInfo* k : kernels_of(Scheme::kRing))
    p.configs.push_back(make_config("latency", k, r.n, r.v, keys, 1, Path::kLatency));
  p.configs.push_back(
      make_config("latency", &stream_baseline(), r.n, r.v, keys, 1, Path::kLatency));
  p.quick = rank;
  return p;
}

}  // namespace

std::vector<Point> latency_points(const FamilyContext& context) {
  std::vector<Point> out;
  if (context.full) {
    for (Ring r : kFull) out.push_back(ring_point(r, 300'000, kFullOnly));
  } else {
    for (auto [r, rank] : kQuick) out.push_back(ring_point(r, kMinPool, rank));
  }
  return out;
}

}  // namespace chbench::bench
