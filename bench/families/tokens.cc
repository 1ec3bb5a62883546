// Family tokens: every ring kernel against total tokens N x V, beside the
// stream floor (memory alone) and the random-read floor (one line a
// key read at random from a table of the ring's size), one thread.
#include "family.h"

namespace chbench::bench {

namespace {

// V = 100 virtual nodes throughout, except the smallest rings; token counts
// step by ~3x and avoid 2^k.
constexpr Ring kFull[] = {{10, 1},     {30, 1},      {10, 10},     {30, 10},      {10, 100},
                          {30, 100},   {100, 100},   {300, 100},   {655, 100},    {1000, 100},
                          {3000, 100}, {10000, 100}, {30000, 100}, {100000, 100}, {160000, 100}};

// Quick: every other ring of the full set, keeping ~64k, 1M and 16M tokens
// (the speed goals' rings) first.
struct Ranked {
  Ring ring;
  int rank;
};
constexpr Ranked kQuick[] = {
    {{10, 1}, 3},     {{10, 10}, 9},     {{10, 100}, 5},    {{100, 100}, 4},    {{655, 100}, 0},
    {{3000, 100}, 6}, {{10000, 100}, 2}, {{30000, 100}, 8}, {{100000, 100}, 7}, {{160000, 100}, 1}};

Point ring_point(Ring r, uint64_t keys, int rank) {
  Point p;
  for (const KernelInfo* k : kernels_of(Scheme::kRing))
    p.configs.push_back(make_config("tokens", k, r.n, r.v, keys));
  for (const KernelInfo* floor : {&stream_baseline(), &random_read_floor()})
    p.configs.push_back(make_config("tokens", floor, r.n, r.v, keys));
  p.quick = rank;
  return p;
}

}  // namespace

std::vector<Point> tokens_points(const FamilyContext& context) {
  std::vector<Point> out;
  if (context.full) {
    for (Ring r : kFull) out.push_back(ring_point(r, 1'000'000, kFullOnly));
  } else {
    for (auto [r, rank] : kQuick) out.push_back(ring_point(r, kQuickKeys, rank));
  }
  return out;
}

}  // namespace chbench::bench
