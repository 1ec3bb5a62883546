// JumpBackHash with the keys in lanes, for both generators (jumpback.h): the
// per-target code of jumpback/simd.cc and jumpback_xorshift/simd.cc, included
// by each after <hwy/foreach_target.h> (Highway's toggling guard below), and
// the first step of jumpback_anchor/simd.cc (JumpBackBuckets, counting the
// draws).
//
// Each group of keys fills one vector of 32-bit lanes, the bucket width: the
// generators run in 64-bit lanes on two vectors of keys (one on SCALAR), and
// ConcatEven / ConcatOdd gather the low and the high 32-bit halves of their
// values, the two halves hash4j reads, into one vector each. Everything after
// that runs on twice the keys per instruction. The first candidate costs a
// handful of instructions; the draws that follow for lanes whose candidate is
// n or more (at most half of them, for N just above a power of two) run for
// the whole group under a mask of the lanes still drawing, until none is.
// Where a lane draws in few groups (N at or just below a power of two), a
// group enters the draws through a branch that predicts well, after as many
// draws made without asking as MinDraws picks. Elsewhere (FixedDraws) every
// group makes a fixed number of draws with no branch at all: none where a
// lane draws in a third of the groups or so (N = 1,000 and 10^6), two just
// above a power of two; its lanes still drawing after them go to a bitmap,
// and those keys (2.3 % at N = 1,000, one in 32 at N = 2^k + 1 after two
// draws) are looked up again afterwards in full groups (JumpBackChunks): no
// group waits in the loop for its last lane, and no branch goes either way
// at random. The first pass prefetches a chunk ahead, as the set-aside
// kernels do (set_aside-inl.h). Measured on a Zen 5 VM (AVX3) over fresh
// keys (a pool of 10^6, K = 10^5), ns a key: at N = 1,000 and 10^6 with no
// draw, 0.31-0.32 and 0.34-0.35 against 0.48-0.50 with one draw before the
// loop's branch (XorshiftL7R9 0.19-0.20 and 0.21-0.22 against 0.29-0.30);
// streamed from DRAM (K = 10^7, N = 10^6), 0.38 against 0.50-0.51, and
// XorshiftL7R9 0.32-0.33 against 0.35 (0.43-0.44 without the prefetch; the
// stream floor 0.28-0.29). At N = 1,025 and 2^20 + 1, 0.85-0.90 (0.77-0.81
// since CollectMarkedKeys reads ahead) against 0.96-1.10 with three draws before the loop's branch
// (0.55-0.57 against 0.65-0.79 for XorshiftL7R9); at 1,331 and 1,536 (one
// draw), 0.68-0.71 and 0.58-0.60 against 0.71-0.74 and 0.65-0.69. Measured
// and lost at N = 1,025: the strays looked up one key at a time
// (jumpback_bucket), 0.98-1.00 with three draws against the loop's
// 0.95-0.96 in that run; one or three fixed draws, 0.96 and 0.90 against
// 0.87 with two; deciding the jump back after the draws rather than at each,
// 0.87-0.88 against 0.88-0.90, but 3 % slower for XorshiftL7R9 there and
// 2-9 % slower with one draw (N = 1,331 and 1,536). Measured and lost
// too: carrying the drawing keys from draw to draw in lists (key, jump back,
// place), each list drawn once in full groups and its keys still drawing
// listed again, so no key is looked up twice: at N = 2^20 + 1, 1.74-1.76 ns
// a key with the lists collected from bitmaps and 1.48-1.81 with AVX-512
// compress, against 0.90-0.92 (0.42-0.43 and 0.76-0.98 against 0.35-0.36 at
// N = 1,000):
// listing half the keys costs more than the two draws it saves.
// Earlier, with the loop alone: the branch before any draw cost 0.70
// and 0.98 at N = 1,000 and 10^6 against 0.51 with one draw first; queueing
// the drawing lanes across groups to draw them in full vectors, 2.2 at
// N = 1,025 against 1.05; two draws a turn of the loop, 0.47 at 1,000 and
// 0.63 at 10^6 against 0.52.
#if defined(CHBENCH_JUMPBACK_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CHBENCH_JUMPBACK_LANES_INL_H_
#undef CHBENCH_JUMPBACK_LANES_INL_H_
#else
#define CHBENCH_JUMPBACK_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "chbench/jumpback/jumpback.h"
#include "chbench/set_aside-inl.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// A group: kGroupVectors vectors of 64-bit keys, one vector of 32-bit lanes.
#if HWY_TARGET == HWY_SCALAR
using DJ32 = hn::Rebind<uint32_t, D64>;
inline constexpr std::size_t kGroupVectors = 1;
#else
using DJ32 = hn::Repartition<uint32_t, D64>;
inline constexpr std::size_t kGroupVectors = 2;
#endif
using VJ32 = hn::Vec<DJ32>;
using MJ32 = hn::Mask<DJ32>;

