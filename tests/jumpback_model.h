// An independent model of JumpBackHash (both generators), written from
// docs/schemes/jumpback.md rather than from hash4j's loop or the library: a
// stream of the generator's 64-bit values, the first one's candidate, and the
// draws in 32-bit halves that either land at or above the top bucket range's
// start or send the key back below it.
#pragma once

#include <bit>
#include <cstdint>

namespace chbench_test {

// The generator seeded with key hash h: SplitMix64 (the i-th value, i = 1,
// 2, ..., is mix(h + i * gamma)) or XorshiftL7R9 (h itself, then xorshifts).
class JumpBackStream {
 public:
  JumpBackStream(uint64_t h, bool xorshift) : state_(h), xorshift_(xorshift), first_(true) {}
  uint64_t next() {
    if (xorshift_) {
      if (!first_) {
        state_ ^= state_ << 7;
        state_ ^= state_ >> 9;
      }
      first_ = false;
      return state_;
    }
    state_ += 0x9e3779b97f4a7c15ULL;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
  bool xorshift_;
  bool first_;
};

// The bucket of key hash h among n >= 1 buckets; *values (if given) is set to
// the number of the generator's values the lookup read.
inline uint32_t model_jumpback(uint64_t h, uint32_t n, bool xorshift, int* values = nullptr) {
  int unused = 0;
  int& count = values != nullptr ? *values : unused;
  count = 0;
  if (n <= 1) return 0;
  JumpBackStream stream(h, xorshift);
  const uint64_t r0 = stream.next();
  count = 1;
  const int bits = std::bit_width(n - 1);  // 1 ... 31
  // x's highest set bit 2^k, and below it the k low bits of the half of r0
  // that x's bit-count parity picks (odd: the high half).
  const auto pick = [r0](uint32_t x) -> uint32_t {
    if (x == 0) return 0;
    const uint32_t high = uint32_t{1} << (std::bit_width(x) - 1);
    const uint32_t half = static_cast<uint32_t>(std::popcount(x) % 2 == 1 ? r0 >> 32 : r0);
    return high + half % high;
  };
  const uint32_t x = static_cast<uint32_t>((r0 ^ (r0 >> 32)) % (uint64_t{1} << bits));
  const uint32_t first = pick(x);
  if (first < n) return first;
  const uint32_t top = uint32_t{1} << (bits - 1);  // x's top bit, here
  while (true) {
    const uint64_t r = stream.next();
    ++count;
    for (const uint64_t half : {r % (uint64_t{1} << 32), r >> 32}) {
      const uint32_t draw = static_cast<uint32_t>(half % (uint64_t{1} << bits));
      if (draw < top) return pick(x - top);
      if (draw < n) return draw;
    }
  }
}

}  // namespace chbench_test
