// Tests of --key-format text, hex and base64 (keys.h, key_codec.h): the exact
// line rules, and the owners of the empty key and of keys holding NUL bytes
// under the Kafka, Cassandra and Redis profiles, each expected value computed
// here from the system's published algorithm (a small plain implementation in
// this file), never by the code under test.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "chbench/hash.h"
#include "key_codec.h"
#include "keys.h"
#include "placement.h"

using namespace chbench;
using namespace chbench::lab;

namespace {

using namespace std::string_literals;

KeySet read(const std::string& text, KeyFormat format) {
  std::istringstream in(text);
  return KeySet::from_stream(in, "keys.txt", format);
}

std::string refusal(const std::string& text, KeyFormat format) {
  try {
    read(text, format);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

// Kafka's Utils.murmur2 (clients/src/main/java/org/apache/kafka/common/utils/
// Utils.java): MurmurHash2, seed 0x9747b28c, little-endian 4-byte blocks.
int32_t kafka_murmur2(const std::string& data) {
  const uint32_t m = 0x5bd1e995;
  const int r = 24;
  const auto length = static_cast<uint32_t>(data.size());
  uint32_t h = 0x9747b28cu ^ length;
  const auto byte = [&](std::size_t i) { return uint32_t{static_cast<unsigned char>(data[i])}; };
  const uint32_t blocks = length / 4;
  for (uint32_t i = 0; i < blocks; ++i) {
    uint32_t k = byte(4 * i) | byte(4 * i + 1) << 8 | byte(4 * i + 2) << 16 | byte(4 * i + 3) << 24;
    k *= m;
    k ^= k >> r;
    k *= m;
    h *= m;
    h ^= k;
  }
  const std::size_t tail = 4 * blocks;
  switch (length % 4) {
    case 3:
      h ^= byte(tail + 2) << 16;
      [[fallthrough]];
    case 2:
      h ^= byte(tail + 1) << 8;
      [[fallthrough]];
    case 1:
      h ^= byte(tail);
      h *= m;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return static_cast<int32_t>(h);
}

// Redis Cluster's key slot (cluster spec, "Keys distribution model"):
// CRC16-XMODEM (poly 0x1021, init 0, bitwise) of the key, or of the part
// between the first '{' and the next '}' when that part is not empty, mod 16384.
uint32_t redis_slot(const std::string& key) {
  std::string part = key;
  const auto open = key.find('{');
  if (open != std::string::npos) {
    const auto close = key.find('}', open + 1);
    if (close != std::string::npos && close != open + 1)
      part = key.substr(open + 1, close - open - 1);
  }
  uint16_t crc = 0;
  for (unsigned char c : part) {
    crc ^= static_cast<uint16_t>(c << 8);
    for (int bit = 0; bit < 8; ++bit)
      crc = static_cast<uint16_t>(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
  }
  return crc & 16383u;
}

// Cassandra's MurmurHash.hash3_x64_128 (src/java/org/apache/cassandra/utils/
// MurmurHash.java), seed 0: MurmurHash3 x64 128 whose tail bytes are Java
// bytes, sign-extended to long. The token is the first half as a signed long;
// the empty key has Murmur3Partitioner's minimum token, Long.MIN_VALUE.
uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
uint64_t fmix(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  return k ^ (k >> 33);
}
int64_t cassandra_token_of(const std::string& key) {
  if (key.empty()) return INT64_MIN;
  const uint64_t c1 = 0x87c37b91114253d5ull, c2 = 0x4cf5ad432745937full;
  uint64_t h1 = 0, h2 = 0;
  const auto u = [&](std::size_t i) { return uint64_t{static_cast<unsigned char>(key[i])}; };
  const auto s = [&](std::size_t i) {
    return static_cast<uint64_t>(int64_t{static_cast<signed char>(key[i])});
  };
  const std::size_t blocks = key.size() / 16;
  for (std::size_t b = 0; b < blocks; ++b) {
    uint64_t k1 = 0, k2 = 0;
    for (int i = 7; i >= 0; --i) k1 = k1 << 8 | u(16 * b + i);
    for (int i = 7; i >= 0; --i) k2 = k2 << 8 | u(16 * b + 8 + i);
    h1 ^= rotl(k1 * c1, 31) * c2;
    h1 = (rotl(h1, 27) + h2) * 5 + 0x52dce729;
    h2 ^= rotl(k2 * c2, 33) * c1;
    h2 = (rotl(h2, 31) + h1) * 5 + 0x38495ab5;
  }
  const std::size_t tail = 16 * blocks, rest = key.size() % 16;
  uint64_t k1 = 0, k2 = 0;
  for (std::size_t i = rest; i > 8; --i) k2 ^= s(tail + i - 1) << (8 * (i - 9));
  if (rest > 8) h2 ^= rotl(k2 * c2, 33) * c1;
  for (std::size_t i = std::min<std::size_t>(rest, 8); i > 0; --i)
    k1 ^= s(tail + i - 1) << (8 * (i - 1));
  if (rest > 0) h1 ^= rotl(k1 * c1, 31) * c2;
  h1 ^= key.size();
  h2 ^= key.size();
  h1 += h2;
  h2 += h1;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 += h2;
  const auto token = static_cast<int64_t>(h1);
  return token == INT64_MIN ? INT64_MAX : token;
}

// The keys every profile case poses, as a hex file: the empty key, NUL, two
// NULs, "a\0b", NUL then 16 more bytes (a full Murmur3 block and a tail),
// bytes above 0x7F in a tail, a hash tag around a NUL, and "123456789".
const std::string kHexKeys =
    "\n00\n0000\n610062\n00" + std::string(32, '7') + "\n80ff\n7b007d78\n313233343536373839\n";
const std::vector<std::string> kKeys = {
    "", "\0"s, "\0\0"s, "a\0b"s, "\0"s + std::string(16, 'w'), "\x80\xff", "{\0}x"s, "123456789"};

std::vector<uint32_t> owners_of(Profile profile, const NodeSet& nodes, const KeySet& keys) {
  const Placement placement{profile_scheme(profile), profile, {}};
  std::vector<uint32_t> got(keys.size());
  lookup_owners(*make_table(placement, Fleet(nodes)), keys, 0, got, profile);
  return got;
}

}  // namespace

TEST_CASE("hex and base64 key lines: any bytes, NUL included; an empty line is the empty key") {
  const KeySet hex = read(kHexKeys, KeyFormat::kHex);
  REQUIRE(hex.size() == kKeys.size());
  for (std::size_t i = 0; i < kKeys.size(); ++i) CHECK(hex.key(i) == kKeys[i]);
  // Either case, spaces and tabs around, CRLF, a byte-order mark at the start.
  const KeySet mixed = read("\xEF\xBB\xBF 6A6b \r\n\t\r\nFF00", KeyFormat::kHex);
  CHECK(mixed.size() == 3);
  CHECK(mixed.key(0) == "jk");
  CHECK(mixed.key(1).empty());
  CHECK(mixed.key(2) == "\xff\0"s);
  // RFC 4648 base64 with and without padding ("" "f" "fo" "foo" "foob", its
  // section 10 vectors), and NUL bytes.
  const KeySet b64 = read("\nZg==\nZm8\nZm9v\r\nZm9vYg==\nAAA=\nAGEAYg\n", KeyFormat::kBase64);
  const std::vector<std::string> want = {"", "f", "fo", "foo", "foob", "\0\0"s, "\0a\0b"s};
  REQUIRE(b64.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(b64.key(i) == want[i]);
  // The empty key hashes as the empty string (docs/spec.md §2's XXH3 of no bytes).
  std::vector<uint64_t> h(1);
  b64.hashes(0, h);
  CHECK(h[0] == key_hash(""));
}

TEST_CASE("hex and base64: a line that does not decode is refused with its number") {
  CHECK(refusal("61\n616\n", KeyFormat::kHex) ==
        "keys.txt line 2 holds '616', not hex (an even number of hex digits, two a byte)");
  CHECK(refusal("6g", KeyFormat::kHex) ==
        "keys.txt line 1 holds '6g', not hex (an even number of hex digits, two a byte)");
  CHECK(refusal("61 62", KeyFormat::kHex) ==
        "keys.txt line 1 holds '61 62', not hex (an even number of hex digits, two a byte)");
  const std::string not_b64 = ", not base64 (RFC 4648: A-Z a-z 0-9 + /, '=' padding optional)";
  CHECK(refusal("Zg==\nZ\n", KeyFormat::kBase64) == "keys.txt line 2 holds 'Z'" + not_b64);
  CHECK(refusal("Zg=", KeyFormat::kBase64) == "keys.txt line 1 holds 'Zg='" + not_b64);
  CHECK(refusal("Zg==Zg==", KeyFormat::kBase64) == "keys.txt line 1 holds 'Zg==Zg=='" + not_b64);
  CHECK(refusal("Z-8_", KeyFormat::kBase64) == "keys.txt line 1 holds 'Z-8_'" + not_b64);
  // A NUL byte in the file itself is still a binary file, in every format.
  CHECK_THAT(refusal("00\n\0"s, KeyFormat::kHex), Catch::Contains("line 2 holds a NUL byte"));
  CHECK_THAT(refusal("", KeyFormat::kHex), Catch::Contains("contains no keys"));
}

TEST_CASE("text key lines: LF or CRLF, a leading byte-order mark dropped, blank lines skipped") {
  const KeySet keys = read("\xEF\xBB\xBFone\r\n\ntwo\r\r\n \n\xEF\xBB\xBFthree", KeyFormat::kText);
  const std::vector<std::string> want = {"one", "two\r", " ", "\xEF\xBB\xBFthree"};
  REQUIRE(keys.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(keys.key(i) == want[i]);
  CHECK(parse_key_format("hex") == KeyFormat::kHex);
  CHECK(parse_key_format("base64") == KeyFormat::kBase64);
  CHECK_THROWS_WITH(parse_keys("10", KeyFormat::kHex),
                    Catch::Contains("--key-format hex reads key lines from a file"));
}

TEST_CASE("the reference algorithms of this file reproduce their published vectors") {
  // Kafka's UtilsTest.testMurmur2 cases.
  CHECK(kafka_murmur2("21") == -973932308);
  CHECK(kafka_murmur2("foobar") == -790332482);
  CHECK(kafka_murmur2("a-little-bit-long-string") == -985981536);
  CHECK(kafka_murmur2("a-little-bit-longer-string") == -1486304829);
  CHECK(kafka_murmur2("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8") == -58897971);
  CHECK(kafka_murmur2("abc") == 479470107);
  // The Redis Cluster spec's CRC16 check value: "123456789" -> 0x31C3.
  CHECK(redis_slot("123456789") == (0x31C3u & 16383u));
}

TEST_CASE("kafka: the empty key and NUL keys land on toPositive(murmur2(key)) mod partitions") {
  const KeySet keys = read(kHexKeys, KeyFormat::kHex);
  for (uint32_t partitions : {1u, 3u, 7u, 12u}) {
    const std::vector<uint32_t> got = owners_of(Profile::kKafka, default_nodes(partitions), keys);
    std::vector<uint64_t> hashes(keys.size());
    keys.hashes(0, hashes, Profile::kKafka);
    for (std::size_t i = 0; i < kKeys.size(); ++i) {
      INFO("key " << i << ", " << partitions << " partitions");
      const uint32_t positive = static_cast<uint32_t>(kafka_murmur2(kKeys[i])) & 0x7fffffffu;
      CHECK(hashes[i] == positive);
      CHECK(got[i] == positive % partitions);
    }
  }
}

TEST_CASE("redis: the empty key and NUL keys land on their CRC16 slot's master") {
  const KeySet keys = read(kHexKeys, KeyFormat::kHex);
  const std::vector<uint32_t> got = owners_of(Profile::kRedis, default_nodes(3), keys);
  std::vector<uint64_t> slots(keys.size());
  keys.hashes(0, slots, Profile::kRedis);
  for (std::size_t i = 0; i < kKeys.size(); ++i) {
    INFO("key " << i);
    const uint32_t slot = redis_slot(kKeys[i]);
    CHECK(slots[i] == slot);
    // redis-cli --cluster create over 3 masters: 0-5460, 5461-10922, 10923-16383.
    CHECK(got[i] == (slot <= 5460 ? 0u : slot <= 10922 ? 1u : 2u));
  }
  CHECK(slots[0] == 0);  // CRC16 of no bytes
  CHECK(slots[1] == 0);  // CRC16 of one zero byte
  CHECK(slots[6] == 0);  // the hash tag {\0}: the slot of "\0"
}

TEST_CASE("cassandra: the empty key and NUL keys get their Murmur3 token's owner") {
  const KeySet keys = read(kHexKeys, KeyFormat::kHex);
  NodeSet nodes = default_nodes(4, 8);
  const std::vector<uint32_t> got = owners_of(Profile::kCassandra, nodes, keys);
  std::vector<uint64_t> hashes(keys.size());
  keys.hashes(0, hashes, Profile::kCassandra);
  // The ring: token i of node n is XXH3("<name>#<i>") as a signed long; a key
  // belongs to the node of the first token >= its token, wrapping around.
  std::vector<std::pair<int64_t, uint32_t>> ring;
  for (uint32_t n = 0; n < nodes.size(); ++n)
    for (uint32_t i = 0; i < nodes.vnodes; ++i) {
      auto t = static_cast<int64_t>(key_hash(nodes.names[n] + "#" + std::to_string(i)));
      ring.emplace_back(t == INT64_MIN ? INT64_MAX : t, n);
    }
  std::sort(ring.begin(), ring.end());
  for (std::size_t i = 0; i < kKeys.size(); ++i) {
    INFO("key " << i);
    const int64_t token = cassandra_token_of(kKeys[i]);
    CHECK(static_cast<int64_t>(hashes[i] ^ (uint64_t{1} << 63)) == token);
    const auto it = std::lower_bound(ring.begin(), ring.end(), std::make_pair(token, uint32_t{0}));
    CHECK(got[i] == (it == ring.end() ? ring.front().second : it->second));
  }
}

TEST_CASE("output escapes: hex of any bytes, UTF-8 validity, text escapes") {
  CHECK(hex_bytes("") == "");
  CHECK(hex_bytes("\0\x80\xff a"s) == "0080ff2061");
  CHECK(is_utf8("plain"));
  CHECK(is_utf8("\0"s));
  CHECK(is_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
  CHECK_FALSE(is_utf8("\x80"));
  CHECK_FALSE(is_utf8("\xC0\xAF"));          // overlong '/'
  CHECK_FALSE(is_utf8("\xED\xA0\x80"));      // a surrogate
  CHECK_FALSE(is_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  CHECK_FALSE(is_utf8("\xE2\x82"));          // cut short
  std::string out;
  append_text_escaped(out, "a\tb\nc\rd\\e\0f\x7f\x80"s);
  CHECK(out == "a\\tb\\nc\\rd\\\\e\\x00f\\x7F\x80");
}
