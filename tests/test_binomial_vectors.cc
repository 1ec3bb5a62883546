// BinomialHash (docs/schemes/binomial.md) against SUPSI's Java BinomialEngine
// at 68803f8: every row of tests/vectors/supsi/binomial_hash_vectors.csv
// (injected 64-bit key hashes) and binomial_vectors.csv (String keys, whose
// framework hash xx32_keys.csv gives), through the reference, the tests' model
// and every kernel of the scheme on every Highway target; fixed values from
// the Java code's arithmetic (each path of its redraw loop, N = 1 to 2^31 - 1,
// h = 0 and 2^64 - 1); the filters the engine keeps after removals;
// monotonicity and balance.
#include <hwy/targets.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "chbench/binomial/binomial.h"
#include "chbench/fleet.h"
#include "chbench/hash.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"
#include "vectors.h"

using chbench::Fleet;
using chbench::KernelInfo;
using chbench::Scheme;
using chbench_test::first_mismatch;
using chbench_test::kSeed;
using chbench_test::TargetGuard;
using chbench_test::targets_to_test;

namespace {

constexpr uint32_t kMaxN = chbench::kBinomialMaxBuckets;

// One step of a vector file: its bucket count and rows.
struct Step {
  std::string name;
  uint32_t n = 0;
  std::vector<uint64_t> keys;
  std::vector<uint32_t> want;
};

// The bucket count of each step of the scenario (docs/schemes/binomial.md): 10 buckets,
// removeBucket(9), removeBucket(8), then addBucket().
uint32_t step_buckets(const std::string& step) {
  static const std::map<std::string, uint32_t> buckets = {
      {"a_init", 10}, {"b1_remove9", 9}, {"b2_remove8", 8}, {"c_add8", 9}};
  const auto it = buckets.find(step);
  if (it == buckets.end()) throw std::runtime_error("unknown step " + step);
  return it->second;
}

// tests/vectors/<relative> without the '\r' of its CRLF line ends, which
// read_vectors() leaves at the end of the last column's name and fields.
chbench_test::VectorFile read_crlf_vectors(const std::string& relative) {
  auto file = chbench_test::read_vectors(relative);
  const auto trim = [](std::string& field) {
    if (!field.empty() && field.back() == '\r') field.pop_back();
  };
  trim(file.columns.back());
  for (auto& row : file.rows) trim(row.back());
  return file;
}

// The framework's hash(key) of every key of xx32_keys.csv.
std::map<std::string, uint64_t> xx32_of_keys() {
  const auto file = read_crlf_vectors("supsi/xx32_keys.csv");
  const std::size_t key = file.column("key"), hash = file.column("xx32_hash_key");
  std::map<std::string, uint64_t> out;
  for (const auto& row : file.rows) out[row[key]] = chbench_test::vector_u64(row[hash]);
  return out;
}

// The rows of supsi/<name>, grouped by step in file order; key_hash turns a
// row's key_hash_or_key field into the key hash h.
template <class KeyHash>
std::vector<Step> read_steps(const std::string& name, const KeyHash& key_hash) {
  const auto file = read_crlf_vectors("supsi/" + name);
  const std::size_t step = file.column("step"), key = file.column("key_hash_or_key"),
                    bucket = file.column("bucket");
  std::vector<Step> steps;
  for (const auto& row : file.rows) {
    if (steps.empty() || steps.back().name != row[step])
      steps.push_back({row[step], step_buckets(row[step]), {}, {}});
    steps.back().keys.push_back(key_hash(row[key]));
    steps.back().want.push_back(static_cast<uint32_t>(chbench_test::vector_u64(row[bucket])));
  }
  return steps;
}

// Both vector files, every step: the injected hashes, then the String keys.
std::vector<Step> all_steps() {
  auto steps = read_steps("binomial_hash_vectors.csv", chbench_test::vector_u64);
  const auto xx32 = xx32_of_keys();
  for (auto& s : read_steps("binomial_vectors.csv", [&](const std::string& k) {
         const auto it = xx32.find(k);
         if (it == xx32.end()) throw std::runtime_error("xx32_keys.csv has no key " + k);
         return it->second;
       })) {
    s.name = "keys " + s.name;
    steps.push_back(std::move(s));
  }
  return steps;
}

// The owners of keys under the reference over n buckets.
std::vector<uint32_t> reference_owners(uint32_t n, std::span<const uint64_t> keys) {
  return chbench_test::owners_of(*chbench::build_reference(Scheme::kBinomial, Fleet::of_buckets(n)),
                                 keys);
}

// The reference, the model and binomial_bucket() give `want` for `keys`.
void check_definitions(uint32_t n, std::span<const uint64_t> keys, std::span<const uint32_t> want) {
  INFO("N = " << n);
  CHECK(first_mismatch<uint64_t>(keys, want, reference_owners(n, keys)) == "");
  std::vector<uint32_t> model(keys.size()), inline_bucket(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    model[i] = chbench_test::model_binomial(keys[i], n);
    inline_bucket[i] = chbench::binomial_bucket(keys[i], n, chbench::binomial_filters(n));
  }
  CHECK(first_mismatch<uint64_t>(keys, want, model) == "");
  CHECK(first_mismatch<uint64_t>(keys, want, inline_bucket) == "");
}

// Every kernel of the scheme, and simd::binomial_owners, on the dispatched
// target give `want` for `keys` (one batch with a guard slot, then pieces),
// on both paths of the 64-bit lane multiplies (simd::Mul64Path).
void check_kernels(uint32_t n, std::span<const uint64_t> keys, std::span<const uint32_t> want) {
  using chbench::simd::Mul64Path;
  const Fleet fleet = Fleet::of_buckets(n);
  for (const Mul64Path path : {Mul64Path::kNative, Mul64Path::kSplit}) {
    const chbench::simd::ForcedMul64Path forced(path);
    INFO("N = " << n << ", target " << chbench::simd::dispatched_target_name()
                << ", 64-bit multiplies " << chbench::simd::mul64_path_name(path));
    for (const KernelInfo* kernel : chbench_test::test_kernels_of(Scheme::kBinomial)) {
      INFO("kernel " << kernel->full_name());
      chbench_test::check_table(*kernel->build(fleet), keys, want);
    }
    std::vector<uint32_t> out(keys.size());
    chbench::simd::binomial_owners(keys, n, out);
    CHECK(first_mismatch<uint64_t>(keys, want, out) == "");
  }
}

// Values computed from the Java code's arithmetic (BinomialEngine at 68803f8
// transcribed into Python's integers, independent of this C++): for each
// (N, h), the bucket. The keys of N = 5, 1025 and 2^30 + 1 take each path of
// the redraw loop in turn: the first draw, a redraw taken on draw 1 ... 4, a
// draw into the minor tree on draw 1 ... 4, all four draws above N.
struct Fixed {
  uint32_t n;
  uint64_t h;
  uint32_t bucket;
};
constexpr uint64_t kMax64 = std::numeric_limits<uint64_t>::max();
constexpr Fixed kFixed[] = {
    // h = 0, 1, 2^64 - 1, 2^63, 2^32 - 1, 0x0123456789abcdef at N = 1 ... 2^31 - 1.
    {1, 0, 0},
    {1, 1, 0},
    {1, kMax64, 0},
    {1, 1ULL << 63, 0},
    {1, 0xffffffff, 0},
    {1, 0x0123456789abcdef, 0},
    {2, 0, 0},
    {2, 1, 1},
    {2, kMax64, 1},
    {2, 1ULL << 63, 0},
    {2, 0xffffffff, 1},
    {2, 0x0123456789abcdef, 1},
    {3, 0, 0},
    {3, 1, 1},
    {3, kMax64, 1},
    {3, 1ULL << 63, 0},
    {3, 0xffffffff, 1},
    {3, 0x0123456789abcdef, 2},
    {10, 0, 0},
    {10, 1, 1},
    {10, kMax64, 4},
    {10, 1ULL << 63, 0},
    {10, 0xffffffff, 4},
    {10, 0x0123456789abcdef, 6},
    {1000, 0, 0},
    {1000, 1, 1},
    {1000, kMax64, 972},
    {1000, 1ULL << 63, 0},
    {1000, 0xffffffff, 996},
    {1000, 0x0123456789abcdef, 338},
    {1000000, 0, 0},
    {1000000, 1, 1},
    {1000000, kMax64, 556398},
    {1000000, 1ULL << 63, 0},
    {1000000, 0xffffffff, 577414},
    {1000000, 0x0123456789abcdef, 793378},
    {1u << 30, 0, 0},
    {1u << 30, 1, 1},
    {1u << 30, kMax64, 577701268},
    {1u << 30, 1ULL << 63, 0},
    {1u << 30, 0xffffffff, 730290092},
    {1u << 30, 0x0123456789abcdef, 148682170},
    {(1u << 30) + 1, 0, 0},
    {(1u << 30) + 1, 1, 1},
    {(1u << 30) + 1, kMax64, 577701268},
    {(1u << 30) + 1, 1ULL << 63, 0},
    {(1u << 30) + 1, 0xffffffff, 730290092},
    {(1u << 30) + 1, 0x0123456789abcdef, 148682170},
    {kMaxN - 1, 0, 0},
    {kMaxN - 1, 1, 1},
    {kMaxN - 1, kMax64, 1980396694},
    {kMaxN - 1, 1ULL << 63, 0},
    {kMaxN - 1, 0xffffffff, 2132985518},
    {kMaxN - 1, 0x0123456789abcdef, 148682170},
    {kMaxN, 0, 0},
    {kMaxN, 1, 1},
    {kMaxN, kMax64, 1980396694},
    {kMaxN, 1ULL << 63, 0},
    {kMaxN, 0xffffffff, 2132985518},
    {kMaxN, 0x0123456789abcdef, 148682170},
    // The paths of the loop: first draw, taken on draws 1 to 4, minor tree on
    // draws 1 to 4, exhausted.
    {5, 0x73ab48767734d7c1, 1},
    {5, 0xed52a24135b00a54, 4},
    {5, 0x9f8558a628518867, 4},
    {5, 0x83b852d7c00dc63d, 4},
    {5, 0x69155cca16535f4c, 4},
    {5, 0xdda1494c73cf256d, 1},
    {5, 0x89e7d15f17362f25, 1},
    {5, 0xdb5b5fab8f4d3e27, 2},
    {5, 0xfa2f0afdc77f7935, 1},
    {5, 0xbe33c26cbe934924, 0},
    {1025, 0x28f82e74c72a386f, 94},
    {1025, 0xb91adc4dfd1ffe87, 1024},
    {1025, 0xcfb7321a9835e58b, 1024},
    {1025, 0x3ad3357481f3df39, 1024},
    {1025, 0x1f436598b9636425, 1024},
    {1025, 0xef0d3b89d08c5c0a, 8},
    {1025, 0x67f8388ba8e61cb5, 219},
    {1025, 0x2e7a07f2c3e60e90, 921},
    {1025, 0xf5bf77aafa93ffce, 667},
    {1025, 0x374ee8d7567b159a, 305},
    {(1u << 30) + 1, 0xe0eda80505b833fd, 70674760},
    {(1u << 30) + 1, 0x176b6b17f8b96448, 790062601},
    {(1u << 30) + 1, 0x9764f595fcf91ca8, 912757915},
    {(1u << 30) + 1, 0xc86a12eb7ae6566c, 750322042},
    {(1u << 30) + 1, 0xa179a44ff0aaf1ed, 787135925},
    {(1u << 30) + 1, 0x2859294fe8b5bfe0, 1064853760},
    // First draws at or above N = 2^31 - 2 and 2^31 - 1 (one key in 2^31 or
    // 2^30): a redraw taken on draw 1, a draw into the minor tree on draw 1.
    {kMaxN, 0xd3ced3b152e050ef, 1235402876},
    {kMaxN, 0xd21871c2f78ec661, 584830574},
    {kMaxN, 0xb2d7cce7d510160e, 396237636},
    {kMaxN - 1, 0xbdd21784df0ea4e6, 1413335692},
    {kMaxN - 1, 0x110b623fe96d9e18, 1658246464},
};

// kFixed by bucket count, in its order.
std::map<uint32_t, std::pair<std::vector<uint64_t>, std::vector<uint32_t>>> fixed_by_n() {
  std::map<uint32_t, std::pair<std::vector<uint64_t>, std::vector<uint32_t>>> out;
  for (const Fixed& f : kFixed) {
    out[f.n].first.push_back(f.h);
    out[f.n].second.push_back(f.bucket);
  }
  return out;
}

// Bucket counts for the kernels: small ones, 2^k - 1, 2^k, 2^k + 1 (where the
// filters change and where redraws are most and least frequent), 3 * 2^29 + 1
// (redraws at large N), up to 2^31 - 1.
std::vector<uint32_t> kernel_bucket_counts(std::mt19937_64& rng) {
  // 640 and 641 of 1,024: the SIMD kernel sets redraws aside from 641 on
  // (fewer than three eighths of the keys draw n or more).
  std::vector<uint32_t> counts = {1,  2,    3,         4,           5,         6,     7,   9,  10,
                                  17, 1000, 1'000'000, 0x60000001u, kMaxN - 1, kMaxN, 640, 641};
  for (int k = 3; k <= 30; k += 3)
    for (int64_t d : {-1, 0, 1}) counts.push_back(static_cast<uint32_t>((int64_t{1} << k) + d));
  for (int i = 0; i < 6; ++i) counts.push_back(chbench_test::uniform<uint32_t>(rng, 1, kMaxN));
  return counts;
}

}  // namespace

