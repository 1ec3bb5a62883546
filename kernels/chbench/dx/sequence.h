// The kernels' bucket sequences of DxHash's profiles (dx.h), one key at a
// time: the scheme's LCG, ChaosD's CRC-32C chain and SUPSI's
// java.util.Random. Each is a small value type: bucket() is the current
// probe, next() moves to the following one. The SIMD kernel's are the same
// formulas in lanes (simd.cc); the reference has its own plain code.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "chbench/dx/dx.h"
#include "chbench/hash.h"

namespace chbench::dx {

// The scheme's own sequence: x_0 = fmix64(h), x_{i+1} = x_i * M + C, bucket
// ((x >> 32) * A) >> 32.
class LcgSequence {
 public:
  LcgSequence(uint64_t h, uint32_t capacity) : x_(fmix64(h)), a_(capacity) {}
  uint32_t bucket() const noexcept { return static_cast<uint32_t>(((x_ >> 32) * a_) >> 32); }
  void next() noexcept { x_ = x_ * kDxLcgMultiplier + kDxLcgIncrement; }

 private:
  uint64_t x_;
  uint32_t a_;
};

// ---- ChaosD: CRC-32C ------------------------------------------------------------

inline constexpr uint32_t kCrc32cPoly = 0x82F63B78u;  // reflected Castagnoli polynomial

// crc32q(d, c) for d < 2^32 is L(c ^ d), L = 64 reflected shifts of the register
// (the 4 zero high bytes of d add shifts only): linear over GF(2), so L(x) is
// the XOR of four tables indexed by the bytes of x. crc_table()[256 k + b] =
// L(b << 8k), as uint64_t for the SIMD kernel's 64-bit gathers.
constexpr uint32_t crc32c_shift64(uint32_t x) noexcept {
  for (int i = 0; i < 64; ++i) x = (x >> 1) ^ (kCrc32cPoly & (0u - (x & 1u)));
  return x;
}

constexpr std::array<uint64_t, 1024> make_crc_table() noexcept {
  std::array<uint64_t, 1024> t{};
  for (uint32_t k = 0; k < 4; ++k)
    for (uint32_t b = 0; b < 256; ++b) t[256 * k + b] = crc32c_shift64(b << (8 * k));
  return t;
}
inline constexpr std::array<uint64_t, 1024> kCrcTable = make_crc_table();

constexpr uint32_t crc32c_l(uint32_t x) noexcept {
  return static_cast<uint32_t>(kCrcTable[x & 0xff] ^ kCrcTable[256 + ((x >> 8) & 0xff)] ^
                               kCrcTable[512 + ((x >> 16) & 0xff)] ^ kCrcTable[768 + (x >> 24)]);
}

// ChaosD's getNodeID sequence for key = the low 32 bits of h.
class ChaosDSequence {
 public:
  ChaosDSequence(uint64_t h, uint32_t capacity)
      : key2_(static_cast<uint32_t>(h) * 421757u + 1u),
        bs_(crc32c_l(static_cast<uint32_t>(h) ^ key2_)),
        a_(capacity) {}
  uint32_t bucket() const noexcept { return bs_ % a_; }
  void next() noexcept { bs_ = crc32c_l(bs_ ^ key2_); }

 private:
  uint32_t key2_, bs_, a_;
};

// The key whose sequence ChaosD's updateAddition searches for an inactive bucket.
inline constexpr uint32_t kChaosDJoinKey = 1228;

// ---- SUPSI: java.util.Random ------------------------------------------------------

inline constexpr uint64_t kJavaMultiplier = 0x5DEECE66DULL;
inline constexpr uint64_t kJavaMask = (uint64_t{1} << 48) - 1;

constexpr uint64_t java_step(uint64_t seed) noexcept {
  return (seed * kJavaMultiplier + 0xB) & kJavaMask;
}

// new Random(h), then nextInt(A) probe after probe. Each next(31) is one
// probe; nextInt's rejection of a draw (A not a power of two) is a probe of
// bucket A, which is never active.
class SupsiSequence {
 public:
  SupsiSequence(uint64_t h, uint32_t capacity)
      : seed_(java_step((h ^ kJavaMultiplier) & kJavaMask)), a_(capacity) {}
  uint32_t bucket() const noexcept {
    const uint32_t r = static_cast<uint32_t>(seed_ >> 17);  // next(31)
    if ((a_ & (a_ - 1)) == 0) return static_cast<uint32_t>((uint64_t{a_} * r) >> 31);
    const uint32_t v = r % a_;
    return r - v + (a_ - 1) > 0x7fffffffu ? a_ : v;  // Java's int overflow test
  }
  void next() noexcept { seed_ = java_step(seed_); }

 private:
  uint64_t seed_;
  uint32_t a_;
};

// The first active bucket of a sequence and the probes it took; a probe at
// or above `limit` (DxState::limit) reads bit `limit`, clear.
template <class Sequence>
inline uint32_t first_active(const uint32_t* words, uint32_t limit, Sequence seq,
                             uint32_t* probes) noexcept {
  uint32_t n = 1;
  uint32_t b = std::min(seq.bucket(), limit);
  while (((words[b >> 5] >> (b & 31)) & 1) == 0) {
    seq.next();
    b = std::min(seq.bucket(), limit);
    ++n;
  }
  *probes = n;
  return b;
}

}  // namespace chbench::dx
