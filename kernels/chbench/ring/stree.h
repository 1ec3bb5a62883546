// Ring searches that use what a ring knows and a general sorted-array search
// cannot: tokens are uniformly spread hashes. Two kernels share one leaf format,
// a 64-byte token record that answers a lookup on its own:
//
// - RingSTree: a static B+ tree (S+ tree) whose internal nodes are one cache
//   line of tokens compared with SIMD, descended by a group of keys in lockstep
//   with software prefetch (Slotin, "Static B-Trees", Algorithmica for the
//   Modern Computer, 2021, sections "B+ tree layout" and "Batching"; the B+
//   tree is Comer, "The Ubiquitous B-Tree", ACM Computing Surveys 11(2), 1979).
// - RingBucketed: a table indexed by the top bits of the key hash, one token
//   record per bucket (the idea of interpolation / radix-indexed search for
//   uniform keys, Peterson 1957; Knuth TAOCP vol. 3, section 6.2.1). A lookup
//   is one cache line; buckets holding more tokens than a record fits fall back
//   to the S-tree, so clustered tokens cost one S-tree descent, never a scan.
//
// Both answer SPEC.md's ring rule over a SortedRing (ring.h): the owner of the
// first token >= x, wrapping to the first token.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <type_traits>

#include "chbench/memory.h"
#include "chbench/ring/ring.h"

namespace chbench {

// One cache line of ring: up to kTokens tokens ascending, unused slots holding
// the largest Token (never below a key), and kTokens + 1 owners: owners[c] is
// the owner of a key with c record tokens below it, so owners[count] (count:
// the real tokens) is the owner of the first token after the record. 64-bit
// tokens: 5 tokens + 6 owners = 64 bytes; 32-bit: 7 + 8 = 60 bytes.
template <class Token>
struct alignas(64) TokenRecord {
  static_assert(std::is_unsigned_v<Token>);
  static constexpr std::size_t kTokens =
      (64 - sizeof(uint32_t)) / (sizeof(Token) + sizeof(uint32_t));
  Token tokens[kTokens];
  uint32_t owners[kTokens + 1];

  // Number of record tokens below x (scalar; the batch kernels compare with
  // SIMD).
  std::size_t count_below(Token x) const noexcept {
    std::size_t c = 0;
    for (std::size_t j = 0; j < kTokens; ++j) c += tokens[j] < x;
    return c;
  }
  uint32_t owner(Token x) const noexcept { return owners[count_below(x)]; }
};
static_assert(sizeof(TokenRecord<uint64_t>) == 64 && sizeof(TokenRecord<uint32_t>) == 64);

// An owner value no node has (node indices are below 2^32 - 1): marks a
// bucket record that does not hold its bucket's tokens.
inline constexpr uint32_t kOverfullBucket = 0xffffffffu;

// What the SIMD batch loops (simd_ring_stree.cc) read of an S-tree. Internal
// levels top (root) first; level l's node k is the kNode tokens at
// inner[offset[l] + k * kNode]; its child c (0 <= c <= kNode) is node
// k * (kNode + 1) + c of the next level, or leaf record k * (kNode + 1) + c
// below the last level.
template <class Token>
struct STreeView {
  static constexpr std::size_t kNode = 64 / sizeof(Token);
  static constexpr std::size_t kMaxLevels = 24;
  const Token* inner = nullptr;
  std::array<std::size_t, kMaxLevels> offset{};
  unsigned levels = 0;
  const TokenRecord<Token>* leaves = nullptr;
  unsigned group = 32;  // keys descending in lockstep
};

// What the SIMD batch loop reads of a bucket index.
template <class Token>
struct BucketView {
  const TokenRecord<Token>* records = nullptr;
  unsigned shift = 0;      // bucket = x >> shift
  unsigned distance = 32;  // records prefetched ahead of the key being answered
  STreeView<Token> fallback;
};

namespace simd {
// Batch loops, compiled for every Highway target and dispatched at run time.
// Shapes: out.size() == keys.size() (callers check). No exceptions.
void stree_owners(const STreeView<uint64_t>& tree, std::span<const uint64_t> keys,
                  std::span<uint32_t> out) noexcept;
void stree_owners(const STreeView<uint32_t>& tree, std::span<const uint32_t> keys,
                  std::span<uint32_t> out) noexcept;
void bucketed_owners(const BucketView<uint64_t>& index, std::span<const uint64_t> keys,
                     std::span<uint32_t> out) noexcept;
void bucketed_owners(const BucketView<uint32_t>& index, std::span<const uint32_t> keys,
                     std::span<uint32_t> out) noexcept;
}  // namespace simd

// Static B+ tree (S+ tree) over a ring. Leaves are TokenRecords holding the
// sorted tokens kTokens at a time; an internal node holds kNode = 64 /
// sizeof(Token) tokens (8 or 16: one cache line), key j being the first token
// of child j + 1, and kNode + 1 children. A search counts, node by node, the
// node tokens below x (one SIMD compare per vector), which is the child to
// take; every path has the same length, so a group of keys descends level by
// level in lockstep, each prefetching its next node while the others compare.
// Memory: 64 bytes per kTokens tokens plus about 1/kNode of that for the
// internal levels (~14.5 bytes per 64-bit token).
template <class Token>
class RingSTree {
 public:
  using Record = TokenRecord<Token>;
  static constexpr std::size_t kNode = STreeView<Token>::kNode;

