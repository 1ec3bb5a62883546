// Helpers for the tests of the schemes that read a fleet's history and take
// no capacity (SchemeInfo::reads_history, params = 0: memento,
// jumpback_anchor): every Highway target in turn, random scenarios with
// joins and leaves after them, owners by name, and the counts a removal and
// a re-add must give, exactly.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/scenario.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"

namespace chbench_test {

// Runs `check()` once on every runnable Highway target, forced in turn.
template <class Check>
void on_every_target(const Check& check) {
  for (int64_t target : chbench_test::test_targets()) {
    const chbench::simd::ForcedTarget forced(target);
    REQUIRE(chbench::simd::dispatched_target() == target);
    INFO("target " << chbench::simd::dispatched_target_name());
    check();
  }
}

// A count from 1 to max, its logarithm uniform.
inline uint32_t log_uniform(std::mt19937_64& rng, uint32_t max) {
  const double x = std::exp(std::uniform_real_distribution<double>(0, std::log(max + 1.0))(rng));
  return std::clamp<uint32_t>(static_cast<uint32_t>(x), 1, max);
}

// A random scenario (N log-uniform up to max_nodes, any order, 0 to 95%
// removed, a seed, re-adds, a capacity that a scheme without one ignores),
// then up to 11 random joins (new names or removed ones) and leaves.
inline chbench::Fleet random_history_fleet(std::mt19937_64& rng, uint32_t max_nodes) {
  chbench::Scenario s;
  s.nodes = log_uniform(rng, max_nodes);
  s.capacity = rng() % 2 == 0 ? 0 : s.nodes + static_cast<uint32_t>(rng() % (s.nodes + 1));
  s.order = static_cast<chbench::RemovalOrder>(rng() % 4);
  s.remove_fraction = std::uniform_real_distribution<double>(0, 0.95)(rng);
  s.seed = rng();
  if (s.order == chbench::RemovalOrder::kExplicit) {
    const auto order =
        chbench::random_removals(s.nodes, chbench::removal_count(0.5, s.nodes), rng());
    for (uint32_t i : order) s.removed.push_back("node-" + std::to_string(i));
  }
  const auto removed = chbench::removal_list(s).size();
  s.readds = removed == 0 ? 0 : static_cast<uint32_t>(rng() % (removed + 1));
  chbench::Fleet f = chbench::scenario_fleet(s);
  for (int change = static_cast<int>(rng() % 12); change > 0; --change) {
    const auto gone = f.removed();
    if (rng() % 2 == 0 && f.size() > 1) {
      f.leave(f.nodes().names[rng() % f.size()]);
    } else if (rng() % 2 == 0 && !gone.empty()) {
      f.join(gone[rng() % gone.size()]);
    } else {
      f.join("extra-" + std::to_string(rng()));
    }
  }
  return f;
}

// The owner names of `keys` under the scheme's reference over `fleet`.
inline std::vector<std::string> owner_names(chbench::Scheme scheme, const chbench::Fleet& fleet,
                                            std::span<const uint64_t> keys) {
  const auto owners = owners_of(*chbench::build_reference(scheme, fleet), keys);
  std::vector<std::string> names;
  for (uint32_t o : owners) names.push_back(fleet.nodes().names.at(o));
  return names;
}

// On `trials` random fleets (up to 200 nodes): a leave moves every key of the
// leaving node and no other; the same node joining again brings back exactly
// its keys; a new name joining instead takes exactly those keys.
inline void check_leave_and_rejoin(chbench::Scheme scheme, std::mt19937_64& rng,
                                   std::span<const uint64_t> keys, int trials) {
  for (int trial = 0; trial < trials; ++trial) {
    chbench::Fleet f = random_history_fleet(rng, 200);
    if (f.size() < 2) f.join("spare");
    const auto before = owner_names(scheme, f, keys);
    const std::string gone = f.nodes().names[rng() % f.size()];
    INFO("trial " << trial << ": " << gone << " leaves a fleet of " << f.size());
    chbench::Fleet left = f;
    left.leave(gone);
    const auto after = owner_names(scheme, left, keys);
    std::size_t on_gone = 0, moved_off = 0, between = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      on_gone += before[i] == gone;
      moved_off += before[i] == gone && after[i] != gone;
      between += before[i] != gone && after[i] != before[i];
    }
    CHECK(moved_off == on_gone);
    CHECK(between == 0);
    chbench::Fleet back = left;
    back.join(gone);
    CHECK(owner_names(scheme, back, keys) == before);
    chbench::Fleet other = left;
    other.join("newcomer");
    const auto taken = owner_names(scheme, other, keys);
    std::size_t to_new = 0, moved = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      to_new += taken[i] == "newcomer";
      moved += taken[i] != after[i];
      if (taken[i] != after[i]) CHECK((taken[i] == "newcomer" && before[i] == gone));
    }
    CHECK(to_new == on_gone);
    CHECK(moved == on_gone);
  }
}

