// The floors' owners as scalar formulas (scheme.h: compute_floor(),
// random_read_floor()): what their kernels return for every key hash, on every
// Highway target, and what the tests check them against. Neither is a
// placement scheme; the owners are only there so that no read or product can
// be optimised away.
#pragma once

#include <cstdint>

namespace chbench::floors {

// The compute floor's multiplier: odd, so h -> h * C is a bijection of 64-bit
// words (the MurmurHash3 finalizer's first constant).
inline constexpr uint64_t kComputeMultiplier = 0xff51afd7ed558ccdULL;

// One multiply-xorshift round of h.
constexpr uint64_t compute_mix(uint64_t h) noexcept {
  h *= kComputeMultiplier;
  return h ^ (h >> 32);
}

// The compute floor's owner of key hash h among n >= 1 nodes, in [0, n):
// multiply-shift of the mixed hash's low 32 bits (Lemire 2019).
constexpr uint32_t compute_owner(uint64_t h, uint32_t n) noexcept {
  return static_cast<uint32_t>(((compute_mix(h) & 0xffffffffu) * n) >> 32);
}

// Lines of 64 bytes in the random-read floor's table for `tokens` tokens of 8
// bytes (the ring's N x V), at least one.
constexpr uint64_t random_read_lines(uint64_t tokens) noexcept {
  return tokens <= 8 ? 1 : (tokens + 7) / 8;
}

// The line key hash h reads: the high 64 bits of h * lines (multiply-shift on
// all 64 bits of h), in [0, lines).
constexpr uint64_t random_read_line(uint64_t h, uint64_t lines) noexcept {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(h) * lines) >> 64);
}

// Word w of the table (8 words a line) holds w mod n; key hash h reads word
// (h mod 8) of its line. Its owner among n >= 1 nodes, in [0, n).
constexpr uint32_t random_read_owner(uint64_t h, uint64_t lines, uint32_t n) noexcept {
  return static_cast<uint32_t>((random_read_line(h, lines) * 8 + (h & 7)) % n);
}

}  // namespace chbench::floors
