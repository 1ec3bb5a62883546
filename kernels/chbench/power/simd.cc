// power/simd: PowerCH with the keys in lanes (power.h), for every Highway
// target, and its registry entry. The first choice, which answers most keys,
// is a few vector operations with no branch; the keys whose first choice is
// n or more are set aside and take the rest of the crate's lookup together,
// a full vector at a time, where they are few (1/8 or less), and where they
// are more go through g's jump loop in rounds over a list of the keys still
// jumping (PowerRounds).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/power/simd.cc"
#define CHBENCH_WANT_AVX512CD    // simd_ops-inl.h: LeadingZeros in PowerFirst
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "chbench/compress-inl.h"
#include "chbench/power/power.h"
#include "chbench/round_lists-inl.h"
#include "chbench/set_aside-inl.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// The double of v < 2^52, exactly: v in the mantissa of 2^52, less 2^52 (no
// 64-bit integer conversion, which AVX2 and older lack).
HWY_INLINE VF64 PowerToDouble(V64 v) {
  const D64 d;
  const DF64 df;
  return hn::Sub(hn::BitCast(df, hn::Or(v, hn::Set(d, 0x4330000000000000ULL))),
                 hn::Set(df, 4503599627370496.0));
}

// PCG32's XSH RR output of the state in the low 32 bits of each lane (the
// high half is left over). AVX-512 rotates 32-bit lanes by counts of their
// own (vprorvd: the low half by the count, the high half by 0); elsewhere the
// 32-bit rotation is a 64-bit shift of the value written twice.
HWY_INLINE V64 PowerOutput(V64 state) {
  const V64 x = hn::ShiftRight<27>(hn::Xor(hn::ShiftRight<18>(state), state));
  const V64 rotate = hn::ShiftRight<59>(state);
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return V64{_mm512_rorv_epi32(x.raw, rotate.raw)};
#else
  const V64 twice = hn::Or(hn::ShiftLeft<32>(x), hn::And(x, hn::Set(D64(), 0xffffffffu)));
  return hn::Shr(twice, rotate);
#endif
}

// The generator's first state is key * A + inc * (A + 1) with inc = 2 level
// + 1 = 2 e - 2045, e = 1023 + level the exponent of double(low bits): so
// key_mul = key * A - 2045 (A + 1), and the state adds e * 2 (A + 1) (with
// AVX-512 CD, PowerFirst's: key_mul = key * A + 127 (A + 1)).
#if CHBENCH_LZCNT
inline constexpr uint64_t kPowerKeyOffset = 127 * (kPcgMultiplier + 1);
#else
inline constexpr uint64_t kPowerKeyOffset = uint64_t{0} - 2045 * (kPcgMultiplier + 1);
#endif
inline constexpr uint64_t kPowerLevelFactor = 2 * (kPcgMultiplier + 1);

HWY_INLINE V64 PowerKeyMul(V64 key) {
  return hn::Add(MulConst64(key, kPcgMultiplier), hn::Set(D64(), kPowerKeyOffset));
}

// power_first in lanes: t = 2^level is read off the exponent of the double
// of low | 1 (low = 0 gives t = 1 and then 0, since low & t is 0), and the
// bucket is (low & t) | (output & (t - 1)). Writes the generator's state.
// With AVX-512 CD the level is 63 - z, z the leading zeros of low | 1 (one
// instruction): inc = 127 - 2z, so key_mul adds 127 (A + 1), the state
// subtracts z * 2 (A + 1), and t = 2^63 >> z. Measured on a Zen 5 (AVX3),
// ns a key, with the count and without: K = 10^5, N = 10^6 0.39 against
// 0.43-0.56; 1,024 0.20-0.21 against 0.25; 1,025 0.56-0.57 against
// 0.62-0.64; K = 10^7, N = 10^6 0.45-0.49 against 0.49-0.50.
HWY_INLINE V64 PowerFirst(V64 key, V64 key_mul, V64 mask, V64& state) {
  const D64 d;
  const V64 low = hn::And(key, mask);
#if CHBENCH_LZCNT
  const V64 zeros = LeadingZeros(hn::Or(low, hn::Set(d, 1)));
  state = hn::Sub(key_mul, MulConst64(zeros, kPowerLevelFactor));
  const V64 top = hn::Shr(hn::Set(d, uint64_t{1} << 63), zeros);
#else
  const V64 e = hn::ShiftRight<52>(hn::BitCast(d, PowerToDouble(hn::Or(low, hn::Set(d, 1)))));
  state = hn::Add(key_mul, MulConst64(e, kPowerLevelFactor));
  const V64 top = hn::Shl(hn::Set(d, 1), hn::Sub(e, hn::Set(d, 1023)));
#endif
  return hn::Or(hn::And(low, top), hn::And(PowerOutput(state), hn::Sub(top, hn::Set(d, 1))));
}

