// flip/simd: FlipHash with the keys in lanes (flip.h), for every Highway
// target, and its registry entry. Chunks of keys go through two vector
// passes: the first computes every key's power-of-two step (two draws, no
// branch), writes it and notes in a bit mask where it lands above N - 1; the
// keys so noted are gathered (scalar, from the mask's set bits), and the
// second pass runs their retry draws, a few vectors of them at a time, and
// overwrites their buckets. A fraction (2^r - N) / 2^r of the keys retries:
// few just below a power of two, about half just above one, and the second
// pass works on full vectors either way.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/flip/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>

#include "chbench/flip/flip.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Keys per chunk: the mask bits and the retry list hold one chunk's.
inline constexpr std::size_t kFlipChunk = 512;

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
// FirstSteps can interleave vectors: b = floor(log2(m | 1)) is the exponent
// of the double m | 1 (exact: it goes into the mantissa of 2^52, and
// subtracting 2^52 leaves it); the draw (key, b, 0) starts with key * (2b +
// 1); its b low bits flip the bits below m's top one.
HWY_INLINE V64 TopBit(V64 m) {
  const D64 d;
  const DF64 df;
  const V64 two52 = hn::Set(d, 0x4330000000000000ULL);
  const VF64 x =
      hn::Sub(hn::BitCast(df, hn::Or(hn::Or(m, hn::Set(d, 1)), two52)), hn::BitCast(df, two52));
  return hn::Sub(hn::ShiftRight<52>(hn::BitCast(d, x)), hn::Set(d, 1023));
}
HWY_INLINE V64 FlipperStart(V64 key, V64 b) {
  return MulSmall(key, hn::Add(hn::Add(b, b), hn::Set(D64(), 1)));
}
HWY_INLINE V64 Flip(V64 m, V64 b, V64 draw) {
  const V64 one = hn::Set(D64(), 1);
  return hn::Xor(m, hn::And(draw, hn::Sub(hn::Shl(one, b), one)));
}
HWY_INLINE V64 FlipPow2(V64 key, V64 m) {
  const V64 b = TopBit(m);
  return Flip(m, b, DrawSecondHalf(DrawFirstHalf(FlipperStart(key, b))));
}

// FlipRange::retry in lanes, for U vectors of keys whose first step landed
// above N - 1 (zero keys in unused lanes are harmless: their first draw ends
// in the lower half). Each lane's bucket starts as the step over 2^(r-1),
// computed up front (it does not depend on the draws, so it overlaps their
// loop), and becomes the first draw in [2^(r-1), N) if one comes before a
// draw below 2^(r-1). The loop stops when every lane has decided, at the
// latest after 64 draws.
template <std::size_t U>
HWY_INLINE void RetryBlock(const uint64_t* HWY_RESTRICT keys, const FlipRange& range,
                           uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 mask = hn::Set(d, range.mask());
  const V64 half = hn::Set(d, range.mask() >> 1);
  const V64 end = hn::Set(d, range.end());
  const V64 odd = hn::Set(d, 2 * uint64_t{range.top_bit()} + 1);
  CHBENCH_VECTORS(V64, key, U);
  CHBENCH_VECTORS(V64, prefix, U);
  CHBENCH_VECTORS(V64, bucket, U);
  CHBENCH_VECTORS(hn::Mask<D64>, going, U);
  for (std::size_t u = 0; u < U; ++u) key(u) = hn::LoadU(d, keys + u * lanes);
  for (std::size_t u = 0; u < U; ++u) prefix(u) = DrawFirstHalf(MulSmall(key(u), odd));
  for (std::size_t u = 0; u < U; ++u)
    bucket(u) = FlipPow2(key(u), hn::And(DrawSecondHalf(DrawFirstHalf(key(u))), half));
  for (std::size_t u = 0; u < U; ++u) going(u) = hn::FirstN(d, lanes);
  for (uint64_t i = 1; i <= 64; ++i) {
    const V64 iteration_odd = hn::Set(d, 2 * i + 1);
    auto any = hn::FirstN(d, 0);
    for (std::size_t u = 0; u < U; ++u) {
      const V64 draw = hn::And(DrawSecondHalf(MulSmall(prefix(u), iteration_odd)), mask);
      const auto above_end = Above(draw, end);
      const auto accept = hn::AndNot(above_end, hn::And(going(u), Above(draw, half)));
      bucket(u) = hn::IfThenElse(accept, draw, bucket(u));
      going(u) = hn::And(going(u), above_end);
      any = hn::Or(any, going(u));
    }
    if (hn::AllFalse(d, any)) break;
  }
  for (std::size_t u = 0; u < U; ++u) StoreLow32(bucket(u), out + u * lanes);
}

// The keys of one chunk whose first step landed above N - 1, and their
// indices in the chunk.
struct RetryList {
  HWY_ALIGN uint64_t keys[kFlipChunk];
  uint32_t index[kFlipChunk];
  std::size_t size = 0;
};

