// ring/bucketed: a table indexed by the top bits of the key hash, one token
// record per bucket (the idea of interpolation / radix-indexed search for
// uniform keys, Peterson 1957; Knuth TAOCP vol. 3, section 6.2.1). A lookup is
// one cache line; buckets holding more tokens than a record fits fall back to
// the S-tree (stree.h), so clustered tokens cost one S-tree descent, never a
// scan.
//
// It answers docs/spec.md §6's ring rule over a SortedRing (ring.h): the owner of the
// first token >= x, wrapping to the first token.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>

#include "chbench/memory.h"
#include "chbench/ring/ring.h"
#include "chbench/ring/stree.h"

namespace chbench {

// An owner value no node has (node indices are below 2^32 - 1): marks a
// bucket record that does not hold its bucket's tokens.
inline constexpr uint32_t kOverfullBucket = 0xffffffffu;

// The record of a 64-bit ring whose table of whole tokens would take over
// 4 MiB: 10 16-bit suffixes, the 16 bits of each token just below the
// bucket's `bits` top bits (bucket_suffix), instead of 5 whole tokens, so
// that a bucket holds 2 to 4 tokens on average and the table takes half the
// memory of one of 32-bit suffixes at 1 to 2. Within a bucket, where a key's suffix differs from a
// token's, the suffixes order the two as the whole values do; where they are
// equal the record cannot say, and the key is answered as an overfull
// bucket's (a chance of at most about 10 in 2^16 a key). Of 16M uniform
// tokens' buckets 0.2 % overflow 10 tokens (of 2^23 records of 7 32-bit
// suffixes, 0.08 %). Timed beside ring/random_read in one group, a binary of
// the 32-bit layout and one of this alternated (Zen 5, AVX3, six pairs), the
// kernel took 1.70-2.29 times the floor's time at 16M tokens against
// 2.42-2.94, and 2.26-2.70 against 3.27-3.65 at 300,000 (no change at 10^6).
// Smaller tables keep whole tokens: at half a token a bucket few overflow,
// and the suffix's tie check cost 28 % at 10,000 tokens and 5 to 10 % at
// 65,500 (Zen 5, AVX3). Tables of 16-bit suffixes there, a half to an
// eighth of the size, cost 1.3 to 2.0 times as much at 10,000 tokens and
// 0.9 to 3.1 times at 65,500 (same CPU, alternated).
using SuffixRecord = TokenRecord<uint16_t>;

// The suffix of a 64-bit x in its bucket of a table of 2^bits buckets (1 <=
// bits <= 48): bits 63 - bits down to 48 - bits.
constexpr uint16_t bucket_suffix(uint64_t x, unsigned bits) noexcept {
  return static_cast<uint16_t>(x >> (48 - bits));
}

// What the SIMD batch loop reads of a bucket index: one of records and
// suffix_records (a 64-bit ring whose whole tokens would take over 4 MiB).
template <class Token>
struct BucketView {
  const TokenRecord<Token>* records = nullptr;
  const SuffixRecord* suffix_records = nullptr;
  unsigned shift = 0;      // bucket = x >> shift
  unsigned distance = 32;  // records prefetched ahead of the key being answered
  STreeView<Token> fallback;
};

namespace simd {
// The batch loop, compiled for every Highway target and dispatched at run time
// (bucketed.cc). Shapes: out.size() == keys.size() (callers check). No
// exceptions.
void bucketed_owners(const BucketView<uint64_t>& index, std::span<const uint64_t> keys,
                     std::span<uint32_t> out) noexcept;
void bucketed_owners(const BucketView<uint32_t>& index, std::span<const uint32_t> keys,
                     std::span<uint32_t> out) noexcept;
}  // namespace simd

// Bucket index over a ring: 2^b buckets (2^b = max(2, bit_ceil(n) / 2), one to
// two tokens per bucket on average, or twice that many buckets while the table
// stays within 4 MiB, or half as many for a 64-bit ring's larger table of
// suffixes), bucket i covering the key hashes
// with top b bits equal to i. Record i holds the tokens of bucket i and, after
// them, the owner of the first token past the bucket, so a key's owner is read
// from the one record its top bits select: no search, one cache line. A
// bucket with more than a record holds (5 64-bit tokens, 7 32-bit tokens or
// 10 suffixes: SuffixRecord; up to about 0.3 % of buckets for uniform tokens; all
// keys' buckets when the tokens cluster) is marked overfull and
// its keys are answered by an S-tree over the whole ring: the worst case is
// one record plus one S-tree descent, and when most tokens are in overfull
// buckets (clustered tokens) the index is bypassed: one S-tree descent.
// Memory: 64 bytes per bucket (64 to 128 bytes per token up to 4 MiB, 16 to
// 32 for suffixes, 32 to 64 for a 32-bit ring's larger tables) plus the S-tree.
template <class Token>
class RingBucketed {
 public:
  using Record = TokenRecord<Token>;

