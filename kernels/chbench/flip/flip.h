// FlipHash: Masson and Lee, "FlipHash: A Constant-Time Consistent
// Range-Hashing Algorithm", arXiv:2402.17549 (2024), as DataDog/fliphash-rs
// (commit 00c0ad03cf3c) computes fliphash_64(h, ..=N-1) with seed 0: expected
// O(1) steps, no table; buckets are 0 ... N-1 and only the last bucket can be
// added or removed. docs/schemes/flip.md has the definition and its sources.
// The reference (reference.cc) is the crate's code transcribed apart; the
// kernels are flip/scalar and flip/simd, one file each.
#pragma once

#include <bit>
#include <cstdint>
#include <span>

#include "chbench/fleet.h"

namespace chbench {

// Largest bucket count: every bucket index fits the suite's uint32_t owners
// (the crate takes any u64 range; nothing in the algorithm stops at 2^31).
inline constexpr uint32_t kFlipMaxBuckets = 0xffffffffu;

// The multipliers of the crate's draw hash (a Moremur-style 64-bit mixer).
inline constexpr uint64_t kFlipMul1 = 0x3C79AC492BA7B653ULL;
inline constexpr uint64_t kFlipMul2 = 0x1C69B3F74AC4AE35ULL;

// The crate's hash(key, seed = 0, bit_len, iteration) of fliphash_64: the
// draw numbered `iteration` for the power of two 2^bit_len. Not XXH3: the
// crate's XXH3 functions take byte-string keys and are another scheme.
constexpr uint64_t flip_draw(uint64_t key, uint32_t bit_len, uint32_t iteration) noexcept {
  uint64_t k = key * (2 * uint64_t{bit_len} + 1);
  k = (k ^ (k >> 27)) * kFlipMul1;
  k *= 2 * uint64_t{iteration} + 1;
  k = (k ^ (k >> 33)) * kFlipMul2;
  return k ^ (k >> 27);
}

// The power-of-two step: h & mask (mask = 2^r - 1) with the bits below its
// top bit b flipped by the draw (key, b, 0); 0 and 1 stay themselves (an
// empty flip mask: m | 1 gives b = 0 without a branch).
constexpr uint64_t flip_pow2(uint64_t key, uint64_t h, uint64_t mask) noexcept {
  const uint64_t m = h & mask;
  const uint32_t b = static_cast<uint32_t>(std::bit_width(m | 1)) - 1;
  return m ^ (flip_draw(key, b, 0) & ((uint64_t{1} << b) - 1));
}

// FlipHash over buckets 0 ... N-1, the constants of one N computed once.
class FlipRange {
 public:
  // Precondition: 1 <= num_buckets <= kFlipMaxBuckets.
  constexpr explicit FlipRange(uint32_t num_buckets) noexcept
      : end_(num_buckets - 1),
        mask_((uint64_t{1} << std::bit_width(end_)) - 1),
        top_(end_ == 0 ? 0 : static_cast<uint32_t>(std::bit_width(end_)) - 1) {}

  // The bucket of key hash h: the crate's fliphash_64(h, ..=N-1).
  constexpr uint32_t bucket(uint64_t h) const noexcept {
    const uint64_t h0 = flip_draw(h, 0, 0);
    const uint64_t p = flip_pow2(h, h0, mask_);
    return static_cast<uint32_t>(p <= end_ ? p : retry(h, h0));
  }

  // Above end (the power-of-two step landed past N-1): draws in [0, 2^r)
  // until one falls in the lower half (then the step over 2^(r-1)) or in
  // [2^(r-1), N); after 64 draws, the step over 2^(r-1) as well.
  constexpr uint64_t retry(uint64_t h, uint64_t h0) const noexcept {
    for (uint32_t i = 1; i <= 64; ++i) {
      const uint64_t d = flip_draw(h, top_, i) & mask_;
      if (d <= mask_ >> 1) break;
      if (d <= end_) return d;
    }
    return flip_pow2(h, h0, mask_ >> 1);
  }

  uint64_t end() const noexcept { return end_; }
  uint64_t mask() const noexcept { return mask_; }
  uint32_t top_bit() const noexcept { return top_; }

 private:
  uint64_t end_;   // N - 1
  uint64_t mask_;  // 2^r - 1, r = bit width of N - 1 (0 for N = 1)
  uint32_t top_;   // r - 1: the bit_len of the retry draws
};

// The bucket count of a fleet (glue::bucket_count: a named fleet is
// validated). Throws std::invalid_argument on an invalid fleet (reference.cc;
// the scheme's check).
uint32_t flip_buckets(const Fleet& fleet);

namespace simd {

// FlipHash (fliphash-rs's fliphash_64 with seed 0) for a batch of keys, the
// keys in lanes: out[i] == FlipRange(num_buckets).bucket(key_hashes[i]) bit
// for bit. Shapes: out.size() == key_hashes.size(). Throws
// std::invalid_argument if num_buckets is 0 or the sizes differ.
void flip_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                 std::span<uint32_t> out);

}  // namespace simd

}  // namespace chbench
