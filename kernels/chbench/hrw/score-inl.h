// Per-target code shared by the SIMD rendezvous kernels (simd_nodes.cc,
// simd_keys.cc): docs/spec.md §7's score from pre-mixed keys and seeds, and the node
// groups. Included from inside those files after <hwy/foreach_target.h>, so it
// is compiled once per Highway target; the toggling guard below is Highway's
// idiom for that.
#if defined(CHBENCH_HRW_SCORE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CHBENCH_HRW_SCORE_INL_H_
#undef CHBENCH_HRW_SCORE_INL_H_
#else
#define CHBENCH_HRW_SCORE_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Number of nodes a grouped loop scores before it compares with the running
// best: their maximum goes through one compare-and-select instead of four.
inline constexpr std::size_t kNodeGroup = 4;
static_assert(kNodeGroup == 4, "HrwAcrossKeysGrouped multiplies by it with ShiftLeft<2>");

// The rendezvous score of docs/spec.md §7 from its pre-mixed input m = x ^ (x >> 33),
// x = h ^ seed: the rest of fmix64, returned through ToOrdered so that a signed
// compare orders the scores as unsigned values.
HWY_INLINE VI64 ScoreFromMixed(V64 m) {
  V64 k = MulConst64(m, 0xff51afd7ed558ccdULL);
  k = hn::Xor(k, hn::ShiftRight<33>(k));
  k = MulConst64(k, 0xc4ceb9fe1a85ec53ULL);
  return ToOrdered(hn::Xor(k, hn::ShiftRight<33>(k)));
}

// The highest of four nodes' scores (pre-mixed seeds s0..s3) for the keys in
// `key`, each lane on its own.
HWY_INLINE VI64 TopScoreOfFour(V64 key, V64 s0, V64 s1, V64 s2, V64 s3) {
  return hn::Max(hn::Max(ScoreFromMixed(hn::Xor(key, s0)), ScoreFromMixed(hn::Xor(key, s1))),
                 hn::Max(ScoreFromMixed(hn::Xor(key, s2)), ScoreFromMixed(hn::Xor(key, s3))));
}

// x ^ (x >> 33): the first step of fmix64, applied to keys and seeds apart.
HWY_INLINE V64 XorShift33(V64 x) { return hn::Xor(x, hn::ShiftRight<33>(x)); }

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // CHBENCH_HRW_SCORE_INL_H_
