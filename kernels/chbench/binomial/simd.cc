// binomial/simd: BinomialHash with the keys in lanes (binomial.h), for every
// Highway target, and its registry entry. Each lane computes the engine's
// first draw, relocateWithinLevel(h & enclosing, h), without a branch; the
// keys that drew at or above N take the redraw loop: set aside and run in
// full vectors under masks where they are few, in rounds of one redraw over
// a list of the keys still drawing where many are.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/binomial/simd.cc"
#include "chbench/simd.h"

#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <bit>

#include "chbench/binomial/binomial.h"
#include "chbench/compress-inl.h"
#include "chbench/round_lists-inl.h"
#include "chbench/set_aside-inl.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Whether the target multiplies 64-bit lanes in one instruction (as
// MulConst64 decides). There every function below takes kMul64, the path
// (simd::Mul64Path) it runs: true multiplies 64-bit lanes, false splits the
// products as every other target does. Split, every filter of the scheme is
// 2^j - 1, so the engine's products square * filter are (square << j) -
// square mod 2^64, a shift and a subtraction, and only the LCG step and the
// square multiply. On Intel's AVX-512 the split path ran the first draw 2.2x
// faster (0.72 against 1.59 ns a key at N = 1,024): the native one chains
// three multiplies of latency 15.
#if HWY_TARGET == HWY_SCALAR || (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3)
#define CHBENCH_BINOMIAL_MUL64 1
#else
#define CHBENCH_BINOMIAL_MUL64 0
#endif

// v * a + 1 mod 2^64 for the engine's multiplier a. Split: lo(v) lo(a) in
// full, plus lo(v) hi(a) + hi(v) lo(a) mod 2^32 in the high half, both cross
// products from one 32-bit multiply by a with its halves swapped.
template <bool kMul64>
HWY_INLINE V64 LcgStep(V64 v) {
  const D64 d;
#if CHBENCH_BINOMIAL_MUL64
  if constexpr (kMul64) return hn::Add(MulConst64(v, kBinomialMultiplier), hn::Set(d, 1));
#endif
#if HWY_TARGET != HWY_SCALAR
  const hn::Repartition<uint32_t, D64> d32;
  constexpr uint64_t kSwapped = kBinomialMultiplier << 32 | kBinomialMultiplier >> 32;
  const auto v32 = hn::BitCast(d32, v);
  const V64 low = hn::MulEven(v32, hn::BitCast(d32, hn::Set(d, kBinomialMultiplier & 0xffffffffu)));
  const V64 cross = hn::BitCast(d, hn::Mul(v32, hn::BitCast(d32, hn::Set(d, kSwapped))));
  const V64 high = hn::ShiftLeft<32>(hn::Add(cross, hn::ShiftRight<32>(cross)));
  return hn::Add(hn::Add(low, high), hn::Set(d, 1));
#endif
}

// binomial_square: (v * a + 1)^2 mod 2^64. Split, t^2 is lo(t)^2 + (2 lo(t)
// hi(t) << 32) mod 2^64.
template <bool kMul64>
HWY_INLINE V64 Square(V64 v) {
  const V64 t = LcgStep<kMul64>(v);
#if CHBENCH_BINOMIAL_MUL64
  if constexpr (kMul64) return hn::Mul(t, t);
#endif
#if HWY_TARGET != HWY_SCALAR
  const hn::Repartition<uint32_t, D64> d32;
  const auto lo = hn::BitCast(d32, t);
  return hn::Add(hn::MulEven(lo, lo),
                 hn::ShiftLeft<33>(hn::MulEven(hn::BitCast(d32, hn::ShiftRight<32>(t)), lo)));
#endif
}

// v << shift in every lane: by each lane's count, or by one count for all.
HWY_INLINE V64 ShiftedLeft(V64 v, V64 shift) { return hn::Shl(v, shift); }
HWY_INLINE V64 ShiftedLeft(V64 v, int shift) { return hn::ShiftLeftSame(v, shift); }

