// The weighted ring (docs/schemes/hrw_weighted.md, "The weighted ring"): V
// tokens per unit of weight, every ring kernel equal to the reference and to
// the independent model on every Highway target under random weights, shares
// 1:2:3 within 1%, a weight change moving only the changed node's keys.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "chbench/nodes.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"
#include "support.h"
#include "targets.h"
#include "weights_support.h"

using chbench::Scheme;
using chbench_test::first_mismatch;
using chbench_test::kSeed;
using chbench_test::owners_of;

TEST_CASE("weighted ring: V tokens per unit of weight, weight 0 places none", "[ring][weights]") {
  const auto nodes = chbench_test::weighted_default_nodes({2, 0, 5}, 3);
  const auto entries = chbench::ring_entries(nodes);
  REQUIRE(entries.size() == 21);
  CHECK(std::count_if(entries.begin(), entries.end(), [](const auto& e) { return e.node == 0; }) ==
        6);
  CHECK(std::count_if(entries.begin(), entries.end(), [](const auto& e) { return e.node == 1; }) ==
        0);
  // Without weights: N * V, as before weights.
  CHECK(chbench::ring_entries(chbench::default_nodes(3, 7)).size() == 21);
  auto too_many = chbench_test::weighted_default_nodes({chbench::kMaxWeight, chbench::kMaxWeight});
  CHECK_THROWS_AS(chbench::scheme_info(Scheme::kRing).check(too_many), std::length_error);
}

TEST_CASE("weighted ring: every ring kernel equals the reference and the model on every target",
          "[ring][weights][simd][targets]") {
  const auto kernels = chbench_test::test_kernels_of(Scheme::kRing);
  for (const int64_t target : chbench_test::test_targets()) {
    chbench_test::TargetGuard guard(target);
    std::mt19937_64 rng(kSeed + 180);
    INFO("Highway target " << hwy::TargetName(target) << ", seed " << kSeed + 180);
    for (uint32_t n : {1u, 2u, 5u, 40u}) {
      std::vector<uint32_t> weights(n);
      for (auto& w : weights) w = static_cast<uint32_t>(rng() % 6);
      weights[0] = std::max<uint32_t>(weights[0], 1);
      const auto nodes = chbench_test::weighted_default_nodes(weights, 1 + rng() % 20);
      const auto model = chbench_test::model_ring(nodes);
      std::vector<uint64_t> keys = {0, 1, ~uint64_t{0}};
      for (const auto& [token, node] : model)
        for (uint64_t k : {token - 1, token, token + 1}) keys.push_back(k);
      chbench_test::append_random(keys, 2000, rng);
      std::vector<uint32_t> want(keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i)
        want[i] = chbench_test::model_ring_owner(model, keys[i]);
      INFO("N = " << n);
      chbench_test::check_table(*chbench::build_reference(Scheme::kRing, nodes), keys, want);
      for (const auto* k : kernels) {
        INFO(k->full_name());
        chbench_test::check_table(*k->build(nodes), keys, want);
      }
    }
  }
}

TEST_CASE("weighted ring: weights 1:2:3 take 1/6, 2/6, 3/6 of 10^6 keys within 1% at V = 10^5",
          "[ring][weights][balance]") {
  std::mt19937_64 rng(kSeed + 181);
  const auto keys = chbench_test::random_keys(1'000'000, rng);
  const auto nodes = chbench_test::weighted_default_nodes({1, 2, 3}, 100'000);
  const auto shares = chbench_test::owner_shares(
      owners_of(*chbench::default_kernel(Scheme::kRing).build(nodes), keys), 3);
  for (uint32_t n = 0; n < 3; ++n) {
    const double fair = (n + 1) / 6.0;
    INFO("node " << n << " share " << shares[n]);
    CHECK(std::abs(shares[n] - fair) <= 0.01 * fair);
  }
}

TEST_CASE("weighted ring: a weight change moves only keys to or from that node",
          "[ring][weights][moves]") {
  std::mt19937_64 rng(kSeed + 182);
  const auto keys = chbench_test::random_keys(200'000, rng);
  const auto before = chbench_test::weighted_default_nodes({3, 1, 4, 1, 5, 9, 2, 6, 5, 3}, 10);
  const auto& kernel = chbench::default_kernel(Scheme::kRing);
  const auto want_before = owners_of(*kernel.build(before), keys);
  for (uint32_t changed : {0u, 5u, 9u}) {
    for (uint32_t weight : {0u, 1u, 20u}) {
      auto after = before;
      after.weights[changed] = weight;
      INFO("node " << changed << " to weight " << weight);
      const auto want_after = owners_of(*kernel.build(after), keys);
      chbench_test::check_weight_change(want_before, want_after, changed, before.weights[changed],
                                        weight);
    }
  }
}
