// The floors (scheme.h: floor_kernels()): registry entries apart from the
// kernels, and owners that equal their scalar formulas (floors.h), the compute
// floor's on every Highway target, the random-read floor's from a table of
// the ring's size.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "chbench/floors.h"
#include "chbench/nodes.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"

using chbench::Fleet;
using chbench::KernelInfo;
using chbench_test::kSeed;
using chbench_test::owners_of;

namespace {

// `count` uniform key hashes after the edge values 0, 1 and UINT64_MAX.
std::vector<uint64_t> floor_keys(std::size_t count, std::mt19937_64& rng) {
  std::vector<uint64_t> keys = {0, 1, UINT64_MAX};
  for (std::size_t i = 0; i < count; ++i) keys.push_back(rng());
  return keys;
}

}  // namespace

TEST_CASE("floors: stream, compute and random-read, none of them a kernel", "[registry]") {
  std::vector<std::string> names, kinds;
  const auto all = chbench::all_kernels();
  for (const KernelInfo* f : chbench::floor_kernels()) {
    INFO(f->full_name());
    names.push_back(f->full_name());
    kinds.emplace_back(f->floor);
    CHECK(f->rank == -1);
    CHECK(f->rival == nullptr);
    CHECK_FALSE(f->baseline);
    CHECK(f->knob == nullptr);
    CHECK(std::find(all.begin(), all.end(), f) == all.end());
    CHECK_THROWS_AS(chbench::find_kernel(f->full_name()), std::invalid_argument);
    CHECK_THROWS_AS(f->build(chbench::default_nodes(3), 1), std::invalid_argument);
  }
  CHECK(names == std::vector<std::string>{"ring/stream", "modn/compute", "ring/random_read"});
  CHECK(kinds == std::vector<std::string>{"stream", "compute", "random_read"});
  CHECK(&chbench::stream_floor() == chbench::floor_kernels()[0]);
  CHECK(&chbench::compute_floor() == chbench::floor_kernels()[1]);
  CHECK(&chbench::random_read_floor() == chbench::floor_kernels()[2]);
  CHECK(chbench::compute_floor().simd);
  CHECK_FALSE(chbench::random_read_floor().simd);
  for (const KernelInfo* k : all) CHECK(k->floor.empty());
}

TEST_CASE("floors: the scalar formulas' values", "[floors]") {
  using namespace chbench::floors;
  // Computed apart from this code: mix(h) = (h * C mod 2^64) ^ (that >> 32),
  // owner = ((mix(h) mod 2^32) * n) >> 32.
  CHECK(compute_owner(0, 1000) == 0);
  CHECK(compute_owner(1, 1000) == 70);
  CHECK(compute_owner(0x0123456789abcdefULL, 1000) == 707);
  CHECK(compute_owner(0x0123456789abcdefULL, 7) == 4);
  CHECK(compute_owner(UINT64_MAX, 0xffffffffu) == 302261018);
  CHECK(compute_owner(UINT64_MAX, 1) == 0);
  CHECK(random_read_lines(0) == 1);
  CHECK(random_read_lines(8) == 1);
  CHECK(random_read_lines(9) == 2);
  CHECK(random_read_lines(16'000'000) == 2'000'000);
  CHECK(random_read_line(0, 10) == 0);
  CHECK(random_read_line(UINT64_MAX, 10) == 9);
  CHECK(random_read_line(uint64_t{1} << 63, 10) == 5);
  // Line 2 of 4, word 5 of it: word 21, 21 mod 3.
  CHECK(random_read_owner((uint64_t{1} << 63) + 5, 4, 3) == 0);
  CHECK(random_read_owner((uint64_t{1} << 63) + 5, 4, 4) == 1);
}

TEST_CASE("floors: the compute floor's owners are its formula on every Highway target",
          "[floors][targets]") {
  const int64_t target = GENERATE(from_range(chbench_test::test_targets()));
  INFO("Highway target " << hwy::TargetName(target));
  chbench_test::TargetGuard guard(target);
  REQUIRE(chbench::simd::dispatched_target() == target);
  std::mt19937_64 rng(kSeed);
  // 1,003 keys and 1 key: full blocks, single vectors and a padded tail.
  for (const uint32_t n : {1u, 2u, 3u, 1000u, 1'000'000u, 0x7fffffffu, 0xffffffffu}) {
    INFO("N = " << n);
    const auto table = chbench::compute_floor().build(Fleet::of_buckets(n));
    CHECK(table->memory_bytes() == 0);
    for (const std::size_t count : {std::size_t{1000}, std::size_t{0}}) {
      const std::vector<uint64_t> keys = floor_keys(count, rng);
      const std::vector<uint32_t> got = owners_of(*table, keys);
      std::vector<uint32_t> want;
      for (uint64_t h : keys) want.push_back(chbench::floors::compute_owner(h, n));
      CHECK(got == want);
      CHECK(std::all_of(got.begin(), got.end(), [n](uint32_t o) { return o < n; }));
      CHECK(table->owner(keys.back()) == want.back());
    }
  }
  CHECK(chbench::compute_floor().table_bytes(Fleet::of_buckets(5)) == 0);
  CHECK_THROWS_AS(chbench::compute_floor().build(Fleet::of_buckets(0)), std::invalid_argument);
}

TEST_CASE("floors: the random-read floor reads one line of a table of the ring's size",
          "[floors]") {
  std::mt19937_64 rng(kSeed + 1);
  struct Ring {
    uint32_t n, v;
    uint64_t bytes;  // N x V tokens of 8 bytes, whole 64-byte lines
  };
  // The last two past 256 KiB and 16 MiB: the loops that prefetch ahead.
  for (const Ring r : {Ring{1, 1, 64}, Ring{3, 3, 128}, Ring{10, 100, 8000}, Ring{7, 13, 768},
                       Ring{400, 100, 320'000}, Ring{20'000, 110, 17'600'000}}) {
    INFO("N = " << r.n << ", V = " << r.v);
    const Fleet fleet(chbench::default_nodes(r.n, r.v));
    const auto table = chbench::random_read_floor().build(fleet);
    CHECK(table->memory_bytes() == r.bytes);
    CHECK(chbench::random_read_floor().table_bytes(fleet) == r.bytes);
    const std::vector<uint64_t> keys = floor_keys(2000, rng);
    const std::vector<uint32_t> got = owners_of(*table, keys);
    std::vector<uint32_t> want;
    for (uint64_t h : keys)
      want.push_back(chbench::floors::random_read_owner(h, r.bytes / 64, r.n));
    CHECK(got == want);
    CHECK(std::all_of(got.begin(), got.end(), [&](uint32_t o) { return o < r.n; }));
    CHECK(table->owner(keys[2]) == want[2]);
  }
}
