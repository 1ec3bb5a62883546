// Key hashing, fmix64 and jump hash against values fixed outside the library:
// xxHash's published test vectors, docs/spec.md §7's finalizer written step by step, and
// jump-hash vectors shared by several independent implementations.
#include <xxhash.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "chbench/hash.h"
#include "chbench/jump/jump.h"
#include "support.h"

using chbench_test::kSeed;
using chbench_test::model_fmix64;
using chbench_test::xxh3;

TEST_CASE("key_hash is XXH3_64bits with seed 0", "[hash]") {
  // Published XXH3-64 vectors (xxHash's own sanity tests, seed 0).
  CHECK(chbench::key_hash("") == 0x2D06800538D394C2ULL);
  CHECK(chbench::key_hash("a") == 0xE6C632B61E964E1FULL);
  CHECK(chbench::key_hash("abc") == 0x78AF5F94892F3950ULL);

  CHECK(chbench::key_hash("user:1") == XXH3_64bits("user:1", 6));
  CHECK(chbench::key_hash("node-0#0") == XXH3_64bits("node-0#0", 8));

  // Every XXH3 length class (0-16, 17-128, 129-240, > 240 bytes), bytes that are
  // not text, and an embedded NUL, which the string_view must carry.
  std::mt19937_64 rng(kSeed);
  for (std::size_t len : {0, 1, 3, 4, 8, 9, 16, 17, 128, 129, 240, 241, 1000, 5000}) {
    std::string bytes(len, '\0');
    for (auto& c : bytes) c = static_cast<char>(rng());
    INFO("length " << len);
    CHECK(chbench::key_hash(bytes) == XXH3_64bits(bytes.data(), bytes.size()));
  }
  const std::string with_nul("ab\0cd", 5);
  CHECK(chbench::key_hash(with_nul) == XXH3_64bits(with_nul.data(), 5));
  CHECK(chbench::key_hash(with_nul) != chbench::key_hash("ab"));
}

