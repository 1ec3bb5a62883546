// ring/eytzinger: the sorted tokens in Eytzinger (BFS) order, searched with
// prefetch, many keys descending in lockstep.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "chbench/memory.h"
#include "chbench/ring/ring.h"

namespace chbench {

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
    // One cache line holds kLine tokens; the descendants of k that many levels
    // down are contiguous from k * kLine, so one prefetch covers them (see
    // prefetch_levels() for which levels prefetch).
    const unsigned inside = prefetch_levels();
    unsigned level = 0;
    for (; level < inside; ++level) {
      prefetch(t, k * kLine);
      k = 2 * k + static_cast<std::size_t>(t[k] < x);
    }
    if (level < levels_) {
      prefetch(t, std::min(k * kLine, n_));
      k = 2 * k + static_cast<std::size_t>(t[k] < x);
      ++level;
    }
    for (; level < levels_; ++level) k = 2 * k + static_cast<std::size_t>(t[k] < x);
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
      const unsigned inside = prefetch_levels();
      unsigned level = 0;
      for (; level < inside; ++level)
        for (std::size_t g = 0; g < kGroup; ++g) {
          prefetch(t, k[g] * kLine);
          k[g] = 2 * k[g] + static_cast<std::size_t>(t[k[g]] < keys[i + g]);
        }
      if (level < levels_) {
        for (std::size_t g = 0; g < kGroup; ++g) {
          prefetch(t, std::min(k[g] * kLine, n_));
          k[g] = 2 * k[g] + static_cast<std::size_t>(t[k[g]] < keys[i + g]);
        }
        ++level;
      }
      for (; level < levels_; ++level)
        for (std::size_t g = 0; g < kGroup; ++g)
          k[g] = 2 * k[g] + static_cast<std::size_t>(t[k[g]] < keys[i + g]);
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

  // The descent prefetches the line three levels below each node (kLine = 8
  // tokens of 64 bits). On the first prefetch_levels() levels that line lies
  // inside the complete levels; on the next it may lie past the array's end,
  // so its index is clamped to the last slot; on the last two it always would,
  // so they prefetch nothing. A prefetch never faults, but one past the end is
  // not free: where the process has memory mapped there (the sorted ring a
  // table was built from, say), it fetches real lines, which cost bandwidth
  // and evict the table from L3 (ring/eytzinger 1.8x slower at 1M tokens,
  // measured).
  unsigned prefetch_levels() const noexcept {
    constexpr unsigned kDown = std::countr_zero(kLine);  // levels below a prefetched node
    return levels_ > kDown ? levels_ - kDown : 0;
  }
  // The address is formed as an integer, keeping the pointer arithmetic in
  // range.
  static void prefetch(const Token* base, std::size_t index) noexcept {
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
