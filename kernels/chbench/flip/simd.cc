// flip/simd: FlipHash with the keys in lanes (flip.h), for every Highway
// target, and its registry entry. Chunks of keys go through two passes. The
// first computes every key's power-of-two step (two draws, no branch) and
// writes it; the keys where it lands above N - 1, a share (2^r - N) / 2^r
// (few just below a power of two, about half just above one), go to a retry
// list: compressed out of each vector as the pass goes where they are
// common, else noted as mask bits and gathered afterwards (RetryNotes). The
// second runs their retry draws in rounds over the list: each round draws
// twice for every entry, sends the entries that decided to a list of answers
// and keeps the others, compressed to the front, for the next round; the
// last vector's worth draws until every lane has decided. The answers then
// go to their places one by one. At N = 2^k + 1 a retry draw decides with a
// chance of about 1/2, so a key takes about two draws, where running a block
// of vectors until all of its lanes had decided took as many as its slowest
// lane, six or seven for 32 lanes, and mispredicted the loop's exit.
// Measured on a Zen 5 (AVX3) over fresh keys (K = 10^5), ns a key with the
// block loop (chunks of 512) and with the rounds: N = 1,000: 0.47-0.48 and
// 0.45-0.46; 1,024: 0.38-0.39 and 0.38; 1,025: 2.08-2.12 and 1.22-1.26;
// 10^6: 0.59 and 0.53-0.54; 2^20 + 1: 2.09-2.10 and 1.18-1.24. Just above a
// power of two (RetryNotes::kUpperHalf) pass one writes the fallback, and
// the retries store only the rare other answers: on a Zen 5 (AVX3), median
// ns a key over eight processes each, alternated, in two runs, before and
// after: N = 1,025 1.19-1.21 against 1.12; 2^20 + 1 1.19-1.21 against
// 1.10-1.11 (RetryNotes says where the mode is taken). There a key's time goes to
// the first pass (0.30 ns), listing the keys with the top bit (0.16), the
// first round of retries (0.43: the prefix, two multiplies, and two draws
// for half the keys, and the compressions) and the later rounds (0.14).
// Streamed from DRAM, pass one prefetches a chunk ahead as the set-aside
// kernels do (set_aside-inl.h), but not just above a power of two, where it
// measured up to 30 % slower in cache: on a Zen 5 (AVX3), K = 10^7 and
// N = 10^6, 0.71-0.72 ns a key against 0.90-0.96 without (1.37-1.45 and
// 1.74-1.85 times the stream floor timed beside it), and in cache (K = 10^5)
// 0-6 % slower at N = 1,000 and 10^6 (three processes each, alternated).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/flip/simd.cc"
#define CHBENCH_WANT_AVX512CD    // simd_ops-inl.h: LeadingZeros in TopBit
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>

#include "chbench/compress-inl.h"
#include "chbench/flip/flip.h"
#include "chbench/round_lists-inl.h"
#include "chbench/set_aside-inl.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Keys per chunk: the mask bits and the retry lists hold one chunk's. 1,024
// measured 4-9 % faster than 512 from N = 1,000 to 2^20 + 1 (Zen 5, AVX3).
inline constexpr std::size_t kFlipChunk = 1024;

// a * c mod 2^64 in every lane, for c < 2^32 in every lane: one instruction
// where 64-bit lanes multiply (AVX3, SCALAR), otherwise two 32 x 32 -> 64 bit
// products (the high halves of c are 0, so MulConst64's third drops out).
HWY_INLINE V64 MulSmall(V64 a, V64 c) {
#if HWY_TARGET == HWY_SCALAR || (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3)
  return hn::Mul(a, c);
#elif HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4)
  // hi(a) * c lands in the upper half of a 32-bit multiply by c << 32.
  const hn::Repartition<uint32_t, D64> d32;
  const V64 lo = hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, c));
  const V64 hi =
      hn::BitCast(D64(), hn::Mul(hn::BitCast(d32, a), hn::BitCast(d32, hn::ShiftLeft<32>(c))));
  return hn::Add(lo, hi);
#else
  const hn::Repartition<uint32_t, D64> d32;
  const V64 lo = hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, c));
  const V64 hi = hn::MulEven(hn::BitCast(d32, hn::ShiftRight<32>(a)), hn::BitCast(d32, c));
  return hn::Add(lo, hn::ShiftLeft<32>(hi));
#endif
}

