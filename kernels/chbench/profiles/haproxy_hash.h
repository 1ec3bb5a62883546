// HAProxy 2.6's key hashes for its hash-based load balancing (docs/profiles/proxies.md,
// "haproxy_consistent" and "haproxy_map"): the hash functions of `hash-type
// <method> <function> [avalanche]` and the full-avalanche integer hash, as
// HAProxy v2.6.12 computes them (src/hash.c, include/haproxy/intops.h,
// src/backend.c gen_hash). sdbm, djb2 and wt6 are HAProxy's own small
// functions, written here from their published definitions; crc32 is the
// IEEE CRC-32, computed by zlib.
#pragma once

#include <cstdint>
#include <string_view>

namespace chbench {

// The <function> of `hash-type`: sdbm (the default), djb2, wt6, crc32.
enum class HaproxyHashFunction { kSdbm, kDjb2, kWt6, kCrc32 };

// "sdbm", "djb2", "wt6", "crc32".
std::string_view haproxy_hash_function_name(HaproxyHashFunction f) noexcept;

// sdbm: h = c + (h << 6) + (h << 16) - h over the bytes, from h = 0, mod 2^32.
uint32_t haproxy_sdbm(std::string_view bytes) noexcept;

// djb2 (Bernstein): h = h * 33 + c over the bytes, from h = 5381, mod 2^32.
uint32_t haproxy_djb2(std::string_view bytes) noexcept;

// wt6: HAProxy's two-word hash with data-dependent rotations (src/hash.c).
uint32_t haproxy_wt6(std::string_view bytes) noexcept;

// The IEEE CRC-32 (reflected polynomial 0xedb88320, initial and final
// complement), zlib's crc32(); of "123456789" it is 0xcbf43926.
uint32_t haproxy_crc32(std::string_view bytes) noexcept;

// The function `f` of the bytes.
uint32_t haproxy_hash(HaproxyHashFunction f, std::string_view bytes) noexcept;

// HAProxy's full_hash (intops.h): one of Bob Jenkins' 32-bit full-avalanche
// integer hashes (six add/xor-shift steps), then times 3221225473 mod 2^32. A
// bijection of the 32-bit integers. It is the `avalanche` modifier, and it
// places the consistent-hash tree's points.
uint32_t haproxy_full_hash(uint32_t a) noexcept;

// What HAProxy looks a key up with under `hash-type <method> f [avalanche]`:
// haproxy_hash(f, key), through haproxy_full_hash when `avalanche`.
// `hash-type consistent` alone means sdbm with avalanche, `hash-type
// map-based` alone sdbm without (src/cfgparse-listen.c).
inline uint32_t haproxy_key_hash(HaproxyHashFunction f, bool avalanche,
                                 std::string_view key) noexcept {
  const uint32_t h = haproxy_hash(f, key);
  return avalanche ? haproxy_full_hash(h) : h;
}

}  // namespace chbench