  // group: keys descending in lockstep in owners(), 1 to 256; by default 32
  // for a tree of up to 16 MiB and 128 above (measured best here: at 65,500
  // tokens 4.7 ns/key with 32 vs 5.1 with 128; at 16M tokens 12.3 ns with 256,
  // 13.1 with 128, 22.6 with 32, 35.4 with 16). Throws std::invalid_argument
  // for an empty ring or a group outside 1..256, std::bad_alloc when the tree
  // does not fit in memory.
  explicit RingSTree(const SortedRing<Token>& ring, std::optional<unsigned> group = {}) {
    if (ring.tokens.empty() || ring.owners.size() != ring.tokens.size() + 1)
      throw std::invalid_argument("ring: no tokens, or owners do not match tokens");
    if (group && (*group < 1 || *group > 256))
      throw std::invalid_argument("S-tree: group must be 1 to 256");
    const std::size_t n = ring.tokens.size();
    constexpr std::size_t L = Record::kTokens, F = kNode + 1;
    leaves_count_ = (n + L - 1) / L;
    leaves_ = allocate_table<Record>(leaves_count_);
    for (std::size_t r = 0; r < leaves_count_; ++r) {
      Record& rec = leaves_[r];
      for (std::size_t j = 0; j <= L; ++j) {
        const std::size_t i = std::min(r * L + j, n);  // n: past the last token, the wrap owner
        if (j < L) rec.tokens[j] = i < n ? ring.tokens[i] : std::numeric_limits<Token>::max();
        rec.owners[j] = ring.owners[i];
      }
    }
    // Level sizes bottom-up: each level has ceil(below / F) nodes, up to one.
    std::array<std::size_t, STreeView<Token>::kMaxLevels> sizes{};
    unsigned levels = 0;
    for (std::size_t below = leaves_count_; below > 1; below = (below + F - 1) / F)
      sizes[levels++] = (below + F - 1) / F;
    view_.levels = levels;
    inner_count_ = 0;
    for (unsigned l = 0; l < levels; ++l) inner_count_ += sizes[l];
    inner_ = allocate_table<Token>(std::max<std::size_t>(inner_count_, 1) * kNode);
    // Top level first: view level t is bottom-up level levels - 1 - t.
    std::size_t offset = 0;
    for (unsigned t = 0; t < levels; ++t) {
      const unsigned l = levels - 1 - t;  // 0: the parents of the leaves
      view_.offset[t] = offset * kNode;
      std::size_t span = 1;  // leaves under one node of level l - 1 (F^l)
      for (unsigned i = 0; i < l; ++i) span *= F;
      for (std::size_t k = 0; k < sizes[l]; ++k)
        for (std::size_t j = 0; j < kNode; ++j) {
          const std::size_t first_leaf = (k * F + j + 1) * span;
          inner_[(offset + k) * kNode + j] = first_leaf < leaves_count_
                                                 ? ring.tokens[first_leaf * L]
                                                 : std::numeric_limits<Token>::max();
        }
      offset += sizes[l];
    }
    view_.inner = inner_.get();
    view_.leaves = leaves_.get();
    view_.group = group.value_or(memory_bytes() <= (std::size_t{16} << 20) ? 32 : 128);
  }

  uint32_t owner(Token x) const noexcept {
    std::size_t k = 0;
    for (unsigned t = 0; t < view_.levels; ++t) {
      const Token* node = view_.inner + view_.offset[t] + k * kNode;
      std::size_t c = 0;
      for (std::size_t j = 0; j < kNode; ++j) c += node[j] < x;
      k = k * (kNode + 1) + c;
    }
    return leaves_[k].owner(x);
  }

  // Shapes: out.size() == keys.size() (a precondition).
  void owners(std::span<const Token> keys, std::span<uint32_t> out) const noexcept {
    simd::stree_owners(view_, keys, out);
  }

