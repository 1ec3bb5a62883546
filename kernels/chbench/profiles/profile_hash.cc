#include "chbench/profiles/profile_hash.h"

#include <openssl/evp.h>

#include <algorithm>
#include <stdexcept>

#include "chbench/hash.h"

namespace chbench {

// ---- MD5 -----------------------------------------------------------------------

std::array<uint8_t, 16> md5(std::string_view bytes) {
  std::array<uint8_t, 16> digest{};
  unsigned size = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_md5(), nullptr) != 1 ||
      size != digest.size())
    throw std::runtime_error("OpenSSL EVP_Digest(MD5) failed");
  return digest;
}

uint32_t ketama_key_hash(std::string_view key) { return md5_word(md5(key), 0); }

// ---- one-at-a-time ---------------------------------------------------------------

uint32_t one_at_a_time(std::string_view bytes) noexcept {
  uint32_t h = 0;
  for (unsigned char c : bytes) {
    h += c;
    h += h << 10;
    h ^= h >> 6;
  }
  h += h << 3;
  h ^= h >> 11;
  h += h << 15;
  return h;
}

// ---- CRC16-XMODEM ------------------------------------------------------------------

namespace {

// Byte-at-a-time table of the MSB-first CRC with polynomial 0x1021: entry b is
// the CRC register after shifting b through eight steps from zero.
constexpr std::array<uint16_t, 256> make_crc16_table() {
  std::array<uint16_t, 256> table{};
  for (unsigned b = 0; b < 256; ++b) {
    uint16_t crc = static_cast<uint16_t>(b << 8);
    for (int step = 0; step < 8; ++step)
      crc = static_cast<uint16_t>((crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1);
    table[b] = crc;
  }
  return table;
}

constexpr auto kCrc16Table = make_crc16_table();

}  // namespace

uint16_t crc16_xmodem(std::string_view bytes) noexcept {
  uint16_t crc = 0;
  for (unsigned char c : bytes)
    crc = static_cast<uint16_t>((crc << 8) ^ kCrc16Table[((crc >> 8) ^ c) & 0xff]);
  return crc;
}

std::string_view redis_hash_tag(std::string_view key) noexcept {
  const std::size_t open = key.find('{');
  if (open == std::string_view::npos) return key;
  const std::size_t close = key.find('}', open + 1);
  // No '}' after the first '{', or nothing between them: the whole key.
  if (close == std::string_view::npos || close == open + 1) return key;
  return key.substr(open + 1, close - open - 1);
}

uint32_t redis_key_slot(std::string_view key) noexcept {
  return crc16_xmodem(redis_hash_tag(key)) & (kRedisSlots - 1);
}

// ---- Kafka murmur2 ---------------------------------------------------------------------

namespace {

uint32_t load_le32(const unsigned char* p) noexcept {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

uint64_t load_le64(const unsigned char* p) noexcept {
  return uint64_t{load_le32(p)} | uint64_t{load_le32(p + 4)} << 32;
}

constexpr uint64_t rotl64(uint64_t x, int r) noexcept { return (x << r) | (x >> (64 - r)); }

}  // namespace

int32_t kafka_murmur2(std::string_view bytes) noexcept {
  // MurmurHash2 as Kafka's Utils.murmur2 computes it: Java ints wrap like
  // uint32_t, and ">>>" is the unsigned shift.
  constexpr uint32_t kSeed = 0x9747b28cu;
  constexpr uint32_t m = 0x5bd1e995u;
  constexpr int r = 24;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto length = static_cast<uint32_t>(bytes.size());
  uint32_t h = kSeed ^ length;
  const uint32_t blocks = length / 4;
  for (uint32_t i = 0; i < blocks; ++i) {
    uint32_t k = load_le32(data + 4 * i);
    k *= m;
    k ^= k >> r;
    k *= m;
    h *= m;
    h ^= k;
  }
  // The last length % 4 bytes, masked with 0xff (unsigned) in Kafka's code.
  const unsigned char* tail = data + 4 * blocks;
  switch (length % 4) {
    case 3:
      h ^= uint32_t{tail[2]} << 16;
      [[fallthrough]];
    case 2:
      h ^= uint32_t{tail[1]} << 8;
      [[fallthrough]];
    case 1:
      h ^= uint32_t{tail[0]};
      h *= m;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return static_cast<int32_t>(h);
}

// ---- Cassandra MurmurHash3 -------------------------------------------------------------

std::array<uint64_t, 2> cassandra_murmur3_x64_128(std::string_view bytes) noexcept {
  constexpr uint64_t c1 = 0x87c37b91114253d5ULL;
  constexpr uint64_t c2 = 0x4cf5ad432745937fULL;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t length = bytes.size();
  const std::size_t blocks = length / 16;
  uint64_t h1 = 0, h2 = 0;  // seed 0
  // Each 8-byte lane is mixed before it enters h1 (k1) or h2 (k2).
  auto mix_k1 = [](uint64_t k) { return rotl64(k * c1, 31) * c2; };
  auto mix_k2 = [](uint64_t k) { return rotl64(k * c2, 33) * c1; };
  for (std::size_t i = 0; i < blocks; ++i) {
    h1 ^= mix_k1(load_le64(data + 16 * i));
    h1 = rotl64(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;
    h2 ^= mix_k2(load_le64(data + 16 * i + 8));
    h2 = rotl64(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  // Cassandra reads each tail byte as a Java byte, (long) key.get(i): a value
  // of 0x80 or more is sign-extended, so its high bits xor into the lane too.
  const unsigned char* tail = data + 16 * blocks;
  auto lane_byte = [&](std::size_t i) {
    return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(tail[i])));
  };
  uint64_t k1 = 0, k2 = 0;
  const std::size_t rest = length & 15;
  for (std::size_t i = rest; i > 8; --i) k2 ^= lane_byte(i - 1) << (8 * (i - 9));
  if (rest > 8) h2 ^= mix_k2(k2);
  for (std::size_t i = std::min<std::size_t>(rest, 8); i > 0; --i)
    k1 ^= lane_byte(i - 1) << (8 * (i - 1));
  if (rest > 0) h1 ^= mix_k1(k1);
  h1 ^= length;
  h2 ^= length;
  h1 += h2;
  h2 += h1;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 += h2;
  h2 += h1;
  return {h1, h2};
}

int64_t cassandra_token(std::string_view key) noexcept {
  constexpr int64_t kMin = INT64_MIN, kMax = INT64_MAX;
  if (key.empty()) return kMin;
  const auto token = static_cast<int64_t>(cassandra_murmur3_x64_128(key)[0]);
  return token == kMin ? kMax : token;
}

}  // namespace chbench