// The engine's rehash(v, filter) = (square * filter) >>> 32 from v's square,
// for filter = 2^shift - 1 (Shift: a vector of counts, or an int for all).
template <bool kMul64, class Shift>
HWY_INLINE V64 Rehash(V64 square, V64 filter, Shift shift) {
#if CHBENCH_BINOMIAL_MUL64
  if constexpr (kMul64) return hn::ShiftRight<32>(hn::Mul(square, filter));
#endif
  (void)filter;
  return hn::ShiftRight<32>(hn::Sub(ShiftedLeft(square, shift), square));
}

// bit_floor(low | 1) - 1 for low < 2^31, the filter of low's level (0 for
// buckets 0 and 1), and its bit width `shift`. low | 1 placed in the mantissa
// of 2^52 and 2^52 subtracted is that number as an exact double, whose
// exponent is the shift; clearing its mantissa leaves its highest one bit, a
// power of two, which adding 2^52 puts back into the low mantissa bits. No
// integer conversion (AVX2 and older have none).
template <bool kMul64>
HWY_INLINE V64 LevelFilter(V64 low, V64& shift) {
  const D64 d;
  const DF64 df;
  const VF64 two52 = hn::Set(df, 4503599627370496.0);
  const V64 in_mantissa = hn::Or(low, hn::Set(d, 0x4330000000000001ULL));  // 2^52 + (low | 1)
  const V64 value = hn::BitCast(d, hn::Sub(hn::BitCast(df, in_mantissa), two52));
  shift = hn::Sub(hn::ShiftRight<52>(value), hn::Set(d, 1023));
  if constexpr (kMul64) {
    const VF64 power = hn::BitCast(df, hn::And(value, hn::Set(d, 0xfff0000000000000ULL)));
    return hn::Sub(hn::BitCast(d, hn::Add(power, two52)), hn::Set(d, 0x4330000000000001ULL));
  }
  const V64 one = hn::Set(d, 1);
  return hn::Sub(hn::Shl(one, shift), one);
}

// binomial_relocate: relocateWithinLevel(b, v) for b below 2^31, from v's
// square.
template <bool kMul64>
HWY_INLINE V64 Relocate(V64 b, V64 square) {
  V64 shift;
  const V64 filter = LevelFilter<kMul64>(b, shift);
  return hn::Or(hn::AndNot(filter, b), hn::And(Rehash<kMul64>(square, filter, shift), filter));
}

// One of binomial_redraw's draws from g in every lane: its candidate
// bucket, top | rehash(square(g), minor) & minor, to `candidate`, whether
// that is n or more to `above`; returns g's next value, rehash(square(g),
// enclosing). Whether g's top-level bit lets the draw happen is the caller's.
template <bool kMul64>
HWY_INLINE V64 RedrawStep(V64 g, const BinomialFilters& f, uint32_t n, V64& candidate,
                          hn::Mask<D64>& above) {
  const D64 d;
  const DI64 di;
  const V64 minor = hn::Set(d, f.minor);
  const V64 s = Square<kMul64>(g);
  candidate = hn::Or(hn::Set(d, uint64_t{f.minor} + 1),
                     hn::And(Rehash<kMul64>(s, minor, std::bit_width(f.minor)), minor));
  above = hn::RebindMask(d, hn::Gt(hn::BitCast(di, candidate), hn::Set(di, int64_t{n} - 1)));
  return Rehash<kMul64>(s, hn::Set(d, f.enclosing), std::bit_width(f.enclosing));
}