  std::size_t memory_bytes() const noexcept {
    return leaves_count_ * sizeof(Record) + inner_count_ * kNode * sizeof(Token);
  }
  const STreeView<Token>& view() const noexcept { return view_; }

 private:
  std::size_t leaves_count_ = 0, inner_count_ = 0;
  TableArray<Record> leaves_;
  TableArray<Token> inner_;
  STreeView<Token> view_;
};

// Bucket index over a ring: 2^b buckets (2^b = max(2, bit_ceil(n) / 2), one to
// two tokens per bucket on average, or twice that many buckets while the table
// stays within 4 MiB), bucket i covering the key hashes
// with top b bits equal to i. Record i holds the tokens of bucket i and, after
// them, the owner of the first token past the bucket, so a key's owner is read
// from the one record its top bits select: no search, one cache line. A
// bucket with more than kTokens tokens (about 1% of buckets for uniform
// tokens; all keys' buckets when the tokens cluster) is marked overfull and
// its keys are answered by an S-tree over the whole ring: the worst case is
// one record plus one S-tree descent, and when most tokens are in overfull
// buckets (clustered tokens) the index is bypassed: one S-tree descent.
// Memory: 64 bytes per bucket (32 to 64 bytes per token) plus the S-tree.
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
    constexpr unsigned kBits = std::numeric_limits<Token>::digits;
    const std::size_t n = ring.tokens.size();
    // log2(bit_ceil(n) / 2), at least 1; one bit more (half a token per
    // bucket or less, ~0.06% of buckets overfull instead of ~1.5%) while the
    // table stays within 4 MiB, where overfull buckets cost most: at 1,000
    // tokens 0.72 ns/key instead of 1.17, at 65,500 1.13 instead of 1.8.
    const std::size_t wide = std::max<std::size_t>(2, std::bit_width(n - 1));
    const unsigned bits = static_cast<unsigned>(
        (std::size_t{1} << wide) * sizeof(Record) <= (std::size_t{4} << 20) ? wide : wide - 1);
    if (bits >= kBits || bits >= 48) throw std::bad_alloc();
    buckets_ = std::size_t{1} << bits;
    records_ = allocate_table<Record>(buckets_);
    view_.shift = kBits - bits;
    const std::size_t table_bytes = buckets_ * sizeof(Record);
    view_.distance = distance.value_or(table_bytes <= (std::size_t{256} << 10)  ? 0
                                       : table_bytes <= (std::size_t{16} << 20) ? 32
                                                                                : 128);
    std::size_t lo = 0;
    for (std::size_t b = 0; b < buckets_; ++b) {
      std::size_t hi = lo;  // first token of a later bucket
      while (hi < n && (ring.tokens[hi] >> view_.shift) == b) ++hi;
      Record& rec = records_[b];
      if (hi - lo <= Record::kTokens) {
        for (std::size_t j = 0; j < Record::kTokens; ++j) {
          rec.tokens[j] = lo + j < hi ? ring.tokens[lo + j] : std::numeric_limits<Token>::max();
          rec.owners[j] = ring.owners[std::min(lo + j, hi)];
        }
        rec.owners[Record::kTokens] = ring.owners[hi];  // owners[n] is the wrap owner
      } else {
        ++overfull_;
        overfull_tokens_ += hi - lo;
        // Every count of tokens below x lands on an overfull mark.
        std::fill(std::begin(rec.tokens), std::end(rec.tokens), Token{0});
        std::fill(std::begin(rec.owners), std::end(rec.owners), kOverfullBucket);
      }
      lo = hi;
    }
    view_.records = records_.get();
    view_.fallback = fallback_.view();
    // When most tokens sit in overfull buckets (clustered tokens), the keys
    // that matter land there too: go to the S-tree straight away instead of
    // reading a record first only to learn that.
    degenerate_ = overfull_tokens_ * 2 > n;
  }

  uint32_t owner(Token x) const noexcept {
    if (degenerate_) return fallback_.owner(x);
    const uint32_t o = records_[x >> view_.shift].owner(x);
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
  std::size_t buckets() const noexcept { return buckets_; }
  unsigned distance() const noexcept { return view_.distance; }
  std::size_t overfull_buckets() const noexcept { return overfull_; }
  // True when more than half the tokens sit in overfull buckets, and lookups
  // go to the S-tree without reading a record.
  bool degenerate() const noexcept { return degenerate_; }

 private:
  RingSTree<Token> fallback_;
  std::size_t buckets_ = 0, overfull_ = 0, overfull_tokens_ = 0;
  bool degenerate_ = false;
  TableArray<Record> records_;
  BucketView<Token> view_;
};

}  // namespace chbench
