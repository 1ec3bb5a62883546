// ring/bucketed: the bucket index's batch loop (bucketed.h) for every Highway
// target, its fallback the S-tree descent of stree-inl.h, and its registry
// entry.
#include "chbench/ring/bucketed.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/ring/bucketed.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "chbench/ring/stree-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// The owner a suffix record gives a key of suffix x, or kOverfullBucket
// where a suffix equals x (bucketed.h: SuffixRecord). The tie goes to a
// branch that predicts well; counting the equal suffixes into the owner's
// index instead, with no branch, cost 10 % at 16M tokens.
HWY_INLINE uint32_t SuffixOwner(const SuffixRecord& rec, uint16_t x) {
  constexpr std::size_t kValid = SuffixRecord::kTokens;
  const hn::CappedTag<uint16_t, 16> d;
  const std::size_t lanes = hn::Lanes(d);
  const auto vx = hn::Set(d, x);
  std::size_t below = 0;
  bool tie = false;
  for (std::size_t j = 0; j < kValid; j += lanes) {
    // Lanes past kValid hold the record's owners: masked off.
    const auto valid = hn::FirstN(d, kValid - j);
    const auto t = hn::Load(d, rec.tokens + j);
    below += hn::CountTrue(d, hn::And(hn::Lt(t, vx), valid));
    tie |= !hn::AllFalse(d, hn::And(hn::Eq(t, vx), valid));
  }
  return tie ? kOverfullBucket : rec.owners[below];
}

// Keys [begin, end) of keys[0, count) through the records (Rec), owner(rec,
// key) answering each, the record `distance` keys ahead prefetched. Four keys
// a step, with no bounds check on the prefetch where the step's prefetched
// keys all fall in keys[0, count). At 10 and 1,000 tokens (no prefetch there)
// 1.14 and 1.30-1.33 ns a key against 1.33-1.36 and 1.50 one key a step, in a
// busy spell on a Zen 5 (AVX3); at 10,000 and 65,500 tokens, which prefetch,
// no change beyond the host's noise.
template <class Token, class Rec, class Owner>
HWY_INLINE void RecordPass(const Rec* HWY_RESTRICT records, unsigned shift, std::size_t distance,
                           const Token* HWY_RESTRICT keys, std::size_t begin, std::size_t end,
                           std::size_t count, uint32_t* HWY_RESTRICT out, const Owner& owner) {
  constexpr std::size_t kStep = 4;
  const auto answer = [&](std::size_t i) { out[i] = owner(records[keys[i] >> shift], keys[i]); };
  // Steps [i, i + kStep) whose prefetched keys (i + u + distance) are all
  // below count. The prefetch is written out in both loops: named once as a
  // lambda beside `answer`, it made the loop 1.3 to 2.7 times as slow (ns a
  // key at 65,500, 10^5 and 10^6 tokens: 1.82-1.86, 2.25-2.31 and 10.6-11.2
  // against 1.36-1.39, 1.59-1.68 and 4.07; Zen 5, AVX3, alternated).
  const std::size_t prefetched_end =
      distance == 0 ? end : std::min(end, count > distance ? count - distance : 0);
  std::size_t i = begin;
  for (; i + kStep <= prefetched_end; i += kStep) {
    for (std::size_t u = 0; u < kStep; ++u) {
      if (distance != 0) PrefetchLine(records + (keys[i + u + distance] >> shift));
      answer(i + u);
    }
  }
  for (; i < end; ++i) {
    if (distance != 0 && i + distance < count)
      PrefetchLine(records + (keys[i + distance] >> shift));
    answer(i);
  }
}

// The keys whose record gave the overfull mark, listed across chunks and
// answered by the S-tree in one call when the list fills or the batch ends,
// so that their descents overlap (up to the S-tree's group in lockstep). A
// chunk's own spilled keys (one or two for uniform tokens), answered at the
// chunk's end, descended alone while no record was read: the two ways as two
// kernels of one comparison group (Zen 5, AVX3, K = 10^5, two to four runs at
// each ring size), the per-round ratio of this one to that was 0.92-0.97 at
// 16M tokens, 0.97-0.98 at 10^7, 0.91-0.94 at 10^6, 0.99 at 300,000,
// 0.90-0.98 at 65,500 and 0.97-1.02 at 10,000. 512 keys: twice the largest
// S-tree group, 10 KiB of stack for 64-bit keys.
template <class Token>
class SpillList {
 public:
  static constexpr std::size_t kCapacity = 512;

  SpillList(const STreeView<Token>& tree, const Token* HWY_RESTRICT keys,
            uint32_t* HWY_RESTRICT out)
      : tree_(tree), keys_(keys), out_(out) {}

  void add(std::size_t at) {
    keys_at_[size_] = keys_[at];
    at_[size_++] = at;
    if (size_ == kCapacity) flush();
  }
  void flush() {
    if (size_ == 0) return;
    STreeOwnersT(tree_, keys_at_, size_, owners_);
    for (std::size_t s = 0; s < size_; ++s) out_[at_[s]] = owners_[s];
    size_ = 0;
  }

