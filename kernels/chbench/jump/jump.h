// Jump consistent hash: Lamping & Veach, "A Fast, Minimal Memory, Consistent
// Hash Algorithm", arXiv:1406.2294 (2014), figure 1. Expected O(ln N) steps, no
// table; buckets are 0 ... N-1 and only the last bucket can be added or removed.
// The reference (reference.cc) is the paper's figure transcribed apart; the
// kernels are jump/scalar, jump/interleaved and jump/simd, one file each.
#pragma once

#include <cstdint>
#include <span>

#include "chbench/fleet.h"

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

// The bucket count of a fleet (glue::bucket_count: a named fleet is
// validated). Throws std::invalid_argument on an invalid fleet or more than
// kJumpMaxBuckets buckets (reference.cc; the scheme's check).
uint32_t jump_buckets(const Fleet& fleet);

namespace simd {

// Jump consistent hash (Lamping & Veach, arXiv:1406.2294, figure 1) for a batch
// of keys, the keys in lanes: each lane runs the paper's 64-bit LCG and its
// double-precision jump length, IEEE operation for operation (no fused
// multiply-add), and stops on its own, so out[i] == jump_hash(key_hashes[i],
// num_buckets) bit for bit. Shapes: out.size() == key_hashes.size(). Throws
// std::invalid_argument if num_buckets is 0 or above kJumpMaxBuckets, or the
// sizes differ.
void jump_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                 std::span<uint32_t> out);

}  // namespace simd

}  // namespace chbench
