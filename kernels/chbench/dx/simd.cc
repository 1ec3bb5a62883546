// dx/simd: DxHash with the keys in lanes (dx.h, simd::dx_owners), for every
// Highway target, and the kernel's registry entry.
//
// A key's probe count is geometric (mean A over the active buckets), so lanes
// that walked in lockstep until the slowest key of a vector finished would
// idle most of the time. Instead each key gets its first k probes (k from the
// expected count) straight from the batch, the owners of the keys that found
// their bucket stored in place as whole vectors; the others wait on a list
// (Compress), and when it is full each round gives every key in it k more
// probes, the keys that found their bucket leaving it.
//
// On the 2-core Zen 5 VM (AVX3; N = 10^6 nodes at capacity 10^6, half
// removed at random, K = 10^7 keys, E = 2), a list of every key (refilled
// from the batch, 512 in flight, each finished key's owner read and stored
// one at a time) took 2.95-3.61 ns a key over twelve processes; the first
// round from the batch, a list of 1,024 and the keys prefetched take
// 2.00-2.09 over five (AVX2: 3.40-3.42 against 4.47-4.49).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/dx/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "chbench/compress-inl.h"
#include "chbench/dx/dx.h"
#include "chbench/dx/sequence.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR

// One lane: a list of keys waiting gains nothing; dx/sequence.h's loop.
void DxKeys(uint8_t profile, const DxState* s, const uint64_t* keys, std::size_t count,
            uint32_t* out) {
  uint32_t probes = 0;
  for (std::size_t i = 0; i < count; ++i)
    out[i] = s->owner[dx_bucket(*s, static_cast<DxProfile>(profile), keys[i], &probes)];
}

#else

// ---- the sequences of dx/sequence.h, in lanes ---------------------------------
// Start(h) is the state of a key's first probe (64-bit lanes), Next(x) the
// state of the following probe, and Buckets(x0, x1) the buckets the probes
// of two vectors of states read, in 32-bit lanes (x0's first): below A, or A
// for a draw the sequence rejects. They hold no vectors (SVE's are
// sizeless).

using D32 = hn::Repartition<uint32_t, D64>;  // twice the lanes of D64
using DI32 = hn::RebindToSigned<D32>;
using V32 = hn::Vec<D32>;
using M32 = hn::Mask<D32>;

// x % n for x < 2^32, 1 <= n < 2^32: trunc(x / n) in doubles is the exact
// quotient (x < 2^53 keeps the rounded quotient below the next integer), and
// both conversions go through the mantissa of 2^52 (no 64-bit conversion
// instruction before AVX-512).
HWY_INLINE V64 Mod32(V64 x, uint32_t n) {
  const D64 d;
  const DF64 df;
  const VF64 two52 = hn::Set(df, 4503599627370496.0);
  const VF64 xf = hn::Sub(hn::BitCast(df, hn::Or(x, hn::Set(d, 0x4330000000000000ULL))), two52);
  const VF64 q = hn::Trunc(hn::Div(xf, hn::Set(df, static_cast<double>(n))));
  const V64 qi = hn::And(hn::BitCast(d, hn::Add(q, two52)), hn::Set(d, 0xffffffffULL));
  return hn::Sub(x, Mul32x32(qi, hn::Set(d, n)));
}

// The low halves of two vectors of 64-bit lanes, x0's first.
HWY_INLINE V32 LowHalves(V64 x0, V64 x1) {
  const D32 d32;
  return hn::ConcatEven(d32, hn::BitCast(d32, x1), hn::BitCast(d32, x0));
}

struct LcgLanes {
  uint32_t capacity;
  HWY_INLINE V64 Start(V64 h) const { return Fmix64(h); }
  HWY_INLINE V64 Next(V64 x) const {
    return hn::Add(MulConst64(x, kDxLcgMultiplier), hn::Set(D64(), kDxLcgIncrement));
  }
  // ((x >> 32) * A) >> 32: the high halves of the products.
  HWY_INLINE V32 Buckets(V64 x0, V64 x1) const {
    const D32 d32;
    const V64 a = hn::Set(D64(), capacity);
    const V64 p0 = Mul32x32(hn::ShiftRight<32>(x0), a);
    const V64 p1 = Mul32x32(hn::ShiftRight<32>(x1), a);
    return hn::ConcatOdd(d32, hn::BitCast(d32, p1), hn::BitCast(d32, p0));
  }
};