// a * c mod 2^64 in every lane for a constant c. On AVX2 and SSE4, which
// multiply 32-bit lanes (low halves) natively, the two cross products take one
// such multiply against c with its halves swapped, and their sum lands in the
// upper half after one shifted add: two multiplies instead of MulConst64's
// three 32 x 32 -> 64 bit ones. Elsewhere MulConst64.
HWY_INLINE V64 MulC(V64 a, uint64_t c) {
#if HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_SSE4)
  const D64 d;
  const hn::Repartition<uint32_t, D64> d32;
  const V64 lolo = hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, hn::Set(d, c & 0xffffffffu)));
  const V64 cross =
      hn::BitCast(d, hn::Mul(hn::BitCast(d32, a), hn::BitCast(d32, hn::Set(d, c << 32 | c >> 32))));
  const V64 sum = hn::And(hn::Add(cross, hn::ShiftLeft<32>(cross)), hn::Set(d, ~0ULL << 32));
  return hn::Add(lolo, sum);
#else
  return MulConst64(a, c);
#endif
}

// flip_draw's two halves: after the bit_len multiplier, (k ^ k >> 27) * M1;
// after the iteration multiplier, (k ^ k >> 33) * M2, then ^ >> 27.
HWY_INLINE V64 DrawFirstHalf(V64 k) { return MulC(hn::Xor(k, hn::ShiftRight<27>(k)), kFlipMul1); }
HWY_INLINE V64 DrawSecondHalf(V64 k) {
  k = MulC(hn::Xor(k, hn::ShiftRight<33>(k)), kFlipMul2);
  return hn::Xor(k, hn::ShiftRight<27>(k));
}

// a > b for lanes below 2^63 (all values here are below 2^33): the signed
// compare, native on x86 from SSE4.2 on.
HWY_INLINE hn::Mask<D64> Above(V64 a, V64 b) {
  const D64 d;
  const DI64 di;
  return hn::RebindMask(d, hn::Gt(hn::BitCast(di, a), hn::BitCast(di, b)));
}

// flip_pow2 on m = h & mask (m < 2^32) in lanes, in three parts so that
// FirstSteps can interleave vectors: TopBit finds b = floor(log2(m | 1)); the
// draw (key, b, 0) starts with key * (2b + 1); its b low bits flip the bits
// below m's top one. With AVX-512 CD, TopBit gives z = 63 - b, the leading
// zeros of m | 1 (one instruction): 2b + 1 = 127 - 2z and 2^b - 1 =
// (2^63 - 1) >> z. Elsewhere it gives b, the exponent of the double m | 1
// (exact: it goes into the mantissa of 2^52, and subtracting 2^52 leaves
// it). Measured on a Zen 5 (AVX3), ns a key, with the count and without:
// K = 10^5, N = 1,000 0.55-0.56 against 0.59; 10^6 0.52-0.55 against
// 0.57-0.67; 1,024 0.32-0.33 against 0.38-0.39; K = 10^7, N = 10^6 0.58-0.60
// against 0.62-0.63.
HWY_INLINE V64 TopBit(V64 m) {
  const D64 d;
#if CHBENCH_LZCNT
  return LeadingZeros(hn::Or(m, hn::Set(d, 1)));
#else
  const DF64 df;
  const V64 two52 = hn::Set(d, 0x4330000000000000ULL);
  const VF64 x =
      hn::Sub(hn::BitCast(df, hn::Or(hn::Or(m, hn::Set(d, 1)), two52)), hn::BitCast(df, two52));
  return hn::Sub(hn::ShiftRight<52>(hn::BitCast(d, x)), hn::Set(d, 1023));
#endif
}
HWY_INLINE V64 FlipperStart(V64 key, V64 b) {
#if CHBENCH_LZCNT
  return MulSmall(key, hn::Sub(hn::Set(D64(), 127), hn::Add(b, b)));
#else
  return MulSmall(key, hn::Add(hn::Add(b, b), hn::Set(D64(), 1)));
#endif
}
HWY_INLINE V64 Flip(V64 m, V64 b, V64 draw) {
#if CHBENCH_LZCNT
  return hn::Xor(m, hn::And(draw, hn::Shr(hn::Set(D64(), ~uint64_t{0} >> 1), b)));
#else
  const V64 one = hn::Set(D64(), 1);
  return hn::Xor(m, hn::And(draw, hn::Sub(hn::Shl(one, b), one)));
#endif
}
HWY_INLINE V64 FlipPow2(V64 key, V64 m) {
  const V64 b = TopBit(m);
  return Flip(m, b, DrawSecondHalf(DrawFirstHalf(FlipperStart(key, b))));
}

