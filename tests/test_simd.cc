// The Highway kernels on every target this CPU can run (docs/spec.md §10):
// the registry's SIMD kernels against their references, and the SIMD building
// blocks of chbench/simd.h directly, on inputs a node list cannot produce
// (divisors near 2^32, equal seeds, tokens around the sign flip at 2^63).
// ForcedTarget is process-global: these tests force a target only here, on the
// test thread, outside any TBB region.
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

#include "chbench/hrw/hrw.h"
#include "chbench/hrw/rendezvous_simd.h"
#include "chbench/jump/jump.h"
#include "chbench/modn/modn.h"
#include "chbench/ring/ring.h"
#include "chbench/ring/simd_branchless.h"
#include "chbench/ring/simd_eytzinger.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"

using chbench::RingEntry;
using chbench::SortedRing;
using chbench_test::first_mismatch;
using chbench_test::kBrief;
using chbench_test::kGuard;
using chbench_test::kSeed;

namespace {

constexpr uint64_t kMax64 = std::numeric_limits<uint64_t>::max();

std::vector<uint32_t> as_vector(std::span<const uint32_t> s) { return {s.begin(), s.end()}; }

// Calls `run(keys, out)` on the whole batch (with a guard slot after it), on
// every prefix length 0..40 and on odd pieces, and checks each against `want`.
template <class Run>
void check_batches(Run run, std::span<const uint64_t> keys, std::span<const uint32_t> want) {
  std::vector<uint32_t> out(keys.size() + 1, kGuard);
  run(keys, std::span<uint32_t>(out).first(keys.size()));
  CHECK(out.back() == kGuard);
  out.pop_back();
  CHECK(first_mismatch<uint64_t>(keys, want, out) == "");
  for (std::size_t len = 0; len <= std::min<std::size_t>(40, keys.size()); ++len) {
    std::vector<uint32_t> part(len + 1, kGuard);
    run(keys.first(len), std::span<uint32_t>(part).first(len));
    INFO("prefix of " << len << " keys");
    CHECK(part.back() == kGuard);
    part.pop_back();
    CHECK(first_mismatch<uint64_t>(keys.first(len), want.first(len), part) == "");
  }
}

std::vector<uint64_t> random_keys(std::size_t count, std::mt19937_64& rng) {
  std::vector<uint64_t> keys = {
      0, 1, 2, kMax64, kMax64 - 1, uint64_t{1} << 63, (uint64_t{1} << 63) - 1};
  chbench_test::append_random(keys, count, rng);
  return keys;
}

}  // namespace

TEST_CASE("simd: targets are reported and can be forced", "[simd]") {
  const auto runnable = chbench::simd::runnable_targets();
  const auto compiled = chbench::simd::compiled_targets();
  REQUIRE(!runnable.empty());
  for (int64_t t : runnable) {
    INFO("target " << chbench::simd::target_name(t));
    CHECK(std::count(compiled.begin(), compiled.end(), t) == 1);
    chbench::simd::ForcedTarget force(t);
    CHECK(chbench::simd::dispatched_target() == t);
    CHECK(chbench::simd::dispatched_target_name() == chbench::simd::target_name(t));
  }
  // Unforced again: the best runnable target.
  CHECK(chbench::simd::dispatched_target() == runnable.front());
  // Two bits at once (SCALAR and EMU128 are never both compiled).
  CHECK_THROWS_AS(chbench::simd::ForcedTarget(runnable.front() | HWY_SCALAR | HWY_EMU128),
                  std::invalid_argument);
  // Bit 40 names no target in Highway 1.0.3 (bit 62 is SCALAR, a real one).
  CHECK_THROWS_AS(chbench::simd::ForcedTarget(int64_t{1} << 40), std::invalid_argument);
  CHECK(chbench::simd::dispatched_target() == runnable.front());
  // How many targets the per-target loops below cover depends on the build
  // and the CPU: test_simd_targets.cc checks that against the toolchain.
  // Which kernels are SIMD the registry says (KernelInfo::simd; see
  // test_registry.cc).
}

