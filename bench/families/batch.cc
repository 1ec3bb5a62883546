// Family batch: batch size K from 10^3 to 10^7, log-spaced and off the powers
// of two, at N = 1,000 (V = 100 for the ring), one thread.
#include <algorithm>

#include "family.h"

namespace chbench::bench {

namespace {

constexpr uint64_t kFull[] = {1'000,   2'000,   5'000,     10'000,    20'000,    50'000,    100'000,
                              200'000, 500'000, 1'000'000, 2'000'000, 5'000'000, 10'000'000};
struct Ranked {
  uint64_t keys;
  int rank;
};
constexpr Ranked kQuick[] = {{1'000, 1},     {3'000, 6},     {10'000, 4},
                             {30'000, 8},    {100'000, 0},   {300'000, 7},
                             {1'000'000, 3}, {3'000'000, 5}, {10'000'000, 2}};

// Left out: rendezvous and weighted rendezvous score every node for every
// key (minutes at N = 1,000 and K = 10^7), and Maglev, not measured in this
// family so far.
bool left_out(Scheme s) { return scores_every_node(s) || s == Scheme::kMaglev; }

Point batch_point(uint64_t keys, int rank) {
  Point p;
  p.quick = rank;
  for (const SchemeInfo& s : all_scheme_infos()) {
    if (left_out(s.id)) continue;
    for (const KernelInfo* k : kernels_of(s.id))
      p.configs.push_back(make_config("batch", k, 1000, 100, keys));
  }
  return p;
}

}  // namespace

std::vector<Point> batch_points(const FamilyContext& context) {
  std::vector<Point> out;
  if (context.full) {
    for (uint64_t keys : kFull) out.push_back(batch_point(keys, kFullOnly));
  } else {
    for (auto [keys, rank] : kQuick) out.push_back(batch_point(keys, rank));
  }
  return out;
}

}  // namespace chbench::bench
