// Per-target building blocks shared by the SIMD kernels (the Highway
// translation units chbench/<scheme>/*.cc; a scheme's own blocks are in its
// folder, e.g. hrw/score-inl.h). Included
// from inside each kernel file after <hwy/foreach_target.h>, so it is compiled
// once per Highway target; the toggling guard below is Highway's idiom for that.
//
// Lanes are 64 bits throughout (uint64_t keys, int64_t indices, doubles), so
// one descriptor's lane count serves every vector of a kernel.
#if defined(CHBENCH_SIMD_OPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CHBENCH_SIMD_OPS_INL_H_
#undef CHBENCH_SIMD_OPS_INL_H_
#else
#define CHBENCH_SIMD_OPS_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

// AVX-512 CD (per-lane leading-zero counts) joins Highway's AVX3 set for a
// kernel file that defines CHBENCH_WANT_AVX512CD before its includes. Every
// CPU with AVX-512 F, VL, DQ and BW has CD (Skylake-SP on, Zen 4 on), and at
// start-up AVX3 leaves the dispatch on one that reports it missing (below);
// Highway 1.0.3 leaves CD out of its AVX3 target string. Only the kernels
// that gain ask (flip/simd, power/simd, jumpback/simd for SplitMix64):
// binomial/simd and jumpback_xorshift/simd, faster with it in cache, measured
// 8 to 15 % slower at 10^7 keys streamed from DRAM (Zen 5, AVX3).
#undef CHBENCH_LZCNT
#if HWY_ARCH_X86 && HWY_TARGET == HWY_AVX3 && defined(CHBENCH_WANT_AVX512CD)
#undef HWY_TARGET_STR
#define HWY_TARGET_STR HWY_TARGET_STR_AVX3 ",avx512cd"
#define CHBENCH_LZCNT 1
#else
#define CHBENCH_LZCNT 0
#endif

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D64 = hn::ScalableTag<uint64_t>;
using DI64 = hn::RebindToSigned<D64>;
using DF64 = hn::RebindToFloat<D64>;
using V64 = hn::Vec<D64>;
using VI64 = hn::Vec<DI64>;
using VF64 = hn::Vec<DF64>;

// Lanes of the widest vector of any target: stack buffers for padded tails.
inline constexpr std::size_t kMaxLanes64 = HWY_MAX_BYTES / sizeof(uint64_t);

// Whether a branch on "does any of `lanes` lanes need the long path" goes
// either way often enough to mispredict, when each lane needs it with chance
// later / all: a vector with such a lane comes once in ten or more (later /
// all x lanes >= 0.1). Kernels then run the long path's first step, or its
// bookkeeping, for every vector instead of branching (jumpback/lanes-inl.h,
// set_aside-inl.h). later <= all < 2^40.
HWY_INLINE bool OftenInSomeLane(uint64_t later, uint64_t all, std::size_t lanes) {
  return 10 * later * lanes >= all;
}

// Unrolled kernels keep U vectors of state, one per block of keys. SVE's
// vector and mask types (svuint64_t, svbool_t) are sizeless: no array, class
// member or by-value capture may hold one. So on the SVE targets every block
// is one vector (Unroll(n) is 1) and CHBENCH_VECTORS(V, name, U) declares a
// single vector; elsewhere an array of U. Either way `name(u)` is the u-th
// vector, an lvalue, and the kernel's code is the same.
#undef CHBENCH_SIZELESS_VECTORS
#if HWY_TARGET == HWY_SVE || HWY_TARGET == HWY_SVE2 || HWY_TARGET == HWY_SVE_256 || \
    HWY_TARGET == HWY_SVE2_128
#define CHBENCH_SIZELESS_VECTORS 1
#else
#define CHBENCH_SIZELESS_VECTORS 0
#endif

// Blocks of n vectors where vectors have a size, of 1 on SVE.
constexpr std::size_t Unroll(std::size_t n) { return CHBENCH_SIZELESS_VECTORS ? 1 : n; }

