// BinomialHash's reference, BinomialEngine (SUPSI-DTI-ISIN/java-consistent-
// hashing-algorithms, src/main/java/ch/supsi/dti/isin/consistenthash/binomial/
// BinomialEngine.java at commit 68803f8) transcribed with Java's types: int
// buckets and filters, long hashes with wrapping arithmetic, >>> as a shift of
// the unsigned value, (int) casts that keep the low 32 bits. The algorithm is
// that of Coluzzi et al., arXiv:2406.19836, as revised in that code (4 redraws
// with an early exit, relocation within the level on each redraw); see
// docs/schemes/binomial.md. Also the scheme's registry functions.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "chbench/binomial/binomial.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

uint32_t binomial_buckets(const Fleet& fleet) {
  return glue::bucket_count(fleet, kBinomialMaxBuckets, "BinomialHash (a Java int)");
}

namespace {

// Integer.highestOneBit for a non-negative int (0 for 0).
int32_t highest_one_bit(int32_t i) {
  return static_cast<int32_t>(std::bit_floor(static_cast<uint32_t>(i)));
}

// The engine's rehash(value, seed): an LCG step, squared, times the seed.
int64_t rehash(int64_t value, int32_t seed) {
  const uint64_t hash = 2862933555777941757ULL * static_cast<uint64_t>(value) + 1;
  return static_cast<int64_t>((hash * hash * static_cast<uint64_t>(int64_t{seed})) >> 32);
}

// relocateWithinLevel(bucket, hash): a position in bucket's level of the tree.
int32_t relocate_within_level(int32_t bucket, int64_t hash) {
  if (bucket < 2) return bucket;
  const int32_t level_base_index = highest_one_bit(bucket);
  const int32_t level_filter = level_base_index - 1;
  const int64_t level_hash = rehash(hash, level_filter);
  const int32_t level_index = static_cast<int32_t>(level_hash) & level_filter;
  return level_base_index + level_index;
}

class BinomialReference final : public OwnerTable {
 public:
  // The constructor's filters. Java computes highestOneBit << 1 in int, which
  // wraps to Integer.MIN_VALUE for sizes above 2^30, and MIN_VALUE - 1 to
  // Integer.MAX_VALUE: the same bits as this unsigned arithmetic.
  explicit BinomialReference(const Fleet& f) : size_(static_cast<int32_t>(binomial_buckets(f))) {
    uint32_t highest = static_cast<uint32_t>(highest_one_bit(size_));
    if (static_cast<uint32_t>(size_) > highest) highest <<= 1;
    enclosing_tree_filter_ = static_cast<int32_t>(highest - 1);
    minor_tree_filter_ = enclosing_tree_filter_ >> 1;
  }

  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i)
      out[i] = static_cast<uint32_t>(get_bucket(static_cast<int64_t>(h[i])));
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  // getBucket(key) from the key's hash (the framework's hashFunction.hash(key)).
  int32_t get_bucket(int64_t hash) const {
    if (size_ < 2) return 0;
    int32_t bucket = static_cast<int32_t>(hash) & enclosing_tree_filter_;
    bucket = relocate_within_level(bucket, hash);
    if (bucket < size_) return bucket;
    int64_t h = hash;
    for (int i = 0; i < 4; ++i) {
      h = rehash(h, enclosing_tree_filter_);
      bucket = static_cast<int32_t>(h) & enclosing_tree_filter_;
      bucket = relocate_within_level(bucket, h);
      if (bucket <= minor_tree_filter_) break;
      if (bucket < size_) return bucket;
    }
    bucket = static_cast<int32_t>(hash) & minor_tree_filter_;
    return relocate_within_level(bucket, hash);
  }

  int32_t size_;
  int32_t enclosing_tree_filter_;
  int32_t minor_tree_filter_;
};

}  // namespace

std::unique_ptr<OwnerTable> registry::binomial_reference(const Fleet& f) {
  return std::make_unique<BinomialReference>(f);
}

void registry::binomial_check(const Fleet& f) { binomial_buckets(f); }

uint64_t registry::binomial_reference_bytes(const Fleet& f) { return glue::no_bytes(f); }

constinit const SchemeInfo registry::binomial_scheme{
    .id = Scheme::kBinomial,
    .name = "binomial",
    .aliases = {},
    .title = "BinomialHash",
    .source =
        "Coluzzi, Brocco, Antonucci and Leidi, BinomialHash: A Constant Time, Minimal "
        "Memory Consistent Hash Algorithm, arXiv:2406.19836, as SUPSI's BinomialEngine "
        "computes it (java-consistent-hashing-algorithms 68803f8); docs/schemes/binomial.md",
    .params = 0,
    .removal = Removal::kLastOnly,
    .removal_note =
        "only the last bucket can leave (buckets are 0 ... N-1); any other leave "
        "renumbers buckets",
    .max_nodes = kBinomialMaxBuckets,
    .reference = &registry::binomial_reference,
    .check = &registry::binomial_check,
    .reference_bytes = &registry::binomial_reference_bytes,
    .buckets_only = true,
    .growth = &minimal_growth};

}  // namespace chbench
