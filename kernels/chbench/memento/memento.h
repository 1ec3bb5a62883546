// MementoHash: Coluzzi, Brocco, Antonucci and Leidi, "MementoHash: A
// Stateful, Minimal Memory, Best Performing Consistent Hash Algorithm",
// IEEE/ACM Transactions on Networking, 2024 (arXiv:2306.09783). Jump hash over
// the b-array (every bucket ever added and not shrunk away), and a replacement
// set that sends a key landing on a removed bucket to a working one; any
// bucket can leave, no capacity is fixed in advance. docs/schemes/memento.md
// has the definition and its sources.
//
// The reference (reference.cc) keeps the replacement set in a hash map, as
// the paper does; the kernels (memento/scalar, memento/simd) in one flat
// array of the b-array's size (MementoSlots), which a SIMD gather can read.
// supsi.h is the profile of SUPSI's Java engine, on String keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/jump/jump.h"
#include "chbench/memory.h"

namespace chbench {

// Most buckets a b-array holds: jump hash's int32_t range.
inline constexpr uint32_t kMementoMaxBuckets = kJumpMaxBuckets;

// The rehash of key hash h with bucket b: the (b + 1)-th output of SplitMix64
// (Steele, Lea and Flood, OOPSLA 2014) started at state h, i.e. z = h + (b + 1)
// * 0x9e3779b97f4a7c15, then its mix13 finaliser.
constexpr uint64_t memento_mix(uint64_t h, uint32_t b) noexcept {
  uint64_t z = h + (uint64_t{b} + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The paper's `hash(key, b) mod r`, r >= 1: the top 32 bits of memento_mix
// range-reduced by Lemire's multiply-shift, floor(top * r / 2^32), in [0, r).
constexpr uint32_t memento_rehash(uint64_t h, uint32_t b, uint32_t r) noexcept {
  return static_cast<uint32_t>(((memento_mix(h, b) >> 32) * r) >> 32);
}

// ---- the buckets' state, the kernels' way --------------------------------------

// The paper's state with the replacement set as flat arrays indexed by bucket
// (sized to the historic maximum of the b-array): the b-array size n, the last
// removed bucket, and for each removed bucket its replacer (the working count
// once it left) and the bucket removed before it.
class MementoBuckets {
 public:
  // n working buckets 0 ... n-1. Precondition: 1 <= n <= kMementoMaxBuckets.
  explicit MementoBuckets(uint32_t n);
  // Room for this many buckets in the arrays (capped at kMementoMaxBuckets).
  void reserve(uint64_t buckets);

  // The paper's remove: with no removed bucket the last one shrinks the
  // b-array (jump hash's case); any other is remembered with replacer = the
  // working count after it leaves. Precondition: b working, working() >= 2.
  void remove(uint32_t b);
  // The paper's restore: the last removed bucket comes back, or with none
  // removed the b-array grows by bucket n. Returns the bucket. Throws
  // std::length_error past kMementoMaxBuckets.
  uint32_t add();

  uint32_t array_size() const noexcept { return n_; }
  uint32_t working() const noexcept { return n_ - removed_; }
  uint32_t last_removed() const noexcept { return last_removed_; }
  bool is_removed(uint32_t b) const noexcept { return b < n_ && replacer_[b] != kWorking; }
  // Precondition: is_removed(b).
  uint32_t replacer(uint32_t b) const noexcept { return replacer_[b]; }
  std::size_t memory_bytes() const noexcept;

 private:
  static constexpr uint32_t kWorking = 0xffffffffu;
  uint32_t n_;
  uint32_t last_removed_;
  uint32_t removed_ = 0;
  std::vector<uint32_t> replacer_;  // kWorking, or the replacer of a removed bucket
  std::vector<uint32_t> prev_;      // of a removed bucket: the last removed before it
};

// Replays a fleet on a bucket state (MementoBuckets, or the reference's):
// `State(N0)` for the initial list, remove(b) for a leave (b = the bucket of
// the leaving node), add() for a join (the joining name takes its bucket).
// Returns, for each bucket of the final b-array, the owner index of its node
// in fleet.nodes().names (kNoOwner for a removed bucket). Precondition:
// memento_check_fleet(fleet) passed.
inline constexpr uint32_t kNoOwner = 0xffffffffu;
template <class State>
std::vector<uint32_t> replay_fleet(const Fleet& fleet, State& state);

// Throws std::invalid_argument when the fleet is invalid (validate()) or when
// its initial nodes and joins could exceed kMementoMaxBuckets buckets.
void memento_check_fleet(const Fleet& fleet);

// An upper estimate of the bytes replay_fleet takes beside the state (the
// name map and the owner array), and of the b-array's historic maximum:
// initial nodes plus joins.
uint64_t memento_replay_bytes(const Fleet& fleet);
uint64_t memento_max_buckets(const Fleet& fleet);

// ---- the kernels' table ----------------------------------------------------------

// A removed bucket's entry in the slot array: this bit, or'ed with its
// replacer. A working bucket's entry is its owner index (below 2^31).
inline constexpr uint32_t kMementoRemoved = 0x80000000u;

// The kernels' table: for each bucket b < size, slot[b] = the owner index of a
// working bucket or kMementoRemoved | replacer of a removed one, and one
// padding entry slot[size] = 0 (the SIMD kernel gathers 8 bytes at slot + b).
// `identity` says slot[b] == b for every b (no bucket removed, buckets in
// list order): the lookup is then jump hash alone, and a fleet without
// history has no slot array at all (slot is null).
struct MementoSlots {
  uint32_t size = 0;
  bool identity = false;
  TableArray<uint32_t> slot;

  std::size_t memory_bytes() const noexcept {
    return slot ? (std::size_t{size} + 1) * sizeof(uint32_t) : 0;
  }
};

// The slots of a state, owners[b] the owner index of working bucket b.
MementoSlots memento_slots(const MementoBuckets& state, const std::vector<uint32_t>& owners);
// The slots of a fleet: memento_check_fleet, then replay_fleet on MementoBuckets.
MementoSlots memento_slots(const Fleet& fleet);
// Peak bytes memento_slots(fleet) takes: replay, state and slots.
uint64_t memento_slots_bytes(const Fleet& fleet);

// The paper's lookup loop on a slot array, from b = jump hash's bucket:
// while b is removed, rehash into [0, r) with r its replacer (`rehash(b, r)`),
// and follow the replacers of buckets removed before it (replacer >= r). One
// loop: entry `e` is the removed bucket whose r bounds the last rehash (all
// ones at first), and each removed entry u either continues the chain (u >= e:
// b = its replacer) or becomes the new e (rehash). Returns the working
// bucket's slot entry.
template <class Rehash>
inline uint32_t memento_walk(const uint32_t* slot, uint32_t b, const Rehash& rehash) {
  uint32_t e = ~uint32_t{0};
  uint32_t u = slot[b];
  while (u >= kMementoRemoved) {
    const uint32_t r = u - kMementoRemoved;
    if (u >= e) {
      b = r;
    } else {
      e = u;
      b = rehash(b, r);
    }
    u = slot[b];
  }
  return u;
}

// The owner of key hash h: jump hash over the b-array, then memento_walk with
// memento_rehash.
inline uint32_t memento_owner(const MementoSlots& s, uint64_t h) {
  const uint32_t b = jump_hash(h, s.size);
  if (s.identity) return b;
  return memento_walk(s.slot.get(), b,
                      [h](uint32_t bucket, uint32_t r) { return memento_rehash(h, bucket, r); });
}

namespace simd {

// memento_owner for a batch, the keys in lanes (memento/simd.cc). Shapes:
// out.size() == key_hashes.size(); throws std::invalid_argument otherwise.
void memento_owners(const MementoSlots& slots, std::span<const uint64_t> key_hashes,
                    std::span<uint32_t> out);

}  // namespace simd

// ---- replay_fleet ------------------------------------------------------------------

template <class State>
std::vector<uint32_t> replay_fleet(const Fleet& fleet, State& state) {
  const auto& initial = fleet.initial();
  const auto& names = fleet.nodes().names;
  if (fleet.history().empty()) {
    std::vector<uint32_t> owners(initial.size());
    for (uint32_t b = 0; b < owners.size(); ++b) owners[b] = b;
    return owners;
  }
  // The bucket of each node in service, by name (views of the fleet's own
  // strings, which outlive this call).
  std::unordered_map<std::string_view, uint32_t> bucket_of;
  bucket_of.reserve(memento_max_buckets(fleet));
  for (uint32_t b = 0; b < initial.size(); ++b) bucket_of.emplace(initial[b], b);
  for (const FleetChange& change : fleet.history()) {
    if (change.kind == FleetChange::Kind::kLeave) {
      const auto it = bucket_of.find(change.node);
      state.remove(it->second);
      bucket_of.erase(it);
    } else {
      bucket_of.emplace(change.node, state.add());
    }
  }
  std::vector<uint32_t> owners(state.array_size(), kNoOwner);
  for (uint32_t i = 0; i < names.size(); ++i) owners[bucket_of.at(names[i])] = i;
  return owners;
}

}  // namespace chbench