// a > b for lanes below 2^63 (the signed compare, native from SSE4 on).
HWY_INLINE hn::Mask<D64> PowerGreater(V64 a, V64 b) {
  const DI64 di;
  return hn::RebindMask(D64(), hn::Gt(hn::BitCast(di, a), hn::BitCast(di, b)));
}

// (x + 1) (2^32 - 1), the crate's scaled_x.
HWY_INLINE V64 PowerScaled(V64 x) {
  const V64 x1 = hn::Add(x, hn::Set(D64(), 1));
  return hn::Sub(hn::ShiftLeft<32>(x1), x1);
}

// g goes on while n (draw + 1) > scaled (draw < 2^32, n < 2^31).
HWY_INLINE hn::Mask<D64> PowerGoesOn(V64 n, V64 draw, V64 scaled) {
  return PowerGreater(hn::Add(Mul32x32(n, draw), n), scaled);
}

// floor(scaled / (draw + 1)) exactly where it is below n < 2^31 (the lanes
// that go on). Doubles: x + 1 <= 2^31 and draw + 1 <= 2^32 are exact, and
// the two roundings of (x + 1)(2^32 - 1) / (draw + 1) err by less than 2^-21,
// so the nearest integer q is the quotient or one above; q (draw + 1) >
// scaled says which (the product is below 2^63).
HWY_INLINE V64 PowerQuotient(V64 x, V64 scaled, V64 draw) {
  const D64 d;
  const DF64 df;
  const V64 one = hn::Set(d, 1);
  const VF64 num = hn::Mul(PowerToDouble(hn::Add(x, one)), hn::Set(df, 4294967295.0));
  const VF64 q = hn::Div(num, PowerToDouble(hn::Add(draw, one)));
  const V64 rounded = hn::Sub(hn::BitCast(d, hn::Add(q, hn::Set(df, 4503599627370496.0))),
                              hn::Set(d, 0x4330000000000000ULL));
  const V64 product = hn::Add(Mul32x32(rounded, draw), rounded);
  return hn::IfThenElse(PowerGreater(product, scaled), hn::Sub(rounded, one), rounded);
}

// g's generator step: PCG32's LCG on the top level's stream, whose
// increment is 2 log2(m/2) + 1.
HWY_INLINE V64 PowerStep(V64 state, const PowerBuckets& b) {
  const uint64_t inc = 2 * static_cast<uint64_t>(std::bit_width(b.half)) + 1;
  return hn::Add(MulConst64(state, kPcgMultiplier), hn::Set(D64(), inc));
}

// g's draw of a state: PCG32's output alone in the low 32 bits.
HWY_INLINE V64 PowerDraw(V64 state) {
  return hn::And(PowerOutput(state), hn::Set(D64(), 0xffffffffu));
}

