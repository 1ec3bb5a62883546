// Jump consistent hash with the keys in lanes (Lamping and Veach,
// arXiv:1406.2294, figure 1), the per-target block shared by jump/simd.cc and
// memento/simd.cc (MementoHash starts every lookup with jump hash). Included
// after <hwy/foreach_target.h> and chbench/simd_ops-inl.h; the including file
// must be compiled with -ffp-contract=off, so that the jump length is the
// paper's IEEE division and multiplication, never a fused multiply-add.
#if defined(CHBENCH_JUMP_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CHBENCH_JUMP_LANES_INL_H_
#undef CHBENCH_JUMP_LANES_INL_H_
#else
#define CHBENCH_JUMP_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// The paper's LCG step: key * 2862933555777941757 + 1 (mod 2^64).
HWY_INLINE V64 JumpLcg(V64 key) {
  return hn::Add(MulConst64(key, 2862933555777941757ULL), hn::Set(D64(), 1));
}

// 2^31 / double((key >> 33) + 1), as the scalar code computes it. (key >> 33)
// < 2^31 goes into the mantissa of 2^52 (exact), and subtracting 2^52 - 1
// leaves (key >> 33) + 1 exactly: no 64-bit integer conversion needed, which
// AVX2 and older lack.
HWY_INLINE VF64 JumpQuotient(V64 key) {
  const D64 d;
  const DF64 df;
  const V64 bits = hn::Or(hn::ShiftRight<33>(key), hn::Set(d, 0x4330000000000000ULL));
  const VF64 divisor = hn::Sub(hn::BitCast(df, bits), hn::Set(df, 4503599627370495.0));
  return hn::Div(hn::Set(df, 2147483648.0), divisor);
}

// Jump hash of U vectors of keys at k into n buckets (1 <= n <= 2^31 - 1);
// calls emit(u, bits) for each, bits = the u-th vector's buckets in the low
// 32 bits of 64-bit lanes (the high bits are those of 2^52: mask or store
// the low halves). Each lane holds a key, its bucket b and its next jump j,
// both as doubles: j < n on every step that continues, so b = trunc(j) and
// b + 1 are exact, and comparing the double j with n decides as the scalar
// code's int64_t j does (truncation never crosses an integer). A lane whose
// j reaches n stops: its b and j stay put (masks) while the others go on.
template <std::size_t U, class Emit>
HWY_INLINE void JumpLanes(const uint64_t* HWY_RESTRICT k, uint32_t n, const Emit& emit) {
  const D64 d;
  const DF64 df;
  const std::size_t lanes = hn::Lanes(d);
  const VF64 limit = hn::Set(df, static_cast<double>(n));
  const VF64 one = hn::Set(df, 1.0);
  CHBENCH_VECTORS(V64, key, U);
  CHBENCH_VECTORS(VF64, b, U);
  CHBENCH_VECTORS(VF64, j, U);
  // The first step always runs (j = 0 < n): b = 0 and j = 1 * quotient.
  for (std::size_t u = 0; u < U; ++u) {
    key(u) = JumpLcg(hn::LoadU(d, k + u * lanes));
    b(u) = hn::Zero(df);
    j(u) = JumpQuotient(key(u));
  }
  for (;;) {
    CHBENCH_VECTORS(hn::Mask<DF64>, going, U);
    auto any = hn::Lt(j(0), limit);
    going(0) = any;
    for (std::size_t u = 1; u < U; ++u) {
      going(u) = hn::Lt(j(u), limit);
      any = hn::Or(any, going(u));
    }
    if (hn::AllFalse(df, any)) break;
    for (std::size_t u = 0; u < U; ++u) {
      b(u) = hn::IfThenElse(going(u), hn::Trunc(j(u)), b(u));
      key(u) = JumpLcg(key(u));
      const VF64 next = hn::Mul(hn::Add(b(u), one), JumpQuotient(key(u)));
      j(u) = hn::IfThenElse(going(u), next, j(u));
    }
  }
  // b < 2^31 is an integer: adding 2^52 puts it in the low mantissa bits.
  const VF64 shift = hn::Set(df, 4503599627370496.0);
  for (std::size_t u = 0; u < U; ++u) emit(u, hn::BitCast(d, hn::Add(b(u), shift)));
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // CHBENCH_JUMP_LANES_INL_H_
