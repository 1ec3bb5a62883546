// Multi-lane MD5 for ketama key hashes: one key per 32-bit lane, the 64 steps
// of RFC 1321 run on whole vectors (see ketama_key_hashes_shifted in
// chbench/profiles/profile_hash.h).
//
// The message words and chain states live in arrays of vectors, which SVE's
// sizeless vector types cannot form: on aarch64 this file is compiled for NEON
// only (HWY_DISABLED_TARGETS, read by Highway in this translation unit alone),
// which SVE CPUs run too; dispatch falls back to it on them.
#if defined(__aarch64__) && !defined(HWY_DISABLED_TARGETS)
#define HWY_DISABLED_TARGETS (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128)
#endif
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/profiles/simd_md5.cc"
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

// Vectors of keys hashed together: MD5's 64 steps are one dependency chain
// per block, so two independent chains keep the vector units busy while
// each waits on its previous step.
constexpr std::size_t kChains = 4;

// Step I of the four rounds, on the roles (a, b, c, d) of that step, for each
// chain: b gets b + ((a + f(b, c, d) + X[k] + T[I]) <<< s), then the roles
// rotate.
template <std::size_t I>
HWY_INLINE void Step(V32 (&a)[kChains], V32 (&b)[kChains], V32 (&c)[kChains], V32 (&d)[kChains],
                     const V32 (&x)[kChains][16]) {
  const D32 du;
  const V32 t = hn::Set(du, kT[I]);
  for (std::size_t u = 0; u < kChains; ++u) {
    V32 f;
    std::size_t k;
    if constexpr (I < 16) {
      f = hn::Or(hn::And(b[u], c[u]), hn::AndNot(b[u], d[u]));  // F = bc v (not b)d
      k = I;
    } else if constexpr (I < 32) {
      f = hn::Or(hn::And(b[u], d[u]), hn::AndNot(d[u], c[u]));  // G = bd v c(not d)
      k = (5 * I + 1) % 16;
    } else if constexpr (I < 48) {
      f = hn::Xor(hn::Xor(b[u], c[u]), d[u]);  // H = b xor c xor d
      k = (3 * I + 5) % 16;
    } else {
      f = hn::Xor(c[u], hn::Or(b[u], hn::Not(d[u])));  // I = c xor (b v not d)
      k = (7 * I) % 16;
    }
    const V32 sum = hn::Add(hn::Add(a[u], f), hn::Add(x[u][k], t));
    const V32 next = hn::Add(b[u], hn::RotateRight<32 - kShift[I]>(sum));
    a[u] = d[u];
    d[u] = c[u];
    c[u] = b[u];
    b[u] = next;
  }
}

template <std::size_t... I>
HWY_INLINE void Steps(V32 (&a)[kChains], V32 (&b)[kChains], V32 (&c)[kChains], V32 (&d)[kChains],
                      const V32 (&x)[kChains][16], std::index_sequence<I...>) {
  (Step<I>(a, b, c, d, x), ...);
}

// Word A of the MD5 digest (digest bytes 0 ... 3, little-endian) of each key
// of up to 55 bytes, kChains * Lanes() keys at a time. Longer keys get a
// placeholder: the caller computes them apart. `count` may be any number.
void Md5FirstWords(const std::string_view* HWY_RESTRICT keys, std::size_t count,
                   uint32_t* HWY_RESTRICT out) {
  const D32 du;
  const std::size_t lanes = hn::Lanes(du);
  const std::size_t group = kChains * lanes;
  constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(uint32_t);
  // The padded one-block messages of a group of keys, transposed: word w of
  // key j (chain j / lanes, lane j % lanes) at words[(chain * 16 + w) * lanes
  // + lane]. Zeroed once; each key then writes only the words it reaches and
  // word 14, and clears them again for the next key, so that a short key
  // costs a few stores instead of a 64-byte block.
  HWY_ALIGN uint32_t words[kChains * 16 * kMaxLanes] = {};
  HWY_ALIGN uint32_t first[kChains * kMaxLanes];
  std::size_t used[kChains * kMaxLanes] = {};  // data words key slot j wrote last
  for (std::size_t begin = 0; begin < count; begin += group) {
    const std::size_t n = std::min(group, count - begin);
    for (std::size_t j = 0; j < n; ++j) {
      uint32_t* slot = words + (j / lanes) * 16 * lanes + j % lanes;
      for (std::size_t w = 0; w < used[j]; ++w) slot[w * lanes] = 0;
      used[j] = 0;
      const std::string_view key = keys[begin + j];
      if (key.size() > 55) continue;  // two blocks: the caller's job
      // RFC 1321 sections 3.1 and 3.2: the key, a 1 bit, zeros, and the bit
      // length as a 64-bit little-endian number in words 14 and 15.
      const auto* bytes = reinterpret_cast<const unsigned char*>(key.data());
      const std::size_t full = key.size() / 4;
      for (std::size_t w = 0; w < full; ++w) {
        uint32_t word;
        std::memcpy(&word, bytes + 4 * w, 4);
        slot[w * lanes] = word;
      }
      uint32_t last = 0x80u << (8 * (key.size() % 4));
      for (std::size_t b = 0; b < key.size() % 4; ++b)
        last |= uint32_t{bytes[4 * full + b]} << (8 * b);
      slot[full * lanes] = last;
      slot[14 * lanes] = static_cast<uint32_t>(key.size() * 8);
      used[j] = full + 1;
    }
    V32 x[kChains][16];
    for (std::size_t u = 0; u < kChains; ++u)
      for (std::size_t w = 0; w < 16; ++w) x[u][w] = hn::Load(du, words + (u * 16 + w) * lanes);
    const V32 a0 = hn::Set(du, 0x67452301u);
    V32 a[kChains], b[kChains], c[kChains], d[kChains];
    for (std::size_t u = 0; u < kChains; ++u) {
      a[u] = a0;
      b[u] = hn::Set(du, 0xefcdab89u);
      c[u] = hn::Set(du, 0x98badcfeu);
      d[u] = hn::Set(du, 0x10325476u);
    }
    // Word A of the result is the value step 60 computes (after it, b): steps
    // 61 ... 63 only change words D, C and B.
    Steps(a, b, c, d, x, std::make_index_sequence<61>());
    for (std::size_t u = 0; u < kChains; ++u) hn::Store(hn::Add(b[u], a0), du, first + u * lanes);
    for (std::size_t j = 0; j < n; ++j) out[begin + j] = first[j];
  }
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <algorithm>
#include <stdexcept>

#include "chbench/profiles/profile_hash.h"

namespace chbench {

namespace simd {
HWY_EXPORT(Md5FirstWords);

// Dispatched from inside this namespace: where one target is compiled (NEON on
// aarch64) HWY_DYNAMIC_DISPATCH is static dispatch, N_NEON::FUNC, which only
// resolves here.
void md5_first_words(const std::string_view* keys, std::size_t count, uint32_t* words) {
  HWY_DYNAMIC_DISPATCH(Md5FirstWords)(keys, count, words);
}
}  // namespace simd

void ketama_key_hashes_shifted(std::span<const std::string_view> keys, std::span<uint64_t> out) {
  if (keys.size() != out.size())
    throw std::invalid_argument("keys and key hashes differ in length");
  constexpr std::size_t kBlock = 256;
  uint32_t words[kBlock];
  for (std::size_t begin = 0; begin < keys.size(); begin += kBlock) {
    const std::size_t n = std::min(kBlock, keys.size() - begin);
    simd::md5_first_words(keys.data() + begin, n, words);
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
