// Family weighted: the kernels of the weighted schemes that hold no tokens
// (weighted rendezvous; the weighted ring's speed is the ring's at V * sum(w)
// tokens, family tokens) over nodes of the fixed weights 1 + n mod 4
// (weight_pattern), at N = 64 and 1,000: SIMD against scalar in one run.
#include "family.h"

namespace chbench::bench {

std::vector<Point> weighted_points(const FamilyContext& context) {
  // O(N) per key: fewer keys at N = 1,000 keep a pass near 10^7 scores.
  struct At {
    uint32_t n;
    uint64_t quick_keys, full_keys;
    int rank;
  };
  constexpr At kAt[] = {{64, 100'000, 300'000, 0}, {1000, 10'000, 30'000, 1}};
  std::vector<Point> out;
  for (const At& at : kAt) {
    Point p;
    p.quick = quick_rank(context, at.rank);
    for (const SchemeInfo& s : all_scheme_infos()) {
      if (!s.takes(kParamWeights) || s.takes(kParamVnodes)) continue;
      for (const KernelInfo* k : kernels_of(s.id)) {
        Config c = make_config("weighted", k, at.n, 1, context.full ? at.full_keys : at.quick_keys);
        c.weighted = true;
        p.configs.push_back(c);
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace chbench::bench
