// JumpBackHash: Ertl, "JumpBackHash: Say Goodbye to the Modulo Operation to
// Distribute Keys Uniformly to Buckets", arXiv:2403.18682 (2024; Software:
// Practice and Experience 55(3), 2025), as Dynatrace's hash4j implements it
// (ConsistentJumpBackBucketHasher, commit 41d814f94c52): expected O(1) steps,
// no table, buckets 0 ... N-1, only the last bucket can be added or removed.
// Two schemes differ only in the pseudo-random generator that the key hash
// seeds: jumpback (SplitMix64, hash4j's default) and jumpback_xorshift
// (XorshiftL7R9). docs/schemes/jumpback.md has the definition. The references
// (jumpback/reference.h) transcribe hash4j's loop; the kernels of both schemes
// share the step below (scalar) and jumpback/lanes-inl.h (SIMD).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "chbench/fleet.h"
#include "chbench/scheme.h"

namespace chbench {

// Largest bucket count of hash4j's interface (a Java int).
inline constexpr uint32_t kJumpBackMaxBuckets = 0x7fffffffu;

// hash4j's SplitMix64 (SplitMix64Algorithm): the state starts at h + gamma,
// each value is the state mixed, each step adds gamma.
struct SplitMix64 {
  static constexpr uint64_t kGamma = 0x9e3779b97f4a7c15ULL;
  static constexpr uint64_t kMul1 = 0xbf58476d1ce4e5b9ULL;
  static constexpr uint64_t kMul2 = 0x94d049bb133111ebULL;
  static constexpr uint64_t first(uint64_t h) noexcept { return h + kGamma; }
  static constexpr uint64_t next(uint64_t state) noexcept { return state + kGamma; }
  static constexpr uint64_t value(uint64_t z) noexcept {
    z = (z ^ (z >> 30)) * kMul1;
    z = (z ^ (z >> 27)) * kMul2;
    return z ^ (z >> 31);
  }
};

// hash4j's XorshiftL7R9 (XorshiftL7R9Algorithm): the first value is h itself,
// each step is state ^= state << 7; state ^= state >> 9 (period 2^64 - 1 for
// h != 0; h = 0 stays 0).
struct XorshiftL7R9 {
  static constexpr uint64_t first(uint64_t h) noexcept { return h; }
  static constexpr uint64_t next(uint64_t state) noexcept {
    state ^= state << 7;
    return state ^ (state >> 9);
  }
  static constexpr uint64_t value(uint64_t state) noexcept { return state; }
};

// What a lookup needs of the bucket count n (1 <= n <= kJumpBackMaxBuckets):
// with L = bit_width(n - 1), mask = 2^L - 1 and top = 2^(L - 1) (0 for n = 1),
// the highest bit a draw can leave set.
struct JumpBackShape {
  uint32_t n, mask, top;
  explicit constexpr JumpBackShape(uint32_t buckets) noexcept
      : n(buckets),
        mask(static_cast<uint32_t>((uint64_t{1} << std::bit_width(buckets - 1)) - 1)),
        top((mask + 1) >> 1) {}
};

namespace jumpback_detail {

// Bucket 2^k + (the k low bits of half), k the highest set bit of x; 0 for x
// = 0. hash4j's bucketRangeMin + (half & (bucketRangeMin - 1)).
constexpr uint32_t candidate(uint32_t x, uint32_t half) noexcept {
  const uint32_t low = static_cast<uint32_t>(0xffffffffULL >> (std::countl_zero(x) + 1));
  return (x & ~low) | (half & low);
}

// The 32-bit half of r0 that hash4j's r0 >>> (bitCount(x) << 5) leaves in the
// low bits: the high half when x has an odd number of set bits.
constexpr uint32_t half_of(uint64_t r0, bool odd) noexcept {
  return static_cast<uint32_t>(odd ? r0 >> 32 : r0);
}

// The rare case: the first candidate has x's top bit (s.top) and is >= n.
// Draws until a 32-bit half, masked, is below n: at or above s.top it is the
// bucket, below it the lookup jumps back to x without its top bit.
// `state` is left at the value that decided (jumpback_anchor's draws go on
// from there).
template <class Prng>
uint32_t jump_back(uint64_t& state, uint64_t r0, uint32_t x, bool odd,
                   const JumpBackShape& s) noexcept {
  for (;;) {
    state = Prng::next(state);
    const uint64_t r = Prng::value(state);
    for (const uint32_t half : {static_cast<uint32_t>(r), static_cast<uint32_t>(r >> 32)}) {
      const uint32_t b = half & s.mask;
      if (b < s.n) return b >= s.top ? b : candidate(x & (s.top - 1), half_of(r0, !odd));
    }
  }
}

}  // namespace jumpback_detail

// The bucket of key hash h among s.n buckets: hash4j's getBucket(h, n) for the
// generator Prng, in the order of its steps; the common case (the first
// candidate accepted) has no loop and one branch, rarely taken. `state` is
// set to the generator's state after the last value the lookup read.
template <class Prng>
inline uint32_t jumpback_bucket(uint64_t h, const JumpBackShape& s, uint64_t& state) noexcept {
  state = Prng::first(h);
  const uint64_t r0 = Prng::value(state);
  const uint32_t x = static_cast<uint32_t>(r0 ^ (r0 >> 32)) & s.mask;
  const bool odd = __builtin_parity(x) != 0;  // x86-64's parity flag: no popcnt needed
  const uint32_t b = jumpback_detail::candidate(x, jumpback_detail::half_of(r0, odd));
  if (b < s.n) [[likely]]
    return b;
  return jumpback_detail::jump_back<Prng>(state, r0, x, odd, s);
}

template <class Prng>
inline uint32_t jumpback_bucket(uint64_t h, const JumpBackShape& s) noexcept {
  uint64_t state;
  return jumpback_bucket<Prng>(h, s, state);
}

// One key at a time (the scalar kernels): out[i] = jumpback_bucket<Prng>(...).
// Shapes: out.size() >= key_hashes.size(); 1 <= num_buckets <= kJumpBackMaxBuckets.
template <class Prng>
void jumpback_scalar_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                            std::span<uint32_t> out) noexcept {
  const JumpBackShape shape(num_buckets);
  for (std::size_t i = 0; i < key_hashes.size(); ++i)
    out[i] = jumpback_bucket<Prng>(key_hashes[i], shape);
}