// power_above in lanes for the lanes of above(u) of the U vectors of a block
// (first choice >= n, so from the top level, whose stream is log2(m/2)): one
// more generator step, g's jumps from m/2 - 1 while any lane of the block
// goes on (stopped lanes keep their x; the vectors' loops interleave), then x
// where it passed m/2 - 1 and f(key, m/2 - 1) elsewhere, into bucket(u).
template <std::size_t U, class Keys, class KeyMuls, class States, class Masks, class Buckets>
HWY_INLINE void PowerAboveBlock(const Keys& key, const KeyMuls& key_mul, const States& state,
                                const Masks& above, const PowerBuckets& b, const Buckets& bucket) {
  const D64 d;
  const V64 n = hn::Set(d, b.n);
  const V64 half = hn::Set(d, b.half);
  CHBENCH_VECTORS(V64, x, U);
  CHBENCH_VECTORS(V64, s, U);
  CHBENCH_VECTORS(V64, scaled, U);
  CHBENCH_VECTORS(V64, draw, U);
  CHBENCH_VECTORS(hn::Mask<D64>, going, U);
  auto any = hn::FirstN(d, 0);
  for (std::size_t u = 0; u < U; ++u) {
    s(u) = PowerStep(state(u), b);
    x(u) = half;
    scaled(u) = PowerScaled(half);
    draw(u) = PowerDraw(s(u));
    going(u) = hn::And(above(u), PowerGoesOn(n, draw(u), scaled(u)));
    any = hn::Or(any, going(u));
  }
  while (!hn::AllFalse(d, any)) {
    any = hn::FirstN(d, 0);
    for (std::size_t u = 0; u < U; ++u) {
      x(u) = hn::IfThenElse(going(u), PowerQuotient(x(u), scaled(u), draw(u)), x(u));
      s(u) = PowerStep(s(u), b);
      scaled(u) = PowerScaled(x(u));
      draw(u) = PowerDraw(s(u));
      going(u) = hn::And(going(u), PowerGoesOn(n, draw(u), scaled(u)));
      any = hn::Or(any, going(u));
    }
  }
  for (std::size_t u = 0; u < U; ++u) {
    V64 unused;
    const V64 second = PowerFirst(key(u), key_mul(u), half, unused);
    bucket(u) =
        hn::IfThenElse(above(u), hn::IfThenElse(PowerGreater(x(u), half), x(u), second), bucket(u));
  }
}

// The lookup of the U vectors of keys at k, answers to o: every lane's first
// choice, then the rest of the lookup under masks for the block's lanes whose
// first choice is n or more, if it has any, the vectors' loops interleaved.
// Measured on a Zen 5 (AVX3) over fresh keys (K = 10^5), ns a key against the
// rest run vector by vector: N = 1,025 0.66 against 0.74, 1,100 0.90-0.99
// against 1.37-1.38, 1,280 1.11-1.34 against 2.29-2.33.
template <std::size_t U>
HWY_INLINE void PowerBlock(const uint64_t* HWY_RESTRICT k, uint32_t* HWY_RESTRICT o,
                           const PowerBuckets& b) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 full = hn::Set(d, b.full);
  const V64 last = hn::Set(d, b.n - 1);
  CHBENCH_VECTORS(V64, key, U);
  CHBENCH_VECTORS(V64, key_mul, U);
  CHBENCH_VECTORS(V64, state, U);
  CHBENCH_VECTORS(V64, bucket, U);
  CHBENCH_VECTORS(hn::Mask<D64>, above, U);
  auto any = hn::FirstN(d, 0);
  for (std::size_t u = 0; u < U; ++u) {
    key(u) = hn::LoadU(d, k + u * lanes);
    key_mul(u) = PowerKeyMul(key(u));
    bucket(u) = PowerFirst(key(u), key_mul(u), full, state(u));
    above(u) = PowerGreater(bucket(u), last);
    any = hn::Or(any, above(u));
  }
  if (!hn::AllFalse(d, any)) PowerAboveBlock<U>(key, key_mul, state, above, b, bucket);
  for (std::size_t u = 0; u < U; ++u) StoreLow32(bucket(u), o + u * lanes);
}

// Keys a chunk of PowerRounds holds: its lists stay in L1.
inline constexpr std::size_t kPowerChunk = 1024;

