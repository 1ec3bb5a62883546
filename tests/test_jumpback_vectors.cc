// JumpBackHash, both generators (jumpback: SplitMix64, jumpback_xorshift:
// XorshiftL7R9): every jumpback row of the vector files made with hash4j
// (tests/vectors/hash4j_vectors.csv at 41d814f94c52, supsi/jumpback_*.csv
// from hash4j 0.17.0) through the reference, the model (jumpback_model.h) and
// every kernel of the scheme on every runnable Highway target; literal values
// at the edges; keys whose lookups draw often, at every lane of a vector; and
// the scheme's promises: only keys of the new bucket move when N grows by
// one, and the buckets are balanced.
#include <xxhash.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/hash.h"
#include "chbench/jumpback/jumpback.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "jumpback_model.h"
#include "support.h"
#include "targets.h"
#include "vectors.h"

using chbench::Fleet;
using chbench::KernelInfo;
using chbench::Scheme;
using chbench_test::first_mismatch;
using chbench_test::kSeed;
using chbench_test::model_jumpback;
using chbench_test::owners_of;

namespace {

constexpr uint32_t kMaxN = chbench::kJumpBackMaxBuckets;

bool is_xorshift(Scheme s) { return s == Scheme::kJumpBackXorshift; }

// Keys and the buckets a public implementation gave them, for one scheme and N.
struct Expected {
  std::vector<uint64_t> keys;
  std::vector<uint32_t> buckets;
};
using ExpectedByN = std::map<std::pair<Scheme, uint32_t>, Expected>;

// A vector file with the carriage returns of its CRLF line ends removed
// (tests/vectors.h keeps them in the last column's name and fields).
chbench_test::VectorFile read_file(const char* name) {
  auto file = chbench_test::read_vectors(name);
  const auto strip = [](std::string& s) {
    if (s.ends_with('\r')) s.pop_back();
  };
  for (auto& c : file.columns) strip(c);
  for (auto& row : file.rows)
    for (auto& field : row) strip(field);
  return file;
}

// The reference, and every kernel of the scheme on every runnable target (in
// one batch and in pieces of odd sizes), give `want`.
void check_everywhere(Scheme scheme, uint32_t n, const Expected& e) {
  INFO("scheme " << chbench::scheme_name(scheme) << ", N = " << n << ", " << e.keys.size()
                 << " keys");
  const Fleet fleet = Fleet::of_buckets(n);
  CHECK(first_mismatch<uint64_t>(
            e.keys, e.buckets, owners_of(*chbench::build_reference(scheme, fleet), e.keys)) == "");
  for (int64_t target : chbench_test::test_targets()) {
    const chbench::simd::ForcedTarget forced(target);
    for (const KernelInfo* kernel : chbench_test::test_kernels_of(scheme)) {
      INFO("kernel " << kernel->full_name() << " on " << chbench::simd::target_name(target));
      const auto table = kernel->build(fleet);
      CHECK(first_mismatch<uint64_t>(e.keys, e.buckets, owners_of(*table, e.keys)) == "");
      CHECK(first_mismatch<uint64_t>(e.keys, e.buckets,
                                     chbench_test::owners_in_pieces(*table, e.keys)) == "");
    }
  }
}

// Every row of `expected` agrees with the model, then check_everywhere.
void check_all(const ExpectedByN& expected) {
  for (const auto& [key, e] : expected) {
    const auto [scheme, n] = key;
    for (std::size_t i = 0; i < e.keys.size(); ++i) {
      INFO("h = " << e.keys[i] << ", N = " << n);
      REQUIRE(model_jumpback(e.keys[i], n, is_xorshift(scheme)) == e.buckets[i]);
    }
    check_everywhere(scheme, n, e);
  }
}

// The bucket count of each step of SUPSI's LIFO scenario (supsi/README.md).
uint32_t supsi_step_buckets(const std::string& step) {
  static const std::map<std::string, uint32_t> kSteps = {
      {"a_init", 10}, {"b1_remove9", 9}, {"b2_remove8", 8}, {"c_add8", 9}};
  const auto it = kSteps.find(step);
  if (it == kSteps.end()) throw std::runtime_error("unknown step " + step);
  return it->second;
}

// The bucket of h through the kernel `full_name` over N = n, on the target
// dispatched to.
uint32_t bucket_of(const std::string& full_name, uint64_t h, uint32_t n) {
  const auto table = chbench::find_kernel(full_name).build(Fleet::of_buckets(n));
  const uint64_t key[] = {h};
  return owners_of(*table, key)[0];
}

}  // namespace

