// FlipHash (docs/schemes/flip.md) against DataDog/fliphash-rs: every row of
// tests/vectors/fliphash_vectors.csv (fliphash_64(h, ..=n-1), seed 0, at
// commit 00c0ad03cf3c) through the reference, the tests' model, FlipRange and
// every flip kernel on every runnable Highway target; literal values at the
// edges (N = 1, 2^31 +- 1, 2^32 - 1; h = 0, 2^64 - 1; keys that retry up to
// ten times); every kernel against the reference at N = 2^k - 1, 2^k, 2^k + 1
// on every target; monotonicity and balance.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/flip/flip.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "flip_model.h"
#include "support.h"
#include "targets.h"
#include "vectors.h"

using chbench::Fleet;
using chbench::FlipRange;
using chbench::KernelInfo;
using chbench::Scheme;
using chbench_test::first_mismatch;

namespace {

// The key hashes of one bucket count and the buckets the crate gave them.
struct Rows {
  std::vector<uint64_t> keys;
  std::vector<uint32_t> buckets;
};

// fliphash_vectors.csv grouped by n. The files end their lines with CRLF,
// which read_vectors() leaves on each line's last field: dropped here.
std::map<uint32_t, Rows> vector_rows() {
  auto file = chbench_test::read_vectors("fliphash_vectors.csv");
  const auto drop_cr = [](std::string& field) {
    if (field.ends_with('\r')) field.pop_back();
  };
  for (auto& column : file.columns) drop_cr(column);
  for (auto& row : file.rows)
    for (auto& field : row) drop_cr(field);
  const std::size_t h = file.column("h"), n = file.column("n"), bucket = file.column("bucket");
  std::map<uint32_t, Rows> by_n;
  for (const auto& row : file.rows) {
    Rows& rows = by_n[static_cast<uint32_t>(chbench_test::vector_u64(row[n]))];
    rows.keys.push_back(chbench_test::vector_u64(row[h]));
    rows.buckets.push_back(static_cast<uint32_t>(chbench_test::vector_u64(row[bucket])));
  }
  return by_n;
}

// Every flip kernel in test_kernels() over N buckets, one batch and odd
// pieces, against `want`, on the target dispatched to now; and the SIMD
// entry point itself.
void check_kernels(uint32_t n, std::span<const uint64_t> keys, std::span<const uint32_t> want) {
  INFO("N = " << n << ", target " << chbench::simd::dispatched_target_name());
  const Fleet fleet = Fleet::of_buckets(n);
  for (const KernelInfo* kernel : chbench_test::test_kernels_of(Scheme::kFlip)) {
    INFO("kernel " << kernel->full_name());
    chbench_test::check_table(*kernel->build(fleet), keys, want);
  }
  std::vector<uint32_t> out(keys.size() + 1, chbench_test::kGuard);
  chbench::simd::flip_owners(keys, n, std::span<uint32_t>(out).first(keys.size()));
  CHECK(out.back() == chbench_test::kGuard);
  out.pop_back();
  CHECK(first_mismatch<uint64_t>(keys, want, out) == "");
}

// Runs `check()` once on every runnable Highway target, forced in turn.
template <class Check>
void on_every_target(const Check& check) {
  for (int64_t target : chbench_test::test_targets()) {
    const chbench::simd::ForcedTarget forced(target);
    REQUIRE(chbench::simd::dispatched_target() == target);
    check();
  }
}

// The bucket counts of the literal test: the edges, and counts the vector file
// lacks (5, 2^31 and above).
constexpr uint32_t kEdgeNs[] = {1,           2,           3,           5,           1025,
                                0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu};

}  // namespace

TEST_CASE("FlipHash: every vector row through the reference, the model and FlipRange",
          "[flip][vectors]") {
  const auto by_n = vector_rows();
  std::size_t rows = 0;
  for (const auto& [n, r] : by_n) {
    INFO("N = " << n);
    const auto reference = chbench::build_reference(Scheme::kFlip, Fleet::of_buckets(n));
    CHECK(first_mismatch<uint64_t>(r.keys, r.buckets,
                                   chbench_test::owners_of(*reference, r.keys)) == "");
    const FlipRange range(n);
    std::vector<uint32_t> model, direct;
    for (uint64_t h : r.keys) {
      model.push_back(chbench_test::model_flip(h, n));
      direct.push_back(range.bucket(h));
    }
    CHECK(first_mismatch<uint64_t>(r.keys, r.buckets, model) == "");
    CHECK(first_mismatch<uint64_t>(r.keys, r.buckets, direct) == "");
    rows += r.keys.size();
  }
  CHECK(rows == 5656);  // the file as made: 404 keys x 14 bucket counts
  CHECK(by_n.size() == 14);
}

TEST_CASE("FlipHash: every vector row through every flip kernel on every target",
          "[flip][vectors][simd][targets]") {
  const auto by_n = vector_rows();
  on_every_target([&] {
    for (const auto& [n, r] : by_n) check_kernels(n, r.keys, r.buckets);
  });
}

