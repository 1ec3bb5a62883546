// Tests of the lab over production profiles and Maglev: owners by the
// profile's own key hashes, what a resize moves, Maglev's balance.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "placement.h"
#include "support.h"

using namespace chbench;
using namespace chbench::lab;
using namespace chbench::lab::test;

TEST_CASE("lab: profile owners are the profile's reference over its own key hashes",
          "[lab][profiles]") {
  const KeySet keys = KeySet::counted(20'000);
  for (Profile profile : all_profiles()) {
    Placement placement{profile_scheme(profile), profile, {}};
    const unsigned params = profile_params(profile);
    NodeSet nodes = default_nodes(9, params & kParamVnodes ? 32 : 1);
    if (profile == Profile::kTwemproxyKetama)  // nutcracker's servers are host:port
      for (auto& name : nodes.names) name += ":11211";
    if (params & kParamWeights) placement.weights = {{nodes.names[0], 3}, {nodes.names[4], 2}};
    std::vector<uint32_t> got(keys.size());
    lookup_owners(*make_table(placement, nodes), keys, 0, got, profile);
    std::vector<uint64_t> hashes(keys.size());
    for (uint64_t i = 0; i < keys.size(); ++i) hashes[i] = profile_key_hash(profile, keys.key(i));
    std::vector<uint32_t> want(keys.size());
    build_profile_reference(profile, profile_cluster(placement, nodes))->owners(hashes, want);
    INFO("profile " << profile_name(profile));
    CHECK(got == want);
  }
}

TEST_CASE("lab: ketama and cassandra move keys only to a newcomer, Kafka like mod-N",
          "[lab][profiles][move]") {
  const KeySet keys = KeySet::counted(100'000);
  const NodeSet before = default_nodes(8, 256);
  const std::vector<std::string> add = {"node-8"};
  const Fleet after = apply_change(Scheme::kRing, before, add, {});
  for (Profile profile : {Profile::kKetama, Profile::kCassandra}) {
    INFO("profile " << profile_name(profile));
    const MoveResult r = measure_move(Placement{Scheme::kRing, profile, {}}, before, after, keys);
    CHECK(r.between_old == 0);
    CHECK(r.moved == r.to_added);
    // About 1/9 of the keys, within the spread of 8 x 160 or 256 tokens.
    CHECK(std::abs(static_cast<double>(r.moved) / 1e5 - 1.0 / 9) < 0.03);
  }
  // toPositive(murmur2) % 8 == % 9 keeps a key only when h mod 72 < 8.
  const MoveResult kafka =
      measure_move(Placement{Scheme::kModN, Profile::kKafka, {}}, before, after, keys);
  const double moved = static_cast<double>(kafka.moved) / 1e5;
  CHECK(std::abs(moved - 8.0 / 9) < kSigmas * binomial_sd(8.0 / 9, 100'000));
}

TEST_CASE("lab: Maglev balances within one table entry and moves little on a join",
          "[lab][maglev][move]") {
  const KeySet keys = KeySet::counted(200'000);
  const NodeSet before = default_nodes(100);
  const std::vector<std::string> add = {"node-100"};
  const Fleet after = apply_change(Scheme::kMaglev, before, add, {});
  NodeSet larger = before;
  larger.table_size = 655373;
  // The table size goes with the nodes: a change never resizes the table.
  CHECK(apply_change(Scheme::kMaglev, larger, add, {}).nodes().table_size == 655373);
  const MoveResult r = measure_move(Scheme::kMaglev, before, after, keys);
  const double fair = 1.0 / 101;
  // The newcomer takes its fair share (its 648 or 649 of 65537 entries) ...
  CHECK(std::abs(static_cast<double>(r.to_added) / 2e5 - fair) <
        kSigmas * binomial_sd(fair, 200'000));
  // ... and some keys shift between old nodes, but few: the paper's small
  // disruption, well under the 99% mod-N would move.
  CHECK(r.between_old > 0);
  CHECK(static_cast<double>(r.between_old) / 2e5 < 0.05);
  const Balance b = measure_balance(Scheme::kMaglev, before, keys);
  const ShareStats st = share_stats(std::span<const uint64_t>(b.node_keys));
  // Entries are 655 or 656 per node; keys add binomial noise only.
  CHECK(st.std_pct < 100.0 * kSigmas * std::sqrt(99.0 / 200'000) / 2);
}