// a * c mod 2^64 in every lane. One instruction where 64-bit lanes multiply
// (AVX3, SVE, SCALAR). Where 32-bit lanes multiply in one instruction (AVX2,
// SSE4, NEON) the cross products need only their low halves, which one 32-bit
// multiply of a by c with its halves swapped gives: two multiplies instead
// of MulConst64's three. Elsewhere MulConst64. On AVX3 even on Intel, where
// vpmullq is three uops of latency 15 (simd.h: Mul64Path): llvm-mca (LLVM 14,
// -mcpu=sapphirerapids) put this file's first candidates at 22.2 cycles a
// group of 16 keys with vpmullq against 25.9 with three vpmuludq a product,
// and two draws at 67.4 against 80.6: the groups overlap, and port 0, not
// the multiply's latency, bounds them. On the Zen 5 (AVX3) the split cost
// 1.5 to 1.6 times as much.
HWY_INLINE V64 MulBy(V64 a, uint64_t c) {
  const D64 d;
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL || \
    CHBENCH_SIZELESS_VECTORS
  return hn::Mul(a, hn::Set(d, c));
#elif HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4 || HWY_TARGET == HWY_NEON
  const hn::Repartition<uint32_t, D64> d32;
  const V64 low = hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, hn::Set(d, c & 0xffffffffu)));
  // 32-bit lanes lo(a) * hi(c) and hi(a) * lo(c), both mod 2^32; their sum
  // goes to the high half.
  const V64 cross = hn::BitCast(
      d, hn::Mul(hn::BitCast(d32, a), hn::BitCast(d32, hn::Set(d, (c << 32) | (c >> 32)))));
  const V64 high =
      hn::And(hn::Add(cross, hn::ShiftLeft<32>(cross)), hn::Set(d, 0xffffffff00000000ULL));
  return hn::Add(low, high);
#else
  (void)d;
  return MulConst64(a, c);
#endif
}

// hash4j's generators (jumpback.h), lane by lane.
// kLeadingZeros: whether LowMask counts leading zeros where it can. Measured
// on a Zen 5 (AVX3), ns a key with the count and without: jumpback/simd at
// K = 10^5, N = 1,000, 10^6, 1,024 and 1,025 0.29, 0.31, 0.22-0.23 and 0.73
// against 0.32, 0.35, 0.25-0.26 and 0.80; at K = 10^7, N = 10^6, 0.35-0.36
// against 0.39 (the stream floor 0.31-0.32). jumpback_xorshift/simd, faster
// with it in cache, was 8-10 % slower at K = 10^7 and keeps the float.
struct SplitMix64Lanes {
  using Scalar = SplitMix64;
  static constexpr bool kLeadingZeros = true;
  static V64 First(V64 h) { return hn::Add(h, hn::Set(D64(), SplitMix64::kGamma)); }
  static V64 Next(V64 state) { return First(state); }
  static V64 Value(V64 z) {
    z = MulBy(hn::Xor(z, hn::ShiftRight<30>(z)), SplitMix64::kMul1);
    z = MulBy(hn::Xor(z, hn::ShiftRight<27>(z)), SplitMix64::kMul2);
    return hn::Xor(z, hn::ShiftRight<31>(z));
  }
};
struct XorshiftL7R9Lanes {
  using Scalar = XorshiftL7R9;
  static constexpr bool kLeadingZeros = false;
  static V64 First(V64 h) { return h; }
  static V64 Next(V64 state) {
    state = hn::Xor(state, hn::ShiftLeft<7>(state));
    return hn::Xor(state, hn::ShiftRight<9>(state));
  }
  static V64 Value(V64 state) { return state; }
};

