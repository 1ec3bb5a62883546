// Family bounded: consistent hashing with bounded loads (Mirrokni, Thorup and
// Zadimoghaddam, SODA 2018; chbench/ring/bounded_loads.h) on the ring's
// default kernel, ns per request with the load bookkeeping (the walk past
// full nodes, each batch one stream whose loads start at 0), beside the same
// kernel without it, on one thread and on all of them (concurrent placement:
// one relaxed atomic fetch_add per node tried, given back when over).
#include "family.h"

namespace chbench::bench {

namespace {

constexpr uint32_t kNodes = 100, kVnodes = 100;
constexpr uint64_t kKeys = 100'000;
constexpr double kFactors[] = {1.05, 1.25, 2.0};

Point bounded_point(unsigned threads) {
  const KernelInfo* k = &default_kernel(Scheme::kRing);
  Point p;
  p.configs.push_back(make_config("bounded", k, kNodes, kVnodes, kKeys, threads));
  for (const double c : kFactors) {
    Config b = make_config("bounded", k, kNodes, kVnodes, kKeys, threads, Path::kBounded);
    b.balance_factor = c;
    p.configs.push_back(b);
  }
  return p;
}

}  // namespace

std::vector<Point> bounded_points(const FamilyContext& context) {
  std::vector<Point> out;
  out.push_back(bounded_point(1));
  out.back().quick = quick_rank(context, 0);
  if (context.max_threads > 1) {
    out.push_back(bounded_point(context.max_threads));
    out.back().quick = quick_rank(context, 1);
  }
  return out;
}

}  // namespace chbench::bench
