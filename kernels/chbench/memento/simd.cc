// memento/simd: MementoHash with the keys in lanes (memento.h), for every
// Highway target, and its registry entry. Compiled with -ffp-contract=off
// (kernels/CMakeLists.txt), as jump/simd: the jump length must round as
// jump_hash's, never through a fused multiply-add.
//
// Chunks of keys go through two passes. Pass one runs jump hash in lanes over
// the b-array (jump/simd's way: b and j as doubles, masks for the lanes that
// stop first), gathers each bucket's slot entry and writes it as the owner;
// the lanes whose bucket was removed go to a list (key, bucket, entry,
// position), appended from the mask's bits. Pass two runs the replacement
// loop on that list in full vectors: every step of every lane either follows
// a replacer or rehashes, then gathers the next entry; a lane that reaches a
// working bucket keeps it (masks) while the others go on, and when half of a
// block's lanes or fewer still walk, those move on to the next round's list,
// so that long walks share full vectors. Owners are written to their
// positions one by one (they are the minority).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/memento/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "chbench/jump/lanes-inl.h"
#include "chbench/memento/memento.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Keys per chunk: the list of pass two holds one chunk's.
inline constexpr std::size_t kMementoChunk = 1024;

// a > b for lanes below 2^63 (every value here is below 2^33): the signed
// compare, which every x86 target from SSE4 has.
HWY_INLINE hn::Mask<D64> Above(V64 a, V64 b) {
  const DI64 di;
  return hn::RebindMask(D64(), hn::Gt(hn::BitCast(di, a), hn::BitCast(di, b)));
}

// slot[b] for lanes b < 2^31: 8 bytes gathered at byte offset 4b (the table's
// padding entry keeps the last one inside it), the low 4 kept (little endian).
HWY_INLINE V64 GatherSlot(const uint32_t* HWY_RESTRICT slot, V64 b) {
  const D64 d;
  const V64 raw = hn::GatherOffset(d, reinterpret_cast<const uint64_t*>(slot),
                                   hn::BitCast(DI64(), hn::ShiftLeft<2>(b)));
  return hn::And(raw, hn::Set(d, 0xffffffffULL));
}

// memento_rehash in lanes: SplitMix64's output b + 1 from state h (b < 2^31),
// its top 32 bits times r (r < 2^31) >> 32.
HWY_INLINE V64 Rehash(V64 h, V64 b, V64 r) {
  const D64 d;
  V64 z = hn::Add(h, MulConst64(hn::Add(b, hn::Set(d, 1)), 0x9e3779b97f4a7c15ULL));
  z = MulConst64(hn::Xor(z, hn::ShiftRight<30>(z)), 0xbf58476d1ce4e5b9ULL);
  z = MulConst64(hn::Xor(z, hn::ShiftRight<27>(z)), 0x94d049bb133111ebULL);
  z = hn::Xor(z, hn::ShiftRight<31>(z));
  return hn::ShiftRight<32>(Mul32x32(hn::ShiftRight<32>(z), r));
}

// Keys of one chunk still walking: the key hash, the bucket and its entry
// (bucket | entry << 32), the walk's bound e, and the position in the chunk.
// Pass two reads whole vectors, so it has a vector's room to spare.
struct Pending {
  HWY_ALIGN uint64_t keys[kMementoChunk + kMaxLanes64];
  HWY_ALIGN uint64_t state[kMementoChunk + kMaxLanes64];
  HWY_ALIGN uint64_t bound[kMementoChunk + kMaxLanes64];
  uint32_t index[kMementoChunk + 1];
  std::size_t size = 0;
};

// Jump hash of U vectors of keys at k in lanes (jump/lanes-inl.h), the
// buckets to `buckets` (64-bit lanes).
template <std::size_t U>
HWY_INLINE void JumpBlock(const uint64_t* HWY_RESTRICT k, uint32_t n,
                          uint64_t* HWY_RESTRICT buckets) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  JumpLanes<U>(k, n, [&](std::size_t u, V64 bits) {
    hn::Store(hn::And(bits, hn::Set(d, 0xffffffffULL)), d, buckets + u * lanes);
  });
}

