// The lab with node weights (docs/schemes/hrw_weighted.md): balance reports
// each node's share against its fair share w / sum(w) for every scheme that
// takes weights (1:2:3 within 1% on 10^6 keys), and a weight change moves
// only keys to or from the changed node, counted exactly.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/hash.h"
#include "chbench/nodes.h"
#include "chbench/scheme.h"
#include "commands/balance.h"
#include "placement.h"
#include "support.h"

using namespace chbench;
using namespace chbench::lab;
using namespace chbench::lab::test;

namespace {

// A Setup as main.cc makes it for --scheme, --nodes N --weights w and V.
Setup weighted_setup(Scheme scheme, std::vector<uint32_t> weights, uint32_t vnodes) {
  Setup s;
  s.scheme = scheme;
  s.placement.scheme = scheme;
  s.fleet = Fleet(default_nodes(static_cast<uint32_t>(weights.size()), vnodes));
  s.fleet.weigh(std::move(weights));
  s.kernel_name = default_kernel(scheme).full_name();
  return s;
}

}  // namespace

TEST_CASE("balance with weights 1:2:3: each share within 1% of w / sum(w) on 10^6 keys") {
  const uint64_t k = 1'000'000;
  const KeySet keys = KeySet::counted(k);
  const auto hashes = default_key_hashes(k);
  for (Scheme scheme : all_schemes()) {
    if (!scheme_info(scheme).takes(kParamWeights)) continue;
    INFO(scheme_name(scheme));
    // The ring needs about 10^5 tokens per unit of weight for 1% (hrw_weighted.md).
    const Setup s = weighted_setup(scheme, {1, 2, 3}, scheme == Scheme::kRing ? 100'000 : 1);
    const BalanceReport r = run_balance(s, 1, keys);
    REQUIRE(r.weighted());
    CHECK(r.fair == std::vector<double>{1.0 / 6, 2.0 / 6, 3.0 / 6});
    // The counts are the reference's, key for key.
    const auto owners = reference_owners(scheme, s.fleet, hashes);
    std::vector<uint64_t> counts(3, 0);
    for (uint32_t o : owners) ++counts[o];
    CHECK(r.results[0].node_keys == counts);
    for (uint32_t i = 0; i < 3; ++i) {
      const double share = static_cast<double>(counts[i]) / static_cast<double>(k);
      INFO("node " << i << " share " << share);
      CHECK(std::abs(share / r.fair[i] - 1) <= 0.01);
    }
    // The stats are of share / fair against 1: busiest is the largest of
    // those ratios, the std their deviation from 1 weighted by fair share.
    double busiest = 0, squares = 0;
    for (uint32_t i = 0; i < 3; ++i) {
      const double q = static_cast<double>(counts[i]) / static_cast<double>(k) / r.fair[i];
      busiest = std::max(busiest, q);
      squares += r.fair[i] * (q - 1) * (q - 1);
    }
    CHECK(r.key_stats[0].busiest_over_mean == Approx(busiest).epsilon(1e-12));
    CHECK(r.key_stats[0].std_pct == Approx(100 * std::sqrt(squares)).epsilon(1e-9));
  }
}

TEST_CASE("a weight change moves only keys to or from the changed node, counted exactly") {
  const uint64_t k = 100'000;
  const KeySet keys = KeySet::counted(k);
  const auto hashes = default_key_hashes(k);
  for (Scheme scheme : all_schemes()) {
    if (!scheme_info(scheme).takes(kParamWeights)) continue;
    for (uint32_t weight : {0u, 1u, 6u}) {
      INFO(scheme_name(scheme) << ", node-1 weight 3 -> " << weight);
      Fleet before(default_nodes(5, 10));
      before.weigh({2, 3, 1, 4, 2});
      Fleet after(default_nodes(5, 10));
      after.weigh({2, weight, 1, 4, 2});
      const MoveResult r = measure_move(scheme, before, after, keys, true);
      const auto owners_before = reference_owners(scheme, before, hashes);
      const auto owners_after = reference_owners(scheme, after, hashes);
      uint64_t moved = 0;
      for (uint64_t i = 0; i < k; ++i) moved += owners_before[i] != owners_after[i];
      CHECK(r.moved == moved);
      CHECK(moved > 0);
      REQUIRE(r.moved_keys.size() == moved);
      for (const MovedKey& m : r.moved_keys) {
        // Heavier: keys only come to node 1; lighter: they only leave it.
        CHECK((weight > 3 ? m.to : m.from) == 1);
        CHECK(owners_before[m.key] == m.from);
        CHECK(owners_after[m.key] == m.to);
      }
    }
  }
}

TEST_CASE("fair share stats: a fleet placed exactly at its weights reads 1.0 and 0 %") {
  for (const auto& w : {std::vector<double>{1, 2, 3}, std::vector<double>{2147483648.0, 1, 1},
                        std::vector<double>{100, 1, 1}, std::vector<double>{0, 5, 1, 0, 2}}) {
    double sum = 0;
    for (const double x : w) sum += x;
    std::vector<double> fair;
    for (const double x : w) fair.push_back(x / sum);
    const ShareStats st = fair_share_stats(std::span<const double>(fair), fair);
    CHECK(st.busiest_over_mean == Approx(1.0).epsilon(1e-12));
    CHECK(st.std_pct == Approx(0.0).margin(1e-9));
  }
  // One node at 1.5 x fair, one at 0.5 x: busiest 1.5; std sqrt(0.5 * 0.25 * 2) = 50 %.
  const std::vector<double> fair = {0.5, 0.5}, shares = {0.75, 0.25};
  const ShareStats st = fair_share_stats(std::span<const double>(shares), fair);
  CHECK(st.busiest_over_mean == Approx(1.5));
  CHECK(st.std_pct == Approx(50.0));
  // Counts are divided by their sum: 2:4:6 at weights 1:2:3 is exact.
  const std::vector<uint64_t> counts = {2, 4, 6};
  const std::vector<double> fair3 = {1.0 / 6, 2.0 / 6, 3.0 / 6};
  const ShareStats c = fair_share_stats(std::span<const uint64_t>(counts), fair3);
  CHECK(c.busiest_over_mean == Approx(1.0));
  CHECK(c.std_pct == Approx(0.0).margin(1e-9));
}

TEST_CASE("balance of weighted fleets: busiest share / fair is the largest ratio, against 1") {
  const KeySet keys = KeySet::counted(100'000);
  {
    // Every key on the 2^31 node, at its fair share 1 - 2^-30: no node is above it.
    const BalanceReport r =
        run_balance(weighted_setup(Scheme::kWeightedRendezvous, {kMaxWeight, 1, 1}, 1), 1, keys);
    CHECK(r.results[0].node_keys == std::vector<uint64_t>{100'000, 0, 0});
    CHECK(r.key_stats[0].busiest_over_mean == Approx(1.0).epsilon(1e-8));
    CHECK(r.key_stats[0].std_pct < 0.01);
  }
  const BalanceReport r = run_balance(weighted_setup(Scheme::kRing, {100, 1, 1}, 100), 1, keys);
  double busiest = 0;
  for (uint32_t i = 0; i < 3; ++i)
    busiest =
        std::max(busiest, static_cast<double>(r.results[0].node_keys[i]) / 100'000 / r.fair[i]);
  CHECK(busiest > 1.05);  // a weight-1 node over its fair share
  CHECK(r.key_stats[0].busiest_over_mean == Approx(busiest).epsilon(1e-12));
}
