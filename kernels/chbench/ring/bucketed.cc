// ring/bucketed: the bucket index's batch loop (bucketed.h) for every Highway
// target, its fallback the S-tree descent of stree-inl.h, and its registry
// entry.
#include "chbench/ring/bucketed.h"

#include <cstddef>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/ring/bucketed.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "chbench/ring/stree-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

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

// The bucket index: up to 64 + 16 B/token, twice the buckets (2 * 64 + 16)
// for tables of up to 4 MiB.
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
