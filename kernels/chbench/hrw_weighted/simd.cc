// hrw_weighted/simd: weighted rendezvous with vectors of keys in lanes and a
// loop over the nodes, for every Highway target, and its registry entry.
// Each lane computes neglog.h's cost with the same IEEE operations in the
// same order (docs/schemes/hrw_weighted.md), so every target picks the
// reference's node. Compiled with -ffp-contract=off (kernels/CMakeLists.txt):
// no multiply and add may fuse into an FMA.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/hrw_weighted/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "chbench/hrw/score-inl.h"
#include "chbench/hrw_weighted/neglog.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// neglog.h's unit_from_score and neglog, lane by lane, step by step, from
// rendezvous' score x as ScoreFromMixed gives it (hrw/score-inl.h: x with its
// top bit flipped, o = x ^ 2^63). Since o >> 12 = (x >> 12) ^ 2^51, the bits
// 0x3ff0... | (x >> 12) of 1 + m 2^-52 are (0x3ff0... ^ 2^51) ^ (o >> 12).
HWY_INLINE VF64 NegLogOfScore(VI64 ordered) {
  const D64 d;
  const DF64 df;
  const VF64 one = hn::Set(df, 1.0);
  const V64 one_bits = hn::Set(d, weighted::kOneBits);
  const V64 top = hn::ShiftRight<12>(hn::BitCast(d, ordered));
  const V64 unit_bits = hn::Xor(hn::Set(d, weighted::kOneBits ^ (uint64_t{1} << 51)), top);
  const VF64 u = hn::Add(hn::Sub(hn::BitCast(df, unit_bits), one), hn::Set(df, weighted::kHalfUlp));
  const V64 bits = hn::BitCast(d, u);
  VF64 f = hn::BitCast(df, hn::Or(hn::And(bits, hn::Set(d, weighted::kMantissa)), one_bits));
  const VF64 biased =
      hn::BitCast(df, hn::Or(hn::Set(d, weighted::kTwo52Bits), hn::ShiftRight<52>(bits)));
  VF64 e = hn::Sub(hn::Sub(biased, hn::Set(df, weighted::kTwo52)), hn::Set(df, 1023.0));
  const auto above = hn::Gt(f, hn::Set(df, weighted::kSqrt2));
  f = hn::IfThenElse(above, hn::Mul(f, hn::Set(df, 0.5)), f);
  e = hn::IfThenElse(above, hn::Add(e, one), e);
  const VF64 s = hn::Div(hn::Sub(f, one), hn::Add(f, one));
  const VF64 z = hn::Mul(s, s);
  VF64 p = hn::Set(df, weighted::kAtanhCoefficients[weighted::kTerms - 1]);
  for (std::size_t k = weighted::kTerms - 1; k-- > 0;)
    p = hn::Add(hn::Mul(p, z), hn::Set(df, weighted::kAtanhCoefficients[k]));
  const VF64 t = hn::Mul(s, p);
  return hn::Sub(hn::Zero(df), hn::Add(hn::Mul(e, hn::Set(df, weighted::kLn2)), hn::Add(t, t)));
}

// Across keys, one node at a time: each lane keeps its lowest cost and the
// node holding it (strictly lower replaces, so the lower index keeps a tie).
// `mixed` holds the pre-mixed seeds s ^ (s >> 33) (as RendezvousSimd's).
HWY_NOINLINE void WeightedAcrossKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                                     const uint64_t* HWY_RESTRICT mixed,
                                     const double* HWY_RESTRICT inverse, uint32_t n,
                                     uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const DI64 di;
  const DF64 df;
  const std::size_t lanes = hn::Lanes(d);
  ForEachBlock<4>(d, keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    CHBENCH_VECTORS(V64, key, U);
    CHBENCH_VECTORS(VF64, best, U);
    CHBENCH_VECTORS(VI64, owner, U);
    for (std::size_t u = 0; u < U; ++u) {
      key(u) = XorShift33(hn::LoadU(d, k + u * lanes));
      best(u) = hn::Mul(NegLogOfScore(ScoreFromMixed(hn::Xor(key(u), hn::Set(d, mixed[0])))),
                        hn::Set(df, inverse[0]));
      owner(u) = hn::Zero(di);
    }
    VI64 index = hn::Zero(di);
    const VI64 one = hn::Set(di, 1);
    for (uint32_t node = 1; node < n; ++node) {
      const V64 seed = hn::Set(d, mixed[node]);
      const VF64 inv = hn::Set(df, inverse[node]);
      index = hn::Add(index, one);
      for (std::size_t u = 0; u < U; ++u) {
        const VF64 c = hn::Mul(NegLogOfScore(ScoreFromMixed(hn::Xor(key(u), seed))), inv);
        const auto better = hn::Lt(c, best(u));
        best(u) = hn::IfThenElse(better, c, best(u));
        owner(u) = hn::IfThenElse(hn::RebindMask(di, better), index, owner(u));
      }
    }
    for (std::size_t u = 0; u < U; ++u) StoreLow32(owner(u), o + u * lanes);
  });
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <memory>
#include <span>

#include "chbench/hrw_weighted/hrw_weighted.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {

HWY_EXPORT(WeightedAcrossKeys);

// The best target's WeightedAcrossKeys over the nodes' pre-mixed seeds and
// inverse weights (one each per node, at least one node).
void weighted_across_keys(std::span<const uint64_t> keys, std::span<const uint64_t> mixed,
                          std::span<const double> inverse, std::span<uint32_t> out) {
  glue::check_sizes(keys, out);
  HWY_DYNAMIC_DISPATCH(WeightedAcrossKeys)
  (keys.data(), keys.size(), mixed.data(), inverse.data(), static_cast<uint32_t>(mixed.size()),
   out.data());
}

}  // namespace simd

namespace {

class WeightedSimd final : public OwnerTable {
 public:
  explicit WeightedSimd(const NodeSet& nodes) : nodes_(weighted_nodes(nodes)) {
    // x ^ (x >> 33), fmix64's first step, distributes over the key's xor.
    for (uint64_t& s : nodes_.seeds) s ^= s >> 33;
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    simd::weighted_across_keys(h, nodes_.seeds, nodes_.inverse_weights, out);
  }
  std::size_t memory_bytes() const noexcept override {
    return nodes_.seeds.size() * (sizeof(uint64_t) + sizeof(double));
  }

 private:
  WeightedNodes nodes_;  // seeds pre-mixed
};

}  // namespace

constinit const KernelInfo registry::hrw_weighted_simd{
    .scheme = Scheme::kWeightedRendezvous,
    .name = "simd",
    .summary = "keys in lanes, loop over nodes, fixed-order double logarithm (Highway)",
    .simd = true,
    .rival = &registry::hrw_weighted_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &glue::make_plain<registry::hrw_weighted_simd, WeightedSimd>,
    .table_bytes = &registry::hrw_weighted_reference_bytes,
};

}  // namespace chbench

#endif  // HWY_ONCE