// Pass one on U vectors of keys at k, position `at` in the chunk, of which
// the first `valid` lanes are keys (fewer only in a padded tail): writes each
// jump bucket's entry (the bucket itself without a slot array) to o, and
// appends the lanes on a removed bucket to `p`.
template <std::size_t U>
HWY_INLINE void FirstPass(const uint64_t* HWY_RESTRICT k, std::size_t at, std::size_t valid,
                          uint32_t n, const uint32_t* HWY_RESTRICT slot, uint32_t* HWY_RESTRICT o,
                          Pending& p) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  HWY_ALIGN uint64_t buckets[U * kMaxLanes64];
  JumpBlock<U>(k, n, buckets);
  for (std::size_t u = 0; u < U; ++u) {
    const V64 bucket = hn::Load(d, buckets + u * lanes);
    if (slot == nullptr) {
      StoreLow32(bucket, o + u * lanes);
      continue;
    }
    const V64 entry = GatherSlot(slot, bucket);
    StoreLow32(entry, o + u * lanes);
    const std::size_t first = u * lanes < valid ? valid - u * lanes : 0;
    const auto removed =
        hn::And(Above(entry, hn::Set(d, kMementoRemoved - 1)), hn::FirstN(d, first));
    // The lanes' bits (at most 32 lanes of 64 bits, on SVE's widest), then
    // the few set ones appended one by one: Highway 1.0.3's AVX3 Compress of
    // 64-bit lanes copies a 2 KiB table to the stack on every call.
    uint8_t bytes[8] = {};
    hn::StoreMaskBits(d, removed, bytes);
    uint64_t bits;
    std::memcpy(&bits, bytes, sizeof(bits));
    for (; bits != 0; bits &= bits - 1) {
      const std::size_t i = u * lanes + hwy::Num0BitsBelowLS1Bit_Nonzero64(bits);
      p.keys[p.size] = k[i];
      p.state[p.size] = buckets[i] | uint64_t{o[i]} << 32;
      p.bound[p.size] = 0xffffffffu;
      p.index[p.size++] = static_cast<uint32_t>(at + i);
    }
  }
}

// The `valid` lanes from position t of a block that stops: each lane's entry
// to out at its position (final for a lane on a working bucket, overwritten
// by a later round otherwise), and the lanes still on a removed bucket
// appended to `next` with their state.
HWY_INLINE void Settle(const Pending& p, std::size_t t, std::size_t valid, V64 key, V64 b,
                       V64 entry, V64 e, uint32_t* HWY_RESTRICT out, Pending& next) {
  const D64 d;
  HWY_ALIGN uint64_t k[kMaxLanes64], s[kMaxLanes64], bound[kMaxLanes64];
  hn::Store(key, d, k);
  hn::Store(hn::Or(b, hn::ShiftLeft<32>(entry)), d, s);
  hn::Store(e, d, bound);
  for (std::size_t lane = 0; lane < valid; ++lane) {
    const uint32_t index = p.index[t + lane];
    out[index] = static_cast<uint32_t>(s[lane] >> 32);
    next.keys[next.size] = k[lane];
    next.state[next.size] = s[lane];
    next.bound[next.size] = bound[lane];
    next.index[next.size] = index;
    next.size += s[lane] >> 32 >= kMementoRemoved;
  }
}

// Pass two on U vectors of the list from position t (`valid` entries, the
// rest padding): memento_walk in lanes, until at most `leave` lanes are still
// walking; then Settle. Each step takes r = entry's replacer; entry >= e (a
// bucket removed before the one that set the range) follows it, b = r;
// otherwise entry becomes e and b is rehashed into [0, r). Lanes on a working
// bucket keep b, so the gather that every lane makes reads their own entry
// again.
template <std::size_t U>
HWY_INLINE void WalkBlock(const Pending& p, std::size_t t, std::size_t valid, std::size_t leave,
                          const uint32_t* HWY_RESTRICT slot, uint32_t* HWY_RESTRICT out,
                          Pending& next) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 removed_below = hn::Set(d, kMementoRemoved - 1);
  CHBENCH_VECTORS(V64, key, U);
  CHBENCH_VECTORS(V64, b, U);
  CHBENCH_VECTORS(V64, entry, U);
  CHBENCH_VECTORS(V64, e, U);
  for (std::size_t u = 0; u < U; ++u) {
    key(u) = hn::LoadU(d, p.keys + t + u * lanes);
    const V64 s = hn::LoadU(d, p.state + t + u * lanes);
    b(u) = hn::And(s, hn::Set(d, 0xffffffffULL));
    entry(u) = hn::ShiftRight<32>(s);
    e(u) = hn::LoadU(d, p.bound + t + u * lanes);
  }
  for (;;) {
    CHBENCH_VECTORS(hn::Mask<D64>, going, U);
    std::size_t walking = 0;
    for (std::size_t u = 0; u < U; ++u) {
      going(u) = Above(entry(u), removed_below);
      walking += hn::CountTrue(d, going(u));
    }
    if (walking <= leave) break;
    for (std::size_t u = 0; u < U; ++u) {
      const V64 r = hn::Sub(entry(u), hn::Set(d, kMementoRemoved));
      const auto follow = Above(entry(u), hn::Sub(e(u), hn::Set(d, 1)));
      const V64 next_b = hn::IfThenElse(follow, r, Rehash(key(u), b(u), r));
      e(u) = hn::IfThenElse(follow, e(u), entry(u));
      b(u) = hn::IfThenElse(going(u), next_b, b(u));
      entry(u) = GatherSlot(slot, b(u));
    }
  }
  for (std::size_t u = 0; u < U; ++u) {
    const std::size_t first = u * lanes < valid ? valid - u * lanes : 0;
    Settle(p, t + u * lanes, first < lanes ? first : lanes, key(u), b(u), entry(u), e(u), out,
           next);
  }
}

