// Family inflight: every kernel with a knob (KernelInfo::knob: the S-tree's
// lockstep group, the bucket index's prefetch distance) at each value of the
// knob's sweep, on a ring in the caches and two far larger.
#include "family.h"

namespace chbench::bench {

namespace {

struct Ranked {
  Ring ring;
  int rank;
};
// The quick sweep keeps the 1M-token ring first: past the caches, where keys
// in flight matter, and quicker to build than 16M.
constexpr Ranked kRings[] = {{{655, 100}, 2}, {{10000, 100}, 0}, {{160000, 100}, 1}};

// The knob's values: its whole sweep, or (quick) every other value and the last.
std::vector<unsigned> knob_values(const Knob& knob, bool full) {
  std::vector<unsigned> out;
  for (std::size_t i = 0; i < knob.sweep.size(); ++i)
    if (full || i % 2 == 0 || i + 1 == knob.sweep.size()) out.push_back(knob.sweep[i]);
  return out;
}

}  // namespace

std::vector<Point> inflight_points(const FamilyContext& context) {
  const uint64_t keys = context.full ? 1'000'000 : 300'000;
  std::vector<Point> out;
  for (auto [r, rank] : kRings) {
    Point p;
    p.quick = quick_rank(context, rank);
    for (const KernelInfo* k : all_kernels()) {
      if (!k->knob || !k->scheme_info().takes(kParamVnodes)) continue;
      for (unsigned value : knob_values(*k->knob, context.full)) {
        p.configs.push_back(make_config("inflight", k, r.n, r.v, keys));
        p.configs.back().in_flight = value;
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace chbench::bench