// The low (Low) or high (High) 32 bits of the 64-bit lanes of a and b, in
// the group's lane order: a's keys, then b's (b is not read on SCALAR, where
// a group is one key). On AVX2 the order is that of one in-block shuffle,
// keys 0 1 4 5 2 3 6 7, which StoreGroup puts back: one permute per group
// instead of one per half and draw.
HWY_INLINE VJ32 LowHalves(V64 a, V64 b) {
#if HWY_TARGET == HWY_SCALAR
  (void)b;
  return hn::TruncateTo(DJ32(), a);
#elif HWY_TARGET == HWY_AVX2
  return VJ32{_mm256_castps_si256(_mm256_shuffle_ps(
      _mm256_castsi256_ps(a.raw), _mm256_castsi256_ps(b.raw), _MM_SHUFFLE(2, 0, 2, 0)))};
#else
  const DJ32 d;
  return hn::ConcatEven(d, hn::BitCast(d, b), hn::BitCast(d, a));
#endif
}
HWY_INLINE VJ32 HighHalves(V64 a, V64 b) {
#if HWY_TARGET == HWY_SCALAR
  (void)b;
  return hn::TruncateTo(DJ32(), hn::ShiftRight<32>(a));
#elif HWY_TARGET == HWY_AVX2
  return VJ32{_mm256_castps_si256(_mm256_shuffle_ps(
      _mm256_castsi256_ps(a.raw), _mm256_castsi256_ps(b.raw), _MM_SHUFFLE(3, 1, 3, 1)))};
#else
  const DJ32 d;
  return hn::ConcatOdd(d, hn::BitCast(d, b), hn::BitCast(d, a));
#endif
}

// A group's lanes (LowHalves' order) in key order.
HWY_INLINE VJ32 InKeyOrder(VJ32 v) {
#if HWY_TARGET == HWY_AVX2
  return VJ32{_mm256_permute4x64_epi64(v.raw, _MM_SHUFFLE(3, 1, 2, 0))};
#else
  return v;
#endif
}
// Stores a group's buckets in key order.
HWY_INLINE void StoreGroup(VJ32 buckets, uint32_t* HWY_RESTRICT out) {
  hn::StoreU(InKeyOrder(buckets), DJ32(), out);
}

// a < b for lanes below 2^31: the signed compare, native on every x86 target.
HWY_INLINE MJ32 Below(VJ32 a, VJ32 b) {
  const DJ32 d;
  const hn::RebindToSigned<DJ32> di;
  return hn::RebindMask(d, hn::Lt(hn::BitCast(di, a), hn::BitCast(di, b)));
}