// Pass two: rounds over the list in blocks of whole vectors (its end padded
// with lanes on a working bucket). A block of a long list stops when half of
// its lanes or fewer still walk, and those go on in the next round, packed
// into full vectors with the rest of the round's: the longest walks (N =
// 1,000 with 90% removed at random: 9 steps on average, 40 and more for one
// key in a thousand) no longer hold a block of mostly finished lanes. A short list
// (below two blocks) runs to the end; every round but that one halves the
// list at least. `spare` is the other round's list.
void WalkPending(Pending& p, Pending& spare, const uint32_t* HWY_RESTRICT slot,
                 uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  constexpr std::size_t kUnroll = Unroll(4);
  Pending* list = &p;
  Pending* next = &spare;
  while (list->size != 0) {
    const std::size_t size = list->size;
    const bool long_list = size >= 2 * kUnroll * lanes;
    for (std::size_t t = size; t < size + lanes; ++t)
      list->keys[t] = list->state[t] = list->bound[t] = 0;
    next->size = 0;
    std::size_t t = 0;
    if constexpr (kUnroll > 1) {
      for (; t + kUnroll * lanes <= size; t += kUnroll * lanes)
        WalkBlock<kUnroll>(*list, t, kUnroll * lanes, long_list ? kUnroll * lanes / 2 : 0, slot,
                           out, *next);
    }
    for (; t < size; t += lanes)
      WalkBlock<1>(*list, t, size - t, long_list ? lanes / 2 : 0, slot, out, *next);
    std::swap(list, next);
  }
}

// MementoHash over a b-array of n buckets for count keys; slot is null when
// every bucket is its own owner (memento.h's identity).
void MementoKeys(const uint32_t* HWY_RESTRICT slot, uint32_t n, const uint64_t* HWY_RESTRICT keys,
                 std::size_t count, uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  constexpr std::size_t kUnroll = Unroll(4);
  Pending p, spare;
  for (std::size_t at = 0; at < count; at += kMementoChunk) {
    const std::size_t size = count - at < kMementoChunk ? count - at : kMementoChunk;
    const uint64_t* k = keys + at;
    uint32_t* o = out + at;
    p.size = 0;
    std::size_t i = 0;
    if constexpr (kUnroll > 1) {
      for (; i + kUnroll * lanes <= size; i += kUnroll * lanes)
        FirstPass<kUnroll>(k + i, i, kUnroll * lanes, n, slot, o + i, p);
    }
    for (; i + lanes <= size; i += lanes) FirstPass<1>(k + i, i, lanes, n, slot, o + i, p);
    if (i < size) {
      HWY_ALIGN uint64_t k_pad[kMaxLanes64] = {};
      HWY_ALIGN uint32_t o_pad[kMaxLanes64] = {};
      for (std::size_t r = 0; r < size - i; ++r) k_pad[r] = k[i + r];
      FirstPass<1>(k_pad, i, size - i, n, slot, o_pad, p);
      for (std::size_t r = 0; r < size - i; ++r) o[i + r] = o_pad[r];
    }
    if (p.size != 0) WalkPending(p, spare, slot, o);
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

HWY_EXPORT(MementoKeys);

void memento_owners(const MementoSlots& slots, std::span<const uint64_t> key_hashes,
                    std::span<uint32_t> out) {
  glue::check_sizes(key_hashes, out);
  const uint32_t* slot = slots.identity ? nullptr : slots.slot.get();
  HWY_DYNAMIC_DISPATCH(MementoKeys)
  (slot, slots.size, key_hashes.data(), key_hashes.size(), out.data());
}

}  // namespace simd

namespace {

class MementoSimdTable final : public OwnerTable {
 public:
  explicit MementoSimdTable(const Fleet& f) : s_(memento_slots(f)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    simd::memento_owners(s_, h, out);
  }
  std::size_t memory_bytes() const noexcept override { return s_.memory_bytes(); }

 private:
  MementoSlots s_;
};

std::unique_ptr<OwnerTable> make_simd(const Fleet& f, unsigned knob) {
  glue::no_knob(registry::memento_simd, knob);
  return std::make_unique<MementoSimdTable>(f);
}

}  // namespace

constinit const KernelInfo registry::memento_simd{
    .scheme = Scheme::kMemento,
    .name = "simd",
    .summary =
        "keys in lanes: jump hash and a slot gather for all, the removed buckets' "
        "replacement loop on the compressed rest, gathers under masks (Highway)",
    .simd = true,
    .rival = &registry::memento_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &make_simd,
    .table_bytes = &memento_slots_bytes,
};

}  // namespace chbench

#endif  // HWY_ONCE
