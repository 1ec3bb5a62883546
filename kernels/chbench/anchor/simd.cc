// anchor/simd: AnchorHash lookups with the keys in lanes (anchor.h), for
// every Highway target, and the kernel's registry entry.
//
// A lookup (anchor_lookup) first draws among the buckets that never worked,
// which needs no memory: each vector of keys loops over those draws under a
// mask until every lane is on a bucket with an entry, then gathers it. The
// walks that go on from there differ in length (with half the buckets
// removed, half the keys take one more step, a few take many), so lanes are
// not kept in fixed vectors until the slowest finishes: the walks of a batch
// of keys live in arrays of lane state (in L1), and each pass takes every
// walk one step further, gathers all their entries at once (independent
// loads, which overlap even when the table is far larger than the caches),
// and compacts the walks still going to the front, while the finished ones
// leave their owner and position for a scalar store. Passes repeat until
// at most kCarry walks are left, which go on beside the next batch's keys:
// no pass waits on the latency of a few long walks alone.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/anchor/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "chbench/anchor/anchor.h"
#include "chbench/compress-inl.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

using M64 = hn::Mask<D64>;

// floor(r * n / 2^64) for n < 2^32 (anchor_range): the high word's product
// plus the carry of the low word's, each a 32 x 32 -> 64 bit product.
HWY_INLINE V64 RangeOf(V64 r, V64 n) {
  const D64 d;
  const V64 high = Mul32x32(hn::ShiftRight<32>(r), n);
  const V64 low = hn::ShiftRight<32>(Mul32x32(hn::And(r, hn::Set(d, 0xffffffffu)), n));
  return hn::ShiftRight<32>(hn::Add(high, low));
}

// SplitMix64's finaliser (anchor_mix).
HWY_INLINE V64 Mix13(V64 z) {
  z = MulConst64(hn::Xor(z, hn::ShiftRight<30>(z)), 0xbf58476d1ce4e5b9ULL);
  z = MulConst64(hn::Xor(z, hn::ShiftRight<27>(z)), 0x94d049bb133111ebULL);
  return hn::Xor(z, hn::ShiftRight<31>(z));
}

// x % n exactly for x < 2^32 and 1 <= n < 2^32: both are exact doubles (the
// mantissa of 2^52 trick, as jump/simd), and the rounded quotient never
// reaches the next integer (it is at least 1/n away; the rounding error is
// below x / n * 2^-53 < 1/n), so its truncation is floor(x / n).
HWY_INLINE V64 Mod32(V64 x, V64 n) {
  const D64 d;
  const DF64 df;
  const V64 exponent = hn::Set(d, 0x4330000000000000ULL);
  const VF64 two52 = hn::Set(df, 4503599627370496.0);
  const VF64 fx = hn::Sub(hn::BitCast(df, hn::Or(x, exponent)), two52);
  const VF64 fn = hn::Sub(hn::BitCast(df, hn::Or(n, exponent)), two52);
  const VF64 q = hn::Add(hn::Trunc(hn::Div(fx, fn)), two52);
  return hn::Sub(x, Mul32x32(hn::And(hn::BitCast(d, q), hn::Set(d, 0xffffffffu)), n));
}

// anchor_crc32c in lanes: slicing by 8, one gather per byte from the 64-bit
// tables of anchor_crc32c_table().
HWY_INLINE V64 Crc32c(V64 data, V64 crc, const uint64_t* HWY_RESTRICT table) {
  const D64 d;
  const DI64 di;
  const V64 x = hn::Xor(data, crc);
  V64 c = hn::Zero(d);
  for (int i = 0; i < 8; ++i) {
    const V64 byte = hn::And(hn::ShiftRightSame(x, 8 * i), hn::Set(d, 0xff));
    const V64 index = hn::Add(byte, hn::Set(d, uint64_t(7 - i) * 256));
    c = hn::Xor(c, hn::GatherIndex(d, table, hn::BitCast(di, index)));
  }
  return c;
}

