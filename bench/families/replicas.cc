// Family replicas: each replica kernel (KernelInfo::make_replicas) at R = 1,
// 2, 3 and 5 owners a key: rendezvous at N = 100 and 1,000, the ring's walk at
// 10^5 tokens (N = 1,000, V = 100). One thread, so that the ratios to R = 1
// come from one run (goals: top-3 rendezvous at most 1.5x its top-1 at N =
// 1,000; the ring's R = 3 walk at most 2x its R = 1 at 10^5 tokens).
#include "family.h"

namespace chbench::bench {

namespace {

constexpr uint32_t kReplicas[] = {1, 2, 3, 5};

struct Size {
  Scheme scheme;
  uint32_t n, v;
  uint64_t divisor;  // of the family's K: rendezvous scores every node a key
  int rank;
};
constexpr Size kSizes[] = {
    {Scheme::kRendezvous, 1000, 1, 5, 0},
    {Scheme::kRing, 1000, 100, 1, 1},
    {Scheme::kRendezvous, 100, 1, 1, 2},
};

Point replicas_point(const Size& size, uint64_t keys, const FamilyContext& context) {
  Point p;
  p.quick = quick_rank(context, size.rank);
  for (const KernelInfo* k : replica_kernels_of(size.scheme))
    for (uint32_t r : kReplicas) {
      p.configs.push_back(make_config("replicas", k, size.n, size.v, keys / size.divisor));
      p.configs.back().replicas = r;
    }
  return p;
}

}  // namespace

std::vector<Point> replicas_points(const FamilyContext& context) {
  const uint64_t keys = context.full ? 300'000 : 100'000;
  std::vector<Point> out;
  for (const Size& size : kSizes) out.push_back(replicas_point(size, keys, context));
  return out;
}

}  // namespace chbench::bench