// Half of 50 nodes leave in a random order (`seed`), one by one: each leave
// moves exactly the leaving node's keys (some). Then they join again, the
// last removed first: each join brings back the placement before its leave.
inline void check_removals_then_readds(chbench::Scheme scheme, std::span<const uint64_t> keys,
                                       uint64_t seed) {
  chbench::Scenario s;
  s.nodes = 50;
  s.order = chbench::RemovalOrder::kRandom;
  s.remove_fraction = 0.5;
  s.seed = seed;
  const auto removed = chbench::removal_list(s);
  chbench::Fleet fleet(chbench::default_nodes(50));
  std::vector<std::vector<std::string>> placements = {owner_names(scheme, fleet, keys)};
  for (const std::string& gone : removed) {
    const auto& before = placements.back();
    fleet.leave(gone);
    auto after = owner_names(scheme, fleet, keys);
    std::size_t on_gone = 0, moved = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      on_gone += before[i] == gone;
      moved += after[i] != before[i];
    }
    INFO(gone << " leaves, " << fleet.size() << " left");
    CHECK(on_gone > 0);
    CHECK(moved == on_gone);
    placements.push_back(std::move(after));
  }
  for (std::size_t k = removed.size(); k-- > 0;) {
    fleet.join(removed[k]);
    INFO(removed[k] << " joins again");
    CHECK(owner_names(scheme, fleet, keys) == placements[k]);
  }
}

// A join to 37 nodes that never changed moves about a 38th of the keys, each
// to the new node.
inline void check_join_moves_to_new(chbench::Scheme scheme, std::span<const uint64_t> keys) {
  chbench::Fleet f(chbench::default_nodes(37));
  const auto before = owner_names(scheme, f, keys);
  f.join("node-37");
  const auto after = owner_names(scheme, f, keys);
  std::size_t moved = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (after[i] == before[i]) continue;
    ++moved;
    CHECK(after[i] == "node-37");
  }
  CHECK(moved > keys.size() / 38 / 2);
  CHECK(moved < keys.size() / 38 * 2);
}

// The scheme's default kernel within 5% of the mean load on every node, for
// 1e5 `keys`, after random removals of 0% and 50% of 20 nodes and 90% of 100
// (5,000 or 10,000 keys a node: 5% is 3.5 to 5 sigma).
inline void check_balance(chbench::Scheme scheme, std::span<const uint64_t> keys) {
  for (double fraction : {0.0, 0.5, 0.9}) {
    chbench::Scenario s;
    s.nodes = fraction == 0.9 ? 100 : 20;
    s.order = chbench::RemovalOrder::kRandom;
    s.remove_fraction = fraction;
    s.seed = 7;
    const chbench::Fleet f = chbench::scenario_fleet(s);
    INFO(f.size() << " of " << s.nodes << " nodes left");
    const auto owners = owners_of(*chbench::default_kernel(scheme).build(f), keys);
    std::vector<int> count(f.size(), 0);
    for (uint32_t o : owners) ++count.at(o);
    const double mean = static_cast<double>(keys.size()) / f.size();
    for (int c : count) CHECK(std::abs(c - mean) < 0.05 * mean);
  }
}

}  // namespace chbench_test
