// Tests of removal scenarios (removals.h, and move and balance after one):
// the fleets a scenario leaves, the orders each scheme refuses by its
// registry entry, and the monotonicity counts and balance rows, each checked
// exactly against counts made apart from the lab: the schemes' references
// over node lists written out by hand (and jump_hash itself), key by key.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "chbench/hash.h"
#include "chbench/jump/jump.h"
#include "commands/balance.h"
#include "commands/move.h"
#include "removals.h"
#include "support.h"

using namespace chbench;
using namespace chbench::lab;
using namespace chbench::lab::test;
using Catch::Matchers::Contains;

namespace {

constexpr uint64_t kKeys = 20'000;

std::vector<std::string> names(std::initializer_list<int> ids) {
  std::vector<std::string> out;
  for (int i : ids) out.push_back(default_node_name(i));
  return out;
}

// The nodes of `nodes` (V, M kept) with these names, in this order.
NodeSet with_names(const NodeSet& nodes, std::vector<std::string> list) {
  NodeSet out = nodes;
  out.names = std::move(list);
  return out;
}

ScenarioRequest by_name(std::vector<std::string> removed, uint32_t readds = 0) {
  ScenarioRequest r;
  r.removed = std::move(removed);
  r.order = RemovalOrder::kExplicit;
  r.readds = readds;
  return r;
}

ScenarioRequest by_fraction(std::vector<double> fractions, RemovalOrder order, uint64_t seed = 0,
                            uint32_t readds = 0) {
  ScenarioRequest r;
  r.fractions = std::move(fractions);
  r.order = order;
  r.seed = seed;
  r.readds = readds;
  return r;
}

// A Setup as main.cc makes it for a scenario: the fleet of --nodes as
// `initial`, the scenario's fleet (for move without its re-adds).
Setup scenario_setup(Scheme scheme, Fleet initial, ScenarioRequest r, bool move) {
  Setup s;
  s.scheme = scheme;
  s.placement.scheme = scheme;
  s.initial = std::move(initial);
  const double first = r.fractions.empty() ? 0 : r.fractions[0];
  s.fleet = apply_scenario(scheme, s.initial, r, first, move ? 0 : r.readds);
  s.scenario = std::move(r);
  return s;
}

// Each key's owner, by name, from the scheme's reference over `nodes`.
std::vector<std::string> owner_names(Scheme scheme, const NodeSet& nodes,
                                     const std::vector<uint64_t>& hashes) {
  const auto owners = reference_owners(scheme, Fleet(nodes), hashes);
  std::vector<std::string> out;
  for (uint32_t o : owners) out.push_back(nodes.names[o]);
  return out;
}

// The counts of a move from owners `from` to owners `to` (by name), the
// nodes of `gone` removed and those of `come` added.
struct Expected {
  uint64_t moved = 0, between = 0, from_removed = 0, to_added = 0;
};
Expected expected_move(const std::vector<std::string>& from, const std::vector<std::string>& to,
                       const std::set<std::string>& gone, const std::set<std::string>& come) {
  Expected e;
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (from[i] == to[i]) continue;
    ++e.moved;
    e.from_removed += gone.count(from[i]);
    e.to_added += come.count(to[i]);
    e.between += !gone.count(from[i]) && !come.count(to[i]);
  }
  return e;
}

void check_move(const MoveResult& m, const Expected& e) {
  CHECK(m.keys == kKeys);
  CHECK(m.moved == e.moved);
  CHECK(m.between_old == e.between);
  CHECK(m.from_removed == e.from_removed);
  CHECK(m.to_added == e.to_added);
}

// The schemes of the registry with a given removal rule.
std::vector<const SchemeInfo*> schemes_with(Removal removal) {
  std::vector<const SchemeInfo*> out;
  for (const SchemeInfo& info : all_scheme_infos())
    if (info.removal == removal) out.push_back(&info);
  return out;
}

}  // namespace

