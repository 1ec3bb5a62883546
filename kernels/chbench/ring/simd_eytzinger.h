// ring/simd_eytzinger: Eytzinger descent with the keys in SIMD lanes
// (Highway; per-target code in simd_eytzinger.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "chbench/memory.h"
#include "chbench/ring/ring.h"

namespace chbench::simd {

// Eytzinger (BFS) layout (Khuong & Morin, ACM JEA 22, 2017, section 3.1) searched with a
// vector of keys in lanes: every lane descends the complete levels with one
// gather each, then takes the last, partial level where its path is still in
// the tree (elsewhere the gather is clamped to the last slot and its result
// ignored); the position is recovered from the path as in RingEytzinger.
// AVX-512 targets gather four lanes at a time here: on this AMD CPU their
// 512-bit gathers made the descent slower than AVX2's 256-bit ones.
class RingSimdEytzinger {
 public:
  // Throws std::invalid_argument if the ring has no token.
  explicit RingSimdEytzinger(const SortedRing<uint64_t>& ring);

  // Owner of each key hash (docs/spec.md §6's ring rule). Shapes: out.size() ==
  // key_hashes.size(); throws std::invalid_argument if they differ.
  void owners(std::span<const uint64_t> key_hashes, std::span<uint32_t> out) const;
  std::size_t memory_bytes() const noexcept {
    return (n_ + 1) * (sizeof(uint64_t) + sizeof(uint32_t));
  }

 private:
  std::size_t n_;
  unsigned levels_;              // complete levels: floor(log2(n_ + 1))
  TableArray<int64_t> biased_;   // BFS order in slots 1 ... n_, slot 0 unused
  TableArray<uint32_t> owners_;  // BFS order, slot 0 holds the wrap owner
};

}  // namespace chbench::simd
