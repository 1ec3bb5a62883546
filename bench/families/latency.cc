// Family latency: the ring kernels one key at a time, each key waiting for the
// previous owner (abseil's latency benchmarks), beside the stream baseline;
// and every scheme's default kernel so at N = 1,000 (V = 100 for the ring),
// the one-key cost a client pays that looks up one key per request.
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
    {{10, 1}, 3}, {{10, 100}, 4}, {{655, 100}, 0}, {{10000, 100}, 2}, {{160000, 100}, 5}};
// The point of every scheme: its fleet, and its rank in the quick sweep
// (after the ring's first point, before the others).
constexpr Ring kSchemes{1000, 100};
constexpr int kSchemesRank = 1;
// The quick sweep's batch: the keys checked against the reference.
constexpr uint64_t kQuickLatencyKeys = kMinChecked;

Point ring_point(Ring r, uint64_t keys, int rank) {
  Point p;
  for (const KernelInfo* k : kernels_of(Scheme::kRing))
    p.configs.push_back(make_config("latency", k, r.n, r.v, keys, 1, Path::kLatency));
  p.configs.push_back(
      make_config("latency", &stream_baseline(), r.n, r.v, keys, 1, Path::kLatency));
  p.quick = rank;
  return p;
}

// Each scheme's default kernel at kSchemes; a scheme that scores every node
// (rendezvous) gets a twentieth of the keys: at 1,000 scores a key, the
// weighted one costs some 2 us a key.
Point schemes_point(uint64_t keys, int rank) {
  Point p;
  for (const SchemeInfo& s : all_scheme_infos()) {
    const uint64_t k = scores_every_node(s.id) ? keys / 20 : keys;
    p.configs.push_back(make_config("latency", &default_kernel(s.id), kSchemes.n, kSchemes.v, k, 1,
                                    Path::kLatency));
  }
  p.quick = rank;
  return p;
}

}  // namespace

std::vector<Point> latency_points(const FamilyContext& context) {
  std::vector<Point> out;
  if (context.full) {
    for (Ring r : kFull) out.push_back(ring_point(r, 300'000, kFullOnly));
    out.push_back(schemes_point(300'000, kFullOnly));
  } else {
    for (auto [r, rank] : kQuick) out.push_back(ring_point(r, kQuickLatencyKeys, rank));
    out.push_back(schemes_point(kQuickLatencyKeys, kSchemesRank));
  }
  return out;
}

}  // namespace chbench::bench