// The state is key2 << 32 | bs.
struct ChaosDLanes {
  uint32_t capacity;
  const uint64_t* table;  // dx::kCrcTable
  // crc32q(d, c) = L(c ^ d) for d < 2^32: four table lookups (sequence.h).
  HWY_INLINE V64 L(V64 x) const {
    const D64 d;
    const DI64 di;
    const V64 byte = hn::Set(d, 0xff);
    const auto at = [&](const uint64_t* t, V64 i) {
      return hn::GatherIndex(d, t, hn::BitCast(di, i));
    };
    V64 r = at(table, hn::And(x, byte));
    r = hn::Xor(r, at(table + 256, hn::And(hn::ShiftRight<8>(x), byte)));
    r = hn::Xor(r, at(table + 512, hn::And(hn::ShiftRight<16>(x), byte)));
    return hn::Xor(r, at(table + 768, hn::ShiftRight<24>(x)));
  }
  HWY_INLINE V64 Start(V64 h) const {
    const D64 d;
    const V64 low = hn::Set(d, 0xffffffffULL);
    const V64 key = hn::And(h, low);
    const V64 key2 = hn::And(hn::Add(Mul32x32(key, hn::Set(d, 421757)), hn::Set(d, 1)), low);
    return hn::Or(hn::ShiftLeft<32>(key2), L(hn::Xor(key, key2)));
  }
  HWY_INLINE V64 Next(V64 x) const {
    const V64 bs = hn::And(x, hn::Set(D64(), 0xffffffffULL));
    return hn::Or(hn::ShiftLeft<32>(hn::ShiftRight<32>(x)), L(hn::Xor(bs, hn::ShiftRight<32>(x))));
  }
  HWY_INLINE V64 Bucket(V64 x) const {
    return Mod32(hn::And(x, hn::Set(D64(), 0xffffffffULL)), capacity);
  }
  HWY_INLINE V32 Buckets(V64 x0, V64 x1) const { return LowHalves(Bucket(x0), Bucket(x1)); }
};

// The state is java.util.Random's 48-bit seed after the draw of the probe.
struct SupsiLanes {
  uint32_t capacity;
  bool power_of_two;
  HWY_INLINE V64 Step(V64 s) const {
    const D64 d;
    return hn::And(hn::Add(MulConst64(s, dx::kJavaMultiplier), hn::Set(d, 0xB)),
                   hn::Set(d, dx::kJavaMask));
  }
  HWY_INLINE V64 Start(V64 h) const {
    const D64 d;
    return Step(hn::And(hn::Xor(h, hn::Set(d, dx::kJavaMultiplier)), hn::Set(d, dx::kJavaMask)));
  }
  HWY_INLINE V64 Next(V64 x) const { return Step(x); }
  // nextInt(A) of the draw r = next(31); a rejected draw reads bucket A.
  HWY_INLINE V64 Bucket(V64 x) const {
    const D64 d;
    const DI64 di;
    const V64 r = hn::ShiftRight<17>(x);
    if (power_of_two) return hn::ShiftRight<31>(Mul32x32(r, hn::Set(d, capacity)));
    const V64 v = Mod32(r, capacity);
    const V64 test = hn::Add(hn::Sub(r, v), hn::Set(d, capacity - 1));
    const auto reject = hn::Gt(hn::BitCast(di, test), hn::Set(di, 0x7fffffff));
    return hn::IfThenElse(hn::RebindMask(d, reject), hn::Set(d, capacity), v);
  }
  HWY_INLINE V32 Buckets(V64 x0, V64 x1) const { return LowHalves(Bucket(x0), Bucket(x1)); }
};

// ---- the list of keys waiting --------------------------------------------------

// Keys waiting at most: enough vectors for the gathers of many to overlap,
// few enough for the list (20 KB) to stay in L1. 1,024 measured 5-10 %
// faster than 512 at E = 2 on Zen 5, 256 slower, 2,048 the same.
inline constexpr std::size_t kList = 1024;
// Keys between the block Fresh probes and the keys it prefetches (4 KB): a
// batch too large for the cache streams from DRAM, and the prefetch measured
// 0.15-0.25 ns a key faster at 10^7 keys on Zen 5 (256 to 1,024 the same).
inline constexpr std::size_t kKeysAhead = 512;
inline constexpr std::size_t kSlack = 2 * kMaxLanes64;  // room for whole-vector stores

