// Multi-lane MD5 for ketama key hashes: one key per 32-bit lane, the 64 steps
// of RFC 1321 run on whole vectors (see ketama_key_hashes_shifted in
// chbench/profile_hash.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd_md5.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D32 = hn::ScalableTag<uint32_t>;
using V32 = hn::Vec<D32>;

// RFC 1321, section 3.4: T[i] = floor(2^32 * |sin(i + 1)|) and the per-step
// left rotations.
constexpr uint32_t kT[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
constexpr int kShift[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                            5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                            4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                            6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};

// Step I of the four rounds, on the roles (a, b, c, d) of that step: b gets
// b + ((a + f(b, c, d) + X[k] + T[I]) <<< s), then the roles rotate.
template <std::size_t I>
HWY_INLINE void Step(V32& a, V32& b, V32& c, V32& d, const V32* HWY_RESTRICT x) {
  const D32 du;
  V32 f;
  std::size_t k;
  if constexpr (I < 16) {
    f = hn::Or(hn::And(b, c), hn::AndNot(b, d));  // F = bc v (not b)d
    k = I;
  } else if constexpr (I < 32) {
    f = hn::Or(hn::And(b, d), hn::AndNot(d, c));  // G = bd v c(not d)
    k = (5 * I + 1) % 16;
  } else if constexpr (I < 48) {
    f = hn::Xor(hn::Xor(b, c), d);  // H = b xor c xor d
    k = (3 * I + 5) % 16;
  } else {
    f = hn::Xor(c, hn::Or(b, hn::Not(d)));  // I = c xor (b v not d)
    k = (7 * I) % 16;
  }
  const V32 sum = hn::Add(hn::Add(a, f), hn::Add(x[k], hn::Set(du, kT[I])));
  const V32 next = hn::Add(b, hn::RotateRight<32 - kShift[I]>(sum));
  a = d;
  d = c;
  c = b;
  b = next;
}

template <std::size_t... I>
HWY_INLINE void Steps(V32& a, V32& b, V32& c, V32& d, const V32* HWY_RESTRICT x,
                      std::index_sequence<I...>) {
  (Step<I>(a, b, c, d, x), ...);
}

// Word A of the MD5 digest (digest bytes 0 ... 3, little-endian) of each key
// of up to 55 bytes, Lanes() keys per vector. Longer keys get a placeholder:
// the caller computes them apart. `count` may be any number.
void Md5FirstWords(const std::string_view* HWY_RESTRICT keys, std::size_t count,
                   uint32_t* HWY_RESTRICT out) {
  const D32 du;
  const std::size_t lanes = hn::Lanes(du);
  constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(uint32_t);
  // The padded one-block messages of a vector of keys, transposed: word w of
  // lane l at words[w * lanes + l].
  HWY_ALIGN uint32_t words[16 * kMaxLanes];
  HWY_ALIGN uint32_t first[kMaxLanes];
  for (std::size_t begin = 0; begin < count; begin += lanes) {
    const std::size_t n = std::min(lanes, count - begin);
    for (std::size_t l = 0; l < lanes; ++l) {
      // RFC 1321 sections 3.1 and 3.2: the key, a 1 bit, zeros, and the bit
      // length as a 64-bit little-endian number in words 14 and 15.
      uint32_t block[16] = {};
      if (l < n && keys[begin + l].size() <= 55) {
        const std::string_view key = keys[begin + l];
        std::memcpy(block, key.data(), key.size());
        reinterpret_cast<unsigned char*>(block)[key.size()] = 0x80;
        block[14] = static_cast<uint32_t>(key.size() * 8);
      }
      for (std::size_t w = 0; w < 16; ++w) words[w * lanes + l] = block[w];
    }
    V32 x[16];
    for (std::size_t w = 0; w < 16; ++w) x[w] = hn::Load(du, words + w * lanes);
    const V32 a0 = hn::Set(du, 0x67452301u);
    V32 a = a0, b = hn::Set(du, 0xefcdab89u), c = hn::Set(du, 0x98badcfeu),
        d = hn::Set(du, 0x10325476u);
    // Word A of the result is the value step 60 computes (after it, b): steps
    // 61 ... 63 only change words D, C and B.
    Steps(a, b, c, d, x, std::make_index_sequence<61>());
    hn::Store(hn::Add(b, a0), du, first);
    for (std::size_t l = 0; l < n; ++l) out[begin + l] = first[l];
  }
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <algorithm>
#include <stdexcept>

#include "chbench/profile_hash.h"

namespace chbench {

namespace simd {
HWY_EXPORT(Md5FirstWords);
}  // namespace simd

void ketama_key_hashes_shifted(std::span<const std::string_view> keys, std::span<uint64_t> out) {
  if (keys.size() != out.size())
    throw std::invalid_argument("keys and key hashes differ in length");
  constexpr std::size_t kBlock = 256;
  uint32_t words[kBlock];
  for (std::size_t begin = 0; begin < keys.size(); begin += kBlock) {
    const std::size_t n = std::min(kBlock, keys.size() - begin);
    HWY_DYNAMIC_DISPATCH(simd::Md5FirstWords)(keys.data() + begin, n, words);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string_view key = keys[begin + i];
      // A second MD5 block is rare for keys; the library computes those.
      const uint32_t word = key.size() <= 55 ? words[i] : ketama_key_hash(key);
      out[begin + i] = uint64_t{word} << 32;
    }
  }
}

}  // namespace chbench

#endif  // HWY_ONCE
