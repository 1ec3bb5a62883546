// ring/branchless: branchless binary search over the sorted tokens.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "chbench/ring/ring.h"

namespace chbench {

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

}  // namespace chbench