// The keys of one chunk whose first step landed above N - 1 (with
// kUpperHalf, whose h & mask has its top bit), as the retry rounds carry
// them (round_lists-inl.h): `value` holds each key, then from the first
// round on its draw prefix (the retry draws' common start, before the
// iteration multiplier); `tag` holds its index in the chunk in the high 32
// bits and in the low ones first h & mask (h the key's first draw), then its
// fallback (the step over 2^(r-1); with kUpperHalf they keep h & mask, the
// fallback being in out already).
using RetryList = RoundList<kFlipChunk>;

// The retries' answers: tags whose low 32 bits are the bucket.
using DoneList = AnswerList<kFlipChunk>;

// One chunk's mask bits, StoreMaskBits' layout: bit j of vector v's mask at
// bit j % 8 of byte v * bytes + j / 8, bytes = (lanes + 7) / 8; read 64 bits
// at a time. At most one byte per key (one lane).
struct MaskBits {
  uint64_t words[kFlipChunk / 8];
  std::size_t used;  // words holding bits
};

// How pass one notes the keys that retry, by their share (2^r - N) / 2^r:
// from 1/16 on compressed into the list as it goes (kCompress); below, as
// mask bits, collected afterwards with no branch per 64-bit word from 1/32 on
// (kManyBits, CollectMany) and one set bit at a time below (kFewBits,
// Collect), where most words hold at most one. Measured on a Zen 5 (AVX3),
// K = 10^5, ns a key with CollectMany and with Collect: share 4.6 % (N =
// 10^6) 0.43 against 0.47-0.48; 3.3 % (990) 0.42-0.44 against 0.45; 3.2 %
// (1,015,000) 0.42-0.43 against 0.45; 2.3 % (1,000) 0.41 against 0.39-0.41;
// 1.8 % (1,030,000) 0.40 against 0.37; 1.4 % (1,010) 0.38-0.41 against
// 0.35-0.36; 0.1 % (1,023) 0.36-0.37 against 0.32. Compressing costs more
// than it saves below 1/16: at N = 1,000, 0.59 against 0.41.
//
// Just above a power of two (kUpperHalf: at most 1/32 of the keys whose h &
// mask has its top bit land in [2^(r-1), N) by their first step) pass one
// writes every key's fallback, the step over 2^(r-1), and lists all the keys
// with that top bit, so the retries need not compute the fallback nor store
// the answers it gives: only the keys whose first step or retry draw lands
// in [2^(r-1), N), rare there, get another answer. Where more land there it
// loses: on a Zen 5 (AVX3), median ns a key over eight processes each,
// alternated, with the mode and with kCompress, N = 33 (1/32) 1.05 against
// 1.10, 17 (1/16) 1.05 against 1.08, 9 (1/8) 1.08 against 1.04, 1,152 (1/8)
// 1.05 against 1.00, 1,100 (1/13) 1.05 against 1.04.
enum class RetryNotes { kUpperHalf, kCompress, kManyBits, kFewBits };
inline RetryNotes NotesFor(const FlipRange& range) {
  const uint64_t later = range.mask() - range.end(), all = range.mask() + 1;
  const uint64_t upper_hits = range.end() - (range.mask() >> 1);  // [2^(r-1), N)
  if (later != 0 && 64 * upper_hits <= all) return RetryNotes::kUpperHalf;
  if (16 * later >= all) return RetryNotes::kCompress;
  return 32 * later >= all ? RetryNotes::kManyBits : RetryNotes::kFewBits;
}

