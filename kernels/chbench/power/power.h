// PowerCH, power consistent hash: Leu, "Fast Consistent Hashing in Constant
// Time", arXiv:2307.12448 (2023), its algorithm with f and g, exactly as the
// Rust crate DXist/power-consistent-hash (commit 25bd442210e3) computes
// PowerConsistentHasher::try_new(n) then hash_u64(h): its first choice takes
// the raw low bits of h, its PRNG is PCG32 (XSH RR 64/32) seeded with h, and
// its jump loop is integer arithmetic (docs/schemes/power.md). Expected O(1)
// steps, no table; buckets are 0 ... N-1 and only the last bucket can be added
// or removed. The reference (reference.cc) is the crate's structure
// transcribed apart; the kernels are power/scalar and power/simd.
#pragma once

#include <bit>
#include <cstdint>
#include <span>

#include "chbench/fleet.h"

namespace chbench {

// Largest bucket count, as for jump hash. (The crate rounds n up to a power
// of two m in a u32, so it takes n up to 2^31; 2^31 - 1 also keeps the SIMD
// kernel's products n (1 + r) below 2^63.)
inline constexpr uint32_t kPowerMaxBuckets = 0x7fffffffu;

// PCG32's LCG multiplier (the 64-bit default of PCG and of rand_pcg).
inline constexpr uint64_t kPcgMultiplier = 6364136223846793005ULL;

// PCG's XSH RR output for a 64-bit state: xorshift high, then rotate right
// the 32 bits by the state's top 5 bits. The state does not advance.
constexpr uint32_t pcg32_output(uint64_t state) noexcept {
  const auto xsh = static_cast<uint32_t>(((state >> 18) ^ state) >> 27);
  return std::rotr(xsh, static_cast<int>(state >> 59));
}

// What a table keeps of a bucket count n: n, m - 1 and m/2 - 1 where m is the
// smallest power of two >= n. For n = 1 both masks are 0 (our extension: the
// crate refuses n = 1; here every key lands on bucket 0).
struct PowerBuckets {
  uint32_t n;
  uint32_t full;  // m - 1
  uint32_t half;  // m/2 - 1
};

// Precondition: 1 <= n <= kPowerMaxBuckets.
constexpr PowerBuckets power_buckets(uint32_t n) noexcept {
  const uint32_t m = std::bit_ceil(n);
  return {n, m - 1, m == 1 ? 0 : m / 2 - 1};
}

// The crate's first choice f(h, mask) on [0, mask] (mask = 2^j - 1): v = the
// low bits h & mask; 0 if v is 0; otherwise, with t = 2^floor(log2 v), t plus
// the low log2(t) bits of the first output of a PCG32 seeded with state h and
// stream log2(t). `key_mul` is h * kPcgMultiplier: the generator's first
// state (h + inc) * multiplier + inc is key_mul + inc * (multiplier + 1).
// Writes that state to `state` when v != 0.
inline uint32_t power_first(uint64_t key, uint64_t key_mul, uint32_t mask,
                            uint64_t& state) noexcept {
  const uint32_t v = static_cast<uint32_t>(key) & mask;
  if (v == 0) return 0;
  const int level = std::bit_width(v) - 1;
  state = key_mul + (2 * static_cast<uint64_t>(level) + 1) * (kPcgMultiplier + 1);
  const uint32_t top = uint32_t{1} << level;
  return top + (pcg32_output(state) & (top - 1));
}

// The rest of a lookup whose first choice r1 = f(h, m - 1) was n or more (so
// r1 came from the top level, stream log2(m/2), and `state` is that
// generator's first state): the crate's g, its jump loop from m/2 - 1 drawing
// on the same generator after one more step, then f(h, m/2 - 1) unless g
// jumped past m/2 - 1. The loop's quotient is the crate's 64-bit division.
inline uint32_t power_above(uint64_t key, uint64_t key_mul, uint64_t state,
                            const PowerBuckets& b) noexcept {
  const uint64_t inc = 2 * static_cast<uint64_t>(std::bit_width(b.half)) + 1;
  state = state * kPcgMultiplier + inc;
  uint32_t x = b.half;
  for (;;) {
    const uint64_t scaled = (uint64_t{x} + 1) * 0xffffffffu;
    const uint64_t draw = uint64_t{pcg32_output(state)} + 1;
    if (uint64_t{b.n} * draw <= scaled) break;
    state = state * kPcgMultiplier + inc;
    x = static_cast<uint32_t>(scaled / draw);
  }
  if (x > b.half) return x;
  return power_first(key, key_mul, b.half, state);
}

// PowerCH of one key hash over b.n buckets, bit for bit the crate's
// hash_u64(key) (and 0 for n = 1).
inline uint32_t power_hash(uint64_t key, const PowerBuckets& b) noexcept {
  const uint64_t key_mul = key * kPcgMultiplier;
  uint64_t state = 0;
  const uint32_t r1 = power_first(key, key_mul, b.full, state);
  if (r1 < b.n) [[likely]]
    return r1;
  return power_above(key, key_mul, state, b);
}

// The bucket count of a fleet (glue::bucket_count: a named fleet is
// validated). Throws std::invalid_argument on an invalid fleet or more than
// kPowerMaxBuckets buckets (reference.cc; the scheme's check).
uint32_t power_bucket_count(const Fleet& fleet);

namespace simd {

// PowerCH for a batch of keys, the keys in lanes (Highway, every target): the
// first choice in a few vector operations, the rest for the lanes that need
// it (set aside, or in rounds where many do), so out[i] ==
// power_hash(key_hashes[i], power_buckets(n)) bit for bit. Shapes:
// out.size() == key_hashes.size(). Throws std::invalid_argument if
// num_buckets is 0 or above kPowerMaxBuckets, or the sizes differ.
void power_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                  std::span<uint32_t> out);

}  // namespace simd

}  // namespace chbench