// binomial_redraw for the lanes in `redraw` of the block of keys k: the
// minor-tree fallback, then up to four draws g = rehash(g, enclosing), the
// first from the key's square, each ending its lane's loop when it lands in
// the minor tree (the fallback stays) or below n (the draw is taken). The
// bounds are broadcast here, not passed: SVE's vectors cannot be members of a
// struct.
template <bool kMul64, std::size_t U, class Squares, class Buckets, class Masks>
HWY_INLINE void Redraw(const uint64_t* HWY_RESTRICT k, BinomialFilters f, uint32_t n,
                       const Squares& square, const Buckets& bucket, const Masks& redraw) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 minor = hn::Set(d, f.minor);
  const V64 top = hn::Set(d, uint64_t{f.minor} + 1);
  CHBENCH_VECTORS(V64, g, U);
  for (std::size_t u = 0; u < U; ++u) {
    const V64 fallback = Relocate<kMul64>(hn::And(hn::LoadU(d, k + u * lanes), minor), square(u));
    bucket(u) = hn::IfThenElse(redraw(u), fallback, bucket(u));
    g(u) = Rehash<kMul64>(square(u), hn::Set(d, f.enclosing), std::bit_width(f.enclosing));
  }
  for (int draw = 0; draw < 4; ++draw) {
    redraw(0) = hn::And(redraw(0), hn::TestBit(g(0), top));
    auto any = redraw(0);
    for (std::size_t u = 1; u < U; ++u) {
      redraw(u) = hn::And(redraw(u), hn::TestBit(g(u), top));
      any = hn::Or(any, redraw(u));
    }
    if (hn::AllFalse(d, any)) return;
    for (std::size_t u = 0; u < U; ++u) {
      V64 candidate;
      hn::Mask<D64> above;
      g(u) = RedrawStep<kMul64>(g(u), f, n, candidate, above);
      bucket(u) = hn::IfThenElse(hn::AndNot(above, redraw(u)), candidate, bucket(u));
      redraw(u) = hn::And(redraw(u), above);
    }
  }
}

// Stores the low 32 bits of the U vectors' lanes to o[0 .. U * Lanes):
// where a 32-bit vector holds two 64-bit vectors' worth, pairs of vectors in
// one store (one shuffle instead of a narrowing per vector).
template <std::size_t U, class Buckets>
HWY_INLINE void StoreBuckets(const Buckets& bucket, uint32_t* HWY_RESTRICT o) {
  const std::size_t lanes = hn::Lanes(D64());
  std::size_t u = 0;
#if HWY_TARGET != HWY_SCALAR
  const hn::Repartition<uint32_t, D64> d32;
  for (; u + 1 < U; u += 2)
    hn::StoreU(hn::ConcatEven(d32, hn::BitCast(d32, bucket(u + 1)), hn::BitCast(d32, bucket(u))),
               d32, o + u * lanes);
#endif
  for (; u < U; ++u) StoreLow32(bucket(u), o + u * lanes);
}

// By the share r of keys that need redraws, (enclosing + 1 - n) / (enclosing
// + 1): below 1/8 the redraws are set aside and run in blocks of up to four
// full vectors whose loops overlap (SetAsideRedraws), from 1/8 on they run
// in rounds over a list of the keys still drawing (RedrawRounds). Measured
// on a Zen 5 (AVX3) over fresh keys (K = 10^5), ns a key, rounds against set
// aside: 1,792 (r = 1/8) 0.56-0.59 against 0.57; 1,760 (r = 0.14) 0.57-0.65
// against 0.60-0.61; 1,700 (r = 0.17) 0.59-0.61 against 0.68-0.71 (a slower
// day than the figures that follow). Before the rounds listed only the keys
// whose loop draws (RedrawRounds), the crossover was at 3/16, rounds against
// set aside: 1,792 0.49-0.50 against 0.46-0.47; 1,700 0.52-0.55
// against 0.54-0.55; 1,664 (r = 3/16) 0.53-0.60 against 0.57-0.60; 1,536
// (r = 1/4) 0.62-0.65 against 0.70-0.71; 1,400 0.67-0.69 against 0.83-0.85;
// 1,300 (r = 0.37) 0.72-0.78 against 0.90-0.92. From 3/8 on the redraws
// used to run in place, in blocks of four vectors looping under masks;
// rounds against those: 1,280 (r = 3/8) 0.71-0.78 against 0.90-1.00; 1,100
// 0.81-0.83 against 0.82-0.86; 1,025 0.85-0.91 against 0.85-0.88;
// 2^20 + 1 0.85-0.86 against 0.84. Earlier, set aside against in place:
// 1,280 1.06-1.08 against 0.96-1.01, 1,025 1.29-1.33 against 0.86-1.19.
// Blocks of four vectors in the first passes and the set-aside loops.
constexpr std::size_t kRedrawBlock = 4;

