// memento/simd: MementoHash with the keys in lanes (memento.h), for every
// Highway target, and its registry entry. Compiled with -ffp-contract=off
// (kernels/CMakeLists.txt), as jump/simd: the jump length must round as
// jump_hash's, never through a fused multiply-add.
//
// Chunks of keys go through passes. Pass one runs jump hash in lanes over
// the b-array (jump/simd's way: b and j as doubles, masks for the lanes that
// stop first) and keeps the chunk's buckets. Pass two gathers each bucket's
// slot entry (no branch between the gathers, so they overlap), writes it as
// the owner, and compresses the keys whose bucket was removed into a list of
// walks (key, bucket and entry, bound e, position). Each step pass then takes
// every walk one step (follow a replacer or rehash, then gather the next
// entry), leaves the finished walks' owners for a scalar store and compacts
// the others to the front; the passes stop once at most kMementoCarry walks
// are left, which go on beside the next chunk's. Measured on a Zen 5 VM
// (AVX3), median ns a key of five processes each, alternated, against the
// kernel before (blocks of four vectors walking under masks until half of
// their lanes had finished, the walks appended from mask bits one by one):
// N = 10^6 with half removed at random, K = 10^7: 9.3 against 13.9; N =
// 1,000 with half and 90 % removed, K = 10^5: 5.7 and 15.8 against 8.5 and
// 20.0; nothing removed (jump hash alone), 4.9 against 4.8. 256 walks carried
// measured as 128.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/memento/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "chbench/compress-inl.h"
#include "chbench/jump/lanes-inl.h"
#include "chbench/memento/memento.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Keys per chunk: the list of walks holds one chunk's and those carried.
inline constexpr std::size_t kMementoChunk = 1024;
// The most walks still going when the next chunk's first pass starts (pass
// two stops there, but after the span's last chunk).
inline constexpr std::size_t kMementoCarry = 128;
inline constexpr std::size_t kMementoList = kMementoChunk + kMementoCarry + kMaxLanes64;

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

// The walks still going, as arrays of lane state: the key hash, the bucket
// and its entry (bucket | entry << 32), the walk's bound e and the position
// in the span; and the finished walks, owner << 32 | position. Vectors are
// read and stored whole, so each has a vector's room to spare.
struct Pending {
  HWY_ALIGN uint64_t keys[kMementoList];
  HWY_ALIGN uint64_t state[kMementoList];
  HWY_ALIGN uint64_t bound[kMementoList];
  HWY_ALIGN uint64_t at[kMementoList];
  HWY_ALIGN uint64_t done[kMementoList];
  std::size_t size = 0;
};

// Pass one: jump hash of `size` keys in lanes (jump/lanes-inl.h), each
// vector's buckets (64-bit lanes, the high halves zero) handed to store(i, v)
// with i its first key's place: blocks of U vectors, then single vectors,
// then the last keys through a zero-padded copy, whose vector store(i, v)
// must cut at size where its destination has no room past it.
template <class Store>
HWY_INLINE void JumpPass(const uint64_t* HWY_RESTRICT k, std::size_t size, uint32_t n,
                         const Store& store) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 low32 = hn::Set(d, 0xffffffffULL);
  constexpr std::size_t kUnroll = Unroll(4);
  std::size_t i = 0;
  if constexpr (kUnroll > 1) {
    for (; i + kUnroll * lanes <= size; i += kUnroll * lanes)
      JumpLanes<kUnroll>(k + i, n,
                         [&](std::size_t u, V64 b) { store(i + u * lanes, hn::And(b, low32)); });
  }
  for (; i + lanes <= size; i += lanes)
    JumpLanes<1>(k + i, n, [&](std::size_t, V64 b) { store(i, hn::And(b, low32)); });
  if (i == size) return;
  HWY_ALIGN uint64_t pad[kMaxLanes64] = {};
  for (std::size_t r = 0; r < size - i; ++r) pad[r] = k[i + r];
  JumpLanes<1>(pad, n, [&](std::size_t, V64 b) { store(i, hn::And(b, low32)); });
}

// Every bucket its own owner (no slot array: nothing removed, the buckets
// in list order; memento.h's identity): jump hash alone, each owner to out.
HWY_INLINE void IdentityKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t n,
                             uint32_t* HWY_RESTRICT out) {
  const std::size_t lanes = hn::Lanes(D64());
  JumpPass(keys, count, n, [&](std::size_t i, V64 b) {
    if (i + lanes <= count) return StoreLow32(b, out + i);
    HWY_ALIGN uint32_t pad[kMaxLanes64];
    StoreLow32(b, pad);
    for (std::size_t r = 0; r < count - i; ++r) out[i + r] = pad[r];
  });
}