TEST_CASE("binomial: every vector row through the reference, the model and binomial_bucket",
          "[binomial][vectors]") {
  const auto steps = all_steps();
  REQUIRE(steps.size() == 8);
  std::size_t rows = 0;
  for (const Step& s : steps) {
    INFO("step " << s.name);
    check_definitions(s.n, s.keys, s.want);
    rows += s.keys.size();
  }
  CHECK(rows == 6400);
  // addBucket() after the two removals places every key as before them.
  for (std::size_t file : {0, 4}) CHECK(steps[file + 3].want == steps[file + 1].want);
}

TEST_CASE("binomial: every vector row through every kernel on every Highway target",
          "[binomial][vectors][simd][targets]") {
  const int64_t target = GENERATE(from_range(chbench_test::test_targets()));
  INFO("Highway target " << hwy::TargetName(target));
  TargetGuard guard(target);
  REQUIRE(chbench::simd::dispatched_target() == target);
  for (const Step& s : all_steps()) {
    INFO("step " << s.name);
    check_kernels(s.n, s.keys, s.want);
  }
}

TEST_CASE("binomial: fixed values at N = 1 to 2^31 - 1 and on every path of the redraws",
          "[binomial][edges][targets]") {
  const auto by_n = fixed_by_n();
  for (const auto& [n, rows] : by_n) check_definitions(n, rows.first, rows.second);
  for (int64_t target : chbench_test::test_targets()) {
    INFO("Highway target " << hwy::TargetName(target));
    TargetGuard guard(target);
    for (const auto& [n, rows] : by_n) check_kernels(n, rows.first, rows.second);
  }
}