// SUPSI's anchor_xx32_chain in lanes, 32-bit values in 64-bit lanes.
HWY_INLINE V64 Low32(V64 x) { return hn::And(x, hn::Set(D64(), 0xffffffffu)); }
HWY_INLINE V64 Mul32(V64 a, uint32_t c) { return Low32(Mul32x32(a, hn::Set(D64(), c))); }
template <int R>
HWY_INLINE V64 Rotl32(V64 x) {
  return Low32(hn::Or(hn::ShiftLeft<R>(x), hn::ShiftRight<32 - R>(x)));
}
HWY_INLINE V64 Bswap32(V64 x) {
  const D64 d;
  const V64 b0 = hn::ShiftLeft<24>(hn::And(x, hn::Set(d, 0xff)));
  const V64 b1 = hn::ShiftLeft<8>(hn::And(x, hn::Set(d, 0xff00)));
  const V64 b2 = hn::And(hn::ShiftRight<8>(x), hn::Set(d, 0xff00));
  const V64 b3 = hn::And(hn::ShiftRight<24>(x), hn::Set(d, 0xff));
  return hn::Or(hn::Or(b0, b1), hn::Or(b2, b3));
}
HWY_INLINE V64 Xx32Chain(V64 k, V64 b) {
  const D64 d;
  constexpr uint32_t p1 = 0x9E3779B1u, p2 = 0x85EBCA77u, p3 = 0xC2B2AE3Du;
  auto round = [&](uint32_t start, V64 word) {
    return Mul32(Rotl32<13>(Low32(hn::Add(hn::Set(d, start), Mul32(word, p2)))), p1);
  };
  // The fourth word is the seed's: its accumulator is a constant.
  constexpr uint32_t acc3 =
      anchor_rotl32(anchor_rotl32((0u - p1) + anchor_bswap32(kSupsiSeed) * p2, 13) * p1, 18);
  const V64 a0 = round(p1 + p2, Bswap32(hn::ShiftRight<32>(k)));
  const V64 a1 = round(p2, Bswap32(Low32(k)));
  const V64 a2 = round(0, Bswap32(b));
  V64 h = hn::Add(hn::Add(Rotl32<1>(a0), Rotl32<7>(a1)), hn::Add(Rotl32<12>(a2), hn::Set(d, acc3)));
  h = Low32(hn::Add(h, hn::Set(d, 16)));
  h = Mul32(hn::Xor(h, hn::ShiftRight<15>(h)), p2);
  h = Mul32(hn::Xor(h, hn::ShiftRight<13>(h)), p3);
  return hn::Xor(h, hn::ShiftRight<16>(h));
}

// The lane state of a walk: `s` (SplitMix64: the stream's state; CRC: the
// key; SUPSI: k), `x` (CRC: the last bs), and in the kernel the entry
// reached, the bucket it belongs to (SUPSI, whose draws hash it) and
// v | position << 32.
//
// Draw(s, x, n, b, first, go): the next draw in [0, n) of the lanes in `go`
// (their s and x advance; the other lanes keep theirs) while resolving the
// removed bucket b. `first` marks the lanes drawing in [0, a).
struct SplitMixDraws {
  static constexpr bool kUsesX = false, kUsesBucket = false;
  static HWY_INLINE V64 Draw(V64& s, V64& /*x*/, V64 n, V64 /*b*/, M64 /*first*/, M64 go,
                             const uint64_t* /*table*/) {
    s = hn::IfThenElse(go, hn::Add(s, hn::Set(D64(), kAnchorGamma)), s);
    return RangeOf(Mix13(s), n);
  }
};