// Pass one over a chunk (count <= kFlipChunk): out[i] = the first step of
// keys[i], and the keys where it lands above N - 1 noted: with kCompress in
// `list` (the key, its index and h & mask), otherwise as mask bits in
// `above`. With kUpperHalf, out[i] = the step over 2^(r-1) instead (the
// fallback; for a key whose h & mask is below 2^(r-1), its first step), and
// every key whose h & mask is 2^(r-1) or more listed as with kCompress. A
// partial last vector goes through zero-padded copies (a zero key's step is
// 0, never above).
template <RetryNotes kNotes>
void FirstSteps(const uint64_t* HWY_RESTRICT keys, std::size_t count, const FlipRange& range,
                uint32_t* HWY_RESTRICT out, MaskBits& above, RetryList& list) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 mask = hn::Set(d, range.mask());
  const V64 end = hn::Set(d, range.end());
  const V64 half = hn::Set(d, range.mask() >> 1);
  constexpr bool kUpper = kNotes == RetryNotes::kUpperHalf;
  constexpr bool kCompress = kUpper || kNotes == RetryNotes::kCompress;
  uint8_t* const first = reinterpret_cast<uint8_t*>(above.words);
  uint8_t* HWY_RESTRICT bits = first;
  if (!kCompress) std::fill(above.words, above.words + std::size(above.words), uint64_t{0});
  // Each lane's index in the chunk (blocks come in key order) in a vector
  // (GCC builds Iota at an offset through the stack), and the list's size in
  // a local (stores into the list could change a member).
  V64 index = hn::Iota(d, 0);
  const V64 step = hn::Set(d, lanes);
  std::size_t listed = 0;
  // Blocks of eight vectors: a key's step is one dependency chain through
  // five multiplies and some twenty other operations, and four such chains
  // at a time left the core waiting on them.
  // Measured on a Zen 5, K = 10^5, ns a key with four and with eight
  // (interleaved processes, pinned): AVX3, N = 1,024 0.39-0.47 against
  // 0.35-0.41; 10^6 0.56-0.58 against 0.52-0.54; 1,025 1.47-1.57 against
  // 1.23-1.37; AVX2, N = 1,000 2.43-2.44 against 2.01-2.04. Sixteen
  // measured slower than eight, as did eight in power/simd and binomial/simd.
  ForEachBlock<8>(d, keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    if constexpr (!kUpper) PrefetchAhead<U>(k, o);
    // Each part for every vector of the block before the next part: the
    // vectors' dependency chains interleave.
    CHBENCH_VECTORS(V64, key, U);
    CHBENCH_VECTORS(V64, m, U);
    CHBENCH_VECTORS(V64, v, U);  // the bits the step flips: m, or m < 2^(r-1)
    CHBENCH_VECTORS(V64, b, U);
    CHBENCH_VECTORS(V64, f, U);
    for (std::size_t u = 0; u < U; ++u) key(u) = hn::LoadU(d, k + u * lanes);
    for (std::size_t u = 0; u < U; ++u) m(u) = DrawFirstHalf(key(u));
    for (std::size_t u = 0; u < U; ++u) m(u) = hn::And(DrawSecondHalf(m(u)), mask);
    for (std::size_t u = 0; u < U; ++u) v(u) = kUpper ? hn::And(m(u), half) : m(u);
    for (std::size_t u = 0; u < U; ++u) b(u) = TopBit(v(u));
    for (std::size_t u = 0; u < U; ++u) f(u) = DrawFirstHalf(FlipperStart(key(u), b(u)));
    for (std::size_t u = 0; u < U; ++u) f(u) = Flip(v(u), b(u), DrawSecondHalf(f(u)));
    for (std::size_t u = 0; u < U; ++u) {
      StoreLow32(f(u), o + u * lanes);
      const auto later = kUpper ? Above(m(u), half) : Above(f(u), end);
      if constexpr (kCompress) {
        ListLanes(key(u), hn::Or(hn::ShiftLeft<32>(index), m(u)), later, list, listed);
        index = hn::Add(index, step);
      } else {
        bits += hn::StoreMaskBits(d, later, bits);
      }
    }
  });
  above.used = (static_cast<std::size_t>(bits - first) + 7) / 8;
  list.size = listed;
}

// The keys whose mask bit is set, in order, into `list` with their tags, one
// set bit at a time (scalar), where they are fewer than 1/32 of the keys.
void Collect(const uint64_t* HWY_RESTRICT keys, const MaskBits& above, uint64_t mask,
             RetryList& list) {
  const std::size_t lanes = hn::Lanes(D64());
  const std::size_t bytes = (lanes + 7) / 8;  // per vector
  const std::size_t used = above.used;
  std::size_t listed = 0;
  for (std::size_t w = 0; w < used; ++w) {
    for (uint64_t word = above.words[w]; word != 0; word &= word - 1) {
      const std::size_t bit =
          w * 64 + static_cast<std::size_t>(hwy::Num0BitsBelowLS1Bit_Nonzero64(word));
      const std::size_t byte = bit / 8;
      const std::size_t i = byte / bytes * lanes + (byte % bytes) * 8 + bit % 8;
      list.value[listed] = keys[i];
      list.tag[listed++] = uint64_t{i} << 32 | (flip_draw(keys[i], 0, 0) & mask);
    }
  }
  list.size = listed;
}