TEST_CASE("simd: every SIMD kernel matches its reference on every runnable target",
          "[simd][reference][targets]") {
  std::mt19937_64 rng(kSeed + 30);
  struct Case {
    uint32_t n, v;
  };
  const Case cases[] = {{1, 1},   {1, 300}, {2, 1},    {3, 2},     {5, 7},      {16, 16},
                        {17, 33}, {100, 1}, {257, 40}, {1000, 50}, {4097, 100}, {10'000, 3}};
  // The references answer each case once; every target's kernels are checked
  // against those answers.
  for (const Case& c : cases) {
    const auto nodes = chbench::default_nodes(c.n, c.v);
    const auto entries = chbench::ring_entries(nodes);
    auto keys = chbench_test::boundary_keys<uint64_t>(entries, kBrief ? 800 : 5000, rng);
    chbench_test::append_random(keys, kBrief ? 1000 : 10'000, rng);
    // A scheme that scores every node gets 3000 keys past 1000 nodes; under
    // an emulator or a sanitizer (whose run of this case took 175 s of its
    // 300 s limit on a Zen 5) at most 300,000 scores a case, and never under
    // 64 keys.
    const std::size_t score_keys = kBrief       ? std::max<std::size_t>(64, 300'000 / c.n)
                                   : c.n > 1000 ? 3000
                                                : keys.size();
    const auto keys_of = [&](chbench::Scheme s) {
      return chbench::scheme_info(s).scores_every_node
                 ? std::span<const uint64_t>(keys).first(std::min(score_keys, keys.size()))
                 : std::span<const uint64_t>(keys);
    };
    std::map<chbench::Scheme, std::vector<uint32_t>> want;
    for (const chbench::KernelInfo* kernel : chbench_test::test_kernels())
      if (kernel->simd && !want.count(kernel->scheme))
        want[kernel->scheme] = chbench_test::owners_of(
            *chbench::build_reference(kernel->scheme, nodes), keys_of(kernel->scheme));
    INFO("seed " << kSeed + 30 << ", N = " << c.n << ", V = " << c.v);
    for (int64_t target : chbench_test::test_targets()) {
      chbench::simd::ForcedTarget force(target);
      INFO("target " << chbench::simd::target_name(target));
      REQUIRE(chbench::simd::dispatched_target() == target);
      for (const chbench::KernelInfo* kernel : chbench_test::test_kernels()) {
        if (!kernel->simd) continue;
        INFO("kernel " << kernel->full_name());
        chbench_test::check_table(*kernel->build(nodes), keys_of(kernel->scheme),
                                  want[kernel->scheme]);
      }
    }
  }
}

TEST_CASE("simd: mod_n_owners is h % n for every 32-bit divisor shape", "[simd][modn][targets]") {
  std::mt19937_64 rng(kSeed + 31);
  std::vector<uint32_t> divisors = {1,          2,          3,          5,          7,
                                    10,         641,        65'535,     65'536,     65'537,
                                    0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff,
                                    0xffff0001, 0x10000001, 6'700'417};
  for (int i = 0; i < 40; ++i) divisors.push_back(static_cast<uint32_t>(rng() >> (rng() % 32)) | 1);
  for (int i = 0; i < 20; ++i) divisors.push_back(static_cast<uint32_t>(rng()) | 0x80000000u);
  for (int64_t target : chbench_test::test_targets()) {
    chbench::simd::ForcedTarget force(target);
    for (uint32_t n : divisors) {
      // Multiples of n and their neighbours, where a remainder is 0 or n - 1.
      auto keys = random_keys(2000, rng);
      for (int i = 0; i < 200; ++i) {
        const uint64_t m = (rng() / n) * n;
        keys.insert(keys.end(), {m, m - 1, m + 1, m + n - 1});
      }
      keys.insert(keys.end(), {uint64_t{n}, uint64_t{n} - 1, uint64_t{n} + 1, kMax64 - kMax64 % n,
                               kMax64 - kMax64 % n - 1});
      std::vector<uint32_t> want(keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i) want[i] = static_cast<uint32_t>(keys[i] % n);
      INFO("target " << chbench::simd::target_name(target) << ", n = " << n);
      check_batches([&](auto k, auto o) { chbench::simd::mod_n_owners(k, n, o); }, keys, want);
    }
    std::vector<uint64_t> keys(5, 1);
    std::vector<uint32_t> out(5), shorter(4);
    CHECK_THROWS_AS(chbench::simd::mod_n_owners(keys, 0, out), std::invalid_argument);
    CHECK_THROWS_AS(chbench::simd::mod_n_owners(keys, 3, shorter), std::invalid_argument);
  }
}

TEST_CASE("simd: jump_owners is jump_hash bit for bit", "[simd][jump][targets]") {
  std::mt19937_64 rng(kSeed + 32);
  const std::vector<uint32_t> buckets = {
      1,    2,      3,      10,          57,          666,
      1024, 65'537, 10'000, 100'000'000, 0x40000000u, chbench::kJumpMaxBuckets};
  for (int64_t target : chbench_test::test_targets()) {
    chbench::simd::ForcedTarget force(target);
    for (uint32_t n : buckets) {
      const auto keys = random_keys(4000, rng);
      std::vector<uint32_t> want(keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i) want[i] = chbench::jump_hash(keys[i], n);
      INFO("target " << chbench::simd::target_name(target) << ", " << n << " buckets");
      check_batches([&](auto k, auto o) { chbench::simd::jump_owners(k, n, o); }, keys, want);
    }
    // Published vectors (see test_hash.cc), in one batch with mixed lanes.
    const std::vector<uint64_t> k1 = {42, 0xDEAD10CC, 256, 1, 129, kMax64, 1};
    std::vector<uint32_t> out(k1.size());
    chbench::simd::jump_owners(std::span(k1).first(1), 57, std::span(out).first(1));
    CHECK(out[0] == 43);
    chbench::simd::jump_owners(std::span(k1).subspan(1, 1), 666, std::span(out).first(1));
    CHECK(out[0] == 361);
    chbench::simd::jump_owners(std::span(k1).subspan(2, 1), 1024, std::span(out).first(1));
    CHECK(out[0] == 520);
    chbench::simd::jump_owners(std::span(k1).subspan(3, 4), 128, std::span(out).first(4));
    CHECK(as_vector(std::span(out).first(4)) == std::vector<uint32_t>{55, 120, 92, 55});

    std::vector<uint64_t> keys(5, 1);
    std::vector<uint32_t> out5(5), shorter(4);
    CHECK_THROWS_AS(chbench::simd::jump_owners(keys, 0, out5), std::invalid_argument);
    CHECK_THROWS_AS(chbench::simd::jump_owners(keys, chbench::kJumpMaxBuckets + 1, out5),
                    std::invalid_argument);
    CHECK_THROWS_AS(chbench::simd::jump_owners(keys, 10, shorter), std::invalid_argument);
  }
}

TEST_CASE("simd: RendezvousSimd keeps the first maximum, equal seeds included",
          "[simd][hrw][targets]") {
  std::mt19937_64 rng(kSeed + 33);
  // Seed lists: random, and drawn from a small pool so that equal seeds (equal
  // scores) sit in different lanes and different vectors.
  std::vector<std::vector<uint64_t>> seed_lists;
  for (std::size_t n : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 33u, 100u, 1000u}) {
    std::vector<uint64_t> seeds(n), pooled(n);
    const uint64_t pool[3] = {rng(), rng(), rng()};
    for (std::size_t i = 0; i < n; ++i) {
      seeds[i] = rng();
      pooled[i] = pool[rng() % 3];
    }
    seed_lists.push_back(seeds);
    seed_lists.push_back(pooled);
    seed_lists.push_back(std::vector<uint64_t>(n, pool[0]));  // all equal: node 0 wins
  }
  for (int64_t target : chbench_test::test_targets()) {
    chbench::simd::ForcedTarget force(target);
    for (std::size_t l = 0; l < seed_lists.size(); ++l) {
      const auto& seeds = seed_lists[l];
      const chbench::simd::RendezvousSimd table(seeds);
      REQUIRE(table.size() == seeds.size());
      CHECK(table.memory_bytes() >= seeds.size() * sizeof(uint64_t));
      const auto keys = random_keys(1500, rng);
      std::vector<uint32_t> want(keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i)
        want[i] = chbench::rendezvous_owner(keys[i], seeds);
      if (l % 3 == 2) CHECK(std::count(want.begin(), want.end(), 0u) == long(want.size()));
      INFO("target " << chbench::simd::target_name(target) << ", seed list " << l << " ("
                     << seeds.size() << " seeds)");
      {
        INFO("across nodes");
        check_batches([&](auto k, auto o) { table.owners_across_nodes(k, o); }, keys, want);
      }
      {
        INFO("across keys");
        check_batches([&](auto k, auto o) { table.owners_across_keys(k, o); }, keys, want);
      }
    }
    const std::vector<uint64_t> seeds = {1, 2, 3};
    const chbench::simd::RendezvousSimd table(seeds);
    std::vector<uint64_t> keys(5, 1);
    std::vector<uint32_t> shorter(4);
    CHECK_THROWS_AS(table.owners_across_nodes(keys, shorter), std::invalid_argument);
    CHECK_THROWS_AS(table.owners_across_keys(keys, shorter), std::invalid_argument);
  }
  CHECK_THROWS_AS(chbench::simd::RendezvousSimd(std::span<const uint64_t>()),
                  std::invalid_argument);
}

TEST_CASE("simd: ring searches on hand-built rings", "[simd][ring][targets]") {
  // The registry's SIMD ring kernels (KernelInfo::simd), each built over the
  // ring with make_over_ring at its default knob; test_simd_targets.cc tries
  // every ring kernel with its knob's range.
  std::mt19937_64 rng(kSeed + 34);
  constexpr uint64_t kHalf = uint64_t{1} << 63;
  std::vector<const chbench::KernelInfo*> kernels;
  for (const chbench::KernelInfo* k : chbench_test::test_kernels_of(chbench::Scheme::kRing))
    if (k->simd) kernels.push_back(k);
  if (chbench_test::testing_every_kernel()) REQUIRE(!kernels.empty());
  std::vector<std::vector<RingEntry<uint64_t>>> rings;
  // Every size 1..70, and sizes around powers of two (the Eytzinger padding to
  // the next full level), spaced so every gap gets a key.
  std::vector<std::size_t> sizes;
  for (std::size_t n = 1; n <= 70; ++n) sizes.push_back(n);
  for (std::size_t p = 128; p <= (std::size_t{1} << 17); p *= 2)
    sizes.insert(sizes.end(), {p - 1, p, p + 1});
  for (std::size_t n : sizes) {
    std::vector<RingEntry<uint64_t>> ring;
    for (std::size_t i = 0; i < n; ++i)
      ring.push_back({10 + 3 * i, static_cast<uint32_t>(rng() % 11)});
    rings.push_back(ring);
  }
  // Tokens around the sign flip at 2^63 (the kernels compare tokens ^ 2^63 as
  // signed values), at 0 and at the maximum.
  rings.push_back({{kHalf - 2, 0}, {kHalf - 1, 1}, {kHalf, 2}, {kHalf + 1, 3}});
  rings.push_back({{0, 4}, {kHalf - 1, 1}, {kHalf, 2}, {kMax64, 3}});
  rings.push_back({{kHalf, 1}});
  rings.push_back({{kHalf - 1, 1}});
  rings.push_back({{0, 1}});
  rings.push_back({{kMax64, 2}});
  // Duplicate tokens across nodes (SortedRing keeps the lowest node).
  for (int i = 0; i < 30; ++i) {
    std::vector<RingEntry<uint64_t>> ring;
    const uint64_t pool[4] = {rng(), kHalf, kHalf - 1, rng() % 1000};
    const std::size_t n = 1 + rng() % 300;
    for (std::size_t j = 0; j < n; ++j)
      ring.push_back({pool[rng() % 4], static_cast<uint32_t>(rng() % 50)});
    rings.push_back(ring);
  }

  for (int64_t target : chbench_test::test_targets()) {
    chbench::simd::ForcedTarget force(target);
    for (std::size_t r = 0; r < rings.size(); ++r) {
      auto entries = rings[r];
      std::sort(entries.begin(), entries.end());
      const std::span<const RingEntry<uint64_t>> sorted(entries);
      // Every token's neighbours on rings of up to 1,500 tokens, a sample of
      // them on larger ones.
      auto keys = chbench_test::boundary_keys<uint64_t>(sorted, 1500, rng);
      keys.insert(keys.end(), {kHalf - 2, kHalf - 1, kHalf, kHalf + 1, kHalf + 2});
      for (uint64_t k = 0; k < 30; ++k) keys.push_back(k);
      chbench_test::append_random(keys, 500, rng);
      std::vector<uint32_t> want(keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i)
        want[i] = chbench::ring_reference_owner<uint64_t>(sorted, keys[i]);

      const auto ring = SortedRing<uint64_t>::from_entries(sorted);
      INFO("target " << chbench::simd::target_name(target) << ", ring " << r << " ("
                     << entries.size() << " entries, " << ring.tokens.size() << " tokens)");
      for (const chbench::KernelInfo* kernel : kernels) {
        INFO("kernel " << kernel->full_name());
        const auto table = kernel->make_over_ring(ring, 0);
        check_batches([&](auto k, auto o) { table->owners(k, o); }, keys, want);
        CHECK(table->memory_bytes() >= ring.tokens.size() * sizeof(uint64_t));
      }
    }
    // The building blocks of simd.h check their shapes.
    const auto ring = SortedRing<uint64_t>::from_entries(rings[2]);
    std::vector<uint64_t> keys(5, 1);
    std::vector<uint32_t> shorter(4);
    CHECK_THROWS_AS(chbench::simd::RingSimdBranchless(ring).owners(keys, shorter),
                    std::invalid_argument);
    CHECK_THROWS_AS(chbench::simd::RingSimdEytzinger(ring).owners(keys, shorter),
                    std::invalid_argument);
  }
}
