// Weighted rendezvous' fixed cost formula in plain C++ (docs/schemes/hrw_weighted.md):
// u from the per-(key, node) rendezvous score, L(u) ~ -ln(u) by one
// polynomial in one fixed order of IEEE double operations, and the cost
// L(u) * (1 / w). neglog-inl.h is the same formula in Highway vectors; both
// give the same bits because every step is one correctly rounded IEEE
// operation. Every file including this header must be compiled with
// -ffp-contract=off (kernels/CMakeLists.txt), so that no multiply and add
// fuse into one differently rounded FMA.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace chbench::weighted {

inline constexpr uint64_t kOneBits = 0x3ff0'0000'0000'0000ULL;    // 1.0
inline constexpr uint64_t kMantissa = 0x000f'ffff'ffff'ffffULL;   // the 52 fraction bits
inline constexpr uint64_t kTwo52Bits = 0x4330'0000'0000'0000ULL;  // 2^52
inline constexpr double kTwo52 = 0x1p52;
inline constexpr double kHalfUlp = 0x1p-53;
inline constexpr double kSqrt2 = 1.4142135623730951;    // sqrt(2) rounded to double
inline constexpr double kLn2 = 0.69314718055994530942;  // ln 2 rounded to double
inline constexpr std::size_t kTerms = 9;                // atanh series terms

// The series' coefficients c_k = 1 / (2k + 1), each rounded to double.
inline constexpr std::array<double, kTerms> kAtanhCoefficients = [] {
  std::array<double, kTerms> c{};
  for (std::size_t k = 0; k < kTerms; ++k) c[k] = 1.0 / static_cast<double>(2 * k + 1);
  return c;
}();

// u = (2 * (x >> 12) + 1) * 2^-53 in (0, 1): the top 52 bits of the score x
// and a half step, computed exactly ((1 + m 2^-52) - 1 + 2^-53). Never 0,
// never 1: 2^-53 <= u <= 1 - 2^-53.
inline double unit_from_score(uint64_t x) noexcept {
  return (std::bit_cast<double>(kOneBits | (x >> 12)) - 1.0) + kHalfUlp;
}

// L(u), an approximation of -ln(u) for u in [2^-53, 1): u = 2^e f with f in
// [sqrt(1/2), sqrt(2)], ln f = 2 atanh(s) with s = (f - 1) / (f + 1), the
// series 2 s (c_0 + z (c_1 + z (... c_8))) with z = s^2 evaluated by Horner
// from c_8 down, and ln u = e ln 2 + ln f. Positive for every u < 1.
inline double neglog(double u) noexcept {
  const uint64_t bits = std::bit_cast<uint64_t>(u);
  double f = std::bit_cast<double>((bits & kMantissa) | kOneBits);  // [1, 2)
  double e = (std::bit_cast<double>(kTwo52Bits | (bits >> 52)) - kTwo52) - 1023.0;
  if (f > kSqrt2) {
    f = f * 0.5;
    e = e + 1.0;
  }
  const double s = (f - 1.0) / (f + 1.0);
  const double z = s * s;
  double p = kAtanhCoefficients[kTerms - 1];
  for (std::size_t k = kTerms - 1; k-- > 0;) p = p * z + kAtanhCoefficients[k];
  const double t = s * p;
  return 0.0 - (e * kLn2 + (t + t));
}

// 1 / w rounded, or +infinity for weight 0 (such a node's cost is infinite).
inline double inverse_weight(uint32_t w) noexcept {
  return w == 0 ? std::numeric_limits<double>::infinity() : 1.0 / static_cast<double>(w);
}

// The cost of a key at a node whose score is x and inverse weight inv_w: L(u)
// times 1 / w. The lowest cost wins (the highest -w / ln u of the paper).
inline double cost(uint64_t x, double inv_w) noexcept { return neglog(unit_from_score(x)) * inv_w; }

}  // namespace chbench::weighted
