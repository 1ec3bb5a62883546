// jumpback_anchor/simd: JumpBackAnchor with the keys in lanes
// (jumpback_anchor.h), for every Highway target, and its registry entry.
//
// Chunks of 2,048 keys go through passes. Pass one is JumpBackHash in lanes
// over n_max (jumpback/lanes-inl.h, the same per-target code as
// jumpback/simd), which also counts, lane by lane, the values each key's
// lookup read: the SplitMix64 stream's state after them is h + (1 + count) *
// gamma. Pass two gathers every key's entry (independent loads, which
// overlap when the table is larger than the caches), writes the owner it
// holds, and compacts the keys on a removed bucket into arrays of walks
// (state, entry, bound v and position) with no branch on which. Then each
// step pass takes every walk one step (follow K, or draw in [0, A) by
// Lemire's multiply on the next value; the rare rejection, a low half below
// A, is finished lane by lane), gathers all their next entries at once, and
// compacts the walks still on a removed bucket to the front, in place; the
// finished ones leave owner and position for a scalar store. Step passes stop
// once at most kCarry walks are left, which go on beside the next chunk's:
// no pass waits on the latency of a few long walks alone. The gathers of a
// pass are independent of each other, and its vectors are full but for the
// last.
//
// Measured on an AMD Zen 5 (AVX3 dispatched, 2 vCPUs), N = 10^6 with half
// removed at random, K = 10^7, in separate processes: 3.80-4.39 ns a key
// against 5.63-6.59 with each walk kept in a block of four vectors, stepping
// under masks until a third of the block's lanes still walked, and the walks
// started by a scalar loop; 3.74-3.93 against 5.26-5.48 at K = 10^5,
// 2.48-2.81 against 3.63-3.93 at N = 1,000 with half removed. vpgatherqq
// costs about 15 cycles a vector there even from L1, and vpcompressq about 5.
// Measured and lost: compacting through a table of permutations (vpermq)
// instead of vpcompressq, three times faster alone but twice as slow in pass
// two beside the gathers; chunks of 512 keys (the last passes' latency shared
// by fewer keys: 0.8 ns a key more at N = 10^6) or 4,096 (no gain over
// 2,048); passes one and two fused group by group (0.1-0.3 ns a key slower).
// Later, the variants interleaved in one process: 256 walks carried into the
// next chunk against none, 5.12 ns a key against 5.49 at K = 10^7 (the
// per-round ratio 0.89), 0.93 at K = 10^6 (128 and 512 walks: 0.95 and
// 0.94), 0.96 at N = 1,000 with half removed, K = 10^5; with the carry,
// chunks of 1,024 and 512 keys gave 0.97 and 1.06 there.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/jumpback_anchor/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "chbench/compress-inl.h"
#include "chbench/jumpback/lanes-inl.h"
#include "chbench/jumpback_anchor/jumpback_anchor.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {
namespace jumpback_anchor_lanes {

using M64 = hn::Mask<D64>;

inline constexpr std::size_t kChunk = 2048;
// Walks of earlier chunks still going when the next chunk's walks start.
inline constexpr std::size_t kCarry = 256;
// Room past a chunk: the last group of pass one, padded, or a vector stored
// whole past the end of a list.
inline constexpr std::size_t kSlack = 2 * kMaxLanes64;
inline constexpr std::size_t kWalks = kChunk + kCarry + kSlack;

// Pass one's results for a chunk, in key order.
struct FirstDraws {
  HWY_ALIGN uint32_t bucket[kChunk + kSlack];
  HWY_ALIGN uint32_t draws[kChunk + kSlack];  // values read after the first
};

// The walks still on a removed bucket (a chunk's, and those carried from
// earlier chunks), as arrays of lane
// state: the stream's state, the entry reached and v | position << 32 (v: A
// of the bucket being resolved, all ones before the first draw); and the
// finished walks, owner << 32 | position.
struct Walks {
  HWY_ALIGN uint64_t state[kWalks];
  HWY_ALIGN uint64_t entry[kWalks];
  HWY_ALIGN uint64_t vi[kWalks];
  HWY_ALIGN uint64_t done[kWalks];
};

// The lanes of a mask as bits, lane i at bit i (at most 64 lanes).
HWY_INLINE uint64_t LaneBits(M64 m) {
  uint8_t bytes[8] = {};
  hn::StoreMaskBits(D64(), m, bytes);
  uint64_t bits;
  std::memcpy(&bits, bytes, sizeof(bits));
  return bits;
}

// a < b for lanes below 2^63: the signed compare, native on x86 from SSE4.
HWY_INLINE M64 Less(V64 a, V64 b) {
  const DI64 di;
  return hn::RebindMask(D64(), hn::Lt(hn::BitCast(di, a), hn::BitCast(di, b)));
}

// Pass one: JumpBackHash of keys[0, count) over s.n, buckets and counts of
// further values to `f`, whole groups and then one zero-padded group.
HWY_INLINE void JumpBackPass(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                             const JumpBackShape& s, FirstDraws& f) {
  const std::size_t group = kGroupVectors * hn::Lanes(D64());
  const unsigned min_draws = MinDraws(s, group);
  const auto one_group = [&](const uint64_t* HWY_RESTRICT k, std::size_t i) {
    VJ32 draws = hn::Zero(DJ32());
    StoreGroup(JumpBackBuckets<SplitMix64Lanes, true>(k, s, draws, min_draws), f.bucket + i);
    StoreGroup(draws, f.draws + i);
  };
  std::size_t i = 0;
  for (; count - i >= group; i += group) one_group(keys + i, i);
  if (i == count) return;
  HWY_ALIGN uint64_t pad[kGroupVectors * kMaxLanes64] = {};
  std::copy(keys + i, keys + count, pad);
  one_group(pad, i);
}

// Pass two on the vector of keys at position i of the chunk (`valid` of its
// lanes real, keys and o pointing at the vector's first): gathers each
// bucket's entry, writes its owner half to o, and appends the keys on a
// removed bucket (A != 0) to w from `size` on, with `vi` their v | position
// << 32 (advanced to the next vector's). Returns the new size. No branch on
// the entries, so that the gathers of consecutive vectors overlap.
HWY_INLINE std::size_t StartWalks(const uint64_t* HWY_RESTRICT entries,
                                  const uint64_t* HWY_RESTRICT keys, const FirstDraws& f,
                                  std::size_t i, std::size_t valid, uint32_t* HWY_RESTRICT o,
                                  V64& vi, Walks& w, std::size_t size) {
  const D64 d;
  const hn::Rebind<uint32_t, D64> d32;
  const V64 low32 = hn::Set(d, 0xffffffffu);
  const V64 bucket = hn::PromoteTo(d, hn::LoadU(d32, f.bucket + i));
  const V64 e = hn::GatherIndex(d, entries, hn::BitCast(DI64(), bucket));
  StoreLow32(hn::ShiftRight<32>(e), o);
  const V64 draws = hn::PromoteTo(d, hn::LoadU(d32, f.draws + i));
  const V64 state =
      hn::Add(hn::LoadU(d, keys), MulBy(hn::Add(draws, hn::Set(d, 1)), SplitMix64::kGamma));
  const M64 walking = hn::And(hn::FirstN(d, valid), hn::Ne(hn::And(e, low32), hn::Zero(d)));
  hn::StoreU(CompressLanes(state, walking), d, w.state + size);
  hn::StoreU(CompressLanes(e, walking), d, w.entry + size);
  hn::StoreU(CompressLanes(vi, walking), d, w.vi + size);
  // One add instead of IotaFrom's two (simd_ops-inl.h).
  vi = hn::Add(vi, hn::Set(d, uint64_t{hn::Lanes(d)} << 32));
  return size + hn::CountTrue(d, walking);
}

// Pass two for keys[0, count) of the chunk at position `first` of the span:
// whole vectors, then the last keys through zero-padded copies. Appends the
// walks started to the `size` going on in w; returns the new size.
HWY_INLINE std::size_t StartPass(const uint64_t* HWY_RESTRICT entries,
                                 const uint64_t* HWY_RESTRICT keys, std::size_t count,
                                 std::size_t first, const FirstDraws& f, uint32_t* HWY_RESTRICT o,
                                 Walks& w, std::size_t size) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  V64 vi = hn::Or(hn::Set(d, 0xffffffffu), hn::ShiftLeft<32>(hn::Iota(d, first)));
  std::size_t i = 0;
  for (; i + lanes <= count; i += lanes)
    size = StartWalks(entries, keys + i, f, i, lanes, o + i, vi, w, size);
  if (i == count) return size;
  HWY_ALIGN uint64_t in_pad[kMaxLanes64] = {};
  HWY_ALIGN uint32_t out_pad[kMaxLanes64] = {};
  std::copy(keys + i, keys + count, in_pad);
  size = StartWalks(entries, in_pad, f, i, count - i, out_pad, vi, w, size);
  std::copy(out_pad, out_pad + (count - i), o + i);
  return size;
}

