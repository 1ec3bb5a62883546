// JumpBackAnchor: Dynatrace hash4j's ConsistentJumpBackAnchorBucketSetHasher
// (ConsistentHashing.jumpBackAnchorHash(splitMix64_V1()), commit
// 41d814f94c52). JumpBackHash (Ertl, arXiv:2403.18682; jumpback.h) over the
// historic maximum n_max of the bucket count picks a bucket; a bucket that
// has left sends its keys on as in AnchorHash (Mendelson et al., IEEE/ACM
// ToN 29(2), 2021, section IV, in the memory-saving form of the authors'
// mem/ README): A[b], the working count just after b left, bounds a fresh
// draw, and K[b], the bucket that took b's place, is followed until a bucket
// still working in that view. The draws go on from the SplitMix64 stream
// JumpBackHash started. Any bucket may leave; no capacity is fixed (n_max
// grows when a bucket is added with none removed). docs/schemes/
// jumpback_anchor.md has the definition and its sources.
//
// The reference (reference.cc) is AnchorHash's Algorithm 3 with its arrays
// A, W, L, K and the stack R; the kernels (jumpback_anchor/scalar, /simd)
// walk the packed table below, built as hash4j builds its ka array, so the
// two derivations check each other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/jumpback/jumpback.h"
#include "chbench/memory.h"

namespace chbench {

// Most buckets (n_max): a Java int, as JumpBackHash's.
inline constexpr uint32_t kJumpBackAnchorMaxBuckets = kJumpBackMaxBuckets;

// ---- the bucket state, hash4j's way -------------------------------------------

// hash4j's fields: n_max (historicMaxNumBuckets), the removed buckets in
// removal order (a stack), and for each removed bucket b its view A[b] and
// replacement K[b] (hash4j's ka[b], which keeps K[b] - b).
class JumpBackAnchorBuckets {
 public:
  // addBucket() n times: buckets 0 ... n-1 working. Precondition: 1 <= n <=
  // kJumpBackAnchorMaxBuckets.
  explicit JumpBackAnchorBuckets(uint32_t n);
  // Room for this many buckets (capped at kJumpBackAnchorMaxBuckets).
  void reserve(uint64_t buckets);

  // removeBucket(b): with none removed the last bucket shrinks n_max
  // (JumpBackHash's own case); any other is pushed with A[b] = the working
  // count after it leaves and K[b] = the bucket at position A[b] of the view
  // before (view_bucket(A[b], A[b] + 1)). Precondition: b working and not the
  // last working bucket.
  void remove(uint32_t b);
  // addBucket(): the last removed bucket comes back, or with none removed
  // n_max grows by bucket n_max. Returns the bucket. Throws std::length_error
  // past kJumpBackAnchorMaxBuckets.
  uint32_t add();

  uint32_t array_size() const noexcept { return n_max_; }  // n_max
  uint32_t working() const noexcept { return n_max_ - static_cast<uint32_t>(removed_.size()); }
  std::span<const uint32_t> removed() const noexcept { return removed_; }
  bool is_removed(uint32_t b) const noexcept { return b < n_max_ && view(b) != 0; }
  // A[b] (0 for a working bucket) and, for a removed bucket, K[b].
  uint32_t view(uint32_t b) const noexcept { return static_cast<uint32_t>(ka_[b]); }
  uint32_t replacement(uint32_t b) const noexcept { return static_cast<uint32_t>(ka_[b] >> 32); }
  // The bucket at position p of the view of v working buckets (hash4j's
  // bucketAtView): p, or while its A >= v, the K it points to.
  uint32_t view_bucket(uint32_t p, uint32_t v) const noexcept;

  // hash4j's getState(): n_max as a little-endian int32, then each removed
  // bucket in removal order.
  std::vector<uint8_t> state() const;
  std::size_t memory_bytes() const noexcept;

 private:
  uint32_t n_max_;
  std::vector<uint32_t> removed_;
  std::vector<uint64_t> ka_;  // A[b] | K[b] << 32, for b < the largest n_max so far
};

// Throws std::invalid_argument when the fleet is invalid (validate()) or its
// initial nodes and joins could exceed kJumpBackAnchorMaxBuckets buckets.
void check_jumpback_anchor(const Fleet& fleet);

// ---- the kernels' table ----------------------------------------------------------

// JumpBackHash's shape over n_max and, for each bucket b < n_max, one entry:
// A[b] | K[b] << 32 for a removed bucket, the owner index << 32 for a
// working one (A = 0). `entries` is null when no bucket is removed and bucket
// b is owner b for every b (a fleet without history): the lookup is then
// JumpBackHash alone.
struct JumpBackAnchorTable {
  JumpBackShape shape{1};
  TableArray<uint64_t> entries;