// The keys of whole vectors with their redraws set aside (set_aside-inl.h):
// the first draw for every key, then the redraw loop on full vectors of the
// keys that drew n or more. Returns the keys answered.
template <bool kMul64>
HWY_INLINE std::size_t SetAsideRedraws(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                                       uint32_t n, const BinomialFilters& f,
                                       uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const DI64 di;
  const V64 enclosing = hn::Set(d, f.enclosing);
  const VI64 last = hn::Set(di, int64_t{n} - 1);
  const auto first = [&](V64 key, V64& bucket) {
    bucket = Relocate<kMul64>(hn::And(key, enclosing), Square<kMul64>(key));
    return hn::RebindMask(d, hn::Gt(hn::BitCast(di, bucket), last));
  };
  const auto rest = [&]<std::size_t U>(const uint64_t* HWY_RESTRICT k, uint32_t* HWY_RESTRICT o) {
    CHBENCH_VECTORS(V64, square, U);
    CHBENCH_VECTORS(V64, bucket, U);
    CHBENCH_VECTORS(hn::Mask<D64>, redraw, U);
    for (std::size_t u = 0; u < U; ++u) {
      square(u) = Square<kMul64>(hn::LoadU(d, k + u * hn::Lanes(d)));
      bucket(u) = hn::Zero(d);
      redraw(u) = hn::FirstN(d, hn::Lanes(d));
    }
    Redraw<kMul64, U>(k, f, n, square, bucket, redraw);
    StoreBuckets<U>(bucket, o);
  };
  const uint64_t all = uint64_t{f.enclosing} + 1;
  return SetAsideKeys(keys, count, out, first, rest, all - n, all);
}

// Keys a chunk of RedrawRounds holds: its lists stay in L1.
inline constexpr std::size_t kRoundsChunk = 1024;

// A chunk's keys that draw again, as the rounds carry them
// (round_lists-inl.h): `value` holds g, the value the next draw starts from,
// whose top-level bit is set (it draws); `tag` the key's place in the chunk
// in the high 32 bits and its minor-tree fallback in the low ones.
using RedrawList = RoundList<kRoundsChunk>;

// The redrawing keys' answers: tags whose low 32 bits are the bucket.
using PlacedList = AnswerList<kRoundsChunk>;

// Pass one over a chunk (size <= kRoundsChunk): out[i] = keys[i]'s first
// draw, or its fallback where that drew n or more and its first g lies in
// the minor tree (the loop ends before drawing); the keys whose first g
// draws are listed with it and their fallback (CompressLanes as the pass
// goes). At N = 2^k + 1 half of the keys draw n or more and half of those
// list: the rounds carry no entry that only ends. A partial last vector goes
// through zero-padded copies (a zero key's first draw is bucket 0).
template <bool kMul64>
HWY_INLINE void FirstDraws(const uint64_t* HWY_RESTRICT keys, std::size_t size, uint32_t n,
                           const BinomialFilters& f, uint32_t* HWY_RESTRICT out, RedrawList& list) {
  const D64 d;
  const DI64 di;
  const std::size_t lanes = hn::Lanes(d);
  const V64 enclosing = hn::Set(d, f.enclosing);
  const V64 minor = hn::Set(d, f.minor);
  const V64 top = hn::Set(d, uint64_t{f.minor} + 1);
  const VI64 last = hn::Set(di, int64_t{n} - 1);
  const int enclosing_shift = std::bit_width(f.enclosing);
  const int minor_shift = std::bit_width(f.minor);
  // Each lane's place in the chunk, and the list's size, in locals (stores
  // into the list could change a member).
  V64 index = hn::Iota(d, 0);
  const V64 step = hn::Set(d, lanes);
  std::size_t listed = 0;
  ForEachBlock<kRedrawBlock>(
      d, keys, size, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
        CHBENCH_VECTORS(V64, h, U);
        CHBENCH_VECTORS(V64, square, U);
        CHBENCH_VECTORS(V64, bucket, U);
        for (std::size_t u = 0; u < U; ++u) {
          h(u) = hn::LoadU(d, k + u * lanes);
          square(u) = Square<kMul64>(h(u));
        }
        for (std::size_t u = 0; u < U; ++u)
          bucket(u) = Relocate<kMul64>(hn::And(h(u), minor), square(u));
        for (std::size_t u = 0; u < U; ++u) {
          // A key whose low bits have the top level's bit draws its first
          // bucket there, with the level's filter `minor`; the others' first
          // draw is their fallback, already in bucket(u). One level filter a
          // key instead of two: on a Zen 5, N = 1,025, median ns a key over
          // ten processes each, alternated, 1.12 against 1.16 (AVX3, a busy
          // host) and 2.47 against 2.66 (AVX2, six each).
          const V64 top_first =
              hn::Or(top, hn::And(Rehash<kMul64>(square(u), minor, minor_shift), minor));
          const auto has_top = hn::TestBit(h(u), top);
          const auto redraw =
              hn::And(has_top, hn::RebindMask(d, hn::Gt(hn::BitCast(di, top_first), last)));
          const V64 fallback = bucket(u);
          const V64 g = Rehash<kMul64>(square(u), enclosing, enclosing_shift);
          const auto draws = hn::And(redraw, hn::TestBit(g, top));
          bucket(u) = hn::IfThenElse(hn::AndNot(redraw, has_top), top_first, fallback);
          hn::StoreU(CompressLanes(g, draws), d, list.value + listed);
          hn::StoreU(CompressLanes(hn::Or(hn::ShiftLeft<32>(index), fallback), draws), d,
                     list.tag + listed);
          listed += hn::CountTrue(d, draws);
          index = hn::Add(index, step);
        }
        StoreBuckets<U>(bucket, o);
      });
  list.size = listed;
}