TEST_CASE("scenario fleets: the survivors in list order, over default names or a given list") {
  const Fleet ten = default_nodes(10, 5);
  const Fleet hrw = apply_scenario(Scheme::kRendezvous, ten, by_name(names({3, 7})), 0, 0);
  CHECK(hrw.nodes().names == names({0, 1, 2, 4, 5, 6, 8, 9}));
  CHECK(hrw.nodes().vnodes == 5);
  CHECK(hrw.removed() == names({3, 7}));
  const Fleet back = apply_scenario(Scheme::kRendezvous, ten, by_name(names({3, 7}), 1), 0, 1);
  CHECK(back.nodes().names == names({0, 1, 2, 4, 5, 6, 8, 9, 7}));
  CHECK(rejoining(hrw, 10, 2) == names({7, 3}));
  CHECK_THROWS_WITH(rejoining(hrw, 10, 3), Contains("3 re-adds, but the scenario removes 2"));
  // FIFO over a named list removes its first names; LIFO its last.
  const Fleet abc = NodeSet{{"e", "a", "d", "b", "c"}, 1, 65537};
  const Fleet fifo =
      apply_scenario(Scheme::kRing, abc, by_fraction({0.4}, RemovalOrder::kFifo), 0.4, 0);
  CHECK(fifo.nodes().names == std::vector<std::string>{"d", "b", "c"});
  const Fleet lifo =
      apply_scenario(Scheme::kJump, abc, by_fraction({0.4}, RemovalOrder::kLifo), 0.4, 1);
  CHECK(lifo.nodes().names == std::vector<std::string>{"e", "a", "d", "b"});
  // A random order removes random_removals' positions (scenario.h's model test).
  const auto ids = random_removals(10, 5, 9);
  const Fleet random =
      apply_scenario(Scheme::kMaglev, ten, by_fraction({0.5}, RemovalOrder::kRandom, 9), 0.5, 0);
  std::vector<std::string> want;
  for (uint32_t i = 0; i < 10; ++i)
    if (std::find(ids.begin(), ids.end(), i) == ids.end()) want.push_back(default_node_name(i));
  CHECK(random.nodes().names == want);
}

TEST_CASE("scenario fleets of buckets: LIFO keeps them nameless up to the scheme's limit") {
  for (const SchemeInfo* info : schemes_with(Removal::kLastOnly)) {
    if (!info->buckets_only) continue;
    INFO(info->name);
    const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(info->max_nodes, 0x7fffffffu));
    const Fleet buckets = Fleet::of_buckets(n);
    const Fleet half =
        apply_scenario(info->id, buckets, by_fraction({0.5}, RemovalOrder::kLifo), 0.5, 3);
    CHECK_FALSE(half.named());
    CHECK(half.size() == n - removal_count(0.5, n) + 3);
    const std::vector<std::string> last = {default_node_name(n - 1), default_node_name(n - 2)};
    const Fleet two = apply_scenario(info->id, buckets, by_name(last), 0, 0);
    CHECK_FALSE(two.named());
    CHECK(two.size() == n - 2);
    CHECK(rejoining(two, n, 2) == std::vector<std::string>{last[1], last[0]});
  }
  // mod-N takes any order (and moves keys between survivors for each): a
  // removal other than LIFO names its buckets.
  const Fleet modn = apply_scenario(Scheme::kModN, Fleet::of_buckets(6), by_name(names({1})), 0, 0);
  CHECK(modn.nodes().names == names({0, 2, 3, 4, 5}));
}