// 2^k - 1 for the highest set bit k of x < 2^31, 0 for x = 0: 0x7fffffff >>
// (31 - k), the count 31 - k, or 31 for x = 0, which leaves 0. With AVX-512
// CD (where the kernel file asks for it) and Prng::kLeadingZeros, the count
// is x's leading zeros, one instruction. Elsewhere, without a leading-zero
// count (x86 has none before AVX-512 CD): y = x & ~(x >> 1) keeps that bit
// and has no two adjacent bits set, so converting y to float cannot round up
// to 2^(k+1), and the float's exponent field is 127 + k (0 for y = 0); the
// count is 158 - exponent, capped at 31.
template <class Prng>
HWY_INLINE VJ32 LowMask(VJ32 x) {
  const DJ32 d;
#if CHBENCH_LZCNT
  if constexpr (Prng::kLeadingZeros) return hn::Shr(hn::Set(d, 0x7fffffff), LeadingZeros32(x));
#endif
  const hn::RebindToSigned<DJ32> di;
  const hn::RebindToFloat<DJ32> df;
  const VJ32 y = hn::AndNot(hn::ShiftRight<1>(x), x);
  const VJ32 exponent = hn::ShiftRight<23>(hn::BitCast(d, hn::ConvertTo(df, hn::BitCast(di, y))));
  const VJ32 count = hn::Min(hn::Sub(hn::Set(d, 158), exponent), hn::Set(d, 31));
  return hn::Shr(hn::Set(d, 0x7fffffff), count);
}

// hash4j's candidate bucketRangeMin + (half & (bucketRangeMin - 1)): x's
// highest set bit (x & ~low) and the bits of `half` below it; 0 for x = 0.
// (One ternary-logic instruction on AVX-512 for OrAnd.)
template <class Prng>
HWY_INLINE VJ32 Candidate(VJ32 x, VJ32 half) {
  const VJ32 low = LowMask<Prng>(x);
  return hn::OrAnd(hn::AndNot(low, x), half, low);
}

// Lanes where x < 2^31 has an odd number of set bits (hash4j then reads the
// high half: r0 >>> (bitCount(x) << 5) shifts by 32 mod 64). After two
// xor-shifts bit 4i holds nibble i's parity; multiplying the eight nibble
// parities by 0x11111111 sums them into bits 28-31 (at most 8, no carry in).
HWY_INLINE MJ32 OddParity(VJ32 x) {
  const DJ32 d;
  VJ32 y = hn::Xor(x, hn::ShiftRight<1>(x));
  y = hn::Xor(y, hn::ShiftRight<2>(y));
  const VJ32 nibbles = hn::Set(d, 0x11111111u);
  y = hn::Mul(hn::And(y, nibbles), nibbles);
  return hn::TestBit(y, hn::Set(d, uint32_t{1} << 28));
}

// One step of each lane's generator: the first of the value's two halves,
// masked, below n, else the second.
template <class Prng>
HWY_INLINE VJ32 Chosen(V64& state_a, V64& state_b, const JumpBackShape& s) {
  const DJ32 d;
  const VJ32 mask = hn::Set(d, s.mask);
  state_a = Prng::Next(state_a);
  const V64 ra = Prng::Value(state_a);
  V64 rb = ra;
  if constexpr (kGroupVectors == 2) {
    state_b = Prng::Next(state_b);
    rb = Prng::Value(state_b);
  }
  const VJ32 lo = hn::And(LowHalves(ra, rb), mask);
  const VJ32 hi = hn::And(HighHalves(ra, rb), mask);
  return hn::IfThenElse(Below(lo, hn::Set(d, s.n)), lo, hi);
}

// One draw for the lanes of `active`: the chosen half, if below n, decides:
// itself if at least s.top, else `back`. Lanes decided get their bucket in b;
// returns them.
template <class Prng>
HWY_INLINE MJ32 Draw(V64& state_a, V64& state_b, const JumpBackShape& s, VJ32 back, MJ32 active,
                     VJ32& b) {
  const DJ32 d;
  const VJ32 chosen = Chosen<Prng>(state_a, state_b, s);
  const MJ32 done = hn::And(active, Below(chosen, hn::Set(d, s.n)));
  b = hn::IfThenElse(done, hn::IfThenElse(Below(chosen, hn::Set(d, s.top)), back, chosen), b);
  return done;
}

