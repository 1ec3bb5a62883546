// HAProxy 2.6's key hashes (haproxy_hash.h), from the definitions in HAProxy
// v2.6.12 src/hash.c and include/haproxy/intops.h.
#include "chbench/profiles/haproxy_hash.h"

#include <zlib.h>

#include <algorithm>
#include <bit>

namespace chbench {

std::string_view haproxy_hash_function_name(HaproxyHashFunction f) noexcept {
  switch (f) {
    case HaproxyHashFunction::kDjb2:
      return "djb2";
    case HaproxyHashFunction::kWt6:
      return "wt6";
    case HaproxyHashFunction::kCrc32:
      return "crc32";
    case HaproxyHashFunction::kSdbm:
      break;
  }
  return "sdbm";
}

uint32_t haproxy_sdbm(std::string_view bytes) noexcept {
  uint32_t h = 0;
  for (const char ch : bytes) h = static_cast<unsigned char>(ch) + (h << 6) + (h << 16) - h;
  return h;
}

uint32_t haproxy_djb2(std::string_view bytes) noexcept {
  uint32_t h = 5381;
  for (const char ch : bytes) h = h * 33 + static_cast<unsigned char>(ch);
  return h;
}

// Two state words, each byte folded into both; the rotation counts for the
// next byte come from the state.
uint32_t haproxy_wt6(std::string_view bytes) noexcept {
  uint32_t h0 = 0xa53c965au, h1 = 0x5ca6953au;
  int step0 = 6, step1 = 18;
  for (const char ch : bytes) {
    const uint32_t c = static_cast<unsigned char>(ch);
    const uint32_t a = ~(h0 ^ c);
    const uint32_t b = ~(h1 + c);
    h0 = std::rotl(b, step0);
    h1 = std::rotl(a, step1);
    const uint32_t t = ((h0 >> 16) ^ h1) & 0xffffu;
    step0 = static_cast<int>(t & 0x1fu);
    step1 = static_cast<int>(t >> 11);
  }
  return h0 ^ h1;
}

uint32_t haproxy_crc32(std::string_view bytes) noexcept {
  uLong crc = crc32(0L, Z_NULL, 0);
  const auto* p = reinterpret_cast<const Bytef*>(bytes.data());
  std::size_t left = bytes.size();
  while (left > 0) {  // zlib takes a uInt length
    const auto n = static_cast<uInt>(std::min<std::size_t>(left, 1u << 30));
    crc = crc32(crc, p, n);
    p += n;
    left -= n;
  }
  return static_cast<uint32_t>(crc);
}

uint32_t haproxy_hash(HaproxyHashFunction f, std::string_view bytes) noexcept {
  switch (f) {
    case HaproxyHashFunction::kDjb2:
      return haproxy_djb2(bytes);
    case HaproxyHashFunction::kWt6:
      return haproxy_wt6(bytes);
    case HaproxyHashFunction::kCrc32:
      return haproxy_crc32(bytes);
    case HaproxyHashFunction::kSdbm:
      break;
  }
  return haproxy_sdbm(bytes);
}

uint32_t haproxy_full_hash(uint32_t a) noexcept {
  a = (a + 0x7ed55d16u) + (a << 12);
  a = (a ^ 0xc761c23cu) ^ (a >> 19);
  a = (a + 0x165667b1u) + (a << 5);
  a = (a + 0xd3a2646cu) ^ (a << 9);
  a = (a + 0xfd7046c5u) + (a << 3);
  a = (a ^ 0xb55a4f09u) ^ (a >> 16);
  return a * 3221225473u;
}

}  // namespace chbench