TEST_CASE("the schemes whose only the last node can leave refuse any order but LIFO") {
  const auto last_only = schemes_with(Removal::kLastOnly);
  REQUIRE_FALSE(last_only.empty());
  for (const SchemeInfo* info : last_only) {
    INFO(info->name);
    const Fleet ten = default_nodes(10);
    for (RemovalOrder order : {RemovalOrder::kFifo, RemovalOrder::kRandom})
      CHECK_THROWS_WITH(
          apply_scenario(info->id, ten, by_fraction({0.3}, order), 0.3, 0),
          Contains(std::string(info->title) + " takes LIFO removal only") &&
              Contains("not --removal-order " + std::string(removal_order_name(order))) &&
              Contains("any order: ring, hrw, maglev"));
    CHECK_THROWS_WITH(apply_scenario(info->id, ten, by_name(names({9, 7})), 0, 0),
                      Contains("removal 2 of --removed must be 'node-8'"));
    CHECK_THROWS_WITH(
        apply_scenario(info->id, Fleet::of_buckets(0x7fffffffu), by_name(names({3})), 0, 0),
        Contains("removal 1 of --removed must be 'node-2147483646'"));
    CHECK(apply_scenario(info->id, ten, by_name(names({9, 8, 7})), 0, 0).size() == 7);
  }
  for (const SchemeInfo* info : schemes_with(Removal::kAnyNode)) {
    INFO(info->name);
    for (RemovalOrder order : {RemovalOrder::kLifo, RemovalOrder::kFifo, RemovalOrder::kRandom})
      CHECK(apply_scenario(info->id, default_nodes(10), by_fraction({0.3}, order), 0.3, 0).size() ==
            7);
  }
}

TEST_CASE("move over a scenario's removals: exact counts against the references") {
  const KeySet keys = KeySet::counted(kKeys);
  const auto hashes = default_key_hashes(kKeys);
  const NodeSet ten = default_nodes(10, 20);
  for (Scheme scheme : {Scheme::kRing, Scheme::kRendezvous, Scheme::kMaglev, Scheme::kJump}) {
    INFO(scheme_name(scheme));
    // Jump takes the last nodes only; the others lose two from the middle.
    const auto gone = scheme == Scheme::kJump ? names({9, 8}) : names({3, 7});
    const auto kept =
        scheme == Scheme::kJump ? names({0, 1, 2, 3, 4, 5, 6, 7}) : names({0, 1, 2, 4, 5, 6, 8, 9});
    const Setup s = scenario_setup(scheme, ten, by_name(gone), true);
    const MoveReport r = run_move(s, {}, keys);
    CHECK(r.step == MoveStep::kRemovals);
    CHECK(r.from_removed.empty());  // a scenario's step: counts only
    const Expected e = expected_move(owner_names(scheme, ten, hashes),
                                     owner_names(scheme, with_names(ten, kept), hashes),
                                     {gone.begin(), gone.end()}, {});
    check_move(r.result, e);
    CHECK(e.moved > 0);
    // Survivors never trade keys, except in Maglev's table, which trades a few.
    if (scheme == Scheme::kMaglev)
      CHECK(e.between > 0);
    else
      CHECK(e.between == 0);
    if (scheme == Scheme::kJump) {
      uint64_t on_last = 0;
      for (uint64_t h : hashes) on_last += jump_hash(h, 10) >= 8;
      CHECK(r.result.from_removed == on_last);
    }
  }
}

