// Batch loops of the S-tree and bucket-index ring kernels (chbench/ring_stree.h):
// one 64-byte node or token record compared with SIMD per step, many keys in
// flight so that their cache misses overlap.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/ring/stree.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "chbench/ring/stree.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Prefetches the cache line at p. A prefetch never faults.
HWY_INLINE void PrefetchLine(const void* p) { __builtin_prefetch(p); }

// Count of the `valid` first tokens of a 64-byte aligned block that are below
// x (unsigned compare), for vectors of at most 64 bytes.
template <class Token, std::size_t kValid>
HWY_INLINE std::size_t CountBelow(const Token* HWY_RESTRICT block, Token x) {
  const hn::CappedTag<Token, 64 / sizeof(Token)> d;
  const std::size_t lanes = hn::Lanes(d);
  const auto vx = hn::Set(d, x);
  std::size_t count = 0;
  for (std::size_t j = 0; j < kValid; j += lanes) {
    auto below = hn::Lt(hn::Load(d, block + j), vx);
    // Lanes past kValid hold the record's owners: masked off.
    if (kValid % lanes != 0 && j + lanes > kValid)
      below = hn::And(below, hn::FirstN(d, kValid - j));
    count += hn::CountTrue(d, below);
  }
  return count;
}

template <class Token>
HWY_INLINE uint32_t RecordOwner(const TokenRecord<Token>& rec, Token x) {
  return rec.owners[CountBelow<Token, TokenRecord<Token>::kTokens>(rec.tokens, x)];
}

// Keys [0, count) through the S-tree, `tree.group` of them descending the
// levels in lockstep: each key compares its node, then prefetches the node it
// goes to next, which the other keys' compares give time to arrive.
template <class Token>
void STreeOwnersT(const STreeView<Token>& tree, const Token* HWY_RESTRICT keys, std::size_t count,
                  uint32_t* HWY_RESTRICT out) {
  constexpr std::size_t kNode = STreeView<Token>::kNode;
  constexpr std::size_t kMaxGroup = 256;
  const std::size_t group = tree.group;
  for (std::size_t i = 0; i < count; i += group) {
    const std::size_t g = count - i < group ? count - i : group;
    std::size_t k[kMaxGroup];
    for (std::size_t j = 0; j < g; ++j) k[j] = 0;
    for (unsigned t = 0; t < tree.levels; ++t) {
      const Token* level = tree.inner + tree.offset[t];
      const bool last = t + 1 == tree.levels;
      const Token* next = last ? nullptr : tree.inner + tree.offset[t + 1];
      for (std::size_t j = 0; j < g; ++j) {
        k[j] = k[j] * (kNode + 1) + CountBelow<Token, kNode>(level + k[j] * kNode, keys[i + j]);
        PrefetchLine(last ? static_cast<const void*>(tree.leaves + k[j])
                          : static_cast<const void*>(next + k[j] * kNode));
      }
    }
    for (std::size_t j = 0; j < g; ++j) out[i + j] = RecordOwner(tree.leaves[k[j]], keys[i + j]);
  }
}

// Keys [0, count) through the bucket records, the record `distance` keys ahead
// prefetched. Keys whose bucket is overfull get the overfull mark first; a
// second pass over each chunk's owners (a vector compare, rarely true) finds
// them and the S-tree answers them, so the main loop carries no bookkeeping.
template <class Token>
void BucketedOwnersT(const BucketView<Token>& index, const Token* HWY_RESTRICT keys,
                     std::size_t count, uint32_t* HWY_RESTRICT out) {
  constexpr std::size_t kChunk = 1024;
  const unsigned shift = index.shift;
  const std::size_t distance = index.distance;
  const TokenRecord<Token>* records = index.records;
  const hn::ScalableTag<uint32_t> d32;
  const std::size_t lanes = hn::Lanes(d32);
  const auto mark = hn::Set(d32, kOverfullBucket);
  for (std::size_t begin = 0; begin < count; begin += kChunk) {
    const std::size_t end = count - begin < kChunk ? count : begin + kChunk;
    if (distance == 0) {
      for (std::size_t i = begin; i < end; ++i)
        out[i] = RecordOwner(records[keys[i] >> shift], keys[i]);
    } else {
      for (std::size_t i = begin; i < end; ++i) {
        if (i + distance < count) PrefetchLine(records + (keys[i + distance] >> shift));
        out[i] = RecordOwner(records[keys[i] >> shift], keys[i]);
      }
    }
    std::size_t i = begin;
    bool any = false;
    for (; i + lanes <= end; i += lanes)
      any |= !hn::AllFalse(d32, hn::Eq(hn::LoadU(d32, out + i), mark));
    for (; i < end; ++i) any |= out[i] == kOverfullBucket;
    if (!any) continue;
    Token spilled[kChunk];
    uint32_t spilled_at[kChunk], spilled_owner[kChunk];
    std::size_t spills = 0;
    for (std::size_t j = begin; j < end; ++j)
      if (out[j] == kOverfullBucket) {
        spilled[spills] = keys[j];
        spilled_at[spills++] = static_cast<uint32_t>(j);
      }
    STreeOwnersT(index.fallback, spilled, spills, spilled_owner);
    for (std::size_t s = 0; s < spills; ++s) out[spilled_at[s]] = spilled_owner[s];
  }
}

void STreeOwners64(const STreeView<uint64_t>& tree, const uint64_t* keys, std::size_t count,
                   uint32_t* out) {
  STreeOwnersT(tree, keys, count, out);
}
void STreeOwners32(const STreeView<uint32_t>& tree, const uint32_t* keys, std::size_t count,
                   uint32_t* out) {
  STreeOwnersT(tree, keys, count, out);
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

namespace chbench::simd {

HWY_EXPORT(STreeOwners64);
HWY_EXPORT(STreeOwners32);
HWY_EXPORT(BucketedOwners64);
HWY_EXPORT(BucketedOwners32);

void stree_owners(const STreeView<uint64_t>& tree, std::span<const uint64_t> keys,
                  std::span<uint32_t> out) noexcept {
  HWY_DYNAMIC_DISPATCH(STreeOwners64)(tree, keys.data(), keys.size(), out.data());
}
void stree_owners(const STreeView<uint32_t>& tree, std::span<const uint32_t> keys,
                  std::span<uint32_t> out) noexcept {
  HWY_DYNAMIC_DISPATCH(STreeOwners32)(tree, keys.data(), keys.size(), out.data());
}
void bucketed_owners(const BucketView<uint64_t>& index, std::span<const uint64_t> keys,
                     std::span<uint32_t> out) noexcept {
  HWY_DYNAMIC_DISPATCH(BucketedOwners64)(index, keys.data(), keys.size(), out.data());
}
void bucketed_owners(const BucketView<uint32_t>& index, std::span<const uint32_t> keys,
                     std::span<uint32_t> out) noexcept {
  HWY_DYNAMIC_DISPATCH(BucketedOwners32)(index, keys.data(), keys.size(), out.data());
}

}  // namespace chbench::simd

#endif  // HWY_ONCE