// One draw for every entry of `list` (binomial_redraw's loop body; every
// entry's g draws): an entry whose draw is below n takes it, one whose next
// g falls in the minor tree keeps its fallback; both go to `placed`. The
// others stay with their next g, moved to the front (in place: an entry is
// stored at or before where it was read).
template <bool kMul64>
HWY_INLINE void RedrawRound(RedrawList& list, PlacedList& placed, const BinomialFilters& f,
                            uint32_t n) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 top = hn::Set(d, uint64_t{f.minor} + 1);
  const V64 high = hn::Set(d, ~uint64_t{0} << 32);
  const std::size_t size = list.size;
  std::size_t kept = 0, done = placed.size;  // locals, as `listed` in FirstDraws
  for (std::size_t at = 0; at < size; at += lanes) {
    const V64 g = hn::Load(d, list.value + at);
    const V64 tag = hn::Load(d, list.tag + at);
    const auto valid = hn::FirstN(d, size - at);
    V64 candidate;
    hn::Mask<D64> above;
    const V64 next = RedrawStep<kMul64>(g, f, n, candidate, above);
    const auto going = hn::And(valid, hn::And(above, hn::TestBit(next, top)));
    const auto ends = hn::AndNot(going, valid);
    const V64 answer = hn::IfThenElse(above, tag, hn::OrAnd(candidate, tag, high));
    RouteLanes(answer, ends, next, tag, going, placed, done, list, kept);
  }
  list.size = kept;
  placed.size = done;
}

// out[i] for keys[0, count) in chunks of kRoundsChunk: every key's first
// draw (FirstDraws), then the keys whose loop draws in rounds of one draw
// each over the entries still drawing (at most four; the rest keep their
// fallbacks), then each answer to its place (scalar stores: the places are
// scattered). At N = 2^k + 1 a quarter of the keys are listed and take 1.9
// rounds on average, where blocks of vectors that loop under masks run four
// for nearly all of them. Listing only the keys whose first g draws (not
// every key that drew n or more, half of which end without a draw) made it
// 1.3 times faster on a Zen 5 (AVX3), K = 10^5, pinned to CPU 0: N = 1,025
// 0.80-0.81 ns a key against 1.06-1.07, 2^20 + 1 0.78-0.81 against
// 1.02-1.07 (N = 1,000 and 1,024, which do not run in rounds, 0.26-0.28 and
// 0.20-0.22 in both). On CPU 1, slower that day, 1.14-1.22 against
// 1.80-1.93 at 1,025.
// Not inlined: inlined into BinomialPath, it made GCC compile the set-aside
// path around it 10 % slower (N = 1,000 and 10^6, Zen 5, AVX3).
template <bool kMul64>
HWY_NOINLINE void RedrawRounds(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t n,
                               const BinomialFilters& f, uint32_t* HWY_RESTRICT out) {
  RedrawList list;
  PlacedList placed;
  for (std::size_t at = 0; at < count; at += kRoundsChunk) {
    FirstDraws<kMul64>(keys + at, std::min(kRoundsChunk, count - at), n, f, out + at, list);
    placed.size = 0;
    for (int round = 0; round < 4 && list.size != 0; ++round)
      RedrawRound<kMul64>(list, placed, f, n);
    for (std::size_t t = 0; t < list.size; ++t) placed.tag[placed.size++] = list.tag[t];
    StoreAnswers(placed, out + at);
  }
}