TEST_CASE("binomial: kernels equal the reference up to N = 2^31 - 1 on every Highway target",
          "[binomial][simd][targets]") {
  std::mt19937_64 rng(kSeed + 140);
  INFO("seed " << kSeed + 140);
  std::vector<uint64_t> keys = {0, 1, kMax64, 1ULL << 63, 0xffffffff, 0x7fffffff, 0x80000000};
  for (int bit = 0; bit < 64; ++bit) keys.push_back(1ULL << bit);
  chbench_test::append_random(keys, 3000, rng);
  for (uint32_t n : kernel_bucket_counts(rng)) {
    const auto want = reference_owners(n, keys);
    for (std::size_t i = 0; i < keys.size(); ++i)
      REQUIRE(want[i] == chbench_test::model_binomial(keys[i], n));
    for (int64_t target : chbench_test::test_targets()) {
      INFO("Highway target " << hwy::TargetName(target));
      TargetGuard guard(target);
      check_kernels(n, keys, want);
    }
  }
}

TEST_CASE("binomial: the filters removals leave place keys as the constructor's",
          "[binomial][filters]") {
  // BinomialEngine's addBucket and removeBucket keep enclosing = 2n - 1 at a
  // power of two n reached from above (or from below), where the constructor
  // takes n - 1; the engine's lookups must not tell them apart.
  std::mt19937_64 rng(kSeed + 141);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 2000, rng);
  const auto agree = [&](uint32_t n, uint64_t enclosing, uint64_t minor) {
    INFO("N = " << n << ", filters " << enclosing << ", " << minor);
    std::vector<uint32_t> engine(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
      engine[i] = chbench_test::model_binomial(keys[i], n, enclosing, minor);
    CHECK(first_mismatch<uint64_t>(keys, reference_owners(n, keys), engine) == "");
  };
  // The engine's own steps from new BinomialEngine(10): down to 1, up to 70.
  uint32_t size = 10;
  uint64_t enclosing = 15, minor = 7;
  while (size > 1) {
    if (--size <= minor) enclosing >>= 1, minor >>= 1;
    agree(size, enclosing, minor);
  }
  while (size < 70) {
    if (++size > enclosing) enclosing = enclosing << 1 | 1, minor = minor << 1 | 1;
    agree(size, enclosing, minor);
  }
  for (int k = 1; k <= 30; ++k) agree(1u << k, (2ULL << k) - 1, (1ULL << k) - 1);
}