 private:
  const STreeView<Token>& tree_;
  const Token* HWY_RESTRICT keys_;
  uint32_t* HWY_RESTRICT out_;
  std::size_t size_ = 0;
  Token keys_at_[kCapacity];
  std::size_t at_[kCapacity];
  uint32_t owners_[kCapacity];
};

// Keys [0, count) through the bucket records, the record `distance` keys ahead
// prefetched. Keys whose bucket is overfull get the overfull mark first; a
// second pass over each chunk's owners (a vector compare, rarely true) lists
// them, and the S-tree answers the list, so the main loop carries no
// bookkeeping.
template <class Token>
void BucketedOwnersT(const BucketView<Token>& index, const Token* HWY_RESTRICT keys,
                     std::size_t count, uint32_t* HWY_RESTRICT out) {
  constexpr std::size_t kChunk = 1024;
  const unsigned shift = index.shift;
  const unsigned bits = std::numeric_limits<Token>::digits - shift;
  const hn::ScalableTag<uint32_t> d32;
  const std::size_t lanes = hn::Lanes(d32);
  const auto mark = hn::Set(d32, kOverfullBucket);
  SpillList<Token> spills(index.fallback, keys, out);
  for (std::size_t begin = 0; begin < count; begin += kChunk) {
    const std::size_t end = count - begin < kChunk ? count : begin + kChunk;
    if (index.suffix_records != nullptr) {
      RecordPass(index.suffix_records, shift, index.distance, keys, begin, end, count, out,
                 [bits](const SuffixRecord& rec, Token x) {
                   return SuffixOwner(rec, bucket_suffix(x, bits));
                 });
    } else {
      RecordPass(index.records, shift, index.distance, keys, begin, end, count, out,
                 [](const TokenRecord<Token>& rec, Token x) { return RecordOwner(rec, x); });
    }
    std::size_t i = begin;
    bool any = false;
    for (; i + lanes <= end; i += lanes)
      any |= !hn::AllFalse(d32, hn::Eq(hn::LoadU(d32, out + i), mark));
    for (; i < end; ++i) any |= out[i] == kOverfullBucket;
    if (!any) continue;
    for (std::size_t j = begin; j < end; ++j)
      if (out[j] == kOverfullBucket) spills.add(j);
  }
  spills.flush();
}

void BucketedOwners64(const BucketView<uint64_t>& index, const uint64_t* keys, std::size_t count,
                      uint32_t* out) {
  BucketedOwnersT(index, keys, count, out);
}
void BucketedOwners32(const BucketView<uint32_t>& index, const uint32_t* keys, std::size_t count,
                      uint32_t* out) {
  BucketedOwnersT(index, keys, count, out);
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include "chbench/registry.h"
#include "chbench/ring/table.h"

namespace chbench {

namespace simd {

HWY_EXPORT(BucketedOwners64);
HWY_EXPORT(BucketedOwners32);

void bucketed_owners(const BucketView<uint64_t>& index, std::span<const uint64_t> keys,
                     std::span<uint32_t> out) noexcept {
  HWY_DYNAMIC_DISPATCH(BucketedOwners64)(index, keys.data(), keys.size(), out.data());
}
void bucketed_owners(const BucketView<uint32_t>& index, std::span<const uint32_t> keys,
                     std::span<uint32_t> out) noexcept {
  HWY_DYNAMIC_DISPATCH(BucketedOwners32)(index, keys.data(), keys.size(), out.data());
}

}  // namespace simd

namespace {

constexpr unsigned kDistanceSweep[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
constinit const Knob kBucketDistance{"prefetch distance",
                                     "none up to a 256 KiB table, 32 up to 16 MiB, 128 above", 1,
                                     1024, kDistanceSweep};

// The bucket index: up to 2 * 64 + 16 B/token for tables of up to 4 MiB
// (twice the buckets), up to 64 + 16 above: a bound, since a 64-bit ring's
// records of suffixes take at most 32 B/token there.
uint64_t bucketed_bytes(const Fleet& f) {
  const uint64_t tokens = glue::ring_tokens(f);
  return glue::saturating_add(glue::saturating_mul(tokens, 16 + 12 + (tokens <= 65536 ? 144 : 80)),
                              glue::kLayoutBytes);
}

}  // namespace

constinit const KernelInfo registry::ring_bucketed{
    .scheme = Scheme::kRing,
    .name = "bucketed",
    .summary =
        "bucket index on the key hash's top bits, one 64-byte token record per bucket "
        "(Highway)",
    .simd = true,
    .rival = &registry::ring_eytzinger,
    .baseline = false,
    .rank = 10,
    .knob = &kBucketDistance,
    .make = &glue::ring_make<registry::ring_bucketed, RingBucketed,
                             glue::ring_over_knob<registry::ring_bucketed, RingBucketed>>,
    .table_bytes = &bucketed_bytes,
    .make_over_ring = &glue::ring_over_knob<registry::ring_bucketed, RingBucketed>,
};

}  // namespace chbench

#endif  // HWY_ONCE