// The same from 1/32 of the keys on: CollectMarkedKeys, with no branch per
// word, writes each key and its index in the chunk, then each tag gets
// h & mask in lanes.
void CollectMany(const uint64_t* HWY_RESTRICT keys, std::size_t size, const MaskBits& above,
                 uint64_t mask, RetryList& list) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  list.size = CollectMarkedKeys(above.words, above.used, lanes, keys, size, list.value, list.tag,
                                std::size_t{0});
  const V64 low = hn::Set(d, mask);
  for (std::size_t at = 0; at < list.size; at += lanes) {
    const V64 h = hn::And(DrawSecondHalf(DrawFirstHalf(hn::Load(d, list.value + at))), low);
    hn::Store(hn::Or(hn::ShiftLeft<32>(hn::Load(d, list.tag + at)), h), d, list.tag + at);
  }
}

// The retry draws' constants as plain values (stores into the lists could
// change a FlipRange's members).
struct RetryConsts {
  uint64_t mask, half, end, top_odd;
  explicit RetryConsts(const FlipRange& range)
      : mask(range.mask()),
        half(range.mask() >> 1),
        end(range.end()),
        top_odd(2 * uint64_t{range.top_bit()} + 1) {}
};

// A retry draw from x = prefix * (2i + 1) in every lane, for lanes with tags
// `tag`: `placed` becomes the tag with the draw as its bucket where the draw
// falls in [2^(r-1), N) (those lanes to `accepted`), else the tag (its
// fallback); returns the lanes whose draw fell above N - 1, which go on.
HWY_INLINE hn::Mask<D64> RetryDraw(V64 x, V64 tag, const RetryConsts& c, V64& placed,
                                   hn::Mask<D64>& accepted) {
  const D64 d;
  const V64 draw = hn::And(DrawSecondHalf(x), hn::Set(d, c.mask));
  const auto above_end = Above(draw, hn::Set(d, c.end));
  accepted = hn::AndNot(above_end, Above(draw, hn::Set(d, c.half)));
  const V64 index = hn::And(tag, hn::Set(d, ~uint64_t{0} << 32));
  placed = hn::IfThenElse(accepted, hn::Or(draw, index), tag);
  return above_end;
}

// Draws i and i + 1 for a vector of the list: the multiplier of the second is
// the first's plus 2 prefix. `placed` and `accepted` as RetryDraw's, for the
// first draw that decides; returns the lanes where neither does.
HWY_INLINE hn::Mask<D64> TwoDraws(V64 prefix, V64 tag, uint64_t i, const RetryConsts& c,
                                  V64& placed, hn::Mask<D64>& accepted) {
  const D64 d;
  const V64 twice = hn::Add(prefix, prefix);
  const V64 x = i == 1 ? hn::Add(prefix, twice) : MulSmall(prefix, hn::Set(d, 2 * i + 1));
  const auto going = RetryDraw(x, tag, c, placed, accepted);
  V64 next;
  hn::Mask<D64> next_accepted;
  const auto still = RetryDraw(hn::Add(x, twice), tag, c, next, next_accepted);
  placed = hn::IfThenElse(going, next, placed);
  accepted = hn::Or(hn::AndNot(going, accepted), hn::And(going, next_accepted));
  return hn::And(going, still);
}

// The first round's start for a vector of the list (keys and tags, h & mask
// in the tags' low bits): the draw prefix (key * (2 (r - 1) + 1), then the
// first half), to `prefix`. Without kUpper, the fallback goes into the tags'
// low bits. With kUpper (the fallback already written) the first step over
// 2^r, whose draw is the prefix's iteration 0: the lanes where it lands in
// [2^(r-1), N) go to `first_in` with their tags and that bucket in `first`.
template <bool kUpper>
HWY_INLINE void FirstRoundStart(V64& prefix, V64& tag, const RetryConsts& c, V64& first,
                                hn::Mask<D64>& first_in) {
  const D64 d;
  const V64 key = prefix;
  prefix = DrawFirstHalf(MulSmall(key, hn::Set(d, c.top_odd)));
  const V64 index = hn::And(tag, hn::Set(d, ~uint64_t{0} << 32));
  if constexpr (kUpper) {
    const V64 m = hn::And(tag, hn::Set(d, c.mask));
    const V64 step = hn::Xor(m, hn::And(DrawSecondHalf(prefix), hn::Set(d, c.half)));
    first_in = hn::Not(Above(step, hn::Set(d, c.end)));
    first = hn::Or(index, step);
  } else {
    tag = hn::Or(index, FlipPow2(key, hn::And(tag, hn::Set(d, c.half))));
  }
}

