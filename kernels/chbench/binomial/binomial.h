// BinomialHash: Coluzzi, Brocco, Antonucci and Leidi, "BinomialHash: A
// Constant Time, Minimal Memory Consistent Hash Algorithm", arXiv:2406.19836,
// exactly as SUPSI's Java framework computes it (java-consistent-hashing-
// algorithms, BinomialEngine.getBucket at commit 68803f8, whose lookup changed
// after the paper; docs/schemes/binomial.md). No table; buckets are 0 ... N-1
// and only the last bucket can be added or removed. The reference
// (reference.cc) transcribes the Java method; the kernels (scalar.cc, simd.cc)
// compute the same function in the equivalent form below.
#pragma once

#include <bit>
#include <cstdint>
#include <span>

#include "chbench/fleet.h"

namespace chbench {

// The engine's bucket count is a Java int.
inline constexpr uint32_t kBinomialMaxBuckets = 0x7fffffffu;

// The multiplier of the engine's rehash(v, s) = ((v * a + 1)^2 * s) >>> 32
// (mod 2^64): jump hash's LCG multiplier.
inline constexpr uint64_t kBinomialMultiplier = 2862933555777941757ULL;

// The engine's two filters for n buckets: `enclosing` is 2^k - 1 for the
// smallest 2^k >= n (the constructor's rule: n - 1 when n is a power of two),
// `minor` is enclosing >> 1. After removals down to a power of two n the Java
// engine holds 2n - 1 and n - 1 instead; both pairs place every key alike
// (docs/schemes/binomial.md), so the kernels take the constructor's.
struct BinomialFilters {
  uint32_t enclosing;
  uint32_t minor;
};

// Precondition: 1 <= n <= kBinomialMaxBuckets.
constexpr BinomialFilters binomial_filters(uint32_t n) noexcept {
  const uint32_t enclosing = std::bit_ceil(n) - 1;
  return {enclosing, enclosing >> 1};
}

// (v * a + 1)^2 mod 2^64: the part of rehash(v, s) that does not depend on s.
constexpr uint64_t binomial_square(uint64_t v) noexcept {
  const uint64_t t = v * kBinomialMultiplier + 1;
  return t * t;
}

// rehash(v, filter) & filter from v's square, for a filter below 2^31.
constexpr uint32_t binomial_within(uint64_t square, uint32_t filter) noexcept {
  return static_cast<uint32_t>((square * filter) >> 32) & filter;
}

// relocateWithinLevel(b, v) from v's square, for b below 2^31: b's level
// filter, bit_floor(b) - 1, is 0 for buckets 0 and 1 (which stay put), and
// (b & ~filter) is the level's first bucket.
constexpr uint32_t binomial_relocate(uint32_t b, uint64_t square) noexcept {
  const uint32_t filter = 0x7fffffffu >> std::countl_zero(b | 1);
  return (b & ~filter) | binomial_within(square, filter);
}

// The slow path of binomial_bucket: the engine's loop of up to four redraws
// in the enclosing tree and its minor-tree fallback, for a key hash h whose
// first draw was at or above n; `square` is binomial_square(h). A draw
// relocates within its level, so it lands in the minor tree exactly when it
// is below the top level's first bucket, minor + 1, which needs no
// relocation to be told; in the top level the relocation's filter is minor.
constexpr uint32_t binomial_redraw(uint64_t h, uint64_t square, uint32_t n,
                                   BinomialFilters f) noexcept {
  const uint32_t top = f.minor + 1;
  const uint64_t h_square = square;
  uint64_t g = (square * f.enclosing) >> 32;
  for (int i = 0; i < 4; ++i) {
    if ((g & top) == 0) break;  // a draw in the minor tree ends the loop
    square = binomial_square(g);
    const uint32_t b = top | binomial_within(square, f.minor);
    if (b < n) return b;
    g = (square * f.enclosing) >> 32;
  }
  return binomial_relocate(static_cast<uint32_t>(h) & f.minor, h_square);
}

// BinomialEngine.getBucket for key hash h and n buckets with filters
// binomial_filters(n): its first draw, relocateWithinLevel(h & enclosing, h),
// without a branch (the square serves every relocation of h), and
// binomial_redraw for the few keys whose draw is at or above n. Precondition:
// 1 <= n <= kBinomialMaxBuckets.
constexpr uint32_t binomial_bucket(uint64_t h, uint32_t n, BinomialFilters f) noexcept {
  const uint64_t square = binomial_square(h);
  const uint32_t first = binomial_relocate(static_cast<uint32_t>(h) & f.enclosing, square);
  if (first >= n) [[unlikely]]
    return binomial_redraw(h, square, n, f);
  return first;
}

// The bucket count of a fleet (glue::bucket_count). Throws
// std::invalid_argument on an invalid fleet or more than kBinomialMaxBuckets
// buckets (reference.cc; the scheme's check).
uint32_t binomial_buckets(const Fleet& fleet);

namespace simd {

// BinomialHash for a batch of keys, the keys in lanes (simd.cc): out[i] ==
// binomial_bucket(key_hashes[i], num_buckets, binomial_filters(num_buckets))
// on every Highway target. Shapes: out.size() == key_hashes.size(). Throws
// std::invalid_argument if num_buckets is 0 or above kBinomialMaxBuckets, or
// the sizes differ.
void binomial_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                     std::span<uint32_t> out);

}  // namespace simd

}  // namespace chbench
