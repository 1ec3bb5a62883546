// Replica sets (ReplicaTable, scheme.h): every replica kernel against its
// scheme's replica reference, in order, on every Highway target; the
// references against an independent model of docs/spec.md (the ring's walk,
// rendezvous' ranking); the first replica is the owner; the refusals.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/nodes.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"

using Catch::Matchers::Contains;
using chbench::Fleet;
using chbench::NodeSet;
using chbench::Scheme;
using chbench_test::kSeed;

namespace {

constexpr Scheme kReplicaSchemes[] = {Scheme::kRing, Scheme::kRendezvous};

std::vector<uint32_t> replicas_of(const chbench::ReplicaTable& table,
                                  const std::vector<uint64_t>& keys) {
  std::vector<uint32_t> out(keys.size() * table.replica_count(), chbench_test::kGuard);
  table.replicas(keys, out);
  return out;
}

// Tokens, one above and below each (up to 300 of them), 0, UINT64_MAX and
// `random` uniform key hashes.
std::vector<uint64_t> keys_for(const NodeSet& nodes, std::size_t random, std::mt19937_64& rng) {
  std::vector<uint64_t> keys = {0, 1, std::numeric_limits<uint64_t>::max()};
  const auto tokens = chbench_test::model_ring(nodes);
  for (std::size_t i = 0; i < tokens.size() && i < 300; ++i)
    for (uint64_t d : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}}) keys.push_back(tokens[i].first + d);
  chbench_test::append_random(keys, random, rng);
  return keys;
}

// The model: docs/spec.md §6's ring walked entry by entry from the first token >= h,
// a node taken the first time it is met.
std::vector<uint32_t> model_ring_walk(const std::vector<std::pair<uint64_t, uint32_t>>& tokens,
                                      uint64_t h, uint32_t r) {
  std::size_t at = 0;
  while (at < tokens.size() && tokens[at].first < h) ++at;
  std::vector<uint32_t> out;
  for (std::size_t step = 0; out.size() < r; ++step) {
    const uint32_t node = tokens[(at + step) % tokens.size()].second;
    if (std::find(out.begin(), out.end(), node) == out.end()) out.push_back(node);
  }
  return out;
}

// The model: every node's score fmix64(h ^ XXH3(name)), highest first,
// ties by lower index.
std::vector<uint32_t> model_hrw_top(const NodeSet& nodes, uint64_t h, uint32_t r) {
  std::vector<std::pair<uint64_t, uint32_t>> ranked;
  for (uint32_t n = 0; n < nodes.size(); ++n)
    ranked.emplace_back(chbench_test::model_fmix64(h ^ chbench_test::xxh3(nodes.names[n])), n);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<uint32_t> out;
  for (uint32_t j = 0; j < r; ++j) out.push_back(ranked[j].second);
  return out;
}

}  // namespace

TEST_CASE("replicas: every replica kernel matches the reference in order, on every target",
          "[replicas][simd][targets]") {
  std::mt19937_64 rng(kSeed + 190);
  struct Case {
    uint32_t n, v;
  };
  // From 8 * R nodes on, the SIMD top-R goes in groups of four (257: 64 of
  // them and a group of one; 2049: 512 and one), for R up to 8 (9: per node).
  const Case cases[] = {{1, 1},   {2, 1},   {3, 2},    {7, 1},      {7, 50},
                        {100, 3}, {257, 1}, {1000, 1}, {1000, 100}, {2049, 1}};
  for (const Case c : cases) {
    const NodeSet nodes = chbench::default_nodes(c.n, c.v);
    const auto keys = keys_for(nodes, chbench_test::kEmulated ? 300 : 1500, rng);
    std::vector<uint32_t> counts = {1, 2, 3, 5};
    if (c.n <= 100) counts.push_back(c.n);  // every node ranked
    if (c.n > 100) counts.insert(counts.end(), {8, 9});
    for (Scheme s : kReplicaSchemes) {
      REQUIRE(!chbench::replica_kernels_of(s).empty());
      for (uint32_t r : counts) {
        if (r > c.n) continue;
        const auto want = replicas_of(*chbench::build_replica_reference(s, nodes, r), keys);
        for (int64_t target : chbench_test::test_targets()) {
          chbench::simd::ForcedTarget forced(target);
          for (const auto* k : chbench::replica_kernels_of(s)) {
            if (!chbench_test::checks_at_this_target(*k)) continue;
            INFO(k->full_name() << " on " << chbench::simd::target_name(target) << ": N = " << c.n
                                << ", V = " << c.v << ", R = " << r);
            const auto got = replicas_of(*chbench::build_replicas(*k, nodes, r), keys);
            CHECK(got == want);
          }
        }
      }
    }
  }
}

