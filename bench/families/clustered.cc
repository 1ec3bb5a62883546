// Family clustered: the ring kernels on tokens and keys squeezed into one
// window of 2^36 hash values (one bucket of any bucket index up to 2^28
// buckets): the adversary's, or a bad hash's, ring.
#include "family.h"

namespace chbench::bench {

namespace {

constexpr unsigned kWindowBits = 36;

struct Ranked {
  Ring ring;
  int rank;
};
constexpr Ranked kRings[] = {{{655, 100}, 1}, {{10000, 100}, 2}, {{160000, 100}, 0}};

}  // namespace

std::vector<Point> clustered_points(const FamilyContext& context) {
  const uint64_t keys = context.full ? 1'000'000 : kQuickKeys;
  std::vector<Point> out;
  for (auto [r, rank] : kRings) {
    Point p;
    p.quick = quick_rank(context, rank);
    // The kernels that can be built over a given ring (the clustered one).
    for (const KernelInfo* k : all_kernels()) {
      if (!k->make_over_ring) continue;
      p.configs.push_back(make_config("clustered", k, r.n, r.v, keys));
      p.configs.back().window_bits = kWindowBits;
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace chbench::bench
