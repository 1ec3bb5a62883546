// Jump consistent hash: Lamping & Veach, "A Fast, Minimal Memory, Consistent
// Hash Algorithm", arXiv:1406.2294 (2014), figure 1. Expected O(ln N) steps, no
// table; buckets are 0 ... N-1 and only the last bucket can be added or removed.
#pragma once

#include <cstdint>

namespace chbench {

// Largest bucket count the paper's int32_t interface represents.
inline constexpr uint32_t kJumpMaxBuckets = 0x7fffffffu;

// The paper's algorithm with key = key hash: a 64-bit LCG step per jump and the
// double-precision jump length. Precondition: 1 <= num_buckets <= kJumpMaxBuckets
// (the tables built by the registry check it and throw std::invalid_argument).
inline uint32_t jump_hash(uint64_t key, uint32_t num_buckets) noexcept {
  int64_t b = -1;
  int64_t j = 0;
  while (j < static_cast<int64_t>(num_buckets)) {
    b = j;
    key = key * 2862933555777941757ULL + 1;
    j = static_cast<int64_t>(static_cast<double>(b + 1) * (static_cast<double>(int64_t{1} << 31) /
                                                           static_cast<double>((key >> 33) + 1)));
  }
  return static_cast<uint32_t>(b);
}

}  // namespace chbench