// The draws whose low half m fell below A (`retry`): hash4j's rejection loop,
// lane by lane (jumpback_anchor.h); returns m and advances the lanes' state.
HWY_NOINLINE V64 RetryDraws(V64& state, V64 a, V64 m, M64 retry) {
  const D64 d;
  HWY_ALIGN uint64_t s[kMaxLanes64], n[kMaxLanes64], product[kMaxLanes64];
  hn::Store(state, d, s);
  hn::Store(a, d, n);
  hn::Store(m, d, product);
  for (uint64_t bits = LaneBits(retry); bits != 0; bits &= bits - 1) {
    const std::size_t lane = hwy::Num0BitsBelowLS1Bit_Nonzero64(bits);
    product[lane] =
        jumpback_anchor_detail::retry_draw(s[lane], static_cast<uint32_t>(n[lane]), product[lane]);
  }
  state = hn::Load(d, s);
  return hn::Load(d, product);
}

// One step of jumpback_anchor_finish for the `size` walks of w, all on a
// removed bucket (A != 0): A >= v follows K; otherwise v = A and the walk
// draws in [0, A) on the next value of its stream. Every walk gathers its
// next entry; those on a working bucket go to w.done from *done on (the count
// advanced), the others are compacted to the front of w, in place (a vector
// stored at the write position, never past the read one, overwrites only
// lanes already loaded). Returns how many still walk.
HWY_INLINE std::size_t StepPass(const uint64_t* HWY_RESTRICT entries, Walks& w, std::size_t size,
                                std::size_t* done) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 low32 = hn::Set(d, 0xffffffffu);
  std::size_t kept = 0, finished = *done;
  for (std::size_t t = 0; t < size; t += lanes) {
    const M64 valid = hn::FirstN(d, size - t);
    V64 state = hn::Load(d, w.state + t);
    const V64 entry = hn::Load(d, w.entry + t);
    V64 vi = hn::Load(d, w.vi + t);
    const V64 a = hn::And(entry, low32);
    const M64 draw = Less(a, hn::And(vi, low32));
    state = hn::IfThenElse(draw, hn::Add(state, hn::Set(d, SplitMix64::kGamma)), state);
    vi = hn::IfThenElse(draw, hn::Or(hn::AndNot(low32, vi), a), vi);
    V64 m = Mul32x32(hn::And(SplitMix64Lanes::Value(state), low32), a);
    const M64 retry = hn::And(hn::And(draw, valid), Less(hn::And(m, low32), a));
    if (HWY_UNLIKELY(!hn::AllFalse(d, retry))) m = RetryDraws(state, a, m, retry);
    // Lanes past the list gather entry 0.
    const V64 c = hn::IfThenElseZero(
        valid, hn::IfThenElse(draw, hn::ShiftRight<32>(m), hn::ShiftRight<32>(entry)));
    const V64 next = hn::GatherIndex(d, entries, hn::BitCast(DI64(), c));
    const M64 end = hn::And(valid, hn::Eq(hn::And(next, low32), hn::Zero(d)));
    const M64 going = hn::AndNot(end, valid);
    hn::StoreU(CompressLanes(state, going), d, w.state + kept);
    hn::StoreU(CompressLanes(next, going), d, w.entry + kept);
    hn::StoreU(CompressLanes(vi, going), d, w.vi + kept);
    const V64 result = hn::Or(hn::AndNot(low32, next), hn::ShiftRight<32>(vi));
    hn::StoreU(CompressLanes(result, end), d, w.done + finished);
    kept += hn::CountTrue(d, going);
    finished += hn::CountTrue(d, end);
  }
  *done = finished;
  return kept;
}