TEST_CASE("replicas: the references follow the ring's walk and rendezvous' ranking (model)",
          "[replicas][spec]") {
  std::mt19937_64 rng(kSeed + 191);
  for (int trial = 0; trial < 30; ++trial) {
    const uint32_t n = 1 + static_cast<uint32_t>(rng() % 30);
    const uint32_t v = 1 + static_cast<uint32_t>(rng() % 20);
    const uint32_t r = 1 + static_cast<uint32_t>(rng() % n);
    const NodeSet nodes = chbench::default_nodes(n, v);
    const auto keys = keys_for(nodes, 300, rng);
    const auto tokens = chbench_test::model_ring(nodes);
    const auto ring = replicas_of(*chbench::build_replica_reference(Scheme::kRing, nodes, r), keys);
    const auto hrw =
        replicas_of(*chbench::build_replica_reference(Scheme::kRendezvous, nodes, r), keys);
    const auto ring_owner =
        chbench_test::owners_of(*chbench::build_reference(Scheme::kRing, nodes), keys);
    const auto hrw_owner =
        chbench_test::owners_of(*chbench::build_reference(Scheme::kRendezvous, nodes), keys);
    INFO("N = " << n << ", V = " << v << ", R = " << r);
    uint64_t ring_wrong = 0, hrw_wrong = 0, first_wrong = 0, repeated = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::vector<uint32_t> ring_set(ring.begin() + i * r, ring.begin() + (i + 1) * r);
      const std::vector<uint32_t> hrw_set(hrw.begin() + i * r, hrw.begin() + (i + 1) * r);
      ring_wrong += ring_set != model_ring_walk(tokens, keys[i], r);
      hrw_wrong += hrw_set != model_hrw_top(nodes, keys[i], r);
      first_wrong += (ring_set[0] != ring_owner[i]) + (hrw_set[0] != hrw_owner[i]);
      repeated += std::set<uint32_t>(ring_set.begin(), ring_set.end()).size() != r;
      repeated += std::set<uint32_t>(hrw_set.begin(), hrw_set.end()).size() != r;
    }
    CHECK(ring_wrong == 0);
    CHECK(hrw_wrong == 0);
    CHECK(first_wrong == 0);
    CHECK(repeated == 0);
  }
}

TEST_CASE("replicas: R = 0, R above N, the schemes without replicas and bad spans are refused",
          "[replicas][errors]") {
  const Fleet fleet(chbench::default_nodes(3, 2));
  for (Scheme s : kReplicaSchemes) {
    CHECK_THROWS_WITH(chbench::build_replica_reference(s, fleet, 4),
                      "R = 4 replicas need at least 4 nodes (the fleet has 3)");
    CHECK_THROWS_WITH(chbench::build_replica_reference(s, fleet, 0), Contains("R = 0"));
    for (const auto* k : chbench::replica_kernels_of(s)) {
      INFO(k->full_name());
      CHECK_THROWS_WITH(chbench::build_replicas(*k, fleet, 4), Contains("need at least 4 nodes"));
      const auto table = chbench::build_replicas(*k, fleet, 2);
      std::vector<uint64_t> keys(5);
      std::vector<uint32_t> out(9);
      CHECK_THROWS_WITH(table->replicas(keys, out), Contains("R = 2 owners per key"));
    }
  }
  CHECK_THROWS_WITH(chbench::build_replica_reference(Scheme::kMaglev, fleet, 2),
                    Contains("Maglev has no replica sets: its lookup table names one backend"));
  CHECK_THROWS_WITH(chbench::build_replica_reference(Scheme::kJump, fleet, 2),
                    Contains("jump hash has no replica sets"));
  for (const chbench::SchemeInfo& s : chbench::all_scheme_infos()) {
    if (s.replicas_reference != nullptr) continue;
    INFO(s.name);
    CHECK(chbench::replica_kernels_of(s.id).empty());
    CHECK_THROWS_WITH(chbench::build_replicas(chbench::default_kernel(s.id), fleet, 1),
                      Contains("has no replica sets: " + std::string(s.replicas_note)));
  }
  CHECK_THROWS_WITH(
      chbench::build_replicas(chbench::find_kernel("ring/eytzinger"), fleet, 2),
      Contains(
          "ring/eytzinger has no replica lookup (the scheme's: ring/branchless, or reference)"));
}

TEST_CASE("replicas: R counts the nodes of weight above 0, every set is R of them",
          "[replicas][errors][weights]") {
  const auto weighted = [](std::vector<uint32_t> w) {
    NodeSet nodes = chbench::default_nodes(static_cast<uint32_t>(w.size()), 3);
    nodes.weights = std::move(w);
    return Fleet(nodes);
  };
  CHECK(chbench::replica_candidates(weighted({0, 1, 1})) == 2);
  CHECK(chbench::replica_candidates(Fleet(chbench::default_nodes(3))) == 3);
  CHECK_THROWS_WITH(chbench::build_replica_reference(Scheme::kRing, weighted({0, 1, 1}), 3),
                    "R = 3 replicas need at least 3 nodes of weight above 0 (the fleet has 2 of "
                    "its 3 nodes)");
  CHECK_THROWS_WITH(chbench::build_replica_reference(Scheme::kRing, weighted({0, 0, 1}), 2),
                    Contains("(the fleet has 1 of its 3 nodes)"));
  for (const auto* k : chbench::replica_kernels_of(Scheme::kRing))
    CHECK_THROWS_WITH(chbench::build_replicas(*k, weighted({0, 1, 1}), 3),
                      Contains("of weight above 0"));
  // R from 1 to the nodes of weight above 0: R distinct nodes, none of weight 0.
  std::mt19937_64 rng(kSeed);
  std::vector<uint64_t> keys(400);
  for (auto& h : keys) h = rng();
  for (const auto& w : {std::vector<uint32_t>{0, 1, 1}, std::vector<uint32_t>{0, 0, 1},
                        std::vector<uint32_t>{3, 0, 1, 0, 2}, std::vector<uint32_t>{0, 9, 0, 0}}) {
    const Fleet fleet = weighted(w);
    for (uint32_t r = 1; r <= chbench::replica_candidates(fleet); ++r) {
      INFO("R = " << r << " over " << w.size() << " nodes");
      const auto want =
          replicas_of(*chbench::build_replica_reference(Scheme::kRing, fleet, r), keys);
      for (std::size_t i = 0; i < keys.size(); ++i) {
        std::set<uint32_t> set(want.begin() + i * r, want.begin() + (i + 1) * r);
        CHECK(set.size() == r);
        for (const uint32_t n : set) CHECK(w.at(n) > 0);
      }
      for (const auto* k : chbench::replica_kernels_of(Scheme::kRing))
        CHECK(replicas_of(*chbench::build_replicas(*k, fleet, r), keys) == want);
    }
  }
}