#ifndef CHBENCH_VECTORS
#define CHBENCH_VECTORS(V, name, U)               \
  CHBENCH_VECTORS_STORAGE(V, name##_storage_, U); \
  auto name = [&](std::size_t u) -> V& { return CHBENCH_VECTORS_AT(name##_storage_, u); }
#endif
#undef CHBENCH_VECTORS_STORAGE
#undef CHBENCH_VECTORS_AT
#if CHBENCH_SIZELESS_VECTORS
#define CHBENCH_VECTORS_STORAGE(V, storage, U)           \
  static_assert((U) == 1, "SVE blocks hold one vector"); \
  V storage
#define CHBENCH_VECTORS_AT(storage, u) ((void)(u), storage)
#else
#define CHBENCH_VECTORS_STORAGE(V, storage, U) V storage[U]
#define CHBENCH_VECTORS_AT(storage, u) storage[u]
#endif

// a * c mod 2^64 in every lane. AVX-512 (AVX3) multiplies 64-bit lanes in one
// instruction and the SCALAR target is plain C++; the others build the product
// from 32 x 32 -> 64 bit products of the halves (MulEven):
// lo(a)lo(c) + ((hi(a)lo(c) + lo(a)hi(c)) << 32), the high product drops out.
HWY_INLINE V64 MulConst64(V64 a, uint64_t c) {
  const D64 d;
#if HWY_TARGET == HWY_SCALAR || (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3)
  return hn::Mul(a, hn::Set(d, c));
#else
  const hn::Repartition<uint32_t, D64> d32;
  const auto c_lo = hn::BitCast(d32, hn::Set(d, c & 0xffffffffu));
  const auto c_hi = hn::BitCast(d32, hn::Set(d, c >> 32));
  const V64 lolo = hn::MulEven(hn::BitCast(d32, a), c_lo);
  const V64 cross = hn::Add(hn::MulEven(hn::BitCast(d32, hn::ShiftRight<32>(a)), c_lo),
                            hn::MulEven(hn::BitCast(d32, a), c_hi));
  return hn::Add(lolo, hn::ShiftLeft<32>(cross));
#endif
}

#if CHBENCH_LZCNT
// The leading zero bits of each lane (64 for 0): one instruction.
HWY_INLINE V64 LeadingZeros(V64 x) { return V64{_mm512_lzcnt_epi64(x.raw)}; }
template <class V32>
HWY_INLINE V32 LeadingZeros32(V32 x) {
  return V32{_mm512_lzcnt_epi32(x.raw)};
}
#endif

// fmix64 (hash.h, the MurmurHash3 finalizer) in every lane.
HWY_INLINE V64 Fmix64(V64 k) {
  k = hn::Xor(k, hn::ShiftRight<33>(k));
  k = MulConst64(k, 0xff51afd7ed558ccdULL);
  k = hn::Xor(k, hn::ShiftRight<33>(k));
  k = MulConst64(k, 0xc4ceb9fe1a85ec53ULL);
  return hn::Xor(k, hn::ShiftRight<33>(k));
}

// a * b in every lane for a, b < 2^32 (the full product fits 64 bits).
HWY_INLINE V64 Mul32x32(V64 a, V64 b) {
#if HWY_TARGET == HWY_SCALAR
  return hn::Mul(a, b);
#else
  const hn::Repartition<uint32_t, D64> d32;
  return hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, b));
#endif
}

// Order-preserving map of uint64_t onto int64_t (flip the top bit), so that the
// signed compare, native on every x86 target from SSE4 on, orders the lanes as
// unsigned values. docs/spec.md's ring (§6) and scores (§7) compare unsigned.
template <class V>
HWY_INLINE auto ToOrdered(V v) {
  const hn::DFromV<V> d;
  return hn::BitCast(hn::RebindToSigned<decltype(d)>(), hn::Xor(v, hn::Set(d, uint64_t{1} << 63)));
}

// first, first + 1, ... in the lanes of d. Highway 1.0's Iota(d, first) fills
// the lanes through a stack array read back as one vector, a stall at every
// call where `first` is not a constant; Iota(d, 0) is one.
template <class D>
HWY_INLINE hn::Vec<D> IotaFrom(D d, hn::TFromD<D> first) {
  return hn::Add(hn::Iota(d, 0), hn::Set(d, first));
}

// Stores the low 32 bits of each 64-bit lane to out[0 .. Lanes).
template <class V>
HWY_INLINE void StoreLow32(V v, uint32_t* HWY_RESTRICT out) {
  const hn::Rebind<uint32_t, hn::DFromV<V>> d32;
  hn::StoreU(hn::TruncateTo(d32, hn::BitCast(hn::RebindToUnsigned<hn::DFromV<V>>(), v)), d32, out);
}

// The keys a span holds, for the kernels that keep a walk's position in a
// span in 32 bits beside its owner (anchor, jumpback_anchor, memento).
inline constexpr std::size_t kSpanKeys = std::size_t{1} << 31;

// span(first, count) for consecutive spans of at most kSpanKeys keys that
// cover [0, count), in order.
template <class Span>
HWY_INLINE void ForEachSpan(std::size_t count, const Span& span) {
  for (std::size_t first = 0; first < count; first += kSpanKeys)
    span(first, count - first < kSpanKeys ? count - first : kSpanKeys);
}

// out[p] = o for each finished walk o << 32 | p of done[0, count) (p a
// position in out's span).
HWY_INLINE void StoreFinished(const uint64_t* HWY_RESTRICT done, std::size_t count,
                              uint32_t* HWY_RESTRICT out) {
  for (std::size_t j = 0; j < count; ++j)
    out[static_cast<uint32_t>(done[j])] = static_cast<uint32_t>(done[j] >> 32);
}

// Runs `block(keys, out)`, which reads and writes exactly one vector's worth
// of entries (at most kMaxLanes64), on the last `rest` (fewer) keys through zero-padded copies on
// the stack, so that the caller's spans are neither over-read nor over-written.
template <class Block>
HWY_INLINE void PaddedTail(const uint64_t* HWY_RESTRICT keys, std::size_t rest,
                           uint32_t* HWY_RESTRICT out, const Block& block) {
  HWY_ALIGN uint64_t in_pad[kMaxLanes64] = {};
  HWY_ALIGN uint32_t out_pad[kMaxLanes64] = {};
  for (std::size_t i = 0; i < rest; ++i) in_pad[i] = keys[i];
  block(in_pad, out_pad);
  for (std::size_t i = 0; i < rest; ++i) out[i] = out_pad[i];
}

// The common batch loop over vectors of descriptor d (64-bit lanes): blocks of
// kMaxUnroll vectors (1 on SVE, see Unroll) while they fit, then single
// vectors, then one padded partial vector.
// `block.template operator()<U>(keys, out)` handles U * Lanes(d) keys.
template <std::size_t kMaxUnroll, class D, class Block>
HWY_INLINE void ForEachBlock(D d, const uint64_t* HWY_RESTRICT keys, std::size_t count,
                             uint32_t* HWY_RESTRICT out, const Block& block) {
  constexpr std::size_t kUnroll = Unroll(kMaxUnroll);
  const std::size_t lanes = hn::Lanes(d);
  std::size_t i = 0;
  if constexpr (kUnroll > 1) {
    for (; count - i >= kUnroll * lanes; i += kUnroll * lanes)
      block.template operator()<kUnroll>(keys + i, out + i);
  }
  for (; count - i >= lanes; i += lanes) block.template operator()<1>(keys + i, out + i);
  if (i < count)
    PaddedTail(keys + i, count - i, out + i,
               [&](const uint64_t* k, uint32_t* o) { block.template operator()<1>(k, o); });
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // CHBENCH_SIMD_OPS_INL_H_

// Once per translation unit that asks for AVX-512 CD, outside the
// per-target code: the dispatch's guard for it.
#if HWY_ONCE && defined(CHBENCH_WANT_AVX512CD) && !defined(CHBENCH_SIMD_OPS_ONCE_)
#define CHBENCH_SIMD_OPS_ONCE_
namespace chbench::simd {

// At start-up, before any kernel dispatches: AVX3 leaves the dispatch on a
// CPU (or a hypervisor's view of one) that reports AVX-512 without CD, so
// no kernel runs an instruction the CPU lacks. True once done.
inline const bool kAvx512CdChecked = [] {
#if HWY_ARCH_X86 && (HWY_TARGETS & HWY_AVX3)
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512cd")) hwy::DisableTargets(HWY_AVX3 | HWY_AVX3_DL);
#endif
  return true;
}();

}  // namespace chbench::simd
#endif