TEST_CASE("jumpback: every row of hash4j's vectors", "[jumpback][vectors][targets]") {
  const auto file = read_file("hash4j_vectors.csv");
  const std::size_t algo = file.column("algo"), h = file.column("h"), n = file.column("n"),
                    bucket = file.column("bucket");
  const std::map<std::string, Scheme> kOurs = {
      {"jumpback_splitmix64", Scheme::kJumpBack},
      {"jumpback_xorshiftl7r9", Scheme::kJumpBackXorshift}};
  ExpectedByN expected;
  std::map<Scheme, std::size_t> rows;
  for (const auto& row : file.rows) {
    const auto it = kOurs.find(row[algo]);
    if (it == kOurs.end()) continue;  // jump_splitmix64: hash4j's Guava-style jump
    auto& e = expected[{it->second, static_cast<uint32_t>(chbench_test::vector_u64(row[n]))}];
    e.keys.push_back(chbench_test::vector_u64(row[h]));
    e.buckets.push_back(static_cast<uint32_t>(chbench_test::vector_u64(row[bucket])));
    ++rows[it->second];
  }
  // 404 keys times the 14 bucket counts of the README's grid, per generator.
  CHECK(rows[Scheme::kJumpBack] == 5656);
  CHECK(rows[Scheme::kJumpBackXorshift] == 5656);
  CHECK(expected.size() == 28);
  check_all(expected);
}

TEST_CASE("jumpback: every row of SUPSI's vectors (hash4j 0.17.0, SplitMix64)",
          "[jumpback][vectors][targets]") {
  ExpectedByN expected;
  std::size_t rows = 0;
  // Injected 64-bit hashes, then the engine's own pipeline: the unsigned
  // 32-bit XXH32 (seed 0) of the string key as the hash.
  for (const char* name : {"supsi/jumpback_hash_vectors.csv", "supsi/jumpback_vectors.csv"}) {
    const auto file = read_file(name);
    const std::size_t step = file.column("step"), key = file.column("key_hash_or_key"),
                      bucket = file.column("bucket");
    for (const auto& row : file.rows) {
      const std::string& k = row[key];
      const uint64_t h =
          k.starts_with("key-") ? XXH32(k.data(), k.size(), 0) : chbench_test::vector_u64(k);
      auto& e = expected[{Scheme::kJumpBack, supsi_step_buckets(row[step])}];
      e.keys.push_back(h);
      e.buckets.push_back(static_cast<uint32_t>(chbench_test::vector_u64(row[bucket])));
      ++rows;
    }
  }
  CHECK(rows == 6400);  // 4 steps times 800 keys, in each file
  check_all(expected);
}