// The table of a JumpBackHash kernel: its bucket count, and Lookup (one of the
// functions here or in simd::) for the batches.
template <void (*Lookup)(std::span<const uint64_t>, uint32_t, std::span<uint32_t>)>
class JumpBackTable final : public OwnerTable {
 public:
  explicit JumpBackTable(uint32_t n) : n_(n) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    Lookup(h, n_, out);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

// The bucket count of a fleet (glue::bucket_count: a named fleet is
// validated). Throws std::invalid_argument on an invalid fleet or more than
// kJumpBackMaxBuckets buckets (reference.cc of each scheme; its check).
uint32_t jumpback_buckets(const Fleet& fleet);
uint32_t jumpback_xorshift_buckets(const Fleet& fleet);

namespace simd {

// JumpBackHash over SplitMix64 (jumpback) and over XorshiftL7R9
// (jumpback_xorshift) for a batch of keys, keys in lanes (jumpback/lanes-inl.h):
// out[i] == jumpback_bucket<Prng>(key_hashes[i], JumpBackShape(num_buckets))
// on every Highway target. Shapes: out.size() == key_hashes.size(). Throws
// std::invalid_argument if num_buckets is 0 or above kJumpBackMaxBuckets, or
// the sizes differ.
void jumpback_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                     std::span<uint32_t> out);
void jumpback_xorshift_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                              std::span<uint32_t> out);

// The checks of both: throws std::invalid_argument as they say.
inline void check_jumpback_batch(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                                 std::span<uint32_t> out) {
  if (num_buckets == 0 || num_buckets > kJumpBackMaxBuckets)
    throw std::invalid_argument("JumpBackHash takes 1 to 2^31 - 1 buckets");
  if (key_hashes.size() != out.size())
    throw std::invalid_argument("key hashes and owners differ in length");
}

}  // namespace simd

}  // namespace chbench