// The lanes of `pending` (first candidate b >= n, so its top bit is s.top):
// hash4j's inner loop, Draw after Draw while any lane of the group is pending
// (at least min_draws of them); `back` is the jump back to x without its top
// bit, read from the other half of r0. Lanes done keep their bucket. With
// kCountDraws, `draws` counts in each lane the values it read after r0 (the
// generator's state is then first(h) advanced that many times), for the
// draws of jumpback_anchor that follow.
template <class Prng, bool kCountDraws = false>
HWY_INLINE VJ32 JumpBack(V64 state_a, V64 state_b, VJ32 x, VJ32 other_half, VJ32 b, MJ32 pending,
                         const JumpBackShape& s, VJ32& draws, unsigned min_draws) {
  const DJ32 d;
  const VJ32 back = Candidate<Prng>(hn::And(x, hn::Set(d, s.top - 1)), other_half);
  MJ32 active = pending;
  unsigned turn = 0;
  do {
    if constexpr (kCountDraws) draws = hn::Add(draws, hn::IfThenElseZero(active, hn::Set(d, 1)));
    active = hn::AndNot(Draw<Prng>(state_a, state_b, s, back, active, b), active);
  } while (++turn < min_draws || !hn::AllFalse(d, active));
  return b;
}

// A group's first candidates (hash4j's r0 step), in the group's lane order:
// the generators' states after r0 to state_a and state_b, x (r0's halves
// xored, masked) to x, r0's low and high halves to lo and hi, and to odd the
// lanes whose candidate reads hi (the jump back then reads lo).
template <class Prng>
HWY_INLINE VJ32 FirstCandidates(const uint64_t* HWY_RESTRICT keys, const JumpBackShape& s,
                                V64& state_a, V64& state_b, VJ32& x, VJ32& lo, VJ32& hi,
                                MJ32& odd) {
  const D64 d;
  const DJ32 d32;
  state_a = Prng::First(hn::LoadU(d, keys));
  const V64 r0a = Prng::Value(state_a);
  state_b = state_a;
  V64 r0b = r0a;
  if constexpr (kGroupVectors == 2) {
    state_b = Prng::First(hn::LoadU(d, keys + hn::Lanes(d)));
    r0b = Prng::Value(state_b);
  }
  lo = LowHalves(r0a, r0b);
  hi = HighHalves(r0a, r0b);
  x = hn::And(hn::Xor(lo, hi), hn::Set(d32, s.mask));
  odd = OddParity(x);
  return Candidate<Prng>(x, hn::IfThenElse(odd, hi, lo));
}

// The buckets of one group of keys (kGroupVectors * Lanes(D64) of them), in
// the group's lane order (StoreGroup puts them in key order); with
// kCountDraws, `draws` (zero on entry) as JumpBack counts them.
template <class Prng, bool kCountDraws = false>
HWY_INLINE VJ32 JumpBackBuckets(const uint64_t* HWY_RESTRICT keys, const JumpBackShape& s,
                                VJ32& draws, unsigned min_draws = 0) {
  const DJ32 d32;
  V64 state_a, state_b;
  VJ32 x, lo, hi;
  MJ32 odd;
  VJ32 b = FirstCandidates<Prng>(keys, s, state_a, state_b, x, lo, hi, odd);
  const MJ32 pending = Below(hn::Set(d32, s.n - 1), b);
  if (min_draws > 0 || !hn::AllFalse(d32, pending))
    b = JumpBack<Prng, kCountDraws>(state_a, state_b, x, hn::IfThenElse(odd, lo, hi), b, pending, s,
                                    draws, min_draws);
  return b;
}

template <class Prng>
HWY_INLINE void JumpBackGroup(const uint64_t* HWY_RESTRICT keys, const JumpBackShape& s,
                              uint32_t* HWY_RESTRICT out, unsigned min_draws) {
  VJ32 unused = hn::Zero(DJ32());
  StoreGroup(JumpBackBuckets<Prng>(keys, s, unused, min_draws), out);
}