// A chunk's keys still in g's jump loop, as the rounds carry them
// (round_lists-inl.h): `value` holds the generator's state, whose output is
// the draw that keeps the key going; `tag` the key's place in the chunk in
// the high 32 bits and x, g's value so far, in the low ones.
using JumpList = RoundList<kPowerChunk>;
using JumpAnswers = AnswerList<kPowerChunk>;

// Pass one over a chunk (size <= kPowerChunk): every key's answer if g's
// loop does not jump (its first choice, or for a first choice of n or more
// f(key, m/2 - 1)) to out, and the keys whose first draw in g jumps listed
// with the generator's state and x = m/2 - 1. With kRare (PowerJumpsRare), a
// block of vectors none of whose keys jumps lists nothing, through a branch
// that predicts well. A partial last vector goes through zero-padded copies
// (a zero key's first choice is 0). Every key takes f(key, m/2 - 1), its
// first choice if its low bits lack m/2; the others' first choice is read off
// the top level's generator, whose state is key_mul plus a constant, and g's
// first jump is one compare against a threshold. Against PowerFirst over
// m - 1, then f(key, m/2 - 1) for the keys above and PowerGoesOn, on a Zen 5,
// median ns a key over eight processes each, alternated: AVX3, N = 1,025
// 0.438 against 0.513, 2^20 + 1 0.424 against 0.502 (1,024, which does not
// take this pass, 0.239 against 0.238); forced to AVX2 (six each), 1,025
// 1.70 against 2.18.
template <bool kRare>
HWY_INLINE void PowerFirstPass(const uint64_t* HWY_RESTRICT keys, std::size_t size,
                               const PowerBuckets& b, uint32_t* HWY_RESTRICT out, JumpList& list) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 half = hn::Set(d, b.half);
  const V64 top = hn::Set(d, uint64_t{b.half} + 1);  // m/2
  const V64 last = hn::Set(d, b.n - 1);
  // g's first draw jumps from m/2 - 1 where n (draw + 1) > (m/2) (2^32 - 1),
  // that is where the draw is at least floor((m/2) (2^32 - 1) / n): one
  // compare instead of PowerGoesOn's multiply, add and compare.
  const uint64_t jump_least = (uint64_t{b.half} + 1) * 0xffffffffu / b.n;
  const V64 below_jump = hn::Set(d, jump_least - 1);
  // The top level's generator, stream log2(m/2), starts at key_mul plus
  // (2 log2(m/2) + 1) (A + 1) less PowerKeyMul's offset: no leading-zero
  // count and no multiply for the keys whose low bits have m/2 set.
  const uint64_t level = static_cast<uint64_t>(std::bit_width(b.half));
  const V64 top_offset = hn::Set(d, (2 * level + 1) * (kPcgMultiplier + 1) - kPowerKeyOffset);
  V64 index = hn::Iota(d, 0);  // each lane's place in the chunk
  const V64 step = hn::Set(d, lanes);
  std::size_t listed = 0;  // a local: stores into the list could change a member
  ForEachBlock<4>(d, keys, size, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    // Each part for every vector of the block before the next part: the
    // vectors' dependency chains interleave.
    CHBENCH_VECTORS(V64, key, U);
    CHBENCH_VECTORS(V64, second, U);
    CHBENCH_VECTORS(V64, top_first, U);
    CHBENCH_VECTORS(V64, s, U);
    for (std::size_t u = 0; u < U; ++u) {
      key(u) = hn::LoadU(d, k + u * lanes);
      const V64 key_mul = PowerKeyMul(key(u));
      V64 unused;
      second(u) = PowerFirst(key(u), key_mul, half, unused);
      const V64 state = hn::Add(key_mul, top_offset);
      top_first(u) = hn::Or(top, hn::And(PowerOutput(state), half));
      s(u) = PowerStep(state, b);
    }
    CHBENCH_VECTORS(hn::Mask<D64>, jumps, U);
    for (std::size_t u = 0; u < U; ++u) {
      const auto has_top = hn::TestBit(key(u), top);
      const auto above = hn::And(has_top, PowerGreater(top_first(u), last));
      jumps(u) = hn::And(above, PowerGreater(PowerDraw(s(u)), below_jump));
      StoreLow32(hn::IfThenElse(hn::AndNot(above, has_top), top_first(u), second(u)),
                 o + u * lanes);
      if constexpr (!kRare) {
        ListLanes(s(u), hn::Or(hn::ShiftLeft<32>(index), half), jumps(u), list, listed);
        index = hn::Add(index, step);
      }
    }
    if constexpr (kRare) {
      auto any = jumps(0);
      for (std::size_t u = 1; u < U; ++u) any = hn::Or(any, jumps(u));
      if (!hn::AllFalse(d, any)) {
        for (std::size_t u = 0; u < U; ++u) {
          ListLanes(s(u), hn::Or(hn::ShiftLeft<32>(index), half), jumps(u), list, listed);
          index = hn::Add(index, step);
        }
      } else {
        index = hn::Add(index, hn::Set(d, U * lanes));
      }
    }
  });
  list.size = listed;
}

