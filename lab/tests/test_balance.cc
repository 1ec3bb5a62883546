// Tests of `balance`: circle shares, share statistics, and the spread of ring
// and hash balance against the theory of placement.h.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "chbench/ring/ring.h"
#include "placement.h"
#include "support.h"

using namespace chbench;
using namespace chbench::lab;
using namespace chbench::lab::test;

TEST_CASE("circle shares: exact arcs, sum to one, and key shares follow them") {
  CHECK(circle_shares(default_nodes(1, 1)) == std::vector<double>{1.0});
  const NodeSet nodes = default_nodes(5, 1);
  const auto shares = circle_shares(nodes);
  CHECK(std::accumulate(shares.begin(), shares.end(), 0.0) == Approx(1.0).epsilon(1e-12));
  // Independent arithmetic: with one token per node, a node owns the arc from
  // the previous token to its own, the first one wrapping.
  auto tokens = ring_entries(nodes);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const uint64_t prev = tokens[(i + tokens.size() - 1) % tokens.size()].token;
    const double arc = static_cast<double>(tokens[i].token - prev) / 18446744073709551616.0;
    CHECK(shares[tokens[i].node] == Approx(arc).epsilon(1e-12));
  }
  const uint64_t k = 200'000;
  const Balance b = measure_balance(Scheme::kRing, nodes, KeySet::counted(k));
  CHECK(std::accumulate(b.node_keys.begin(), b.node_keys.end(), uint64_t{0}) == k);
  for (uint32_t i = 0; i < 5; ++i) {
    const double got = static_cast<double>(b.node_keys[i]) / k;
    CHECK(std::abs(got - shares[i]) < kSigmas * binomial_sd(shares[i], k));
  }
}

TEST_CASE("share statistics of known shares") {
  const std::vector<double> even = {1, 1, 1, 1};
  CHECK(share_stats(std::span<const double>(even)).busiest_over_mean == Approx(1.0));
  CHECK(share_stats(std::span<const double>(even)).std_pct == Approx(0.0).margin(1e-12));
  const std::vector<uint64_t> lopsided = {2, 0};
  CHECK(share_stats(std::span<const uint64_t>(lopsided)).busiest_over_mean == Approx(2.0));
  CHECK(share_stats(std::span<const uint64_t>(lopsided)).std_pct == Approx(100.0));
  CHECK(replica_nodes(default_nodes(2), 3).names ==
        std::vector<std::string>{"node-0@3", "node-1@3"});
  CHECK(replica_nodes(default_nodes(2), 0).names == default_nodes(2).names);
  // Every parameter is kept (the capacity was once dropped).
  NodeSet params = default_nodes(2, 7);
  params.table_size = 13;
  params.capacity = 5;
  params.weights = {3, 4};
  params.probes = 9;
  const NodeSet copy = replica_nodes(params, 2);
  CHECK(copy.vnodes == 7);
  CHECK(copy.table_size == 13);
  CHECK(copy.capacity == 5);
  CHECK(copy.weights == std::vector<uint32_t>{3, 4});
  CHECK(copy.probes == 9);
}

TEST_CASE("ring share std across 50 five-node rings falls as 1/sqrt(V)") {
  // Theory (placement.h): a node's share of the circle is Beta(V, (N-1)V), so
  // its std is sqrt((N-1)/(NV+1)) of a fair share; K keys add binomial noise.
  // The estimate pools R rings of N shares that sum to one, R(N-1) degrees of
  // freedom; the variance estimate then has relative sd sqrt((kurt - 1) /
  // (R(N-1))) with kurt the Beta's kurtosis, and the std estimate half that.
  const uint32_t n = 5, rings = 50;
  const uint64_t k = 100'000;
  const KeySet keys = KeySet::counted(k);
  for (uint32_t v : {1u, 16u, 100u, 500u}) {
    double circle_sq = 0, key_sq = 0;
    for (uint32_t r = 0; r < rings; ++r) {
      const Balance b = measure_balance(Scheme::kRing, replica_nodes(default_nodes(n, v), r), keys);
      circle_sq += std::pow(share_stats(std::span<const double>(b.circle)).std_pct / 100, 2);
      key_sq += std::pow(share_stats(std::span<const uint64_t>(b.node_keys)).std_pct / 100, 2);
    }
    const double circle = std::sqrt(circle_sq / rings), key = std::sqrt(key_sq / rings);
    const double kurt = 3 + beta_excess_kurtosis(v, (n - 1.0) * v);
    const double rel_sd = 0.5 * std::sqrt((kurt - 1) / (rings * (n - 1.0)));
    const double want_circle = ring_share_std_theory(n, v);
    const double want_key = key_share_std_theory(n, v, k);
    INFO("V = " << v << ": circle " << circle << " vs " << want_circle << ", keys " << key << " vs "
                << want_key << ", relative tolerance " << kSigmas * rel_sd);
    CHECK(std::abs(circle / want_circle - 1) < kSigmas * rel_sd);
    CHECK(std::abs(key / want_key - 1) < kSigmas * rel_sd);
  }
  CHECK(ring_share_std_theory(5, 1) == Approx(std::sqrt(4.0 / 6)));
  CHECK(ring_share_std_theory(5, 500) == Approx(0.04).epsilon(0.01));
}

TEST_CASE("ring with one token per node: busiest / mean is H_N on average, well above 2") {
  // N * (largest of N uniform spacings) has mean H_N; its variance is at most
  // that of the largest of N independent Exp(1), sum 1/i^2 (Renyi's
  // representation of exponential order statistics), so the mean over R rings
  // has sd below sqrt(sum 1/i^2 / R).
  const uint32_t rings = 400;
  for (uint32_t n : {3u, 5u, 10u}) {
    double sum = 0;
    for (uint32_t r = 0; r < rings; ++r) {
      const auto shares = circle_shares(replica_nodes(default_nodes(n, 1), r));
      sum += share_stats(std::span<const double>(shares)).busiest_over_mean;
    }
    double var = 0;
    for (uint32_t i = 1; i <= n; ++i) var += 1.0 / (double(i) * i);
    const double mean = sum / rings, want = ring_busiest_theory_v1(n);
    INFO("N = " << n << ": mean busiest / mean " << mean << ", theory " << want);
    CHECK(std::abs(mean - want) < kSigmas * std::sqrt(var / rings));
    CHECK(want > 1.8);
  }
  CHECK(ring_busiest_theory_v1(5) == Approx(137.0 / 60));
}

TEST_CASE("rendezvous and jump spread keys like independent draws") {
  // Ideal hashing puts each key on a node with probability 1/N, so a node's
  // share has sd sqrt((N-1)/K) of a fair share; the estimate over N nodes has
  // relative sd about 1/sqrt(2(N-1)).
  const uint32_t n = 50;
  const uint64_t k = 100'000;
  const KeySet keys = KeySet::counted(k);
  for (Scheme scheme : {Scheme::kRendezvous, Scheme::kJump, Scheme::kModN}) {
    const Balance b = measure_balance(scheme, default_nodes(n), keys);
    const double got = share_stats(std::span<const uint64_t>(b.node_keys)).std_pct / 100;
    const double want = key_share_std_theory(n, 0, k);
    INFO(scheme_name(scheme) << ": " << got << " vs " << want);
    CHECK(std::abs(got / want - 1) < kSigmas / std::sqrt(2.0 * (n - 1)));
    CHECK(b.circle.empty());
  }
}