// A group's buckets after exactly kDraws draws for its pending lanes, no
// branch on them; the lanes still pending after them (their buckets not yet
// known) to `stray`. With no draw the jump back is not computed.
template <class Prng, unsigned kDraws>
HWY_INLINE VJ32 JumpBackDraws(const uint64_t* HWY_RESTRICT keys, const JumpBackShape& s,
                              MJ32& stray) {
  const DJ32 d;
  V64 state_a, state_b;
  VJ32 x, lo, hi;
  MJ32 odd;
  VJ32 b = FirstCandidates<Prng>(keys, s, state_a, state_b, x, lo, hi, odd);
  MJ32 active = Below(hn::Set(d, s.n - 1), b);
  if constexpr (kDraws > 0) {
    const VJ32 back =
        Candidate<Prng>(hn::And(x, hn::Set(d, s.top - 1)), hn::IfThenElse(odd, lo, hi));
    for (unsigned turn = 0; turn < kDraws; ++turn)
      active = hn::AndNot(Draw<Prng>(state_a, state_b, s, back, active, b), active);
  }
  stray = active;
  return b;
}

// m's lanes in key order (StoreGroup's order).
HWY_INLINE MJ32 KeyOrder(MJ32 m) {
#if HWY_TARGET == HWY_AVX2
  const DJ32 d;
  return hn::MaskFromVec(InKeyOrder(hn::VecFromMask(d, m)));
#else
  return m;
#endif
}

// Keys a chunk of JumpBackChunks holds: its stray keys stay in L1.
inline constexpr std::size_t kJumpBackChunk = 1024;

// A chunk's stray keys (room for a padded last group and for
// CollectMarkedKeys' reads ahead) and their places in it.
struct JumpBackStrays {
  HWY_ALIGN uint64_t key[kJumpBackChunk + kGroupVectors * kMaxLanes64 + kCollectAhead];
  uint32_t place[kJumpBackChunk + kCollectAhead];
  std::size_t count = 0;
};

// Pass one over keys[0, size), whole groups (size at most kJumpBackChunk):
// every group's buckets after kDraws draws to out, its stray lanes to a
// bitmap in key order, no branch for each group; then the stray keys to
// `strays` (CollectMarkedKeys).
template <class Prng, unsigned kDraws>
HWY_INLINE void DrawChunk(const uint64_t* HWY_RESTRICT keys, std::size_t size,
                          const JumpBackShape& s, uint32_t* HWY_RESTRICT out,
                          JumpBackStrays& strays) {
  const DJ32 d;
  const std::size_t lanes = hn::Lanes(d);
  const std::size_t bytes = (lanes + 7) / 8;
  const std::size_t used = (size / lanes * bytes + 7) / 8;
  HWY_ALIGN uint64_t words[kJumpBackChunk / 8];  // at most a byte a key
  for (std::size_t w = 0; w < used; ++w) words[w] = 0;
  uint8_t* const bits = reinterpret_cast<uint8_t*>(words);
  for (std::size_t i = 0; i < size; i += lanes) {
    MJ32 stray;
    PrefetchAhead<kGroupVectors>(keys + i, out + i);
    StoreGroup(JumpBackDraws<Prng, kDraws>(keys + i, s, stray), out + i);
    hn::StoreMaskBits(d, KeyOrder(stray), bits + i / lanes * bytes);
  }
  strays.count = CollectMarkedKeys(words, used, lanes, keys, size, strays.key, strays.place, 0);
}

// Pass two: the stray keys looked up again from the start in full groups
// (the last padded with the first key), in JumpBack's loop with `min_draws`
// before it asks, each bucket to its place in out.
template <class Prng>
HWY_INLINE void RedoStrays(JumpBackStrays& strays, const JumpBackShape& s, unsigned min_draws,
                           uint32_t* HWY_RESTRICT out) {
  const std::size_t lanes = hn::Lanes(DJ32());
  for (std::size_t j = strays.count; j < strays.count + lanes; ++j) strays.key[j] = strays.key[0];
  HWY_ALIGN uint32_t answer[kJumpBackChunk + kGroupVectors * kMaxLanes64];
  for (std::size_t j = 0; j < strays.count; j += lanes)
    JumpBackGroup<Prng>(strays.key + j, s, answer + j, min_draws);
  StoreAtPlaces(answer, strays.place, strays.count, out);
}