TEST_CASE("binomial: from N to N + 1 buckets keys move only to bucket N", "[binomial][property]") {
  std::mt19937_64 rng(kSeed + 142);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 2000, rng);
  std::vector<uint32_t> counts;
  for (uint32_t n = 1; n <= 300; ++n) counts.push_back(n);
  for (int k = 9; k <= 30; ++k)
    for (int64_t d : {-1, 0, 1}) counts.push_back(static_cast<uint32_t>((int64_t{1} << k) + d));
  counts.push_back(0x60000000u);
  counts.push_back(kMaxN - 1);
  for (uint32_t n : counts) {
    const auto before = reference_owners(n, keys), after = reference_owners(n + 1, keys);
    std::size_t wrong = 0, moved = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      moved += after[i] != before[i];
      wrong += after[i] != before[i] && after[i] != n;
    }
    INFO("N = " << n << " -> " << n + 1 << ": " << moved << " keys move, " << wrong
                << " of them not to bucket N");
    CHECK(wrong == 0);
  }
}

TEST_CASE("binomial: 10^5 keys over N = 10 within 5% of the mean", "[binomial][property]") {
  const auto keys = chbench::default_key_hashes(100'000);
  std::vector<std::size_t> load(10, 0);
  for (uint32_t b : reference_owners(10, keys)) ++load.at(b);
  for (std::size_t b = 0; b < load.size(); ++b) {
    INFO("bucket " << b << ": " << load[b] << " keys");
    CHECK(load[b] >= 9'500);
    CHECK(load[b] <= 10'500);
  }
}
