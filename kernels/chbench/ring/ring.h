// Ring (consistent hashing) search kernels, generic over the token width.
//
// Scheme: Karger et al., "Consistent Hashing and Random Trees", STOC 1997,
// section 4: a key belongs to the first token clockwise from its hash. The exact
// tie and wrap rules are SPEC.md's "Ring with V virtual nodes".
//
// Every search here answers the same question over a sorted, duplicate-free
// token array `tokens` of length n >= 1: the position of the first token >= x,
// or n when x is above the last token. A position maps to an owner through an
// array of n + 1 owners whose last entry repeats the first, which closes the
// ring without a branch.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "chbench/memory.h"
#include "chbench/nodes.h"

namespace chbench {

// One token on the circle and the node that placed it.
template <class Token>
struct RingEntry {
  Token token;
  uint32_t node;

  friend bool operator<(const RingEntry& a, const RingEntry& b) noexcept {
    return a.token != b.token ? a.token < b.token : a.node < b.node;
  }
  friend bool operator==(const RingEntry&, const RingEntry&) = default;
};

// The N*V entries of SPEC.md's 64-bit ring: token i of node n is
// XXH3_64bits("<name>#<i>"), sorted ascending by (token, node).
// Shape: nodes.size() * nodes.vnodes entries. Throws std::invalid_argument on an
// invalid node list, std::length_error if N*V exceeds 2^32 - 1 tokens.
std::vector<RingEntry<uint64_t>> ring_entries(const NodeSet& nodes);

// A ring as the kernels want it: tokens ascending with equal values collapsed
// to their first entry (the lower node index, which is the one that wins), and
// owners[i] the node of tokens[i], plus owners[n] == owners[0] for the wrap.
template <class Token>
struct SortedRing {
  static_assert(std::is_unsigned_v<Token>);
  std::vector<Token> tokens;
  std::vector<uint32_t> owners;  // tokens.size() + 1 entries

  // `entries` must be sorted by (token, node) and non-empty; throws
  // std::invalid_argument otherwise.
  static SortedRing from_entries(std::span<const RingEntry<Token>> entries) {
    if (entries.empty()) throw std::invalid_argument("ring: no tokens");
    if (!std::is_sorted(entries.begin(), entries.end()))
      throw std::invalid_argument("ring: entries are not sorted by (token, node)");
    SortedRing ring;
    ring.tokens.reserve(entries.size());
    ring.owners.reserve(entries.size() + 1);
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (i > 0 && entries[i].token == entries[i - 1].token) continue;
      ring.tokens.push_back(entries[i].token);
      ring.owners.push_back(entries[i].node);
    }
    ring.owners.push_back(ring.owners.front());
    return ring;
  }

  std::size_t memory_bytes() const noexcept {
    return tokens.size() * sizeof(Token) + owners.size() * sizeof(uint32_t);
  }
};

// Reference owner for one key hash over entries sorted by (token, node): the
// entry that std::lower_bound finds for (x, node 0), or the first entry when x is
// above every token. `entries` must be non-empty.
template <class Token>
uint32_t ring_reference_owner(std::span<const RingEntry<Token>> entries, Token x) {
  auto it = std::lower_bound(entries.begin(), entries.end(), RingEntry<Token>{x, 0});
  return it == entries.end() ? entries.front().node : it->node;
}

// Baseline kernel: std::lower_bound over the token array.
template <class Token>
class RingLowerBound {
 public:
  explicit RingLowerBound(SortedRing<Token> ring) : ring_(std::move(ring)) {}

  uint32_t owner(Token x) const noexcept {
    auto pos = std::lower_bound(ring_.tokens.begin(), ring_.tokens.end(), x) - ring_.tokens.begin();
    return ring_.owners[static_cast<std::size_t>(pos)];
  }
  void owners(std::span<const Token> keys, std::span<uint32_t> out) const noexcept {
    for (std::size_t i = 0; i < keys.size(); ++i) out[i] = owner(keys[i]);
  }
  std::size_t memory_bytes() const noexcept { return ring_.memory_bytes(); }

 private:
  SortedRing<Token> ring_;
};

// Branchless binary search: a fixed number of halvings for a given n, each a
// conditional move instead of a branch (Khuong & Morin, "Array Layouts for
// Comparison-Based Searching", ACM JEA 22, 2017, section 2.1).
template <class Token>
class RingBranchless {
 public:
  explicit RingBranchless(SortedRing<Token> ring) : ring_(std::move(ring)) {}

  uint32_t owner(Token x) const noexcept {
    const Token* base = ring_.tokens.data();
    std::size_t len = ring_.tokens.size();
    while (len > 1) {
      const std::size_t half = len / 2;
      // Written as arithmetic so that the compiler emits cmov, not a branch.
      base += static_cast<std::size_t>(base[half - 1] < x) * half;
      len -= half;
    }
    const std::size_t pos = static_cast<std::size_t>(base - ring_.tokens.data()) + (*base < x);
    return ring_.owners[pos];
  }
  void owners(std::span<const Token> keys, std::span<uint32_t> out) const noexcept {
    for (std::size_t i = 0; i < keys.size(); ++i) out[i] = owner(keys[i]);
  }
  std::size_t memory_bytes() const noexcept { return ring_.memory_bytes(); }