TEST_CASE("move over a scenario's re-adds: what returns, exactly") {
  const KeySet keys = KeySet::counted(kKeys);
  const auto hashes = default_key_hashes(kKeys);
  const NodeSet ten = default_nodes(10, 20);
  for (Scheme scheme : {Scheme::kRing, Scheme::kRendezvous, Scheme::kMaglev}) {
    for (uint32_t readds : {1u, 2u}) {
      INFO(scheme_name(scheme) << ", " << readds << " re-added");
      const Setup s = scenario_setup(scheme, ten, by_name(names({3, 7}), readds), true);
      const MoveReport r = run_move(s, {}, keys);
      CHECK(r.step == MoveStep::kReadds);
      // Re-adds bring back the last removed first, appended.
      const auto kept = names({0, 1, 2, 4, 5, 6, 8, 9});
      auto after = kept;
      after.push_back("node-7");
      if (readds == 2) after.push_back("node-3");
      const std::set<std::string> back(after.begin() + 8, after.end());
      const auto initial = owner_names(scheme, ten, hashes);
      const auto now = owner_names(scheme, with_names(ten, after), hashes);
      check_move(r.result,
                 expected_move(owner_names(scheme, with_names(ten, kept), hashes), now, {}, back));
      uint64_t old_keys = 0, returned = 0, relocated = 0;
      for (std::size_t i = 0; i < kKeys; ++i) {
        old_keys += back.count(initial[i]);
        returned += back.count(initial[i]) && now[i] == initial[i];
        relocated += now[i] != initial[i];
      }
      REQUIRE(r.returns);
      CHECK(r.returns->keys == kKeys);
      CHECK(r.returns->old_keys == old_keys);
      CHECK(r.returns->returned == returned);
      CHECK(r.returns->relocated == relocated);
      if (scheme != Scheme::kMaglev) {
        // A consistent scheme gives every old key back, and with every
        // removed node back, every key is where it was.
        CHECK(returned == old_keys);
        CHECK(r.result.between_old == 0);
        if (readds == 2) CHECK(relocated == 0);
      }
    }
  }
}

TEST_CASE("jump after a LIFO scenario: removals and re-adds counted by jump_hash itself") {
  const KeySet keys = KeySet::counted(kKeys);
  const auto hashes = default_key_hashes(kKeys);
  for (const bool buckets : {true, false}) {
    INFO((buckets ? "a fleet of buckets" : "named buckets"));
    const Fleet initial = buckets ? Fleet::of_buckets(10) : Fleet(default_nodes(10));
    const Setup removals =
        scenario_setup(Scheme::kJump, initial, by_fraction({0.3}, RemovalOrder::kLifo), true);
    const Setup readds =
        scenario_setup(Scheme::kJump, initial, by_fraction({0.3}, RemovalOrder::kLifo, 0, 2), true);
    CHECK(removals.fleet.named() == !buckets);
    const MoveReport gone = run_move(removals, {}, keys);
    const MoveReport back = run_move(readds, {}, keys);
    uint64_t on_removed = 0, to_back = 0, old_keys = 0, relocated = 0;
    for (uint64_t h : hashes) {
      const uint32_t at10 = jump_hash(h, 10), at7 = jump_hash(h, 7), at9 = jump_hash(h, 9);
      on_removed += at10 >= 7;
      to_back += at9 != at7;
      old_keys += at10 == 7 || at10 == 8;
      relocated += at9 != at10;
    }
    check_move(gone.result, {on_removed, 0, on_removed, 0});
    check_move(back.result, {to_back, 0, 0, to_back});
    REQUIRE(back.returns);
    CHECK(back.returns->old_keys == old_keys);
    CHECK(back.returns->returned == old_keys);
    CHECK(back.returns->relocated == relocated);
  }
}

TEST_CASE("move after a scenario: --add and --remove change the fleet it leaves") {
  const KeySet keys = KeySet::counted(kKeys);
  const auto hashes = default_key_hashes(kKeys);
  const NodeSet six = default_nodes(6);
  const Setup s = scenario_setup(Scheme::kRendezvous, six, by_name(names({1})), true);
  MoveRequest request;
  request.remove = names({4});
  const MoveReport r = run_move(s, request, keys);
  CHECK(r.step == MoveStep::kChange);
  CHECK(r.before.nodes().names == names({0, 2, 3, 4, 5}));
  check_move(r.result, expected_move(owner_names(Scheme::kRendezvous, s.fleet.nodes(), hashes),
                                     owner_names(Scheme::kRendezvous,
                                                 with_names(six, names({0, 2, 3, 5})), hashes),
                                     {"node-4"}, {}));
  REQUIRE(r.from_removed.size() == 1);  // a change asked for keeps its flows
  CHECK(r.from_removed[0].keys == r.result.from_removed);
}

