// The key hashes of the production placement profiles (docs/profiles.md): each
// function is the hash a real system applies to a key's bytes, bit for bit.
// MD5 comes from OpenSSL's libcrypto; CRC16-XMODEM, Kafka's murmur2 and
// Cassandra's MurmurHash3 variant have no C/C++ library in Debian that computes
// them as those systems do, so they are written here from the published
// algorithms and tested against the projects' own published values.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace chbench {

// ---- MD5 (ketama) -------------------------------------------------------------

// MD5 digest (RFC 1321) of `bytes`, computed by OpenSSL's libcrypto (EVP). Any
// length. Throws std::runtime_error if libcrypto reports a failure.
std::array<uint8_t, 16> md5(std::string_view bytes);

// Bytes 4k ... 4k + 3 of an MD5 digest as a little-endian uint32_t (k < 4): how
// libmemcached 1.1 turns a digest into a 32-bit value (libhashkit's
// hashkit_md5 for k = 0; ketama_server_hash, src/libmemcached/hosts.cc, for
// the four points of a weighted ketama digest).
constexpr uint32_t md5_word(const std::array<uint8_t, 16>& digest, unsigned k) noexcept {
  return uint32_t{digest[4 * k]} | uint32_t{digest[4 * k + 1]} << 8 |
         uint32_t{digest[4 * k + 2]} << 16 | uint32_t{digest[4 * k + 3]} << 24;
}

// libmemcached's key hash under MEMCACHED_HASH_MD5: md5_word(md5(key), 0).
// Throws like md5().
uint32_t ketama_key_hash(std::string_view key);

// The same for a batch, with a multi-lane MD5 (Highway; 16 keys at once on
// AVX-512, 8 on AVX2): out[i] = uint64_t{ketama_key_hash(keys[i])} << 32, the
// 32-bit ketama circle placed on the top half of the 64-bit one (see
// profiles.h). Keys of more than 55 bytes, which need a second MD5 block, go
// through md5() instead. Shapes: out.size() == keys.size(); throws
// std::invalid_argument if they differ.
void ketama_key_hashes_shifted(std::span<const std::string_view> keys, std::span<uint64_t> out);

// ---- one-at-a-time (ketama_unweighted) ---------------------------------------

// Bob Jenkins' one-at-a-time hash ("A Hash Function for Hash Table Lookup",
// Dr. Dobb's Journal, 1997), as libhashkit 1.1's hashkit_one_at_a_time
// computes it: libmemcached's default hash (MEMCACHED_HASH_DEFAULT), which
// hashes both the keys and the point names under MEMCACHED_BEHAVIOR_KETAMA
// alone.
uint32_t one_at_a_time(std::string_view bytes) noexcept;

// ---- Redis Cluster ---------------------------------------------------------------

// CRC16-XMODEM (CCITT polynomial 0x1021, initial value 0, not reflected, no
// final xor), the CRC of the Redis Cluster specification's key hashing. Of
// "123456789" it is 0x31C3.
uint16_t crc16_xmodem(std::string_view bytes) noexcept;

// The bytes Redis Cluster hashes for `key` (cluster spec, "Hash tags"): if the
// key has a '{' and a '}' somewhere after the first '{', with at least one
// byte between them, the bytes between the first '{' and the first '}' after
// it; otherwise the whole key. The result views `key`.
std::string_view redis_hash_tag(std::string_view key) noexcept;

// Redis Cluster hash slot of `key`: crc16_xmodem(redis_hash_tag(key)) mod 16384,
// as CLUSTER KEYSLOT answers.
inline constexpr uint32_t kRedisSlots = 16384;
uint32_t redis_key_slot(std::string_view key) noexcept;

// ---- Kafka ---------------------------------------------------------------------

// Kafka's murmur2 (org.apache.kafka.common.utils.Utils.murmur2): 32-bit
// MurmurHash2 (Appleby) with seed 0x9747b28c, little-endian 4-byte blocks, as
// a Java int.
int32_t kafka_murmur2(std::string_view bytes) noexcept;

// Utils.toPositive(murmur2(key)) = murmur2 & 0x7fffffff: the hash the default
// partitioner reduces mod the partition count.
inline uint32_t kafka_positive_hash(std::string_view key) noexcept {
  return static_cast<uint32_t>(kafka_murmur2(key)) & 0x7fffffffu;
}

// ---- Cassandra -----------------------------------------------------------------

// Cassandra's MurmurHash.hash3_x64_128 (org.apache.cassandra.utils.MurmurHash)
// with seed 0: MurmurHash3 x64 128 (Appleby), except that the bytes of the
// last, partial 16-byte block are sign-extended Java bytes, so a tail byte >=
// 0x80 flips the bits above it. Returns the two 64-bit halves.
std::array<uint64_t, 2> cassandra_murmur3_x64_128(std::string_view bytes) noexcept;

// Murmur3Partitioner's token of a key (Cassandra 4.x, dht/Murmur3Partitioner):
// the first half of cassandra_murmur3_x64_128 as a signed long, with
// Long.MIN_VALUE (the ring's minimum token, reserved) mapped to
// Long.MAX_VALUE; the empty key has the minimum token, INT64_MIN.
int64_t cassandra_token(std::string_view key) noexcept;

// A signed token as an unsigned value of the same order (top bit flipped):
// the profiles' rings compare unsigned.
constexpr uint64_t ordered_token(int64_t token) noexcept {
  return static_cast<uint64_t>(token) ^ (uint64_t{1} << 63);
}

}  // namespace chbench