// out[i] for keys[0, count), whole groups, in chunks of kJumpBackChunk: every
// group makes exactly kDraws draws (DrawChunk), and the keys still drawing
// after them are looked up again in full groups (RedoStrays), instead of
// each group looping until its last lane is done. Each stray key needs more
// than kDraws draws; the loop makes `redo_draws` before it asks.
template <class Prng, unsigned kDraws>
HWY_INLINE void JumpBackChunks(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                               const JumpBackShape& s, unsigned redo_draws,
                               uint32_t* HWY_RESTRICT out) {
  JumpBackStrays strays;
  for (std::size_t i = 0; i < count; i += kJumpBackChunk) {
    DrawChunk<Prng, kDraws>(keys + i, std::min(kJumpBackChunk, count - i), s, out + i, strays);
    if (strays.count != 0) RedoStrays<Prng>(strays, s, redo_draws, out + i);
  }
}

// q = (2^L - n) / 2^L: a lane's chance of a first candidate n or more, and
// of a drawn half n or more.
HWY_INLINE double RedrawChance(const JumpBackShape& s) {
  const uint64_t all = uint64_t{s.mask} + 1;
  return static_cast<double>(all - s.n) / static_cast<double>(all);
}

// How many draws every group makes before the loop asks whether a lane is
// still drawing (0: the group branches into the draws only if a lane needs
// them), where JumpBackLanes keeps the loop (FixedDraws says kJumpBackLoop),
// for a batch's last partial group, and for jumpback_anchor/simd.cc. With q = (2^L - n) / 2^L, a
// lane's chance of a first candidate >= n and of a half >= n, a group of `lanes` still has a lane
// to draw after d draws with chance P(d) = 1 - (1 - q^(2d + 1))^lanes. Each draw made for every
// group costs about 14 cycles a group on a Zen 5 (AVX3); a group that branches into the loop
// anyway, about 100 (its branches mispredict and take the groups in flight after it with them). So
// a draw is worth making while it cuts P by more than 1/8. Measured there over fresh keys, ns a key
// for jumpback/simd at N = 1,025 (q = 1/2; P = 0.88, 0.40, 0.12, 0.03 after 1 to 4 draws): 1.50
// with 1 draw, 1.38-1.40 with 2, 1.04-1.05 with 3, 1.07-1.08 with 4 (with the loop alone:
// FixedDraws now takes N = 1,025); at N = 1,000, where 1 is chosen: 0.51, 0.69, 0.87 with 1, 2, 3.
HWY_INLINE unsigned MinDraws(const JumpBackShape& s, std::size_t lanes) {
  const uint64_t all = uint64_t{s.mask} + 1;
  if (!OftenInSomeLane(all - s.n, all, lanes)) return 0;
  const double q = RedrawChance(s);
  const auto still = [&](unsigned d) {
    return 1 - std::pow(1 - std::pow(q, 2 * d + 1), static_cast<double>(lanes));
  };
  unsigned draws = 1;
  while (draws < 4 && still(draws) - still(draws + 1) > 0.125) ++draws;
  return draws;
}

// FixedDraws' answer where JumpBack's loop is cheaper than chunks.
inline constexpr int kJumpBackLoop = -1;