TEST_CASE("default keys and node names follow docs/spec.md", "[hash]") {
  CHECK(chbench::default_key(1) == "user:1");
  CHECK(chbench::default_key(10) == "user:10");
  CHECK(chbench::default_key(18446744073709551615ULL) == "user:18446744073709551615");
  CHECK(chbench::default_node_name(0) == "node-0");
  CHECK(chbench::default_node_name(123) == "node-123");

  CHECK(chbench::default_key_hashes(0).empty());
  const auto one = chbench::default_key_hashes(1);
  REQUIRE(one.size() == 1);
  CHECK(one[0] == XXH3_64bits("user:1", 6));

  // Ranges that cross digit-count boundaries (9 -> 10, 99 -> 100, ...), with the
  // expected hash built from the decimal text directly.
  for (uint64_t first : {1ULL, 7ULL, 95ULL, 995ULL, 999'990ULL, 18446744073709551610ULL}) {
    const uint64_t count = first > 1'000'000 ? 5 : 1200;
    const auto hashes = chbench::default_key_hashes(count, first);
    REQUIRE(hashes.size() == count);
    std::size_t wrong = 0;
    uint64_t first_wrong = 0;
    for (uint64_t i = 0; i < count; ++i) {
      if (hashes[i] != xxh3("user:" + std::to_string(first + i)) && wrong++ == 0)
        first_wrong = first + i;
    }
    INFO("first key " << first << ", first wrong key user:" << first_wrong);
    CHECK(wrong == 0);
  }
}

TEST_CASE("fmix64 is the MurmurHash3 finalizer", "[hash]") {
  static_assert(chbench::fmix64(0) == 0);
  // Hand-computed: 1 -> 1 ^ 0 = 1, * c1 = c1, c1 ^ (c1 >> 33), ...
  const uint64_t c1 = 0xff51afd7ed558ccdULL;
  const uint64_t c2 = 0xc4ceb9fe1a85ec53ULL;
  uint64_t k = c1 ^ (c1 >> 33);
  k *= c2;
  k ^= k >> 33;
  CHECK(chbench::fmix64(1) == k);

  std::mt19937_64 rng(kSeed);
  for (int i = 0; i < 100'000; ++i) {
    const uint64_t x = rng();
    INFO("x = " << x);
    REQUIRE(chbench::fmix64(x) == model_fmix64(x));
  }
  for (uint64_t x : {1ULL, 2ULL, 0x8000000000000000ULL, ~0ULL, 0x00000001'00000000ULL})
    CHECK(chbench::fmix64(x) == model_fmix64(x));

  // A bijection: undo each step (x ^= x >> 33 is its own inverse since 33 >= 32,
  // and an odd multiplier has an inverse mod 2^64).
  auto inverse = [](uint64_t a) {
    uint64_t x = a;  // Newton: x = x * (2 - a x) doubles the correct bits.
    for (int i = 0; i < 6; ++i) x *= 2 - a * x;
    return x;
  };
  REQUIRE(c1 * inverse(c1) == 1);
  REQUIRE(c2 * inverse(c2) == 1);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t x = rng();
    uint64_t y = chbench::fmix64(x);
    y ^= y >> 33;
    y *= inverse(c2);
    y ^= y >> 33;
    y *= inverse(c1);
    y ^= y >> 33;
    REQUIRE(y == x);
  }
}

TEST_CASE("jump_hash reproduces published values", "[hash][jump]") {
  // Vectors shared by independent implementations of Lamping & Veach (Go
  // dgryski/go-jump, the Python `jump` package, Elixir jumper, the Rust
  // jump_consistent_hash docs).
  struct Vector {
    uint64_t key;
    uint32_t buckets;
    uint32_t bucket;
  };
  const Vector vectors[] = {
      {1, 1, 0},
      {42, 57, 43},
      {0xDEAD10CC, 1, 0},
      {0xDEAD10CC, 666, 361},
      {256, 1024, 520},
      {0, 1, 0},
      {3, 1, 0},
      {0, 2, 0},
      {4, 2, 1},
      {7, 2, 0},
      {1, 128, 55},
      {129, 128, 120},
      {128, 100'000'000, 38'172'097},
      {18446744073709551615ULL, 128, 92},
      {18446744073709551615ULL - 41, 57, 8},  // -42 as uint64_t
      {1, 60, 55},
      {2, 60, 46},
      {0, 60, 0},
  };
  for (const auto& v : vectors) {
    INFO("key " << v.key << ", " << v.buckets << " buckets");
    CHECK(chbench::jump_hash(v.key, v.buckets) == v.bucket);
    CHECK(chbench_test::model_jump(v.key, static_cast<int32_t>(v.buckets)) ==
          static_cast<int32_t>(v.bucket));
  }
}

TEST_CASE("jump_hash has the paper's properties", "[hash][jump]") {
  std::mt19937_64 rng(kSeed);
  std::vector<uint64_t> keys(20'000);
  for (auto& k : keys) k = rng();
  keys[0] = 0;
  keys[1] = std::numeric_limits<uint64_t>::max();

  for (uint64_t k : keys) REQUIRE(chbench::jump_hash(k, 1) == 0);

  for (uint32_t n : {2u, 3u, 10u, 1000u, 65'537u, 1'000'000'007u, chbench::kJumpMaxBuckets}) {
    for (uint64_t k : keys) {
      const uint32_t b = chbench::jump_hash(k, n);
      INFO("key " << k << ", " << n << " buckets -> " << b);
      REQUIRE(b < n);
    }
  }

  // Growing n -> n + 1 buckets, a key stays or moves to the new bucket n.
  for (std::size_t i = 0; i < 2000; ++i) {
    uint32_t before = 0;
    for (uint32_t n = 1; n < 600; ++n) {
      const uint32_t after = chbench::jump_hash(keys[i], n + 1);
      INFO("key " << keys[i] << ": " << n << " -> " << n + 1 << " buckets");
      REQUIRE((after == before || after == n));
      before = after;
    }
  }

  // Balance and minimal movement: 10 buckets hold ~10% each, and going to 11
  // moves ~1/11 of the keys, all to bucket 10. Bounds are > 6 sigma wide.
  std::vector<uint64_t> many(200'000);
  for (auto& k : many) k = rng();
  std::vector<std::size_t> load(10);
  std::size_t moved = 0;
  for (uint64_t k : many) {
    const uint32_t b10 = chbench::jump_hash(k, 10);
    ++load[b10];
    if (chbench::jump_hash(k, 11) != b10) ++moved;
  }
  for (std::size_t b = 0; b < 10; ++b) {
    INFO("bucket " << b);
    CHECK(load[b] > 20'000 - 900);
    CHECK(load[b] < 20'000 + 900);
  }
  CHECK(moved > 200'000 / 11 - 800);
  CHECK(moved < 200'000 / 11 + 800);
}