  // distance: records prefetched ahead in owners(), 0 to 1024; by default
  // none for a table of up to 256 KiB (in L1 and L2 prefetching ran up to 20%
  // slower, at 10 and 1,000 tokens), 32 up to 16 MiB and 128 above (measured
  // here: 1.8 ns/key at 65,500 tokens with 32, 2.1 without prefetch; at 16M
  // tokens 4.8 ns with 128, 5.3 with 64 or 256, 11.3 without). group: the
  // fallback S-tree's (default: its own). Throws std::invalid_argument for an empty ring or
  // parameters out of range, std::bad_alloc when the table does not fit.
  explicit RingBucketed(const SortedRing<Token>& ring, std::optional<unsigned> distance = {},
                        std::optional<unsigned> group = {})
      : fallback_(ring, group) {
    if (distance && *distance > 1024)
      throw std::invalid_argument("bucket index: distance must be 0 to 1024");
    const std::size_t n = ring.tokens.size();
    // log2(bit_ceil(n) / 2), at least 1; one bit more (half a token per
    // bucket or less, ~0.06% of buckets overfull instead of ~1.5%) while the
    // table stays within 4 MiB, where overfull buckets cost most: at 1,000
    // tokens 0.72 ns/key instead of 1.17, at 65,500 1.13 instead of 1.8.
    // Beyond that a 64-bit ring's records hold suffixes, one bit fewer.
    const std::size_t wide = std::max<std::size_t>(2, std::bit_width(n - 1));
    const bool small = (std::size_t{1} << wide) * sizeof(Record) <= (std::size_t{4} << 20);
    const bool suffixes = sizeof(Token) == 8 && !small;
    const unsigned bits = static_cast<unsigned>(small ? wide : suffixes ? wide - 2 : wide - 1);
    if (bits >= kBits || bits > 32) throw std::bad_alloc();
    buckets_ = std::size_t{1} << bits;
    view_.shift = kBits - bits;
    const std::size_t table_bytes = buckets_ * sizeof(Record);
    view_.distance = distance.value_or(table_bytes <= (std::size_t{256} << 10)  ? 0
                                       : table_bytes <= (std::size_t{16} << 20) ? 32
                                                                                : 128);
    if (suffixes) {
      suffix_records_ = allocate_table<SuffixRecord>(buckets_);
      fill(suffix_records_.get(), ring, [&](Token t) { return bucket_suffix(t, bits); });
      view_.suffix_records = suffix_records_.get();
    } else {
      records_ = allocate_table<Record>(buckets_);
      fill(records_.get(), ring, [](Token t) { return t; });
      view_.records = records_.get();
    }
    view_.fallback = fallback_.view();
    // When most tokens sit in overfull buckets (clustered tokens), the keys
    // that matter land there too: go to the S-tree straight away instead of
    // reading a record first only to learn that.
    degenerate_ = overfull_tokens_ * 2 > n;
  }

  uint32_t owner(Token x) const noexcept {
    if (degenerate_) return fallback_.owner(x);
    uint32_t o;
    if (suffix_records_) {
      const SuffixRecord& rec = suffix_records_[x >> view_.shift];
      const uint16_t v = bucket_suffix(x, kBits - view_.shift);
      const bool tie =
          std::find(std::begin(rec.tokens), std::end(rec.tokens), v) != std::end(rec.tokens);
      o = tie ? kOverfullBucket : rec.owner(v);
    } else {
      o = records_[x >> view_.shift].owner(x);
    }
    return o != kOverfullBucket ? o : fallback_.owner(x);
  }

  // Shapes: out.size() == keys.size() (a precondition).
  void owners(std::span<const Token> keys, std::span<uint32_t> out) const noexcept {
    if (degenerate_)
      fallback_.owners(keys, out);
    else
      simd::bucketed_owners(view_, keys, out);
  }

  std::size_t memory_bytes() const noexcept {
    return buckets_ * sizeof(Record) + fallback_.memory_bytes();
  }
  // True when the records hold 16-bit suffixes (SuffixRecord).
  bool suffixes() const noexcept { return suffix_records_ != nullptr; }
  std::size_t buckets() const noexcept { return buckets_; }
  unsigned distance() const noexcept { return view_.distance; }
  std::size_t overfull_buckets() const noexcept { return overfull_; }
  // True when more than half the tokens sit in overfull buckets, and lookups
  // go to the S-tree without reading a record.
  bool degenerate() const noexcept { return degenerate_; }

 private:
  static constexpr unsigned kBits = std::numeric_limits<Token>::digits;

  // Fills the buckets_ records (Rec: Record or SuffixRecord) from the ring,
  // each token as value(token) gives it, counting the overfull buckets and
  // their tokens.
  template <class Rec, class Value>
  void fill(Rec* records, const SortedRing<Token>& ring, const Value& value) {
    using V = std::remove_cvref_t<decltype(records->tokens[0])>;
    const std::size_t n = ring.tokens.size();
    std::size_t lo = 0;
    for (std::size_t b = 0; b < buckets_; ++b) {
      std::size_t hi = lo;  // first token of a later bucket
      while (hi < n && (ring.tokens[hi] >> view_.shift) == b) ++hi;
      Rec& rec = records[b];
      if (hi - lo <= Rec::kTokens) {
        for (std::size_t j = 0; j < Rec::kTokens; ++j) {
          rec.tokens[j] = lo + j < hi ? static_cast<V>(value(ring.tokens[lo + j]))
                                      : std::numeric_limits<V>::max();
          rec.owners[j] = ring.owners[std::min(lo + j, hi)];
        }
        rec.owners[Rec::kTokens] = ring.owners[hi];  // owners[n] is the wrap owner
      } else {
        ++overfull_;
        overfull_tokens_ += hi - lo;
        // Every count of tokens below x lands on an overfull mark.
        std::fill(std::begin(rec.tokens), std::end(rec.tokens), V{0});
        std::fill(std::begin(rec.owners), std::end(rec.owners), kOverfullBucket);
      }
      lo = hi;
    }
  }

  RingSTree<Token> fallback_;
  std::size_t buckets_ = 0, overfull_ = 0, overfull_tokens_ = 0;
  bool degenerate_ = false;
  TableArray<Record> records_;
  TableArray<SuffixRecord> suffix_records_;
  BucketView<Token> view_;
};

}  // namespace chbench