// One retry round: draws i and i + 1 (i < 64) for every entry of `list`; the
// entries that decide go to `done` (their tags with their buckets; with
// kUpper only those that decide on a bucket in [2^(r-1), N), the others'
// fallbacks being in place), the others stay, moved to the front (in place:
// an entry is stored at or before where it was read). The first round
// (kFirst, i = 1) starts from the keys and their h & mask (FirstRoundStart).
// Two vectors at a time (one on SVE), their parts interleaved: 4 % faster
// than one at N = 1,025.
template <bool kFirst, bool kUpper>
HWY_INLINE void RetryRound(RetryList& list, uint64_t i, const RetryConsts& c, DoneList& done) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const std::size_t size = list.size;
  std::size_t kept = 0, decided = done.size;  // locals, as `listed` in FirstSteps
  // U vectors at `at`, each part for all of them before the next part.
  const auto block = [&]<std::size_t U>(std::size_t at) {
    CHBENCH_VECTORS(V64, prefix, U);
    CHBENCH_VECTORS(V64, tag, U);
    CHBENCH_VECTORS(V64, placed, U);
    CHBENCH_VECTORS(V64, first, U);
    CHBENCH_VECTORS(hn::Mask<D64>, above, U);
    CHBENCH_VECTORS(hn::Mask<D64>, accepted, U);
    CHBENCH_VECTORS(hn::Mask<D64>, first_in, U);
    for (std::size_t u = 0; u < U; ++u) {
      prefix(u) = hn::Load(d, list.value + at + u * lanes);
      tag(u) = hn::Load(d, list.tag + at + u * lanes);
    }
    if constexpr (kFirst) {
      for (std::size_t u = 0; u < U; ++u)
        FirstRoundStart<kUpper>(prefix(u), tag(u), c, first(u), first_in(u));
    }
    for (std::size_t u = 0; u < U; ++u)
      above(u) = TwoDraws(prefix(u), tag(u), i, c, placed(u), accepted(u));
    if constexpr (kFirst && kUpper) {
      for (std::size_t u = 0; u < U; ++u) {
        placed(u) = hn::IfThenElse(first_in(u), first(u), placed(u));
        accepted(u) = hn::Or(first_in(u), accepted(u));
        above(u) = hn::AndNot(first_in(u), above(u));
      }
    }
    for (std::size_t u = 0; u < U; ++u) {
      const auto valid = hn::FirstN(d, size - at - u * lanes);
      const auto going = hn::And(above(u), valid);
      const auto ends = hn::And(kUpper ? accepted(u) : hn::Not(above(u)), valid);
      RouteLanes(placed(u), ends, prefix(u), tag(u), going, done, decided, list, kept);
    }
  };
  constexpr std::size_t kUnroll = Unroll(2);
  std::size_t at = 0;
  if constexpr (kUnroll > 1) {
    for (; at + kUnroll * lanes <= size; at += kUnroll * lanes)
      block.template operator()<kUnroll>(at);
  }
  for (; at < size; at += lanes) block.template operator()<1>(at);
  list.size = kept;
  done.size = decided;
}

// The last entries (at most a vector), from draw `i` on: one draw at a time
// until every lane has decided, at the latest draw 64; their tags to `done`
// (with kUpper only those of the lanes that decide on a bucket in
// [2^(r-1), N)).
template <bool kUpper>
HWY_INLINE void RetryLast(const RetryList& list, uint64_t i, const RetryConsts& c, DoneList& done) {
  const D64 d;
  const V64 prefix = hn::Load(d, list.value);
  const V64 tag = hn::Load(d, list.tag);
  const V64 twice = hn::Add(prefix, prefix);
  V64 x = MulSmall(prefix, hn::Set(d, 2 * i + 1));
  auto going = hn::FirstN(d, list.size);
  auto in = hn::FirstN(d, 0);  // lanes decided on a draw in [2^(r-1), N)
  V64 bucket = tag;
  for (;; x = hn::Add(x, twice)) {
    V64 placed;
    hn::Mask<D64> accepted;
    const auto above = RetryDraw(x, tag, c, placed, accepted);
    bucket = hn::IfThenElse(going, placed, bucket);
    in = hn::Or(in, hn::And(going, accepted));
    going = hn::And(going, above);
    if (hn::AllFalse(d, going) || ++i > 64) break;
  }
  if constexpr (kUpper) {
    hn::StoreU(CompressLanes(bucket, in), d, done.tag + done.size);
    done.size += hn::CountTrue(d, in);
  } else {
    hn::StoreU(bucket, d, done.tag + done.size);
    done.size += list.size;
  }
}

