// Family targets: each SIMD kernel (KernelInfo::simd) at dispatch and forced
// to every Highway target this CPU runs (SCALAR, one lane, included), after
// the scalar kernels of its scheme it is measured against (its rival and the
// other scalar kernels a client would pick), at the sizes the speed-up
// figures quote. One thread, so that the ratios come from one run on one core.
#include <algorithm>

#include "family.h"

namespace chbench::bench {

namespace {

// The sizes per scheme; a scheme not listed gets one point at kDefaultNodes.
// `divisor` divides the family's K (rendezvous at N = 1,000 scores every node
// for every key).
struct Size {
  Scheme scheme;
  uint32_t n;
  uint64_t divisor;
  int rank;
};
constexpr Size kSizes[] = {
    {Scheme::kRendezvous, 64, 1, 0},
    {Scheme::kRendezvous, 1000, 5, 5},
    {Scheme::kJump, 1000, 1, 2},
    {Scheme::kJump, 1'000'000, 1, 6},
    {Scheme::kRing, 655, 1, 1},
    {Scheme::kModN, 1000, 1, 3},
    // Multi-probe at its default k = 21 (21 probes a key: a fifth of K). A
    // goal reads both N (goals.toml: multiprobe/simd over multiprobe/scalar),
    // so both rank before the schemes not listed (ties keep listing order).
    {Scheme::kMultiprobe, 1000, 5, 4},
    {Scheme::kMultiprobe, 100'000, 5, 4},
};
constexpr uint32_t kDefaultNodes = 1000;
constexpr int kDefaultRank = 4;

// Scalar kernels timed once per point: the rivals of the scheme's SIMD
// kernels, and every other scalar kernel but the slow baselines.
bool timed_as_scalar(const KernelInfo& k) {
  if (k.simd) return false;
  if (!k.baseline) return true;
  for (const KernelInfo* simd : kernels_of(k.scheme))
    if (simd->simd && simd->rival == &k) return true;
  return false;
}

Point targets_point(Scheme s, uint32_t n, uint64_t keys, const FamilyContext& context, int rank) {
  Point p;
  p.quick = quick_rank(context, rank);
  const auto kernels = kernels_of(s);
  for (const KernelInfo* k : kernels)
    if (timed_as_scalar(*k)) p.configs.push_back(make_config("targets", k, n, 100, keys));
  for (const KernelInfo* k : kernels) {
    if (!k->simd) continue;
    p.configs.push_back(make_config("targets", k, n, 100, keys));
    for (int64_t t : context.targets) {
      p.configs.push_back(make_config("targets", k, n, 100, keys));
      p.configs.back().target = t;
    }
  }
  if (std::none_of(p.configs.begin(), p.configs.end(),
                   [](const Config& c) { return c.kernel->simd; }))
    p.configs.clear();  // a scheme without SIMD kernels has nothing to compare here
  return p;
}

}  // namespace

std::vector<Point> targets_points(const FamilyContext& context) {
  const uint64_t keys = context.full ? 300'000 : 100'000;
  std::vector<Point> out;
  for (const Size& size : kSizes)
    out.push_back(targets_point(size.scheme, size.n, keys / size.divisor, context, size.rank));
  int rank = kDefaultRank;
  for (const SchemeInfo& s : all_scheme_infos()) {
    const bool listed = std::any_of(std::begin(kSizes), std::end(kSizes),
                                    [&](const Size& size) { return size.scheme == s.id; });
    if (!listed) out.push_back(targets_point(s.id, kDefaultNodes, keys, context, rank++));
  }
  std::erase_if(out, [](const Point& p) { return p.configs.empty(); });
  return out;
}

}  // namespace chbench::bench