 private:
  SortedRing<Token> ring_;
};

// Eytzinger (BFS) layout with software prefetch (Khuong & Morin 2017, section
// 3.1 and the prefetching of section 5.2): node k's children are 2k and 2k+1,
// index 0 is unused by the tree and holds the wrap owner. The search descends
// without branches on the comparison; the answer is recovered from the path by
// dropping the trailing ones and the last zero (k >> (ctz(~k) + 1)).
template <class Token>
class RingEytzinger {
 public:
  explicit RingEytzinger(const SortedRing<Token>& ring)
      : n_(ring.tokens.size()),
        levels_(static_cast<unsigned>(std::bit_width(n_ + 1) - 1)),
        tokens_(allocate_table<Token>(n_ + 1)),
        owners_(allocate_table<uint32_t>(n_ + 1)) {
    fill(ring);
    tokens_[0] = Token{0};
    owners_[0] = ring.owners.front();
  }

  uint32_t owner(Token x) const noexcept {
    const Token* t = tokens_.get();
    std::size_t k = 1;
    // Every path passes the `levels_` complete levels, so that loop has a fixed
    // trip count: its exit is predicted, and the out-of-order core can overlap
    // consecutive keys instead of flushing on a mispredicted exit per key.
    for (unsigned level = 0; level < levels_; ++level) {
      // One cache line holds kLine tokens; the descendants of k that many levels
      // down are contiguous from k * kLine, so one prefetch covers them.
      prefetch(t, k * kLine);
      k = 2 * k + static_cast<std::size_t>(t[k] < x);
    }
    // The last, partial level: one more step where the path is still inside
    // the tree, written as a select so that it stays branch-free.
    const std::size_t next = 2 * k + static_cast<std::size_t>(t[std::min(k, n_)] < x);
    k = k <= n_ ? next : k;
    k >>= std::countr_one(k) + 1;
    return owners_[k];
  }
  // Batches descend kGroup keys in lockstep, level by level: their loads are
  // independent, so up to kGroup cache misses are in flight at once instead of
  // one chain of dependent misses per key. Same path per key as owner().
  void owners(std::span<const Token> keys, std::span<uint32_t> out) const noexcept {
    const Token* t = tokens_.get();
    std::size_t i = 0;
    for (; i + kGroup <= keys.size(); i += kGroup) {
      std::size_t k[kGroup];
      for (std::size_t g = 0; g < kGroup; ++g) k[g] = 1;
      for (unsigned level = 0; level < levels_; ++level) {
        for (std::size_t g = 0; g < kGroup; ++g) {
          prefetch(t, k[g] * kLine);
          k[g] = 2 * k[g] + static_cast<std::size_t>(t[k[g]] < keys[i + g]);
        }
      }
      for (std::size_t g = 0; g < kGroup; ++g) {
        const std::size_t next =
            2 * k[g] + static_cast<std::size_t>(t[std::min(k[g], n_)] < keys[i + g]);
        std::size_t kk = k[g] <= n_ ? next : k[g];
        kk >>= std::countr_one(kk) + 1;
        out[i + g] = owners_[kk];
      }
    }
    for (; i < keys.size(); ++i) out[i] = owner(keys[i]);
  }
  std::size_t memory_bytes() const noexcept {
    return (n_ + 1) * (sizeof(Token) + sizeof(uint32_t));
  }

 private:
  static constexpr std::size_t kLine = 64 / sizeof(Token);
  // Keys descending together in owners(): 16 measured best here (8: half the
  // speed on 16M tokens; 32: slower on 64k tokens, from register pressure).
  static constexpr std::size_t kGroup = 16;

  static void prefetch(const Token* base, std::size_t index) noexcept {
    // The address may lie past the array's end near the leaves; a prefetch never
    // faults, and computing it as an integer avoids out-of-range pointer math.
    __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(base) +
                                                     index * sizeof(Token)));
  }

  // In-order walk of the implicit tree assigns sorted positions to BFS slots.
  void fill(const SortedRing<Token>& ring) {
    // Iterative in-order traversal: recursion depth is only log2(n), but the
    // explicit loop keeps the build free of per-call overhead at 16M tokens.
    std::vector<std::size_t> stack;
    std::size_t k = 1, next = 0;
    while (k <= n_ || !stack.empty()) {
      while (k <= n_) {
        stack.push_back(k);
        k = 2 * k;
      }
      k = stack.back();
      stack.pop_back();
      tokens_[k] = ring.tokens[next];
      owners_[k] = ring.owners[next];
      ++next;
      k = 2 * k + 1;
    }
  }

  std::size_t n_;
  unsigned levels_;  // complete levels of the implicit tree: floor(log2(n + 1))
  // Cache-line aligned, so that the kLine descendants prefetched together share
  // one line; huge pages when large.
  TableArray<Token> tokens_;
  TableArray<uint32_t> owners_;
};

}  // namespace chbench
