// jumpback_anchor/simd: JumpBackAnchor with the keys in lanes
// (jumpback_anchor.h), for every Highway target, and its registry entry.
//
// Chunks of 1,024 keys go through three passes. Pass one is JumpBackHash in
// lanes over n_max (jumpback/lanes-inl.h, the same per-target code as
// jumpback/simd), which also counts, lane by lane, the values each key's
// lookup read: the SplitMix64 stream's state after them is h + (1 + count) *
// gamma. Pass two gathers every key's entry in a loop without branches
// (independent loads, which overlap when the table is larger than the
// caches) and writes the owner it holds; then the keys on a removed bucket
// start walks in a list (state, entry, bound v and position), appended
// without a branch on which keys they are. Pass three walks that list in
// full vectors: each step of each lane follows K or draws in [0, A)
// (Lemire's multiply on the next value; the rare rejection, a low half below
// A, is finished lane by lane), then gathers the next entry, under the mask
// of the lanes still walking. When half of a block's lanes or fewer still
// walk, those go on in the next round's list, so long walks share full
// vectors; owners are written to their positions one by one.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/jumpback_anchor/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "chbench/jumpback/lanes-inl.h"
#include "chbench/jumpback_anchor/jumpback_anchor.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {
namespace jumpback_anchor_lanes {

using M64 = hn::Mask<D64>;

inline constexpr std::size_t kChunk = 1024;
// Room past a chunk: the last group of pass one, padded, or a vector of pass
// three.
inline constexpr std::size_t kSlack = 2 * kMaxLanes64;

// Pass one's results for a chunk, in key order.
struct FirstDraws {
  HWY_ALIGN uint32_t bucket[kChunk + kSlack];
  HWY_ALIGN uint32_t draws[kChunk + kSlack];  // values read after the first
  HWY_ALIGN uint64_t entry[kChunk + kSlack];  // the bucket's entry (pass two)
};

// The walks of a chunk's keys still on a removed bucket: the stream's state,
// the entry reached, and v | position << 32 (v: A of the bucket being
// resolved, all ones before the first draw).
struct Walks {
  HWY_ALIGN uint64_t state[kChunk + kSlack];
  HWY_ALIGN uint64_t entry[kChunk + kSlack];
  HWY_ALIGN uint64_t vi[kChunk + kSlack];
  std::size_t size = 0;
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

// Pass two, first half, on the vector of keys at position i of the chunk
// (`valid` of its lanes are keys): gathers each bucket's entry to f.entry
// and writes its owner half to o. No branch on the entries, so that the
// gathers of consecutive vectors overlap.
HWY_INLINE void GatherPass(const uint64_t* HWY_RESTRICT entries, FirstDraws& f, std::size_t i,
                           std::size_t valid, uint32_t* HWY_RESTRICT o) {
  const D64 d;
  const hn::Rebind<uint32_t, D64> d32;
  const V64 bucket = hn::PromoteTo(d, hn::LoadU(d32, f.bucket + i));
  const V64 e = hn::GatherIndex(d, entries, hn::BitCast(DI64(), bucket));
  hn::Store(e, d, f.entry + i);
  const V64 owner = hn::ShiftRight<32>(e);
  if (valid == hn::Lanes(d)) {
    StoreLow32(owner, o + i);
  } else {
    HWY_ALIGN uint32_t part[kMaxLanes64];
    StoreLow32(owner, part);
    std::copy(part, part + valid, o + i);
  }
}

// Pass two, second half: the keys of the chunk (`count`) whose entry is a
// removed bucket's (A != 0) start walks in w, without a branch on which.
HWY_INLINE void StartWalks(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                           const FirstDraws& f, Walks& w) {
  // The size in a register: w's arrays are uint64_t, as std::size_t is, so
  // every store to them would make the compiler reload w.size.
  std::size_t size = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const uint64_t e = f.entry[k];
    w.state[size] = keys[k] + SplitMix64::kGamma * (uint64_t{f.draws[k]} + 1);
    w.entry[size] = e;
    w.vi[size] = 0xffffffffu | uint64_t{k} << 32;
    size += static_cast<uint32_t>(e) != 0;
  }
  w.size = size;
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

// One step of jumpback_anchor_finish in every lane still walking (A != 0):
// A >= v follows K; otherwise v = A and the lane draws in [0, A) on the next
// value of its stream. The lanes that walk gather their next entry; the
// others keep theirs (and gather entry 0 in vain).
HWY_INLINE void Step(const uint64_t* HWY_RESTRICT entries, V64& state, V64& entry, V64& vi) {
  const D64 d;
  const V64 low32 = hn::Set(d, 0xffffffffu);
  const V64 a = hn::And(entry, low32);
  const M64 going = hn::Ne(a, hn::Zero(d));
  const M64 follow = hn::AndNot(Less(a, hn::And(vi, low32)), going);
  const M64 draw = hn::AndNot(follow, going);
  state = hn::IfThenElse(draw, hn::Add(state, hn::Set(d, SplitMix64::kGamma)), state);
  vi = hn::IfThenElse(draw, hn::Or(hn::AndNot(low32, vi), a), vi);
  V64 m = Mul32x32(hn::And(SplitMix64Lanes::Value(state), low32), a);
  const M64 retry = hn::And(draw, Less(hn::And(m, low32), a));
  if (HWY_UNLIKELY(!hn::AllFalse(d, retry))) m = RetryDraws(state, a, m, retry);
  const V64 c = hn::IfThenElse(follow, hn::ShiftRight<32>(entry), hn::ShiftRight<32>(m));
  entry = hn::IfThenElse(going, hn::GatherIndex(d, entries, hn::BitCast(DI64(), c)), entry);
}

// The `valid` lanes of a block's vector that stops: each lane's owner half
// to o at its position (final when it reached a working bucket, overwritten
// by a later round otherwise), and the lanes still walking appended to next.
HWY_INLINE void Settle(std::size_t valid, V64 state, V64 entry, V64 vi, uint32_t* HWY_RESTRICT o,
                       Walks& next) {
  const D64 d;
  HWY_ALIGN uint64_t s[kMaxLanes64], e[kMaxLanes64], p[kMaxLanes64];
  hn::Store(state, d, s);
  hn::Store(entry, d, e);
  hn::Store(vi, d, p);
  std::size_t size = next.size;  // in a register, as in GatherPass
  for (std::size_t lane = 0; lane < valid; ++lane) {
    o[p[lane] >> 32] = static_cast<uint32_t>(e[lane] >> 32);
    next.state[size] = s[lane];
    next.entry[size] = e[lane];
    next.vi[size] = p[lane];
    size += static_cast<uint32_t>(e[lane]) != 0;
  }
  next.size = size;
}

// Pass three on U vectors of `list` from position t (`valid` walks, the rest
// padding): steps until at most `leave` lanes still walk, then Settle.
template <std::size_t U>
HWY_INLINE void WalkBlock(const Walks& list, std::size_t t, std::size_t valid, std::size_t leave,
                          const uint64_t* HWY_RESTRICT entries, uint32_t* HWY_RESTRICT o,
                          Walks& next) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 low32 = hn::Set(d, 0xffffffffu);
  CHBENCH_VECTORS(V64, state, U);
  CHBENCH_VECTORS(V64, entry, U);
  CHBENCH_VECTORS(V64, vi, U);
  for (std::size_t u = 0; u < U; ++u) {
    state(u) = hn::LoadU(d, list.state + t + u * lanes);
    entry(u) = hn::LoadU(d, list.entry + t + u * lanes);
    vi(u) = hn::LoadU(d, list.vi + t + u * lanes);
  }
  for (;;) {
    std::size_t walking = 0;
    for (std::size_t u = 0; u < U; ++u)
      walking += hn::CountTrue(d, hn::Ne(hn::And(entry(u), low32), hn::Zero(d)));
    if (walking <= leave) break;
    for (std::size_t u = 0; u < U; ++u) Step(entries, state(u), entry(u), vi(u));
  }
  for (std::size_t u = 0; u < U; ++u) {
    const std::size_t rest = valid > u * lanes ? valid - u * lanes : 0;
    Settle(std::min(rest, lanes), state(u), entry(u), vi(u), o, next);
  }
}

// Pass three: rounds over the list, padded to whole vectors with finished
// lanes. A list of two blocks or more hands on each block's walks once half
// of its lanes or fewer still walk (the next round is then at most about
// half as long); a shorter list runs to the end.
HWY_INLINE void WalkPass(Walks& first, Walks& spare, const uint64_t* HWY_RESTRICT entries,
                         uint32_t* HWY_RESTRICT o) {
  constexpr std::size_t kUnroll = Unroll(4);
  const std::size_t lanes = hn::Lanes(D64());
  const std::size_t block = kUnroll * lanes;
  Walks* list = &first;
  Walks* next = &spare;
  while (list->size != 0) {
    const std::size_t size = list->size;
    for (uint64_t* a : {list->state, list->entry, list->vi})
      std::fill(a + size, a + size + lanes, 0);
    const bool hand_on = size >= 2 * block;
    next->size = 0;
    std::size_t t = 0;
    if constexpr (kUnroll > 1) {
      for (; t + block <= size; t += block)
        WalkBlock<kUnroll>(*list, t, block, hand_on ? block / 3 : 0, entries, o, *next);
    }
    for (; t < size; t += lanes) {
      const std::size_t valid = std::min(lanes, size - t);
      WalkBlock<1>(*list, t, valid, hand_on ? valid / 3 : 0, entries, o, *next);
    }
    std::swap(list, next);
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
  const std::size_t vector = hn::Lanes(D64());
  lanes::FirstDraws first;
  lanes::Walks walks, spare;
  for (std::size_t at = 0; at < count; at += lanes::kChunk) {
    const std::size_t size = std::min(count - at, lanes::kChunk);
    const uint64_t* k = keys + at;
    uint32_t* o = out + at;
    lanes::JumpBackPass(k, size, shape, first);
    for (std::size_t i = 0; i < size; i += vector)
      lanes::GatherPass(entries, first, i, std::min(vector, size - i), o);
    lanes::StartWalks(k, size, first, walks);
    if (walks.size != 0) lanes::WalkPass(walks, spare, entries, o);
  }
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