  std::size_t memory_bytes() const noexcept {
    return entries ? std::size_t{shape.n} * sizeof(uint64_t) : 0;
  }
};

// The table of a fleet: check_jumpback_anchor, then the initial list as
// buckets 0 ... N0-1 and every change of the history on JumpBackAnchorBuckets
// (a leave removes its node's bucket, a join adds a bucket and names it).
// Throws as check_jumpback_anchor, std::bad_alloc.
JumpBackAnchorTable jumpback_anchor_table(const Fleet& fleet);
// Peak bytes jumpback_anchor_table takes: the replay, the state, the table.
uint64_t jumpback_anchor_table_bytes(const Fleet& fleet);
// An upper estimate of n_max: the initial nodes plus the joins.
uint64_t jumpback_anchor_max_buckets(const Fleet& fleet);

// ---- one lookup -------------------------------------------------------------------

namespace jumpback_anchor_detail {

// The rare end of a draw in [0, n) (hash4j's uniformInt, Lemire's method
// with L = 32): m = x * n has low half below n, so the draw is rejected while
// that half is below 2^32 mod n, each retry reading the next value. Returns
// the accepted m; `state` is left at the last value read.
inline uint64_t retry_draw(uint64_t& state, uint32_t n, uint64_t m) noexcept {
  const auto t = static_cast<uint32_t>((uint64_t{1} << 32) % n);
  while (static_cast<uint32_t>(m) < t) {
    state = SplitMix64::next(state);
    m = (SplitMix64::value(state) & 0xffffffffu) * n;
  }
  return m;
}

}  // namespace jumpback_anchor_detail

// hash4j's uniformInt(n) on the stream after `state` (1 <= n < 2^31): the
// next value's low 32 bits x, floor(x * n / 2^32) unless rejected.
inline uint32_t jumpback_anchor_draw(uint64_t& state, uint32_t n) noexcept {
  state = SplitMix64::next(state);
  uint64_t m = (SplitMix64::value(state) & 0xffffffffu) * n;
  if (static_cast<uint32_t>(m) < n) [[unlikely]]
    m = jumpback_anchor_detail::retry_draw(state, n, m);
  return static_cast<uint32_t>(m >> 32);
}

// A lookup between its JumpBackHash bucket and its walk: the bucket and the
// stream's state after the values JumpBackHash read.
struct JumpBackAnchorWalk {
  uint64_t state = 0;
  uint32_t bucket = 0;
};

inline JumpBackAnchorWalk jumpback_anchor_start(const JumpBackAnchorTable& t, uint64_t h) {
  JumpBackAnchorWalk w;
  w.bucket = jumpback_bucket<SplitMix64>(h, t.shape, w.state);
  return w;
}

// hash4j's getBucket loop on the entries, as one loop: v is A of the removed
// bucket being resolved (all ones before the first); an entry with A = 0
// ends it (the owner is its high half), A >= v follows K (that bucket left
// before the one being resolved), and 0 < A < v starts resolving it with a
// draw in [0, A).
inline uint32_t jumpback_anchor_finish(const uint64_t* entries, JumpBackAnchorWalk w) {
  uint32_t v = ~uint32_t{0}, c = w.bucket;
  for (;;) {
    const uint64_t e = entries[c];
    const auto a = static_cast<uint32_t>(e);
    if (a == 0) return static_cast<uint32_t>(e >> 32);
    if (a >= v) {
      c = static_cast<uint32_t>(e >> 32);
    } else {
      v = a;
      c = jumpback_anchor_draw(w.state, a);
    }
  }
}

// The owner index of key hash h.
inline uint32_t jumpback_anchor_owner(const JumpBackAnchorTable& t, uint64_t h) {
  const JumpBackAnchorWalk w = jumpback_anchor_start(t, h);
  return t.entries ? jumpback_anchor_finish(t.entries.get(), w) : w.bucket;
}

namespace simd {

// jumpback_anchor_owner for a batch, the keys in lanes (jumpback_anchor/
// simd.cc). Throws std::invalid_argument when out.size() differs from
// key_hashes.size().
void jumpback_anchor_owners(const JumpBackAnchorTable& table, std::span<const uint64_t> key_hashes,
                            std::span<uint32_t> out);

}  // namespace simd

}  // namespace chbench