TEST_CASE("jumpback: literal buckets at the edges, every kernel and target",
          "[jumpback][edges][targets]") {
  struct Literal {
    Scheme scheme;
    uint64_t h;
    uint32_t n, bucket;
  };
  // From hash4j_vectors.csv (hash4j 41d814f94c52) unless noted.
  constexpr uint64_t kTop = uint64_t{1} << 63, kAll = ~uint64_t{0};
  const Literal literals[] = {
      {Scheme::kJumpBack, 0, 1, 0},
      {Scheme::kJumpBack, kAll, 1, 0},
      {Scheme::kJumpBack, 0, 1000, 313},
      {Scheme::kJumpBack, 0, kMaxN, 454938031},
      {Scheme::kJumpBack, 1, kMaxN, 285879788},
      {Scheme::kJumpBack, kTop, kMaxN, 1209974946},
      {Scheme::kJumpBack, kAll, kMaxN, 1533357088},
      {Scheme::kJumpBack, kAll, 3, 2},
      {Scheme::kJumpBack, 1, 1'000'000, 667116},
      {Scheme::kJumpBackXorshift, 0, kMaxN, 0},     // h = 0 is the all-zero sequence
      {Scheme::kJumpBackXorshift, kAll, kMaxN, 0},  // x = lo ^ hi = 0
      {Scheme::kJumpBackXorshift, kTop, kMaxN, 0},  // x = 2^31, masked to 0
      {Scheme::kJumpBackXorshift, 1, kMaxN, 1},
      {Scheme::kJumpBackXorshift, 1, 2, 1},
      {Scheme::kJumpBackXorshift, 1, 1, 0},
      // hash4j's README (41d814f94c52), its usage example over splitMix64_V1.
      {Scheme::kJumpBack, 0x7f7487ee708c8a96, 2, 1},
      {Scheme::kJumpBack, 0x6265648fbc797f25, 2, 0},
      {Scheme::kJumpBack, 0x85ef23a0b545d53b, 2, 0},
      {Scheme::kJumpBack, 0x7f7487ee708c8a96, 3, 1},
      {Scheme::kJumpBack, 0x6265648fbc797f25, 3, 0},
      {Scheme::kJumpBack, 0x85ef23a0b545d53b, 3, 2},
  };
  for (const Literal& l : literals) {
    INFO("scheme " << chbench::scheme_name(l.scheme) << ", h = " << l.h << ", N = " << l.n);
    CHECK(model_jumpback(l.h, l.n, is_xorshift(l.scheme)) == l.bucket);
    for (int64_t target : chbench_test::test_targets()) {
      const chbench::simd::ForcedTarget forced(target);
      for (const KernelInfo* kernel : chbench_test::test_kernels_of(l.scheme)) {
        INFO("kernel " << kernel->full_name() << " on " << chbench::simd::target_name(target));
        CHECK(bucket_of(kernel->full_name(), l.h, l.n) == l.bucket);
      }
    }
    CHECK(owners_of(*chbench::build_reference(l.scheme, Fleet::of_buckets(l.n)),
                    std::vector<uint64_t>{l.h})[0] == l.bucket);
  }
  for (const char* name : {"jumpback/simd", "jumpback_xorshift/simd"}) {
    CHECK_THROWS_AS(chbench::find_kernel(name).build(Fleet::of_buckets(kMaxN + 1)),
                    std::invalid_argument);
  }
  std::vector<uint64_t> keys(3);
  std::vector<uint32_t> out(2);
  CHECK_THROWS_AS(chbench::simd::jumpback_owners(keys, 3, out), std::invalid_argument);
  CHECK_THROWS_AS(chbench::simd::jumpback_xorshift_owners({}, 0, {}), std::invalid_argument);
  CHECK_THROWS_AS(chbench::simd::jumpback_owners({}, kMaxN + 1, {}), std::invalid_argument);
}

