// Family hashed: every kernel from key strings, XXH3 of each key included (the
// whole cost a client pays from key bytes to owner), N = 1,000, V = 100. In
// the quick sweep a scheme that scores every node (rendezvous, weighted
// rendezvous: 1-13 us a key at N = 1,000) gets a fifth of the keys, as in
// family targets; its reference and its check over the pool (plan.h) shrink
// with them.
#include "family.h"

namespace chbench::bench {

std::vector<Point> hashed_points(const FamilyContext& context) {
  const uint64_t keys = context.full ? 1'000'000 : kQuickKeys;
  Point p;
  p.quick = quick_rank(context, 0);
  for (const KernelInfo* k : all_kernels()) {
    const bool fewer = !context.full && scores_every_node(k->scheme);
    p.configs.push_back(
        make_config("hashed", k, 1000, 100, fewer ? keys / 5 : keys, 1, Path::kHashed));
  }
  return {p};
}

}  // namespace chbench::bench