// ComputeBucket(key1 = s, key2 = 0): bs = crc(key1, 0) first, then
// bs = crc(key1 - bs, bs); the draw is bs % n.
struct CrcDraws {
  static constexpr bool kUsesX = true, kUsesBucket = false;
  static HWY_INLINE V64 Draw(V64& s, V64& x, V64 n, V64 /*b*/, M64 first, M64 go,
                             const uint64_t* HWY_RESTRICT table) {
    const V64 data = hn::IfThenElse(first, s, hn::Sub(s, x));
    const V64 bs = Crc32c(data, hn::IfThenZeroElse(first, x), table);
    x = hn::IfThenElse(go, bs, x);
    return Mod32(bs, n);
  }
};

// SUPSI's AnchorEngine: k = the low 32 bits of the key hash first, then
// k = xx32(BE64(k) ++ BE32(b) ++ BE32(0xDEADBEEF)); the draw is k % n.
struct SupsiDraws {
  static constexpr bool kUsesX = false, kUsesBucket = true;
  static HWY_INLINE V64 Draw(V64& s, V64& /*x*/, V64 n, V64 b, M64 first, M64 go,
                             const uint64_t* /*table*/) {
    const V64 k = hn::IfThenElse(first, Low32(s), Xx32Chain(s, b));
    s = hn::IfThenElse(go, k, s);
    return Mod32(k, n);
  }
};

// Keys per batch, and the walks of earlier batches still going when the
// next batch starts: up to six arrays of 64-bit lane state, 30 KiB, stay in
// L1.
inline constexpr std::size_t kBatch = 512;
inline constexpr std::size_t kCarry = 128;
inline constexpr std::size_t kWalks = kBatch + kCarry + kMaxLanes64;

struct BatchState {
  HWY_ALIGN uint64_t s[kWalks];
  HWY_ALIGN uint64_t x[kWalks];
  HWY_ALIGN uint64_t e[kWalks];     // the entry reached
  HWY_ALIGN uint64_t c[kWalks];     // its bucket (kUsesBucket)
  HWY_ALIGN uint64_t vi[kWalks];    // v | position << 32
  HWY_ALIGN uint64_t done[kWalks];  // owner << 32 | position
};

// The first steps of the walks of U vectors of keys at keys[0 ...], the
// first `count` of them real (the rest padding), at span positions
// `position` on: the draws among the never-used buckets, which need no
// memory (the U vectors loop together until no lane draws one, for
// independent work in flight), then the gather of the first entry. Every
// lane's owner as that entry says goes to out[0 .. U * Lanes) (the walks
// that go on overwrite theirs when they finish); the walks that go on are
// appended to the walks in st at w (those carried included). Returns the new
// w.
struct FirstContext {
  const uint64_t* HWY_RESTRICT entries;
  const uint64_t* HWY_RESTRICT table;
  uint32_t capacity, used;
};

