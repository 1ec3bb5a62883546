// Family nodes: every kernel of every scheme against node count N, V = 100 for
// the ring; the schemes that hold nothing per node carry on to a million.
#include "family.h"

namespace chbench::bench {

namespace {

struct Ranked {
  uint32_t n;
  int rank;
};
constexpr uint32_t kFull[] = {2,   3,   5,   7,   10,  20,   30,   50,   70,
                              100, 200, 300, 500, 700, 1000, 2000, 3000, 4096};
constexpr Ranked kQuick[] = {{2, 5},   {5, 12},   {10, 2},  {20, 10},  {50, 8},
                             {100, 0}, {200, 11}, {500, 7}, {1000, 1}, {4096, 4}};
// Past 4,096 nodes: only the schemes without per-node state.
constexpr Ranked kLarge[] = {{10'000, 6}, {100'000, 9}, {1'000'000, 3}};

// A scheme whose reference and kernels keep no bytes per node (jump, mod-N):
// N costs them nothing to build, so the family takes them to a million nodes.
bool stateless(const SchemeInfo& s) {
  const Fleet probe(default_nodes(10, 100));
  if (s.reference_bytes(probe) != 0) return false;
  for (const KernelInfo* k : kernels_of(s.id))
    if (k->table_bytes(probe) != 0) return false;
  return true;
}

Point nodes_point(uint32_t n, uint64_t keys, bool large, int rank) {
  Point p;
  p.quick = rank;
  for (const SchemeInfo& s : all_scheme_infos()) {
    if (large && (!stateless(s) || n > s.max_nodes)) continue;
    for (const KernelInfo* k : kernels_of(s.id))
      p.configs.push_back(make_config("nodes", k, n, 100, keys));
  }
  return p;
}

}  // namespace

std::vector<Point> nodes_points(const FamilyContext& context) {
  std::vector<Point> out;
  const uint64_t keys = context.full ? 300'000 : 100'000;
  if (context.full) {
    for (uint32_t n : kFull) out.push_back(nodes_point(n, keys, false, kFullOnly));
  } else {
    for (auto [n, rank] : kQuick) out.push_back(nodes_point(n, keys, false, rank));
  }
  for (auto [n, rank] : kLarge)
    out.push_back(nodes_point(n, keys, true, quick_rank(context, rank)));
  return out;
}

}  // namespace chbench::bench