TEST_CASE("jumpback: keys that draw often, at every lane, around powers of two",
          "[jumpback][draws][targets]") {
  // Just above a power of two about half the keys draw again, and a few draw
  // many times; each such key is placed at every offset of a batch of easy
  // keys (no draw), so every lane of every target meets the masked loop
  // alone, with others, and in a padded tail.
  std::mt19937_64 rng(kSeed + 140);
  std::vector<uint32_t> counts = {
      2,        3,         5,    9, 17, 33, 1025, (1u << 20) + 1, (1u << 30) + 1, (1u << 30) - 1,
      1u << 30, kMaxN - 1, kMaxN};
  for (int i = 0; i < 4; ++i) counts.push_back(chbench_test::uniform<uint32_t>(rng, 2, kMaxN));
  for (const Scheme scheme : {Scheme::kJumpBack, Scheme::kJumpBackXorshift}) {
    for (uint32_t n : counts) {
      std::vector<uint64_t> easy, hard;  // hard: sorted by draws, most first
      std::vector<std::pair<int, uint64_t>> drawing;
      for (int tries = 0; tries < 200'000 && drawing.size() < 400; ++tries) {
        const uint64_t h = rng();
        int values = 0;
        model_jumpback(h, n, is_xorshift(scheme), &values);
        if (values == 1 && easy.size() < 40) easy.push_back(h);
        if (values > 1) drawing.emplace_back(values, h);  // none for N = 2^k
      }
      REQUIRE(easy.size() == 40);
      std::sort(drawing.rbegin(), drawing.rend());
      for (std::size_t i = 0; i < std::min<std::size_t>(drawing.size(), 6); ++i)
        hard.push_back(drawing[i].second);
      Expected e;
      for (uint64_t key : hard) {
        for (std::size_t at = 0; at <= easy.size(); ++at) {
          e.keys.insert(e.keys.end(), easy.begin(), easy.begin() + at);
          e.keys.push_back(key);
          e.keys.insert(e.keys.end(), easy.begin() + at, easy.end());
        }
      }
      for (const auto& [values, key] : drawing) e.keys.push_back(key);  // many at once
      chbench_test::append_random(e.keys, 300, rng);
      for (uint64_t key : e.keys) e.buckets.push_back(model_jumpback(key, n, is_xorshift(scheme)));
      INFO("most values a key read: " << (drawing.empty() ? 1 : drawing.front().first));
      check_everywhere(scheme, n, e);
    }
  }
}

TEST_CASE("jumpback: from N to N + 1 only keys of the new bucket move; buckets are balanced",
          "[jumpback][properties]") {
  std::mt19937_64 rng(kSeed + 141);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 20'000, rng);
  std::vector<uint32_t> counts;
  for (uint32_t n = 1; n <= 70; ++n) counts.push_back(n);
  for (int k = 7; k <= 30; k += 3)
    for (uint32_t n : {(1u << k) - 2, (1u << k) - 1, 1u << k, (1u << k) + 1}) counts.push_back(n);
  counts.push_back(kMaxN - 1);
  for (const Scheme scheme : {Scheme::kJumpBack, Scheme::kJumpBackXorshift}) {
    for (const KernelInfo* kernel : chbench_test::test_kernels_of(scheme)) {
      INFO("kernel " << kernel->full_name());
      for (uint32_t n : counts) {
        INFO("N = " << n << " -> " << n + 1);
        const auto before = owners_of(*kernel->build(Fleet::of_buckets(n)), keys);
        const auto after = owners_of(*kernel->build(Fleet::of_buckets(n + 1)), keys);
        std::size_t moved = 0, wrong = 0;
        for (std::size_t i = 0; i < keys.size(); ++i) {
          if (before[i] == after[i]) continue;
          ++moved;
          wrong += after[i] != n;
        }
        CHECK(wrong == 0);
        // About keys / (n + 1) move: a loose bound, 6 standard deviations.
        const double expect = static_cast<double>(keys.size()) / (n + 1);
        CHECK(static_cast<double>(moved) <= expect + 6 * std::sqrt(expect) + 1);
      }
      // 10^5 default keys over 10 buckets: each within 5% of 10^4 (5 sigma).
      const auto hashes = chbench::default_key_hashes(100'000);
      std::vector<uint32_t> per_bucket(10);
      for (uint32_t b : owners_of(*kernel->build(Fleet::of_buckets(10)), hashes)) ++per_bucket[b];
      for (uint32_t c : per_bucket) CHECK((c >= 9500 && c <= 10500));
    }
  }
}
