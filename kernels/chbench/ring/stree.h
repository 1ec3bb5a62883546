// ring/stree: a static B+ tree (S+ tree) over the ring, whose nodes are one
// cache line of tokens compared with SIMD, descended by a group of keys in
// lockstep with software prefetch (Slotin, "Static B-Trees", Algorithmica for
// the Modern Computer, 2021, sections "B+ tree layout" and "Batching"; the B+
// tree is Comer, "The Ubiquitous B-Tree", ACM Computing Surveys 11(2), 1979).
// It uses what a ring knows and a general sorted-array search cannot: tokens
// are uniformly spread hashes. Its leaf format, a 64-byte token record that
// answers a lookup on its own, is shared with ring/bucketed (bucketed.h).
//
// It answers docs/spec.md §6's ring rule over a SortedRing (ring.h): the owner of the
// first token >= x, wrapping to the first token.
#pragma once

#include <algorithm>
#include <array>
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
// tokens: 5 tokens + 6 owners = 64 bytes; 32-bit: 7 + 8 = 60 bytes; 16-bit
// (bucketed.h's suffixes): 10 + 11 = 64 bytes.
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
static_assert(sizeof(TokenRecord<uint64_t>) == 64 && sizeof(TokenRecord<uint32_t>) == 64 &&
              sizeof(TokenRecord<uint16_t>) == 64);

// What the SIMD batch loops (stree.cc) read of an S-tree. Internal
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

namespace simd {
// The batch loop, compiled for every Highway target and dispatched at run time
// (stree.cc). Shapes: out.size() == keys.size() (callers check). No exceptions.
void stree_owners(const STreeView<uint64_t>& tree, std::span<const uint64_t> keys,
                  std::span<uint32_t> out) noexcept;
void stree_owners(const STreeView<uint32_t>& tree, std::span<const uint32_t> keys,
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

}  // namespace chbench