struct KeyList {
  HWY_ALIGN uint64_t state[kList + kSlack];  // each key's next probe
  HWY_ALIGN uint32_t id[kList + kSlack];     // its position in the batch
  // The keys that finished in the last round: position and bucket.
  HWY_ALIGN uint32_t done_id[kList + kSlack];
  HWY_ALIGN uint32_t done_bucket[kList + kSlack];
};

// The lower and upper halves of a 32-bit mask as masks of 64-bit lanes.
HWY_INLINE hn::Mask<D64> LowerMask(M32 m) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  return hn::Mask<D64>{static_cast<__mmask8>(m.raw)};
#else
  const auto v = hn::LowerHalf(hn::BitCast(DI32(), hn::VecFromMask(D32(), m)));
  return hn::MaskFromVec(hn::BitCast(D64(), hn::PromoteTo(DI64(), v)));
#endif
}
HWY_INLINE hn::Mask<D64> UpperMask(M32 m) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  return hn::Mask<D64>{static_cast<__mmask8>(m.raw >> 8)};
#else
  const hn::Half<DI32> dh;
  const auto v = hn::UpperHalf(dh, hn::BitCast(DI32(), hn::VecFromMask(D32(), m)));
  return hn::MaskFromVec(hn::BitCast(D64(), hn::PromoteTo(DI64(), v)));
#endif
}

// True in the lanes whose bucket b is active: bit b % 32 of words[b / 32],
// one 32-bit gather for two vectors of keys. b is clamped to `limit`
// (DxState::limit, a clear bit), so the gathers stay in the buckets ever used.
HWY_INLINE M32 Active(const uint32_t* HWY_RESTRICT words, V32 limit, V32 b) {
  const D32 d32;
  b = hn::Min(b, limit);
  const V32 w = hn::GatherIndex(d32, words, hn::BitCast(DI32(), hn::ShiftRight<5>(b)));
  return hn::TestBit(w, hn::Shl(hn::Set(d32, 1), hn::And(b, hn::Set(d32, 31))));
}

// kProbes probes of two vectors of states, x0's keys in the lower 32-bit
// lanes: the lanes not yet `found` whose bucket is active join it, with that
// bucket in `bucket`; x0 and x1 move on to the state after the last probe.
template <std::size_t kProbes, class Seq>
HWY_INLINE void Probe(const Seq& seq, const uint32_t* HWY_RESTRICT words, V32 lim, V64& x0, V64& x1,
                      M32& found, V32& bucket) {
  for (std::size_t r = 0; r < kProbes; ++r) {
    const V32 b = seq.Buckets(x0, x1);
    const M32 hit = hn::AndNot(found, Active(words, lim, b));
    bucket = hn::IfThenElse(hit, b, bucket);
    found = hn::Or(found, hit);
    x0 = seq.Next(x0);
    x1 = seq.Next(x1);
  }
}

// Stores the keys of `keep` (their ids in the 32-bit lanes, their states in
// x0 then x1) at list position n, compacted; returns the new length. Writes
// whole vectors: up to n + Lanes(D32) entries.
HWY_INLINE std::size_t Keep(KeyList& list, std::size_t n, V32 id, V64 x0, V64 x1, M32 keep) {
  const D64 d;
  const D32 d32;
  hn::StoreU(CompressLanes(id, keep), d32, list.id + n);
  const auto keep0 = LowerMask(keep);
  hn::StoreU(CompressLanes(x0, keep0), d, list.state + n);
  hn::StoreU(CompressLanes(x1, UpperMask(keep)), d, list.state + n + hn::CountTrue(d, keep0));
  return n + hn::CountTrue(d32, keep);
}

