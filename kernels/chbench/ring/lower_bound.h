// ring/lower_bound: std::lower_bound over the sorted tokens, the usual
// baseline every other ring kernel is measured against.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "chbench/ring/ring.h"

namespace chbench {

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

}  // namespace chbench
