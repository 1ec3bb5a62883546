// ring/simd_branchless: branchless binary search with the keys in SIMD lanes
// (Highway; per-target code in simd_branchless.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "chbench/memory.h"
#include "chbench/ring/ring.h"

namespace chbench::simd {

// Branchless binary search (Khuong & Morin, ACM JEA 22, 2017, section 2.1)
// with a vector of keys in lanes: every lane takes the same halvings, each a
// gather from the sorted tokens and a masked add, then one more gather decides
// the position. Tokens are stored with their top bit flipped so that targets
// without an unsigned 64-bit compare use the signed one.
class RingSimdBranchless {
 public:
  // Throws std::invalid_argument if the ring has no token (SortedRing never
  // does).
  explicit RingSimdBranchless(const SortedRing<uint64_t>& ring);

  // Owner of each key hash (docs/spec.md §6's ring rule). Shapes: out.size() ==
  // key_hashes.size(); throws std::invalid_argument if they differ.
  void owners(std::span<const uint64_t> key_hashes, std::span<uint32_t> out) const;
  std::size_t memory_bytes() const noexcept {
    return n_ * sizeof(uint64_t) + (n_ + 1) * sizeof(uint32_t);
  }

 private:
  std::size_t n_;
  TableArray<int64_t> biased_;   // tokens ^ 2^63, ascending as signed values
  TableArray<uint32_t> owners_;  // n_ + 1 entries, the last repeats the first
};

}  // namespace chbench::simd