// The first kProbes probes of the Lanes(D32) keys at `keys` (ids first_id
// ...; the first `valid` are keys of the batch): each found key's owner goes
// straight to out[lane], the others go to the list at position n (their
// out[lane] holds a placeholder until they finish). Returns the list's new
// length. Reads and writes whole vectors.
template <std::size_t kProbes, class Seq>
HWY_INLINE std::size_t Fresh(const Seq& seq, const DxState& s, V32 lim,
                             const uint64_t* HWY_RESTRICT keys, uint32_t first_id,
                             std::size_t valid, uint32_t* HWY_RESTRICT out, KeyList& list,
                             std::size_t n) {
  const D64 d;
  const D32 d32;
  V64 x0 = seq.Start(hn::LoadU(d, keys));
  V64 x1 = seq.Start(hn::LoadU(d, keys + hn::Lanes(d)));
  M32 found = hn::FirstN(d32, 0);
  V32 bucket = hn::Zero(d32);  // bucket 0 (an owner entry) for the keys not found
  Probe<kProbes>(seq, s.words.data(), lim, x0, x1, found, bucket);
  hn::StoreU(hn::GatherIndex(d32, s.owner.data(), hn::BitCast(DI32(), bucket)), d32, out);
  const M32 left = hn::AndNot(found, hn::FirstN(d32, valid));
  const V32 id = IotaFrom(d32, first_id);
  return Keep(list, n, id, x0, x1, left);
}

// Gives each of the n keys of the list kProbes probes, two vectors of
// states (one vector of 32-bit lanes) at a time; the keys that found an
// active bucket go to list.done_* (`finished` of them), the others stay,
// compacted to the front with the state of their next probe. Returns how many
// stay. Compacting in place is safe: the survivors of the keys before
// position v number at most v.
template <std::size_t kProbes, class Seq>
HWY_INLINE std::size_t Round(const Seq& seq, const uint32_t* HWY_RESTRICT words, V32 lim,
                             std::size_t n, KeyList& list, std::size_t& finished) {
  const D64 d;
  const D32 d32;
  const std::size_t lanes = hn::Lanes(d);
  std::size_t stay = 0, done = 0;
  for (std::size_t v = 0; v < n; v += 2 * lanes) {
    V64 x0 = hn::Load(d, list.state + v);
    V64 x1 = hn::Load(d, list.state + v + lanes);
    M32 found = hn::FirstN(d32, 0);
    V32 bucket = hn::Zero(d32);
    Probe<kProbes>(seq, words, lim, x0, x1, found, bucket);
    const M32 valid = hn::FirstN(d32, n - v);
    const M32 fin = hn::And(found, valid);
    const V32 id = hn::Load(d32, list.id + v);
    hn::StoreU(CompressLanes(id, fin), d32, list.done_id + done);
    hn::StoreU(CompressLanes(bucket, fin), d32, list.done_bucket + done);
    done += hn::CountTrue(d32, fin);
    stay = Keep(list, stay, id, x0, x1, hn::AndNot(found, valid));
  }
  finished = done;
  return stay;
}

// Rounds over the list of n keys until at most `most` stay (0: all done),
// each finished key's owner to out[id]; returns how many stay.
template <std::size_t kProbes, class Seq>
HWY_INLINE std::size_t Drain(const Seq& seq, const DxState& s, V32 lim, std::size_t n,
                             std::size_t most, KeyList& list, uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const D32 d32;
  while (n > most) {
    // The lanes of the last vectors past n read defined, in-range values.
    hn::StoreU(hn::Zero(d), d, list.state + n);
    hn::StoreU(hn::Zero(d), d, list.state + n + hn::Lanes(d));
    hn::StoreU(hn::Zero(d32), d32, list.id + n);
    std::size_t finished = 0;
    n = Round<kProbes>(seq, s.words.data(), lim, n, list, finished);
    for (std::size_t j = 0; j < finished; ++j) out[list.done_id[j]] = s.owner[list.done_bucket[j]];
  }
  return n;
}

// owner[bucket] of every key of the batch, kProbes probes a round: each key's
// first round straight from the batch (Fresh), then the keys still looking
// wait on the list, whose rounds run whenever it is full.
template <std::size_t kProbes, class Seq>
void RunKeys(const Seq& seq, const DxState& s, const uint64_t* HWY_RESTRICT keys, std::size_t count,
             uint32_t* HWY_RESTRICT out) {
  const D32 d32;
  const std::size_t step = hn::Lanes(d32);
  const V32 lim = hn::Set(d32, s.limit);
  KeyList list;
  std::size_t n = 0, i = 0;
  for (; count - i >= step; i += step) {
    n = Drain<kProbes>(seq, s, lim, n, kList - step, list, out);
    // The keys kKeysAhead on, a cache line (8 keys) at a time; none past the batch.
    if (count - i > kKeysAhead + step) {
      for (std::size_t j = 0; j < step; j += 8) __builtin_prefetch(keys + i + kKeysAhead + j);
    }
    n = Fresh<kProbes>(seq, s, lim, keys + i, static_cast<uint32_t>(i), step, out + i, list, n);
  }
  if (i < count) {
    HWY_ALIGN uint64_t in_pad[2 * kMaxLanes64] = {};
    HWY_ALIGN uint32_t out_pad[2 * kMaxLanes64] = {};
    std::copy(keys + i, keys + count, in_pad);
    n = Drain<kProbes>(seq, s, lim, n, kList - step, list, out);
    n = Fresh<kProbes>(seq, s, lim, in_pad, static_cast<uint32_t>(i), count - i, out_pad, list, n);
    std::copy(out_pad, out_pad + (count - i), out + i);
  }
  Drain<kProbes>(seq, s, lim, n, 0, list, out);
}

