// Weighted rendezvous (kernels/chbench/hrw_weighted, docs/schemes/hrw_weighted.md):
// every kernel equal to the reference on every Highway target under random
// weights, the fixed logarithm's error against std::log, the shares 1:2:3, a
// weight change moving only the changed node's keys, and the edges (weight 0,
// all weights 0, u at its ends, equal weights placing as rendezvous does).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/hrw_weighted/hrw_weighted.h"
#include "chbench/nodes.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"
#include "weights_support.h"

using chbench::Scheme;
using chbench_test::first_mismatch;
using chbench_test::kSeed;
using chbench_test::owners_of;

namespace {

// docs/schemes/hrw_weighted.md's bound on |L(u) + ln u| / -ln u, for u from
// 2^-53 to 1 - 2^-53.
constexpr double kMaxRelativeError = 2e-15;

std::vector<uint32_t> random_weights(uint32_t n, std::mt19937_64& rng) {
  std::vector<uint32_t> w(n);
  for (auto& x : w) {
    const uint64_t pick = rng() % 8;
    x = pick == 0 ? 0 : pick == 1 ? chbench::kMaxWeight : static_cast<uint32_t>(1 + rng() % 1000);
  }
  if (std::all_of(w.begin(), w.end(), [](uint32_t x) { return x == 0; })) w[n - 1] = 1;
  return w;
}

std::vector<uint64_t> edge_and_random_keys(std::mt19937_64& rng) {
  std::vector<uint64_t> keys = {0, 1, ~uint64_t{0}, uint64_t{1} << 63, (uint64_t{1} << 63) - 1};
  chbench_test::append_random(keys, chbench_test::kEmulated ? 500 : 3000, rng);
  return keys;
}

double relative_error(uint64_t x) {
  const double u = (2.0 * static_cast<double>(x >> 12) + 1.0) * 0x1p-53;  // exact
  const double exact = -std::log(u);
  return std::abs(chbench::weighted_rendezvous_neglog(x) - exact) / exact;
}

}  // namespace

TEST_CASE("weighted rendezvous: every kernel equals the reference on every target, random weights",
          "[hrw_weighted][simd][targets]") {
  const auto kernels = chbench_test::test_kernels_of(Scheme::kWeightedRendezvous);
  std::mt19937_64 rng(kSeed + 170);
  INFO("seed " << kSeed + 170);
  for (uint32_t n : {1u, 2u, 3u, 5u, 8u, 17u, 64u, 129u, 1000u}) {
    const auto nodes = chbench_test::weighted_default_nodes(random_weights(n, rng));
    const auto keys = edge_and_random_keys(rng);
    const auto want =
        owners_of(*chbench::build_reference(Scheme::kWeightedRendezvous, nodes), keys);
    for (const int64_t target : chbench_test::test_targets()) {
      chbench_test::TargetGuard guard(target);
      for (const auto* k : kernels) {
        if (!chbench_test::checks_at_this_target(*k)) continue;
        INFO(k->full_name() << " on " << hwy::TargetName(target) << ", N = " << n);
        chbench_test::check_table(*k->build(nodes), keys, want);
      }
    }
  }
}

TEST_CASE("weighted rendezvous: the fixed logarithm is within its documented error",
          "[hrw_weighted]") {
  std::mt19937_64 rng(kSeed + 171);
  double worst = 0;
  // The ends of u, every power of two and its neighbours, and random scores.
  std::vector<uint64_t> scores = {0, ~uint64_t{0}, uint64_t{1} << 12, ~uint64_t{0} << 12};
  for (int b = 12; b < 64; ++b) {
    const uint64_t p = uint64_t{1} << b;
    for (uint64_t x : {p - 4096, p, p + 4096}) scores.push_back(x);
  }
  chbench_test::append_random(scores, 1'000'000, rng);
  for (uint64_t x : scores) worst = std::max(worst, relative_error(x));
  INFO("max relative error " << worst);
  CHECK(worst <= kMaxRelativeError);
  CHECK(worst > 0);  // the polynomial is not the real logarithm
  // u's ends: 2^-53 gives 53 ln 2, 1 - 2^-53 gives about 2^-53, both positive.
  CHECK(chbench::weighted_rendezvous_neglog(0) == Approx(53 * std::log(2.0)).epsilon(1e-15));
  CHECK(chbench::weighted_rendezvous_neglog(~uint64_t{0}) == Approx(0x1p-53).epsilon(1e-12));
}