template <class Draws, std::size_t U>
HWY_INLINE std::size_t FirstSteps(const FirstContext& ctx, const uint64_t* HWY_RESTRICT keys,
                                  std::size_t count, std::size_t position,
                                  uint32_t* HWY_RESTRICT out, BatchState& st, std::size_t w) {
  const D64 d;
  const DI64 di;
  const std::size_t lanes = hn::Lanes(d);
  const V64 one = hn::Set(d, 1);
  const M64 all = hn::FirstN(d, lanes), none = hn::FirstN(d, 0);
  const VI64 last_used = hn::Set(di, int64_t{ctx.used} - 1);
  CHBENCH_VECTORS(V64, s, U);
  CHBENCH_VECTORS(V64, x, U);
  CHBENCH_VECTORS(V64, c, U);
  CHBENCH_VECTORS(V64, v, U);
  CHBENCH_VECTORS(M64, valid, U);
  for (std::size_t u = 0; u < U; ++u) {
    s(u) = hn::LoadU(d, keys + u * lanes);
    x(u) = hn::Zero(d);
    valid(u) = hn::FirstN(d, count > u * lanes ? count - u * lanes : 0);
    c(u) = Draws::Draw(s(u), x(u), hn::Set(d, ctx.capacity), hn::Zero(d), all, all, ctx.table);
    v(u) = hn::Set(d, 0xffffffffu);
  }
  for (;;) {
    CHBENCH_VECTORS(M64, far, U);
    auto any = hn::FirstN(d, 0);
    for (std::size_t u = 0; u < U; ++u) {
      far(u) = hn::And(valid(u), hn::RebindMask(d, hn::Gt(hn::BitCast(di, c(u)), last_used)));
      any = hn::Or(any, far(u));
    }
    if (hn::AllFalse(d, any)) break;
    for (std::size_t u = 0; u < U; ++u) {
      v(u) = hn::IfThenElse(far(u), c(u), v(u));
      const V64 n = hn::IfThenElse(far(u), c(u), one);
      const V64 drawn = Draws::Draw(s(u), x(u), n, c(u), none, far(u), ctx.table);
      c(u) = hn::IfThenElse(far(u), drawn, c(u));
    }
  }
  for (std::size_t u = 0; u < U; ++u) {
    const V64 index = hn::IfThenElseZero(valid(u), c(u));
    const V64 e = hn::GatherIndex(d, ctx.entries, hn::BitCast(di, index));
    StoreLow32(hn::ShiftRight<32>(e), out + u * lanes);
    const M64 alive =
        hn::AndNot(hn::Eq(hn::And(e, hn::Set(d, 0xffffffffu)), hn::Zero(d)), valid(u));
    hn::StoreU(CompressLanes(s(u), alive), d, st.s + w);
    if (Draws::kUsesX) hn::StoreU(CompressLanes(x(u), alive), d, st.x + w);
    hn::StoreU(CompressLanes(e, alive), d, st.e + w);
    if (Draws::kUsesBucket) hn::StoreU(CompressLanes(index, alive), d, st.c + w);
    const V64 vi = hn::Or(v(u), hn::ShiftLeft<32>(IotaFrom(d, position + u * lanes)));
    hn::StoreU(CompressLanes(vi, alive), d, st.vi + w);
    w += hn::CountTrue(d, alive);
  }
  return w;
}

// The first steps of a batch of n <= kBatch keys at position `first` of
// the span, their walks appended to the w walks going on in st: blocks of
// kUnroll vectors, then single vectors, then the last partial vector through
// padded copies. Returns the walks that go on.
template <class Draws>
std::size_t FirstStepsOfBatch(const FirstContext& ctx, const uint64_t* HWY_RESTRICT keys,
                              std::size_t n, std::size_t first, uint32_t* HWY_RESTRICT out,
                              BatchState& st, std::size_t w) {
  constexpr std::size_t kUnroll = Unroll(4);
  const std::size_t lanes = hn::Lanes(D64());
  std::size_t i = 0;
  for (; i + kUnroll * lanes <= n; i += kUnroll * lanes)
    w = FirstSteps<Draws, kUnroll>(ctx, keys + i, kUnroll * lanes, first + i, out + i, st, w);
  for (; i + lanes <= n; i += lanes)
    w = FirstSteps<Draws, 1>(ctx, keys + i, lanes, first + i, out + i, st, w);
  if (i < n) {
    HWY_ALIGN uint64_t in_pad[kMaxLanes64] = {};
    HWY_ALIGN uint32_t out_pad[kMaxLanes64] = {};
    for (std::size_t j = i; j < n; ++j) in_pad[j - i] = keys[j];
    w = FirstSteps<Draws, 1>(ctx, in_pad, n - i, first + i, out_pad, st, w);
    for (std::size_t j = i; j < n; ++j) out[j] = out_pad[j - i];
  }
  return w;
}