// Probes a round from the expected probes per key, E = A / active: a
// round's compaction costs about as much as a probe, and up to k - 1 probes
// of a key that finished early are wasted, which k near sqrt(2 E) balances
// (measured on Zen 5: k = 1 at E = 1, 2 at E = 2, 4 at E = 10 and 20, 16 at
// E = 100).
template <class Seq>
void RunSequence(const Seq& seq, const DxState& s, const uint64_t* keys, std::size_t count,
                 uint32_t* out) {
  const uint64_t a = s.capacity, active = s.active;
  if (2 * a < 3 * active) return RunKeys<1>(seq, s, keys, count, out);
  if (a < 4 * active) return RunKeys<2>(seq, s, keys, count, out);
  if (a < 24 * active) return RunKeys<4>(seq, s, keys, count, out);
  if (a < 64 * active) return RunKeys<8>(seq, s, keys, count, out);
  RunKeys<16>(seq, s, keys, count, out);
}

// The batch's owners under `profile` (a DxProfile). Precondition: count < 2^32
// (ids are packed into 32 bits of list.done).
void DxKeys(uint8_t profile, const DxState* s, const uint64_t* keys, std::size_t count,
            uint32_t* out) {
  const uint32_t a = s->capacity;
  switch (static_cast<DxProfile>(profile)) {
    case DxProfile::kChaosD:
      return RunSequence(ChaosDLanes{a, dx::kCrcTable.data()}, *s, keys, count, out);
    case DxProfile::kSupsi:
      return RunSequence(SupsiLanes{a, (a & (a - 1)) == 0}, *s, keys, count, out);
    case DxProfile::kChbench:
      break;
  }
  RunSequence(LcgLanes{a}, *s, keys, count, out);
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <memory>
#include <span>
#include <stdexcept>
#include <utility>

#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {

HWY_EXPORT(DxKeys);

void dx_owners(const DxState& state, DxProfile profile, std::span<const uint64_t> key_hashes,
               std::span<uint32_t> out) {
  glue::check_sizes(key_hashes, out);
  constexpr std::size_t kChunk = std::size_t{1} << 31;
  for (std::size_t begin = 0; begin < key_hashes.size(); begin += kChunk) {
    const std::size_t n = std::min(kChunk, key_hashes.size() - begin);
    HWY_DYNAMIC_DISPATCH(DxKeys)
    (static_cast<uint8_t>(profile), &state, key_hashes.data() + begin, n, out.data() + begin);
  }
}

}  // namespace simd

namespace {

class DxSimd final : public OwnerTable {
 public:
  DxSimd(DxState s, DxProfile profile) : s_(std::move(s)), profile_(profile) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    simd::dx_owners(s_, profile_, h, out);
  }
  std::size_t memory_bytes() const noexcept override { return s_.bytes(); }

 private:
  DxState s_;
  DxProfile profile_;
};

std::unique_ptr<OwnerTable> build(const Fleet& f, unsigned knob) {
  glue::no_knob(registry::dx_simd, knob);
  return make_dx_simd(f, DxProfile::kChbench);
}

}  // namespace

std::unique_ptr<OwnerTable> make_dx_simd(const Fleet& f, DxProfile profile) {
  return std::make_unique<DxSimd>(dx_state(f, profile), profile);
}

constinit const KernelInfo registry::dx_simd{
    .scheme = Scheme::kDx,
    .name = "simd",
    .summary = "keys in lanes, first probes straight from the batch, the rest on a list (Highway)",
    .simd = true,
    .rival = &registry::dx_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &build,
    .table_bytes = &dx_state_bytes,
};

}  // namespace chbench

#endif  // HWY_ONCE