// Pass two for a chunk of `size` keys at position `at` of the span (keys
// and out the span's), its buckets from pass one: every bucket's slot entry
// gathered (independent loads, no branch between them) and written as the
// owner, and the keys on a removed bucket appended to p. The last vector's
// lanes past the chunk write to a copy.
HWY_INLINE void EntryPass(const uint64_t* HWY_RESTRICT keys, std::size_t at, std::size_t size,
                          const uint64_t* HWY_RESTRICT buckets, const uint32_t* HWY_RESTRICT slot,
                          uint32_t* HWY_RESTRICT out, Pending& p) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 removed_below = hn::Set(d, kMementoRemoved - 1);
  const V64 no_bound = hn::Set(d, 0xffffffffULL);
  for (std::size_t i = 0; i < size; i += lanes) {
    const std::size_t valid = size - i < lanes ? size - i : lanes;
    const V64 bucket = hn::Load(d, buckets + i);
    const V64 entry = GatherSlot(slot, bucket);
    if (valid == lanes) {
      StoreLow32(entry, out + at + i);
    } else {
      HWY_ALIGN uint32_t o_pad[kMaxLanes64];
      StoreLow32(entry, o_pad);
      for (std::size_t r = 0; r < valid; ++r) out[at + i + r] = o_pad[r];
    }
    const auto walk = hn::And(hn::FirstN(d, valid), Above(entry, removed_below));
    V64 key;
    if (valid == lanes) {
      key = hn::LoadU(d, keys + at + i);
    } else {
      HWY_ALIGN uint64_t k_pad[kMaxLanes64] = {};
      for (std::size_t r = 0; r < valid; ++r) k_pad[r] = keys[at + i + r];
      key = hn::Load(d, k_pad);
    }
    hn::StoreU(CompressLanes(key, walk), d, p.keys + p.size);
    hn::StoreU(CompressLanes(hn::Or(bucket, hn::ShiftLeft<32>(entry)), walk), d, p.state + p.size);
    hn::StoreU(CompressLanes(no_bound, walk), d, p.bound + p.size);
    hn::StoreU(CompressLanes(IotaFrom(d, at + i), walk), d, p.at + p.size);
    p.size += hn::CountTrue(d, walk);
  }
}

// One step of every walk on the list (memento_walk's loop body): r is the
// entry's replacer; entry >= e (a bucket removed before the one that set the
// range) follows it, b = r; otherwise e becomes the entry and b is rehashed
// into [0, r). Every walk gathers its next entry (independent loads, which
// overlap when the b-array is larger than the caches); those on a working
// bucket go to p.done from *done on (the count advanced), the others are
// compacted to the front, in place (a vector stored at the write position,
// never past the read one, overwrites only lanes already loaded). Returns how
// many still walk.
HWY_INLINE std::size_t StepList(Pending& p, const uint32_t* HWY_RESTRICT slot, std::size_t* done) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const V64 low32 = hn::Set(d, 0xffffffffULL);
  const V64 removed = hn::Set(d, kMementoRemoved);
  std::size_t kept = 0, finished = *done;
  for (std::size_t t = 0; t < p.size; t += lanes) {
    const hn::Mask<D64> valid = hn::FirstN(d, p.size - t);
    const V64 key = hn::Load(d, p.keys + t);
    const V64 state = hn::Load(d, p.state + t);
    V64 e = hn::Load(d, p.bound + t);
    const V64 at = hn::Load(d, p.at + t);
    const V64 entry = hn::ShiftRight<32>(state);
    const V64 r = hn::Sub(entry, removed);
    const auto follow = Above(entry, hn::Sub(e, hn::Set(d, 1)));
    const V64 b = hn::IfThenElse(follow, r, Rehash(key, hn::And(state, low32), r));
    e = hn::IfThenElse(follow, e, entry);
    // Lanes past the list gather slot 0.
    const V64 next = GatherSlot(slot, hn::IfThenElseZero(valid, b));
    const auto going = hn::And(valid, Above(next, hn::Sub(removed, hn::Set(d, 1))));
    const auto end = hn::AndNot(going, valid);
    hn::StoreU(CompressLanes(key, going), d, p.keys + kept);
    hn::StoreU(CompressLanes(hn::Or(b, hn::ShiftLeft<32>(next)), going), d, p.state + kept);
    hn::StoreU(CompressLanes(e, going), d, p.bound + kept);
    hn::StoreU(CompressLanes(at, going), d, p.at + kept);
    hn::StoreU(CompressLanes(hn::Or(hn::ShiftLeft<32>(next), at), end), d, p.done + finished);
    kept += hn::CountTrue(d, going);
    finished += hn::CountTrue(d, end);
  }
  *done = finished;
  return kept;
}

// The step passes over the list until at most `carry` walks are left,
// then each finished walk's owner to out (the span's) at its position.
HWY_INLINE void WalkPending(Pending& p, std::size_t carry, const uint32_t* HWY_RESTRICT slot,
                            uint32_t* HWY_RESTRICT out) {
  std::size_t done = 0;
  while (p.size > carry) p.size = StepList(p, slot, &done);
  StoreFinished(p.done, done, out);
}

// MementoHash over a b-array of n buckets for count keys; slot is null when
// every bucket is its own owner (memento.h's identity).
void MementoKeys(const uint32_t* HWY_RESTRICT slot, uint32_t n, const uint64_t* HWY_RESTRICT keys,
                 std::size_t count, uint32_t* HWY_RESTRICT out) {
  if (slot == nullptr) return IdentityKeys(keys, count, n, out);
  const D64 d;
  Pending p;
  HWY_ALIGN uint64_t buckets[kMementoChunk + kMaxLanes64];
  ForEachSpan(count, [&](std::size_t first, std::size_t span) {
    const uint64_t* k = keys + first;
    uint32_t* o = out + first;
    for (std::size_t at = 0; at < span; at += kMementoChunk) {
      const std::size_t size = span - at < kMementoChunk ? span - at : kMementoChunk;
      JumpPass(k + at, size, n, [&](std::size_t i, V64 b) { hn::Store(b, d, buckets + i); });
      EntryPass(k, at, size, buckets, slot, o, p);
      WalkPending(p, at + size < span ? kMementoCarry : 0, slot, o);
    }
  });
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
        "keys in lanes: jump hash and a slot gather for all, then the removed buckets' "
        "walks one step a pass, compacted (Highway)",
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