// One jump of g for every entry of `list`: x becomes the quotient of its
// draw, the generator steps, and the entries whose next draw stops the loop
// go to `answers` with x where it passed m/2 - 1; the others stay,
// moved to the front (in place: an entry is stored at or before where it
// was read).
HWY_INLINE void PowerJumpRound(JumpList& list, JumpAnswers& answers, const PowerBuckets& b) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 n = hn::Set(d, b.n);
  const V64 half = hn::Set(d, b.half);
  const V64 low32 = hn::Set(d, 0xffffffffu);
  const std::size_t size = list.size;
  std::size_t kept = 0, done = answers.size;
  for (std::size_t at = 0; at < size; at += lanes) {
    const V64 s = hn::Load(d, list.value + at);
    const V64 tag = hn::Load(d, list.tag + at);
    const auto valid = hn::FirstN(d, size - at);
    const V64 x = hn::And(tag, low32);
    const V64 next_x = PowerQuotient(x, PowerScaled(x), PowerDraw(s));
    const V64 next_s = PowerStep(s, b);
    const auto going = hn::And(valid, PowerGoesOn(n, PowerDraw(next_s), PowerScaled(next_x)));
    // A jump can leave x at m/2 - 1 (a draw of 2^32 - 1): then the answer
    // is the one pass one wrote.
    const auto ends = hn::AndNot(going, hn::And(valid, PowerGreater(next_x, half)));
    const V64 next_tag = hn::Or(hn::AndNot(low32, tag), next_x);
    RouteLanes(next_tag, ends, next_s, next_tag, going, answers, done, list, kept);
  }
  list.size = kept;
  answers.size = done;
}

// Whether so few keys jump in g's loop that most blocks of PowerFirstPass
// list none: fewer than 1/128 of the keys, (m - n) / m of them with a first
// choice of n or more, times the chance 1 - (m/2) / n that g's first draw
// jumps from m/2 - 1. Just above a power of two about 2^-k of the keys jump,
// and skipping the lists' compressions there made PowerRounds 1.2 times as
// fast on a Zen 5 (AVX3), K = 10^5, pinned to CPU 0: N = 1,025 0.53-0.57 ns
// a key against 0.63-0.64, 2^20 + 1 0.52-0.54 against 0.62. Where more jump
// the branch mispredicts, and the lists go on without it: N = 1,300 (7.7 %
// of the keys jump) 0.81-0.83 with it against 0.78-0.81, 1,100 (3.2 %) 0.74
// against 0.73-0.75.
HWY_INLINE bool PowerJumpsRare(const PowerBuckets& b) {
  const double m = static_cast<double>(b.full) + 1, n = b.n;
  return 128 * (m - n) * (1 - m / 2 / n) < m;
}

