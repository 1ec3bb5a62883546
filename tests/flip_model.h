// An independent model of FlipHash for the tests (docs/schemes/flip.md),
// written from the paper's two cases over explicit exponents r (no masks, no
// bit tricks): the power-of-two hash over [0, 2^r), then the general case
// over [0, n). Draws are fliphash-rs's hash with seed 0.
#pragma once

#include <cstdint>

namespace chbench_test {

// fliphash-rs's hash(key, 0, bit_len, iteration_index) of fliphash_64.
inline uint64_t model_flip_draw(uint64_t key, uint64_t bit_len, uint64_t iteration) {
  uint64_t k = key * (2 * bit_len + 1);
  k ^= k >> 27;
  k *= 0x3C79AC492BA7B653ULL;
  k *= 2 * iteration + 1;
  k ^= k >> 33;
  k *= 0x1C69B3F74AC4AE35ULL;
  return k ^ (k >> 27);
}

// floor(log2(x)) for x >= 1, by halving.
inline uint64_t model_floor_log2(uint64_t x) {
  uint64_t b = 0;
  while (x > 1) x /= 2, ++b;
  return b;
}

// The power-of-two case: a value of [0, 2^r) from the first draw; a nonzero
// a in [2^b, 2^(b+1)) keeps its top bit, the b bits below are XORed with a
// draw for b.
inline uint64_t model_flip_pow2(uint64_t key, uint64_t r) {
  const uint64_t a = model_flip_draw(key, 0, 0) % (uint64_t{1} << r);
  if (a == 0) return 0;
  const uint64_t b = model_floor_log2(a);
  return a ^ (model_flip_draw(key, b, 0) % (uint64_t{1} << b));
}

// The general case for n buckets (1 <= n < 2^32): r is the least exponent with
// 2^r >= n; up to 64 draws of [0, 2^r) settle a key whose power-of-two
// value is n or more.
inline uint32_t model_flip(uint64_t key, uint64_t n) {
  if (n == 1) return 0;
  uint64_t r = 0;
  while ((uint64_t{1} << r) < n) ++r;
  const uint64_t first = model_flip_pow2(key, r);
  if (first < n) return static_cast<uint32_t>(first);
  for (uint64_t i = 1; i <= 64; ++i) {
    const uint64_t draw = model_flip_draw(key, r - 1, i) % (uint64_t{1} << r);
    if (draw < (uint64_t{1} << (r - 1))) break;
    if (draw < n) return static_cast<uint32_t>(draw);
  }
  return static_cast<uint32_t>(model_flip_pow2(key, r - 1));
}

}  // namespace chbench_test