// out[i] = binomial_bucket(keys[i], n, binomial_filters(n)) for i < count,
// on the path kMul64: with the redraws set aside when they are fewer than
// an eighth of the keys, else in rounds (RedrawRounds); the set-aside
// path's last partial vector in one block that loops under masks.
template <bool kMul64>
HWY_INLINE void BinomialPath(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t n,
                             uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const DI64 di;
  const std::size_t lanes = hn::Lanes(d);
  const BinomialFilters f = binomial_filters(n);
  const V64 enclosing = hn::Set(d, f.enclosing);
  const VI64 last = hn::Set(di, int64_t{n} - 1);
  const auto block = [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    CHBENCH_VECTORS(V64, square, U);
    CHBENCH_VECTORS(V64, bucket, U);
    CHBENCH_VECTORS(hn::Mask<D64>, redraw, U);
    // The first draw, relocateWithinLevel(h & enclosing, h).
    for (std::size_t u = 0; u < U; ++u) {
      const V64 h = hn::LoadU(d, k + u * lanes);
      square(u) = Square<kMul64>(h);
      bucket(u) = Relocate<kMul64>(hn::And(h, enclosing), square(u));
      redraw(u) = hn::RebindMask(d, hn::Gt(hn::BitCast(di, bucket(u)), last));
    }
    auto any = redraw(0);
    for (std::size_t u = 1; u < U; ++u) any = hn::Or(any, redraw(u));
    if (!hn::AllFalse(d, any)) Redraw<kMul64, U>(k, f, n, square, bucket, redraw);
    StoreBuckets<U>(bucket, o);
  };
  const uint64_t invalid = uint64_t{f.enclosing} + 1 - n, all = uint64_t{f.enclosing} + 1;
  if (8 * invalid < all) {
    const std::size_t done = SetAsideRedraws<kMul64>(keys, count, n, f, out);
    ForEachBlock<1>(d, keys + done, count - done, out + done, block);
  } else {
    RedrawRounds<kMul64>(keys, count, n, f, out);
  }
}

// BinomialPath on the path in force (simd::mul64_path()) where the target
// has both, else on the split one.
void BinomialKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t n,
                  uint32_t* HWY_RESTRICT out) {
#if HWY_TARGET == HWY_SCALAR
  BinomialPath<true>(keys, count, n, out);
#else
#if CHBENCH_BINOMIAL_MUL64
  if (mul64_path() == Mul64Path::kNative) return BinomialPath<true>(keys, count, n, out);
#endif
  BinomialPath<false>(keys, count, n, out);
#endif
}

#undef CHBENCH_BINOMIAL_MUL64

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <memory>
#include <stdexcept>

#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {

HWY_EXPORT(BinomialKeys);

void binomial_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                     std::span<uint32_t> out) {
  if (num_buckets == 0 || num_buckets > kBinomialMaxBuckets)
    throw std::invalid_argument("BinomialHash takes 1 to 2^31 - 1 buckets");
  glue::check_sizes(key_hashes, out);
  HWY_DYNAMIC_DISPATCH(BinomialKeys)(key_hashes.data(), key_hashes.size(), num_buckets, out.data());
}

}  // namespace simd

namespace {

class BinomialSimdTable final : public OwnerTable {
 public:
  explicit BinomialSimdTable(uint32_t n) : n_(n) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    simd::binomial_owners(h, n_, out);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

}  // namespace

constinit const KernelInfo registry::binomial_simd{
    .scheme = Scheme::kBinomial,
    .name = "simd",
    .summary = "keys in lanes, first draw branch-free, masked redraws (Highway)",
    .simd = true,
    .rival = &registry::binomial_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::binomial_simd, BinomialSimdTable, kBinomialMaxBuckets>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench

#endif  // HWY_ONCE