TEST_CASE("FlipHash: literal buckets at the edges", "[flip][spec][targets]") {
  // From a transcription of fliphash-rs's src/lib.rs (the one that reproduces
  // every vector row), at kEdgeNs. Comments: the retry path a key takes at
  // N = 2^31 + 1 (the lower half after i draws) or at another N.
  struct Row {
    uint64_t h;
    uint32_t buckets[std::size(kEdgeNs)];
  };
  constexpr Row kRows[] = {
      {0x0000000000000000ULL, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
      {0x0000000000000001ULL,
       {0, 1, 1, 1, 636, 2117916647, 2117916647, 2117916647, 2117916647, 2117916647}},
      {0x8000000000000000ULL,
       {0, 1, 1, 4, 512, 1073741824, 1073741824, 1073741824, 1073741824, 1073741824}},
      {0xffffffffffffffffULL,
       {0, 1, 1, 4, 272, 980842172, 980842172, 980842172, 980842172, 980842172}},
      {0x0123456789abcdefULL,
       {0, 0, 2, 3, 101, 1137433642, 1137433642, 1137433642, 1137433642, 1137433642}},
      {0x9ca06a68b31613b5ULL,  // lower half after 10 draws
       {0, 1, 1, 4, 715, 2016313945, 2016313945, 2016313945, 4252323987u, 4252323987u}},
      {0xdaa66d2c7ddf743fULL,  // lower half after 1 draw
       {0, 1, 1, 1, 936, 613470917, 613470917, 613470917, 2184980131u, 2184980131u}},
      {0xf832ae1bf00279b7ULL,  // N = 3: accepted at draw 3
       {0, 1, 2, 3, 720, 442557161, 442557161, 442557161, 2660404179u, 2660404179u}},
      {0xcd436726b6d89cf5ULL,  // N = 5: accepted at draw 3; N = 1025: lower after 7
       {0, 1, 2, 4, 47, 1403304148, 1403304148, 1403304148, 2674017780u, 2674017780u}},
  };
  std::vector<uint64_t> keys;
  for (const Row& row : kRows) keys.push_back(row.h);
  for (std::size_t j = 0; j < std::size(kEdgeNs); ++j) {
    const uint32_t n = kEdgeNs[j];
    INFO("N = " << n);
    std::vector<uint32_t> want;
    for (const Row& row : kRows) want.push_back(row.buckets[j]);
    const auto reference = chbench::build_reference(Scheme::kFlip, Fleet::of_buckets(n));
    CHECK(chbench_test::owners_of(*reference, keys) == want);
    for (std::size_t i = 0; i < keys.size(); ++i)
      CHECK(chbench_test::model_flip(keys[i], n) == want[i]);
    on_every_target([&] { check_kernels(n, keys, want); });
  }
}

TEST_CASE("FlipHash: every kernel equals the reference around powers of two, on every target",
          "[flip][simd][targets]") {
  std::mt19937_64 rng(chbench_test::kSeed + 140);
  INFO("seed " << chbench_test::kSeed + 140);
  std::vector<uint64_t> keys = {0, 1, 2, ~uint64_t{0}, uint64_t{1} << 63};
  chbench_test::append_random(keys, 3000, rng);
  std::vector<uint32_t> ns = {1, 2, 3, 0xffffffffu, 0xfffffffeu};
  for (int k = 2; k < 32; ++k)
    for (uint32_t n : {(1u << k) - 1, 1u << k, (1u << k) + 1}) ns.push_back(n);
  // Where flip/simd stops writing the fallback first (2^k + 2^(k-5) does,
  // one more does not), and a count beyond.
  for (int k : {5, 10, 20, 31})
    for (uint32_t n : {(1u << k) + (1u << (k - 5)), (1u << k) + (1u << (k - 5)) + 1})
      ns.push_back(n);
  ns.push_back(1100);
  for (int i = 0; i < 8; ++i) ns.push_back(chbench_test::uniform<uint32_t>(rng, 1, ~0u));
  std::map<uint32_t, std::vector<uint32_t>> want;
  for (uint32_t n : ns)
    want[n] = chbench_test::owners_of(
        *chbench::build_reference(Scheme::kFlip, Fleet::of_buckets(n)), keys);
  on_every_target([&] {
    for (uint32_t n : ns) check_kernels(n, keys, want[n]);
  });
}

TEST_CASE("FlipHash: monotone from N to N + 1, balanced over N = 10", "[flip][properties]") {
  std::mt19937_64 rng(chbench_test::kSeed + 141);
  INFO("seed " << chbench_test::kSeed + 141);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 2000, rng);
  std::vector<uint32_t> ns;
  for (uint32_t n = 1; n <= 1100; ++n) ns.push_back(n);
  for (uint32_t base : {0x7ffffff0u, 0xfffffff0u})
    for (uint32_t d = 0; d < 15; ++d) ns.push_back(base + d);
  for (std::size_t i = 0; i + 1 < ns.size(); ++i) {
    if (ns[i + 1] != ns[i] + 1) continue;
    const FlipRange before(ns[i]), after(ns[i + 1]);
    for (uint64_t h : keys) {
      const uint32_t was = before.bucket(h), is = after.bucket(h);
      if (is != was && is != ns[i])
        FAIL("key " << h << ": N " << ns[i] << " -> " << ns[i + 1] << " moved it from " << was
                    << " to " << is);
    }
  }
  // 10^5 keys over 10 buckets: each count within 5% of 10^4 (about 5 sigma).
  std::vector<uint64_t> many;
  chbench_test::append_random(many, 100000, rng);
  const auto owners = chbench_test::owners_of(
      *chbench::default_kernel(Scheme::kFlip).build(Fleet::of_buckets(10)), many);
  std::vector<int> count(10, 0);
  for (uint32_t b : owners) ++count.at(b);
  for (int c : count) CHECK(std::abs(c - 10000) < 500);
}