TEST_CASE("balance after removals: a row per fraction, counted by jump_hash and the references") {
  const KeySet keys = KeySet::counted(kKeys);
  const auto hashes = default_key_hashes(kKeys);
  const std::vector<double> fractions = {0, 0.3, 0.5, 0.9};
  const Setup jump = scenario_setup(Scheme::kJump, Fleet::of_buckets(10),
                                    by_fraction(fractions, RemovalOrder::kLifo), false);
  const RemovalBalanceReport r = run_balance_removals(jump, keys);
  REQUIRE(r.rows.size() == 4);
  CHECK(r.initial_nodes == 10);
  for (std::size_t i = 0; i < fractions.size(); ++i) {
    const uint32_t n = 10 - removal_count(fractions[i], 10);
    INFO("fraction " << fractions[i] << ", " << n << " buckets");
    std::vector<uint64_t> count(n, 0);
    for (uint64_t h : hashes) ++count[jump_hash(h, n)];
    const RemovalBalanceRow& row = r.rows[i];
    CHECK(row.fraction == fractions[i]);
    CHECK(row.removed == 10 - n);
    CHECK(row.nodes == n);
    CHECK(row.min == *std::min_element(count.begin(), count.end()));
    CHECK(row.max == *std::max_element(count.begin(), count.end()));
    CHECK(row.mean == Approx(static_cast<double>(kKeys) / n));
    CHECK(row.stats.busiest_over_mean ==
          Approx(static_cast<double>(row.max) * n / static_cast<double>(kKeys)));
  }
  // Rendezvous after a random removal of half of 8 nodes, then one re-added.
  const NodeSet eight = default_nodes(8);
  const Setup hrw = scenario_setup(Scheme::kRendezvous, eight,
                                   by_fraction({0.5}, RemovalOrder::kRandom, 21, 1), false);
  const auto ids = random_removals(8, 4, 21);
  std::vector<std::string> left;
  for (uint32_t i = 0; i < 8; ++i)
    if (std::find(ids.begin(), ids.end(), i) == ids.end()) left.push_back(default_node_name(i));
  left.push_back(default_node_name(ids[3]));  // the last removed comes back first
  std::vector<uint64_t> count(left.size(), 0);
  for (uint32_t o : reference_owners(Scheme::kRendezvous, with_names(eight, left), hashes))
    ++count[o];
  const RemovalBalanceRow row = run_balance_removals(hrw, keys).rows.at(0);
  CHECK(row.removed == 4);
  CHECK(row.nodes == 5);
  CHECK(row.min == *std::min_element(count.begin(), count.end()));
  CHECK(row.max == *std::max_element(count.begin(), count.end()));
  // An explicit list gives one row at removed / N.
  const Setup named = scenario_setup(Scheme::kMaglev, eight, by_name(names({5, 0})), false);
  const RemovalBalanceReport one = run_balance_removals(named, keys);
  REQUIRE(one.rows.size() == 1);
  CHECK(one.rows[0].fraction == 0.25);
  CHECK(one.rows[0].nodes == 6);
}

TEST_CASE("move after a scenario: a node that left already is named as such in --remove") {
  const KeySet keys = KeySet::counted(100);
  for (const Scheme scheme : {Scheme::kAnchor, Scheme::kRing}) {
    INFO(scheme_name(scheme));
    const Setup s = scenario_setup(scheme, default_nodes(10), by_name(names({3})), true);
    MoveRequest request;
    request.remove = names({3});
    CHECK_THROWS_WITH(run_move(s, request, keys),
                      "node 'node-3' in --remove is not in service: it left already, in the "
                      "removal scenario");
    request.remove = {"node-12"};
    CHECK_THROWS_WITH(run_move(s, request, keys),
                      "unknown node 'node-12' in --remove (not in --nodes)");
  }
}