// How many draws every group makes in JumpBackChunks (0 to 4), or
// kJumpBackLoop. A lane still draws after d draws with chance q^(2d + 1),
// q = (2^L - n) / 2^L, so a group of `lanes` leaves lanes * q^(2d + 1)
// strays on average. On a Zen 5 (AVX3) a draw for every group cost about as
// much as 0.8 strays: a draw is worth making while it saves more than 0.8
// strays a group (at N = 1,025: 0.96, 0.86, 0.90 ns a key with 1, 2, 3
// draws; at 1,331: 0.68, 0.72, 0.82; at 1,000, 0.37 strays a group with no
// draw: 0.31-0.32 against 0.50-0.51 with one). Below one stray in 16 groups the
// loop's branch predicts well and costs less (at N = 1,800, 1/36: 0.54 ns a
// key against 0.52; at 1,650, 1/9: 0.54-0.57 against 0.59).
HWY_INLINE int FixedDraws(const JumpBackShape& s, std::size_t lanes) {
  const double q = RedrawChance(s);
  const auto strays = [&](unsigned d) {
    return static_cast<double>(lanes) * std::pow(q, 2 * d + 1);
  };
  unsigned draws = 0;
  while (draws < 4 && strays(draws) - strays(draws + 1) > 0.8) ++draws;
  return strays(draws) >= 1.0 / 16 ? static_cast<int>(draws) : kJumpBackLoop;
}

// The draws RedoStrays' loop makes before it asks, after `fixed` draws in
// the chunk: a stray needs more than `fixed`, and each draw after those
// leaves a lane drawing with chance q^2; the loop asks once a full group of
// strays is more likely done than not by a margin (P(some lane still
// drawing) below 0.7: two more at N = 1,025, one at N = 1,000).
HWY_INLINE unsigned RedoDraws(const JumpBackShape& s, std::size_t lanes, unsigned fixed) {
  const double q = RedrawChance(s);
  unsigned more = 1;
  while (more < 4 && 1 - std::pow(1 - std::pow(q, 2 * more), static_cast<double>(lanes)) >= 0.7)
    ++more;
  return fixed + more;
}

// JumpBackChunks with `draws` (0 to 4) fixed at compile time.
template <class Prng>
HWY_INLINE void JumpBackChunksOf(unsigned draws, const uint64_t* HWY_RESTRICT keys,
                                 std::size_t count, const JumpBackShape& s,
                                 uint32_t* HWY_RESTRICT out) {
  const unsigned redo = RedoDraws(s, kGroupVectors * hn::Lanes(D64()), draws);
  switch (draws) {
    case 0:
      return JumpBackChunks<Prng, 0>(keys, count, s, redo, out);
    case 1:
      return JumpBackChunks<Prng, 1>(keys, count, s, redo, out);
    case 2:
      return JumpBackChunks<Prng, 2>(keys, count, s, redo, out);
    case 3:
      return JumpBackChunks<Prng, 3>(keys, count, s, redo, out);
    default:
      return JumpBackChunks<Prng, 4>(keys, count, s, redo, out);
  }
}

// out[i] = jumpback_bucket<generator>(keys[i], JumpBackShape(n)) for i < count
// (1 <= n <= kJumpBackMaxBuckets): whole groups, then the last keys through
// zero-padded copies on the stack.
template <class Prng>
HWY_INLINE void JumpBackLanes(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t n,
                              uint32_t* HWY_RESTRICT out) {
  const JumpBackShape s(n);
  const std::size_t group = kGroupVectors * hn::Lanes(D64());
  const unsigned min_draws = MinDraws(s, group);
  const int fixed = FixedDraws(s, group);
  std::size_t i = 0;
  if (fixed != kJumpBackLoop) {
    i = count - count % group;
    JumpBackChunksOf<Prng>(static_cast<unsigned>(fixed), keys, i, s, out);
  }
  for (; count - i >= group; i += group) JumpBackGroup<Prng>(keys + i, s, out + i, min_draws);
  if (i == count) return;
  HWY_ALIGN uint64_t in_pad[kGroupVectors * kMaxLanes64] = {};
  HWY_ALIGN uint32_t out_pad[kGroupVectors * kMaxLanes64] = {};
  for (std::size_t j = i; j < count; ++j) in_pad[j - i] = keys[j];
  JumpBackGroup<Prng>(in_pad, s, out_pad, min_draws);
  for (std::size_t j = i; j < count; ++j) out[j] = out_pad[j - i];
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // CHBENCH_JUMPBACK_LANES_INL_H_