// The `size` walks in w: step passes until at most `carry` are left, then
// each finished walk's owner to o (the span's first key's) at its position.
// Returns how many still walk.
HWY_INLINE std::size_t WalkPass(const uint64_t* HWY_RESTRICT entries, Walks& w, std::size_t size,
                                std::size_t carry, uint32_t* HWY_RESTRICT o) {
  std::size_t done = 0;
  while (size > carry) size = StepPass(entries, w, size, &done);
  StoreFinished(w.done, done, o);
  return size;
}

// The keys of a span (count <= kSpanKeys), chunk by chunk: each chunk's walks
// join those still going, and step passes run until at most kCarry are left
// (none after the last chunk), so that no pass waits on the latency of a few
// long walks alone.
HWY_INLINE void JumpBackAnchorSpan(const uint64_t* HWY_RESTRICT entries, const JumpBackShape& shape,
                                   const uint64_t* HWY_RESTRICT keys, std::size_t count,
                                   uint32_t* HWY_RESTRICT out, FirstDraws& first, Walks& walks) {
  std::size_t walking = 0;
  for (std::size_t at = 0; at < count; at += kChunk) {
    const std::size_t size = std::min(count - at, kChunk);
    JumpBackPass(keys + at, size, shape, first);
    walking = StartPass(entries, keys + at, size, at, first, out + at, walks, walking);
    walking = WalkPass(entries, walks, walking, at + size < count ? kCarry : 0, out);
  }
}

}  // namespace jumpback_anchor_lanes