// One step of the `live` walks in st (anchor_finish's loop body):
// the finished ones go to st.done (their count is returned in *finished),
// the others are compacted to the front; returns how many go on.
template <class Draws>
std::size_t StepBatch(const uint64_t* HWY_RESTRICT entries, const uint64_t* HWY_RESTRICT table,
                      std::size_t live, BatchState& st, std::size_t* finished) {
  const D64 d;
  const DI64 di;
  const std::size_t lanes = hn::Lanes(d);
  const V64 low32 = hn::Set(d, 0xffffffffu);
  const V64 one = hn::Set(d, 1);
  const M64 none = hn::FirstN(d, 0);  // no walk draws its first bucket here
  std::size_t w = 0, nd = 0;
  for (std::size_t i = 0; i < live; i += lanes) {
    const M64 valid = hn::FirstN(d, live - i);
    V64 s = hn::Load(d, st.s + i);
    V64 x = Draws::kUsesX ? hn::Load(d, st.x + i) : hn::Zero(d);
    const V64 e = hn::Load(d, st.e + i);
    const V64 bucket = Draws::kUsesBucket ? hn::Load(d, st.c + i) : hn::Zero(d);
    const V64 vi = hn::Load(d, st.vi + i);
    const V64 a = hn::And(e, low32);
    const V64 v = hn::And(vi, low32);
    const M64 finish = hn::And(valid, hn::Eq(a, hn::Zero(d)));
    const M64 alive = hn::AndNot(finish, valid);
    // a >= v: follow K (values below 2^32 compare as signed lanes).
    const M64 follow = hn::RebindMask(d, hn::Not(hn::Lt(hn::BitCast(di, a), hn::BitCast(di, v))));
    const M64 redraw = hn::AndNot(follow, alive);
    const V64 next_v = hn::IfThenElse(redraw, a, v);
    const V64 n = hn::IfThenElse(redraw, a, one);
    const V64 drawn = Draws::Draw(s, x, n, bucket, none, redraw, table);
    const V64 c = hn::IfThenElseZero(alive, hn::IfThenElse(follow, hn::ShiftRight<32>(e), drawn));
    const V64 next_e = hn::GatherIndex(d, entries, hn::BitCast(di, c));
    // In place: w <= i, so a full vector stored at w overwrites only lanes
    // already loaded.
    hn::StoreU(CompressLanes(s, alive), d, st.s + w);
    if (Draws::kUsesX) hn::StoreU(CompressLanes(x, alive), d, st.x + w);
    hn::StoreU(CompressLanes(next_e, alive), d, st.e + w);
    if (Draws::kUsesBucket) hn::StoreU(CompressLanes(c, alive), d, st.c + w);
    hn::StoreU(CompressLanes(hn::Or(next_v, hn::AndNot(low32, vi)), alive), d, st.vi + w);
    const V64 result = hn::Or(hn::AndNot(low32, e), hn::ShiftRight<32>(vi));
    hn::StoreU(CompressLanes(result, finish), d, st.done + nd);
    w += hn::CountTrue(d, alive);
    nd += hn::CountTrue(d, finish);
  }
  *finished = nd;
  return w;
}

// The keys of a span (count <= kSpanKeys): each batch's first steps join the
// walks still going, and step passes run until at most kCarry are left (none
// after the last batch). Measured on a Zen 5 VM (AVX3), capacity 10^6 with
// half removed at random, the variants interleaved in one process: 4.52 ns a
// key against 4.81 with every batch's walks finished before the next (K =
// 10^6 and 10^7; the per-round ratio 0.94); 64 walks carried gave 0.97, 256
// gave 0.94-0.96.
template <class Draws>
void AnchorSpan(const FirstContext& ctx, const uint64_t* HWY_RESTRICT keys, std::size_t count,
                uint32_t* HWY_RESTRICT out, BatchState& st) {
  std::size_t live = 0;
  for (std::size_t begin = 0; begin < count; begin += kBatch) {
    const std::size_t n = count - begin < kBatch ? count - begin : kBatch;
    live = FirstStepsOfBatch<Draws>(ctx, keys + begin, n, begin, out + begin, st, live);
    const std::size_t carry = begin + n < count ? kCarry : 0;
    while (live > carry) {
      std::size_t finished = 0;
      live = StepBatch<Draws>(ctx.entries, ctx.table, live, st, &finished);
      StoreFinished(st.done, finished, out);
    }
  }
}