// Pass two: the keys of `list` in rounds of two draws over the entries still
// going, until a vector's worth is left, which finishes a draw at a time.
// Then each bucket to out at its index (scalar stores: the places are
// scattered); keys still going after 64 draws keep their fallbacks (with
// kUpper already in out).
template <bool kUpper>
void Retries(RetryList& list, const FlipRange& range, DoneList& done, uint32_t* HWY_RESTRICT out) {
  const std::size_t lanes = hn::Lanes(D64());
  const RetryConsts c(range);
  done.size = 0;
  RetryRound<true, kUpper>(list, 1, c, done);
  uint64_t i = 3;
  for (; list.size > lanes && i < 64; i += 2) RetryRound<false, kUpper>(list, i, c, done);
  if (i <= 64) {
    if (list.size != 0) RetryLast<kUpper>(list, i, c, done);
  } else if (!kUpper) {
    for (std::size_t t = 0; t < list.size; ++t) done.tag[done.size++] = list.tag[t];
  }
  StoreAnswers(done, out);
}

// The chunks of keys[0, count) through both passes, the retries noted as
// kNotes says.
template <RetryNotes kNotes>
void FlipChunks(const uint64_t* HWY_RESTRICT keys, std::size_t count, const FlipRange& range,
                uint32_t* HWY_RESTRICT out) {
  MaskBits above;
  RetryList list;
  DoneList done;
  for (std::size_t at = 0; at < count; at += kFlipChunk) {
    const std::size_t size = count - at < kFlipChunk ? count - at : kFlipChunk;
    FirstSteps<kNotes>(keys + at, size, range, out + at, above, list);
    if constexpr (kNotes == RetryNotes::kManyBits) {
      CollectMany(keys + at, size, above, range.mask(), list);
    } else if constexpr (kNotes == RetryNotes::kFewBits) {
      Collect(keys + at, above, range.mask(), list);
    }
    if (list.size != 0) Retries<kNotes == RetryNotes::kUpperHalf>(list, range, done, out + at);
  }
}

void FlipKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t num_buckets,
              uint32_t* HWY_RESTRICT out) {
  const FlipRange range(num_buckets);
  switch (NotesFor(range)) {
    case RetryNotes::kUpperHalf:
      return FlipChunks<RetryNotes::kUpperHalf>(keys, count, range, out);
    case RetryNotes::kCompress:
      return FlipChunks<RetryNotes::kCompress>(keys, count, range, out);
    case RetryNotes::kManyBits:
      return FlipChunks<RetryNotes::kManyBits>(keys, count, range, out);
    case RetryNotes::kFewBits:
      return FlipChunks<RetryNotes::kFewBits>(keys, count, range, out);
  }
}

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

HWY_EXPORT(FlipKeys);

void flip_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                 std::span<uint32_t> out) {
  if (num_buckets == 0) throw std::invalid_argument("FlipHash takes 1 to 2^32 - 1 buckets");
  if (key_hashes.size() != out.size())
    throw std::invalid_argument("key hashes and owners differ in length");
  HWY_DYNAMIC_DISPATCH(FlipKeys)(key_hashes.data(), key_hashes.size(), num_buckets, out.data());
}

}  // namespace simd

namespace {

class FlipSimdTable final : public OwnerTable {
 public:
  explicit FlipSimdTable(uint32_t n) : n_(n) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    simd::flip_owners(h, n_, out);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

}  // namespace

constinit const KernelInfo registry::flip_simd{
    .scheme = Scheme::kFlip,
    .name = "simd",
    .summary = "keys in lanes: the power-of-two step for all, the retries gathered (Highway)",
    .simd = true,
    .rival = &registry::flip_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::flip_simd, FlipSimdTable, kFlipMaxBuckets>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench

#endif  // HWY_ONCE