// JumpBackAnchor over n_max buckets for count keys; entries is null when the
// lookup is JumpBackHash alone (jumpback_anchor.h).
void JumpBackAnchorKeys(const uint64_t* HWY_RESTRICT entries, uint32_t n_max,
                        const uint64_t* HWY_RESTRICT keys, std::size_t count,
                        uint32_t* HWY_RESTRICT out) {
  namespace lanes = jumpback_anchor_lanes;
  if (entries == nullptr) {
    JumpBackLanes<SplitMix64Lanes>(keys, count, n_max, out);
    return;
  }
  const JumpBackShape shape(n_max);
  lanes::FirstDraws first;
  lanes::Walks walks;
  ForEachSpan(count, [&](std::size_t at, std::size_t n) {
    lanes::JumpBackAnchorSpan(entries, shape, keys + at, n, out + at, first, walks);
  });
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <memory>

#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {

HWY_EXPORT(JumpBackAnchorKeys);

void jumpback_anchor_owners(const JumpBackAnchorTable& table, std::span<const uint64_t> key_hashes,
                            std::span<uint32_t> out) {
  glue::check_sizes(key_hashes, out);
  HWY_DYNAMIC_DISPATCH(JumpBackAnchorKeys)
  (table.entries.get(), table.shape.n, key_hashes.data(), key_hashes.size(), out.data());
}

}  // namespace simd

namespace {

class JumpBackAnchorSimd final : public OwnerTable {
 public:
  explicit JumpBackAnchorSimd(const Fleet& f) : t_(jumpback_anchor_table(f)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    simd::jumpback_anchor_owners(t_, h, out);
  }
  std::size_t memory_bytes() const noexcept override { return t_.memory_bytes(); }

 private:
  JumpBackAnchorTable t_;
};

std::unique_ptr<OwnerTable> make(const Fleet& f, unsigned knob) {
  glue::no_knob(registry::jumpback_anchor_simd, knob);
  return std::make_unique<JumpBackAnchorSimd>(f);
}

}  // namespace

constinit const KernelInfo registry::jumpback_anchor_simd{
    .scheme = Scheme::kJumpBackAnchor,
    .name = "simd",
    .summary =
        "keys in lanes: JumpBackHash, an entry gather for all, the removed buckets' walks "
        "in full vectors under masks (Highway)",
    .simd = true,
    .rival = &registry::jumpback_anchor_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &make,
    .table_bytes = &jumpback_anchor_table_bytes,
};

}  // namespace chbench

#endif  // HWY_ONCE