TEST_CASE("weighted rendezvous: weights 1:2:3 take 1/6, 2/6, 3/6 of 10^6 keys within 1%",
          "[hrw_weighted][balance]") {
  std::mt19937_64 rng(kSeed + 172);
  const auto keys = chbench_test::random_keys(1'000'000, rng);
  const auto nodes = chbench_test::weighted_default_nodes({1, 2, 3});
  for (const auto* k : chbench_test::test_kernels_of(Scheme::kWeightedRendezvous)) {
    INFO(k->full_name());
    const auto shares = chbench_test::owner_shares(owners_of(*k->build(nodes), keys), 3);
    for (uint32_t n = 0; n < 3; ++n) {
      const double fair = (n + 1) / 6.0;
      INFO("node " << n << " share " << shares[n]);
      CHECK(std::abs(shares[n] - fair) <= 0.01 * fair);
    }
  }
}

TEST_CASE("weighted rendezvous: a weight change moves only keys to or from that node",
          "[hrw_weighted][moves]") {
  std::mt19937_64 rng(kSeed + 173);
  const auto keys = chbench_test::random_keys(200'000, rng);
  const auto before = chbench_test::weighted_default_nodes({3, 1, 4, 1, 5, 9, 2, 6, 5, 3});
  const auto want_before =
      owners_of(*chbench::build_reference(Scheme::kWeightedRendezvous, before), keys);
  for (uint32_t changed : {0u, 5u, 9u}) {
    for (uint32_t weight : {0u, 1u, 20u}) {
      auto after = before;
      after.weights[changed] = weight;
      INFO("node " << changed << " to weight " << weight);
      const auto want_after =
          owners_of(*chbench::build_reference(Scheme::kWeightedRendezvous, after), keys);
      chbench_test::check_weight_change(want_before, want_after, changed, before.weights[changed],
                                        weight);
      if (weight == 0) CHECK(std::count(want_after.begin(), want_after.end(), changed) == 0);
      for (const auto* k : chbench_test::test_kernels_of(Scheme::kWeightedRendezvous))
        CHECK(first_mismatch<uint64_t>(keys, want_after, owners_of(*k->build(after), keys)) == "");
    }
  }
}

TEST_CASE("weighted rendezvous: equal weights place keys as rendezvous does", "[hrw_weighted]") {
  // L is decreasing in u up to its error, and u in the score: the lowest L(u)
  // / w over equal w is the highest score unless two scores agree in their
  // top 52 bits, which no key here meets.
  std::mt19937_64 rng(kSeed + 174);
  const auto keys = chbench_test::random_keys(100'000, rng);
  for (uint32_t w : {1u, 7u}) {
    auto nodes = chbench_test::weighted_default_nodes(std::vector<uint32_t>(100, w));
    const auto want = owners_of(*chbench::build_reference(Scheme::kRendezvous, nodes), keys);
    const auto got = owners_of(*chbench::build_reference(Scheme::kWeightedRendezvous, nodes), keys);
    CHECK(first_mismatch<uint64_t>(keys, want, got) == "");
  }
}

TEST_CASE("weighted rendezvous: weight 0 never owns, all weights 0 are refused",
          "[hrw_weighted][errors]") {
  std::mt19937_64 rng(kSeed + 175);
  const auto keys = chbench_test::random_keys(10'000, rng);
  const auto nodes = chbench_test::weighted_default_nodes({0, 1, 0});
  for (const auto* k : chbench_test::test_kernels_of(Scheme::kWeightedRendezvous)) {
    const auto owners = owners_of(*k->build(nodes), keys);
    CHECK(std::all_of(owners.begin(), owners.end(), [](uint32_t o) { return o == 1; }));
  }
  const auto& info = chbench::scheme_info(Scheme::kWeightedRendezvous);
  CHECK_THROWS_WITH(info.check(chbench_test::weighted_default_nodes({0, 0})),
                    Catch::Contains("every node weight is 0"));
  auto short_list = chbench::default_nodes(3);
  short_list.weights = {1, 2};
  CHECK_THROWS_WITH(info.check(short_list), Catch::Contains("2 weights for 3 nodes"));
  CHECK_THROWS_WITH(info.check(chbench_test::weighted_default_nodes({chbench::kMaxWeight + 1})),
                    Catch::Contains("above 2^31"));
}

TEST_CASE("a fleet keeps each node's weight through joins and leaves", "[hrw_weighted][fleet]") {
  chbench::Fleet f(chbench_test::weighted_default_nodes({5, 6, 7, 8}));
  f.leave("node-1").join("x");
  CHECK(f.nodes().weights == std::vector<uint32_t>{5, 7, 8, 1});
  const std::vector<std::string> gone = {"node-0", "node-3"};
  f.leave_all(gone);
  CHECK(f.nodes().weights == std::vector<uint32_t>{7, 1});
  const std::vector<std::string> more = {"y", "z"};
  f.join_all(more);
  CHECK(f.nodes().weights == std::vector<uint32_t>{7, 1, 1, 1});
  chbench::Fleet plain(chbench::default_nodes(2));
  plain.join("x");
  CHECK(plain.nodes().weights.empty());
}