// out[i] for keys[0, count) in chunks of kPowerChunk: every key's answer
// unless g's loop jumps (PowerFirstPass), then the keys it does jump for in
// rounds of one jump over the entries still jumping, then each of their
// answers to its place. Not inlined, so that it does not change the code
// GCC makes of the set-aside path.
HWY_NOINLINE void PowerRounds(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                              const PowerBuckets& b, uint32_t* HWY_RESTRICT out) {
  JumpList list;
  JumpAnswers answers;
  const bool rare = PowerJumpsRare(b);
  for (std::size_t at = 0; at < count; at += kPowerChunk) {
    const std::size_t size = std::min(kPowerChunk, count - at);
    if (rare) {
      PowerFirstPass<true>(keys + at, size, b, out + at, list);
    } else {
      PowerFirstPass<false>(keys + at, size, b, out + at, list);
    }
    answers.size = 0;
    while (list.size != 0) PowerJumpRound(list, answers, b);
    StoreAnswers(answers, out + at);
  }
}

// Whether g's loop runs in rounds (PowerRounds) rather than for keys set
// aside: where more than 1/8 of the keys have a first choice of n or more,
// (m - n) / m. Measured on a Zen 5 (AVX3) over fresh keys (K = 10^5), ns a
// key, rounds against the earlier paths (set aside up to a third, in place
// above): N = 1,000 (2.3 %) 0.66-0.68 against 0.35-0.37; 1,792 (1/8)
// 0.73-0.75 against 0.72-0.74; 1,700 0.75-0.78 against 0.86-1.08; 1,536
// (1/4) 0.83-0.85 against 1.07-1.10; 1,400 0.74 against 1.26-1.29; 1,300
// 0.72-0.86 against 1.12-1.15; 1,100 0.67-0.76 against 0.89-0.92; 1,025
// 0.59-0.60 against 0.62-0.65.
HWY_INLINE bool PowerInRounds(const PowerBuckets& b) {
  const uint64_t m = uint64_t{b.full} + 1;
  return (m - b.n) * 8 > m;
}

// In rounds when PowerInRounds, else set aside (set_aside-inl.h); the last
// partial vector in place.
void PowerKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t num_buckets,
               uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const PowerBuckets b = power_buckets(num_buckets);
  if (PowerInRounds(b)) return PowerRounds(keys, count, b, out);
  const V64 full = hn::Set(d, b.full);
  const V64 last = hn::Set(d, b.n - 1);
  // In a block of set-aside keys (all of them first choices of n or more)
  // every lane takes the rest of the lookup.
  const auto block = [&]<std::size_t U>(const uint64_t* HWY_RESTRICT k, uint32_t* HWY_RESTRICT o) {
    PowerBlock<U>(k, o, b);
  };
  const auto first = [&](V64 key, V64& bucket) {
    V64 state;
    bucket = PowerFirst(key, PowerKeyMul(key), full, state);
    return PowerGreater(bucket, last);
  };
  const uint64_t m = uint64_t{b.full} + 1;
  const std::size_t done = SetAsideKeys(keys, count, out, first, block, m - b.n, m);
  ForEachBlock<4>(d, keys + done, count - done, out + done, block);
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <memory>
#include <span>
#include <stdexcept>

#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {

HWY_EXPORT(PowerKeys);

void power_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                  std::span<uint32_t> out) {
  if (num_buckets == 0 || num_buckets > kPowerMaxBuckets)
    throw std::invalid_argument("PowerCH takes 1 to 2^31 - 1 buckets");
  if (key_hashes.size() != out.size())
    throw std::invalid_argument("key hashes and owners differ in length");
  HWY_DYNAMIC_DISPATCH(PowerKeys)(key_hashes.data(), key_hashes.size(), num_buckets, out.data());
}

}  // namespace simd

namespace {

class PowerSimdTable final : public OwnerTable {
 public:
  explicit PowerSimdTable(uint32_t n) : n_(n) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    simd::power_owners(h, n_, out);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

}  // namespace

constinit const KernelInfo registry::power_simd{
    .scheme = Scheme::kPower,
    .name = "simd",
    .summary = "keys in lanes: the first choice branch-free, the rest under masks (Highway)",
    .simd = true,
    .rival = &registry::power_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::power_simd, PowerSimdTable, kPowerMaxBuckets>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench

#endif  // HWY_ONCE
