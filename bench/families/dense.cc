// Family dense: the schemes that place keys by the bucket count alone and let
// only the last bucket leave (jump hash and its successors), at N = 2^k - 1,
// 2^k and 2^k + 1 for k = 3 ... 30 and at 2^31 - 1: their cost depends on
// where N sits between powers of two (cheapest just below one, dearest just
// above). Also N = 1,000 and 10^6, where the speed goals are stated. These
// schemes hold no table, so every N costs no memory (Fleet::of_buckets). Each
// point times the compute floor beside them (compute_floor(): one
// multiply-xorshift and a multiply-shift a key, the cheapest hash-then-bucket).
#include <algorithm>
#include <array>

#include "family.h"

namespace chbench::bench {

namespace {

// The quick sweep's k, in the order it keeps them under its budget: spread
// over the range first.
constexpr std::array<uint32_t, 8> kQuickK = {10, 20, 30, 3, 16, 25, 6, 13};
constexpr uint32_t kMaxBuckets = 0x7fffffffu;

bool in_family(const SchemeInfo& s) { return s.buckets_only && s.removal == Removal::kLastOnly; }

Point dense_point(uint32_t n, uint64_t keys, int rank) {
  Point p;
  p.quick = rank;
  for (const SchemeInfo& s : all_scheme_infos()) {
    if (!in_family(s) || n > s.max_nodes) continue;
    for (const KernelInfo* k : kernels_of(s.id))
      p.configs.push_back(make_config("dense", k, n, 1, keys));
  }
  if (!p.configs.empty()) p.configs.push_back(make_config("dense", &compute_floor(), n, 1, keys));
  return p;
}

// The quick rank of 2^k + offset: k's place in kQuickK, three ranks a k;
// kFullOnly for a k the quick sweep does not take.
int rank_of(uint32_t k, int offset, const FamilyContext& context) {
  const auto* it = std::find(kQuickK.begin(), kQuickK.end(), k);
  if (context.full || it == kQuickK.end()) return kFullOnly;
  return 2 + 3 * static_cast<int>(it - kQuickK.begin()) + (offset + 1);
}

}  // namespace

std::vector<Point> dense_points(const FamilyContext& context) {
  const uint64_t keys = context.full ? 300'000 : 100'000;
  std::vector<Point> out;
  out.push_back(dense_point(1000, keys, quick_rank(context, 0)));
  out.push_back(dense_point(1'000'000, keys, quick_rank(context, 1)));
  for (uint32_t k = 3; k <= 30; ++k)
    for (int offset : {-1, 0, 1})
      out.push_back(dense_point((1u << k) + offset, keys, rank_of(k, offset, context)));
  out.push_back(dense_point(kMaxBuckets, keys, quick_rank(context, 2 + 3 * kQuickK.size())));
  std::erase_if(out, [](const Point& p) { return p.configs.empty(); });
  return out;
}

}  // namespace chbench::bench
