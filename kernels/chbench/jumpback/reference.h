// The references of both JumpBackHash schemes (jumpback/reference.cc and
// jumpback_xorshift/reference.cc): hash4j's getBucket and its two generators
// transcribed step by step with Java's semantics, independent of the kernels'
// code (jumpback.h, lanes-inl.h).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include "chbench/scheme.h"

namespace chbench::jumpback_reference {

// Java's operators where C++ differs. A Java int is held as uint32_t (its bits;
// + - << wrap around as in Java) and compared as int32_t; shift counts are
// taken mod 64 (long) and mod 32 (int); Integer.numberOfLeadingZeros(0) = 32.
constexpr uint64_t ushr64(uint64_t v, uint32_t count) { return v >> (count & 63); }
constexpr uint32_t ushr32(uint32_t v, uint32_t count) { return v >> (count & 31); }
constexpr uint32_t shl32(uint32_t v, uint32_t count) { return v << (count & 31); }
constexpr uint32_t nlz32(uint32_t v) { return static_cast<uint32_t>(std::countl_zero(v)); }
constexpr uint32_t bit_count32(uint32_t v) { return static_cast<uint32_t>(std::popcount(v)); }
constexpr bool less(uint32_t a, uint32_t b) {
  return static_cast<int32_t>(a) < static_cast<int32_t>(b);
}

// hash4j's SplitMix64Algorithm (the sequence of SplitMix64V1 reset to the seed).
struct SplitMix64Algorithm {
  static uint64_t init_state(uint64_t seed) { return update_state(seed); }
  static uint64_t update_state(uint64_t state) { return state + 0x9e3779b97f4a7c15ULL; }
  static uint64_t next_long(uint64_t state) {
    uint64_t z = state;
    z = (z ^ ushr64(z, 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ ushr64(z, 27)) * 0x94d049bb133111ebULL;
    return z ^ ushr64(z, 31);
  }
};

// hash4j's XorshiftL7R9Algorithm.
struct XorshiftL7R9Algorithm {
  static uint64_t init_state(uint64_t seed) { return seed; }
  static uint64_t update_state(uint64_t state) {
    state ^= state << 7;
    state ^= ushr64(state, 9);
    return state;
  }
  static uint64_t next_long(uint64_t state) { return state; }
};

// A PseudoRandomGenerator reset to `seed`, over an Algorithm: the first
// nextLong() is next_long(init_state(seed)), each later one advances the
// state by update_state first.
template <class Algorithm>
class Generator {
 public:
  explicit Generator(uint64_t seed) : state_(seed) {}
  uint64_t next_long() {
    state_ = started_ ? Algorithm::update_state(state_) : Algorithm::init_state(state_);
    started_ = true;
    return Algorithm::next_long(state_);
  }

 private:
  uint64_t state_;
  bool started_ = false;
};

// ConsistentJumpBackBucketHasher.getBucket(numBuckets, pseudoRandomGenerator)
// at hash4j 41d814f94c52 (AbstractConsistentJumpBackBucketHasher's steps too),
// the variable names hash4j's. Precondition: num_buckets >= 2. The generator
// is left after the last value read (jumpback_anchor draws on from there).
template <class Algorithm>
uint32_t get_bucket(uint32_t num_buckets, Generator<Algorithm>& generator) {
  const uint64_t r0 = generator.next_long();
  uint32_t x_masked =
      static_cast<uint32_t>(r0 ^ ushr64(r0, 32)) & ushr32(0xffffffffu, nlz32(num_buckets - 1));
  while (true) {
    if (x_masked == 0) return 0;
    const uint32_t bucket_range_min = shl32(1, ~nlz32(x_masked));
    uint32_t bucket_idx =
        bucket_range_min +
        (static_cast<uint32_t>(ushr64(r0, bit_count32(x_masked) << 5)) & (bucket_range_min - 1));
    if (less(bucket_idx, num_buckets)) return bucket_idx;
    const uint32_t bucket_range_max = (bucket_range_min << 1) - 1;
    while (true) {
      const uint64_t r1 = generator.next_long();
      bucket_idx = static_cast<uint32_t>(r1) & bucket_range_max;
      if (less(bucket_idx, bucket_range_min)) break;
      if (less(bucket_idx, num_buckets)) return bucket_idx;
      bucket_idx = static_cast<uint32_t>(ushr64(r1, 32)) & bucket_range_max;
      if (less(bucket_idx, bucket_range_min)) break;
      if (less(bucket_idx, num_buckets)) return bucket_idx;
    }
    x_masked ^= bucket_range_min;
  }
}

// getBucket(hash, numBuckets): bucket 0 below two buckets, else the loop
// above on a generator reset to `hash`.
template <class Algorithm>
uint32_t get_bucket(uint64_t hash, uint32_t num_buckets) {
  if (less(num_buckets, 2)) return 0;
  Generator<Algorithm> generator(hash);
  return get_bucket(num_buckets, generator);
}

// The reference table of a JumpBackHash scheme over `num_buckets` buckets.
template <class Algorithm>
class Reference final : public OwnerTable {
 public:
  explicit Reference(uint32_t num_buckets) : n_(num_buckets) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = get_bucket<Algorithm>(h[i], n_);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

}  // namespace chbench::jumpback_reference