template <class Draws>
void AnchorKeys(const AnchorTable& t, const uint64_t* HWY_RESTRICT keys, std::size_t count,
                uint32_t* HWY_RESTRICT out) {
  const FirstContext ctx{t.entries.get(), anchor_crc32c_table(), t.capacity, t.used};
  BatchState st;
  ForEachSpan(count, [&](std::size_t first, std::size_t n) {
    AnchorSpan<Draws>(ctx, keys + first, n, out + first, st);
  });
}

void AnchorSplitMix(const AnchorTable& t, const uint64_t* HWY_RESTRICT keys, std::size_t count,
                    uint32_t* HWY_RESTRICT out) {
  AnchorKeys<SplitMixDraws>(t, keys, count, out);
}

void AnchorCrc(const AnchorTable& t, const uint64_t* HWY_RESTRICT keys, std::size_t count,
               uint32_t* HWY_RESTRICT out) {
  AnchorKeys<CrcDraws>(t, keys, count, out);
}

void AnchorSupsi(const AnchorTable& t, const uint64_t* HWY_RESTRICT keys, std::size_t count,
                 uint32_t* HWY_RESTRICT out) {
  AnchorKeys<SupsiDraws>(t, keys, count, out);
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <memory>

#include "chbench/anchor/anchor.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {

HWY_EXPORT(AnchorSplitMix);
HWY_EXPORT(AnchorCrc);
HWY_EXPORT(AnchorSupsi);

void anchor_owners(const AnchorTable& table, AnchorHashing hashing,
                   std::span<const uint64_t> key_hashes, std::span<uint32_t> out) {
  const uint64_t* keys = key_hashes.data();
  switch (hashing) {
    case AnchorHashing::kCrc32c:
      HWY_DYNAMIC_DISPATCH(AnchorCrc)(table, keys, key_hashes.size(), out.data());
      return;
    case AnchorHashing::kSupsiXx32:
      HWY_DYNAMIC_DISPATCH(AnchorSupsi)(table, keys, key_hashes.size(), out.data());
      return;
    case AnchorHashing::kSplitMix64:
      break;
  }
  HWY_DYNAMIC_DISPATCH(AnchorSplitMix)(table, keys, key_hashes.size(), out.data());
}

}  // namespace simd

namespace {

class AnchorSimd final : public OwnerTable {
 public:
  AnchorSimd(const Fleet& fleet, AnchorHashing hashing)
      : t_(anchor_table(fleet)), hashing_(hashing) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    glue::check_sizes(h, out);
    simd::anchor_owners(t_, hashing_, h, out);
  }
  std::size_t memory_bytes() const noexcept override {
    return std::size_t{t_.used} * sizeof(uint64_t);
  }

 private:
  AnchorTable t_;
  AnchorHashing hashing_;
};

std::unique_ptr<OwnerTable> make(const Fleet& f, unsigned knob) {
  glue::no_knob(registry::anchor_simd, knob);
  return make_anchor_simd(f, AnchorHashing::kSplitMix64);
}

}  // namespace

std::unique_ptr<OwnerTable> make_anchor_simd(const Fleet& fleet, AnchorHashing hashing) {
  return std::make_unique<AnchorSimd>(fleet, hashing);
}

constinit const KernelInfo registry::anchor_simd{
    .scheme = Scheme::kAnchor,
    .name = "simd",
    .summary = "keys in lanes, one entry gather per step, unfinished walks compacted (Highway)",
    .simd = true,
    .rival = &registry::anchor_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &make,
    .table_bytes = &anchor_table_bytes,
};

}  // namespace chbench

#endif  // HWY_ONCE