// One chunk's mask bits, StoreMaskBits' layout: bit j of vector v's mask at
// bit j % 8 of byte v * bytes + j / 8, bytes = (lanes + 7) / 8; read 64 bits
// at a time. At most one byte per key (one lane).
struct MaskBits {
  uint64_t words[kFlipChunk / 8];
  std::size_t used;  // words holding bits
};

// Pass one over a chunk (count <= kFlipChunk): out[i] = the first step of
// keys[i]; `above` gets the mask bits of the keys where it lands above
// N - 1. A partial last vector goes through zero-padded copies (a zero key's
// step is 0, never above).
void FirstSteps(const uint64_t* HWY_RESTRICT keys, std::size_t count, const FlipRange& range,
                uint32_t* HWY_RESTRICT out, MaskBits& above) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 mask = hn::Set(d, range.mask());
  const V64 end = hn::Set(d, range.end());
  uint8_t* const first = reinterpret_cast<uint8_t*>(above.words);
  uint8_t* HWY_RESTRICT bits = first;
  std::fill(above.words, above.words + std::size(above.words), uint64_t{0});
  ForEachBlock<4>(d, keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    // Each part for every vector of the block before the next part: the
    // vectors' dependency chains interleave.
    CHBENCH_VECTORS(V64, key, U);
    CHBENCH_VECTORS(V64, m, U);
    CHBENCH_VECTORS(V64, b, U);
    CHBENCH_VECTORS(V64, f, U);
    for (std::size_t u = 0; u < U; ++u) key(u) = hn::LoadU(d, k + u * lanes);
    for (std::size_t u = 0; u < U; ++u) m(u) = DrawFirstHalf(key(u));
    for (std::size_t u = 0; u < U; ++u) m(u) = hn::And(DrawSecondHalf(m(u)), mask);
    for (std::size_t u = 0; u < U; ++u) b(u) = TopBit(m(u));
    for (std::size_t u = 0; u < U; ++u) f(u) = DrawFirstHalf(FlipperStart(key(u), b(u)));
    for (std::size_t u = 0; u < U; ++u) f(u) = Flip(m(u), b(u), DrawSecondHalf(f(u)));
    for (std::size_t u = 0; u < U; ++u) {
      StoreLow32(f(u), o + u * lanes);
      bits += hn::StoreMaskBits(d, Above(f(u), end), bits);  // blocks come in key order
    }
  });
  above.used = (static_cast<std::size_t>(bits - first) + 7) / 8;
}

// The keys whose mask bit is set, in order, into `list` (scalar: they are the
// minority, and the bits come 64 at a time).
void Collect(const uint64_t* HWY_RESTRICT keys, const MaskBits& above, RetryList& list) {
  const std::size_t lanes = hn::Lanes(D64());
  const std::size_t bytes = (lanes + 7) / 8;  // per vector
  list.size = 0;
  for (std::size_t w = 0; w < above.used; ++w) {
    for (uint64_t word = above.words[w]; word != 0; word &= word - 1) {
      const std::size_t bit =
          w * 64 + static_cast<std::size_t>(hwy::Num0BitsBelowLS1Bit_Nonzero64(word));
      const std::size_t byte = bit / 8;
      const std::size_t i = byte / bytes * lanes + (byte % bytes) * 8 + bit % 8;
      list.keys[list.size] = keys[i];
      list.index[list.size++] = static_cast<uint32_t>(i);
    }
  }
}

// Pass two: the keys of `list`, four vectors at a time (one on SVE), into
// `buckets`, then scattered to out one by one (they are the minority).
void Retries(const RetryList& list, const FlipRange& range, uint32_t* HWY_RESTRICT buckets,
             uint32_t* HWY_RESTRICT out) {
  const D64 d;
  ForEachBlock<4>(
      d, list.keys, list.size, buckets,
      [&]<std::size_t U>(const uint64_t* k, uint32_t* o) { RetryBlock<U>(k, range, o); });
  for (std::size_t t = 0; t < list.size; ++t) {
    uint32_t bucket = buckets[t];
    // Keeps GCC from turning this loop into AVX-512 scatters, far slower
    // than scalar stores (on Zen 4 and 5 as on Intel).
    asm("" : "+r"(bucket));
    out[list.index[t]] = bucket;
  }
}

void FlipKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t num_buckets,
              uint32_t* HWY_RESTRICT out) {
  const FlipRange range(num_buckets);
  MaskBits above;
  RetryList list;
  HWY_ALIGN uint32_t buckets[kFlipChunk];
  for (std::size_t at = 0; at < count; at += kFlipChunk) {
    const std::size_t size = count - at < kFlipChunk ? count - at : kFlipChunk;
    FirstSteps(keys + at, size, range, out + at, above);
    Collect(keys + at, above, list);
    if (list.size != 0) Retries(list, range, buckets, out + at);
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
