// Fleet scenarios (scenario.h): which nodes a scenario removes, in what
// order, and the fleet it leaves, against an independent model of the rules.
#include <catch2/catch.hpp>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/scenario.h"

using Catch::Matchers::Contains;
using chbench::RemovalOrder;
using chbench::Scenario;

namespace {

std::vector<std::string> names(std::initializer_list<int> ids) {
  std::vector<std::string> out;
  for (int i : ids) out.push_back("node-" + std::to_string(i));
  return out;
}

// The shuffle of random_removals written out again from its comment.
std::vector<uint32_t> model_shuffle(uint32_t n, uint32_t count, uint64_t seed) {
  std::vector<uint32_t> v;
  for (uint32_t i = 0; i < n; ++i) v.push_back(i);
  for (uint32_t i = 0; i < count; ++i) {
    seed += 0x9e3779b97f4a7c15ULL;
    uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    const uint64_t span = n - i;
    const uint64_t j = i + static_cast<uint64_t>((static_cast<unsigned __int128>(z) * span) >> 64);
    std::swap(v[i], v[j]);
  }
  v.resize(count);
  return v;
}

}  // namespace

TEST_CASE("scenario: LIFO, FIFO and explicit orders remove the nodes they name", "[scenario]") {
  Scenario s;
  s.nodes = 10;
  s.remove_fraction = 0.3;
  CHECK(chbench::removal_list(s) == names({9, 8, 7}));
  s.order = RemovalOrder::kFifo;
  CHECK(chbench::removal_list(s) == names({0, 1, 2}));
  s.order = RemovalOrder::kExplicit;
  s.removed = names({4, 0, 7});
  CHECK(chbench::removal_list(s) == names({4, 0, 7}));
  const chbench::Fleet f = chbench::scenario_fleet(s);
  CHECK(f.nodes().names == names({1, 2, 3, 5, 6, 8, 9}));
  CHECK(f.removed() == names({4, 0, 7}));
  CHECK(f.initial().size() == 10);
}

TEST_CASE("scenario: the removed count rounds the fraction and keeps one node", "[scenario]") {
  CHECK(chbench::removal_count(0, 1000) == 0);
  CHECK(chbench::removal_count(0.1, 1000) == 100);
  CHECK(chbench::removal_count(0.5, 1000) == 500);
  CHECK(chbench::removal_count(0.9, 1000) == 900);
  CHECK(chbench::removal_count(0.25, 10) == 3);  // 2.5 rounds away from zero
  CHECK(chbench::removal_count(0.99, 10) == 9);  // round(9.9) = 10, one node kept
  CHECK(chbench::removal_count(0.5, 1) == 0);
  CHECK_THROWS_WITH(chbench::removal_count(1.0, 10), Contains("below 1"));
  CHECK_THROWS_AS(chbench::removal_count(-0.1, 10), std::invalid_argument);
}

TEST_CASE("scenario: a random order is a seeded Fisher-Yates prefix", "[scenario]") {
  for (uint64_t seed : {0ULL, 1ULL, 0x5eedULL}) {
    INFO("seed " << seed);
    const auto got = chbench::random_removals(1000, 900, seed);
    CHECK(got == model_shuffle(1000, 900, seed));
    CHECK(std::set<uint32_t>(got.begin(), got.end()).size() == 900);
  }
  CHECK(chbench::random_removals(1000, 10, 1) != chbench::random_removals(1000, 10, 2));
  Scenario s;
  s.nodes = 1000;
  s.order = RemovalOrder::kRandom;
  s.remove_fraction = 0.5;
  s.seed = 7;
  const auto list = chbench::removal_list(s);
  const auto ids = model_shuffle(1000, 500, 7);
  REQUIRE(list.size() == 500);
  for (std::size_t i = 0; i < list.size(); ++i) CHECK(list[i] == "node-" + std::to_string(ids[i]));
}

TEST_CASE("scenario: re-adds bring back the last removed first", "[scenario]") {
  Scenario s;
  s.nodes = 6;
  s.order = RemovalOrder::kExplicit;
  s.removed = names({1, 4, 2});
  s.readds = 2;
  s.capacity = 60;
  const chbench::Fleet f = chbench::scenario_fleet(s);
  CHECK(f.nodes().names == names({0, 3, 5, 2, 4}));
  CHECK(f.removed() == names({1}));
  CHECK(f.nodes().capacity == 60);
  CHECK(f.history().size() == 5);
  s.readds = 4;
  CHECK_THROWS_WITH(chbench::scenario_fleet(s), Contains("removes 3"));
}

TEST_CASE("scenario: bad scenarios are refused with the reason", "[scenario][errors]") {
  Scenario s;
  s.nodes = 4;
  s.order = RemovalOrder::kExplicit;
  s.removed = names({1, 1});
  CHECK_THROWS_WITH(chbench::removal_list(s), Contains("removed twice"));
  s.removed = {"node-4"};
  CHECK_THROWS_WITH(chbench::removal_list(s), Contains("node-0 ... node-3"));
  s.removed = {"node-01"};
  CHECK_THROWS_AS(chbench::removal_list(s), std::invalid_argument);
  s.removed = names({0, 1, 2, 3});
  CHECK_THROWS_WITH(chbench::removal_list(s), Contains("every node"));
  s.nodes = 0;
  CHECK_THROWS_WITH(chbench::removal_list(s), Contains("N = 0"));
  CHECK(chbench::parse_removal_order("fifo") == RemovalOrder::kFifo);
  CHECK_FALSE(chbench::parse_removal_order("explicit").has_value());
  CHECK_FALSE(chbench::parse_removal_order("LIFO").has_value());
}

TEST_CASE("fleet: leave_all is leave() in order, and refuses without a change", "[fleet]") {
  chbench::Fleet a(chbench::default_nodes(8));
  chbench::Fleet b(chbench::default_nodes(8));
  const auto gone = names({5, 0, 7});
  a.leave_all(gone);
  for (const auto& name : gone) b.leave(name);
  CHECK(a.nodes().names == b.nodes().names);
  CHECK(a.history().size() == 3);
  CHECK(std::vector<chbench::FleetChange>(a.history().begin(), a.history().end()) ==
        std::vector<chbench::FleetChange>(b.history().begin(), b.history().end()));
  chbench::Fleet c(chbench::default_nodes(3));
  CHECK_THROWS_WITH(c.leave_all(names({1, 9})), Contains("no node 'node-9'"));
  CHECK_THROWS_WITH(c.leave_all(names({1, 1})), Contains("twice"));
  CHECK_THROWS_WITH(c.leave_all(names({0, 1, 2})), Contains("at least one"));
  CHECK(c.history().empty());
  CHECK(c.size() == 3);
  Scenario big_scenario;
  big_scenario.nodes = 1'000'000;
  big_scenario.order = RemovalOrder::kRandom;
  big_scenario.remove_fraction = 0.9;
  const std::vector<std::string> big_removals = chbench::removal_list(big_scenario);
  chbench::Fleet big(chbench::default_nodes(1'000'000));
  big.leave_all(big_removals);
  CHECK(big.size() == 100'000);
}

TEST_CASE("scenario: the capacity defaults to ten times the initial fleet", "[scenario]") {
  chbench::Fleet f(chbench::default_nodes(7));
  CHECK(chbench::fleet_capacity(f, 1000) == 70);
  f.leave("node-3");
  CHECK(chbench::fleet_capacity(f, 1000) == 70);  // the initial count, not the current one
  CHECK_THROWS_WITH(chbench::fleet_capacity(f, 69), Contains("above"));
  chbench::NodeSet small = chbench::default_nodes(7);
  small.capacity = 6;
  CHECK_THROWS_WITH(chbench::fleet_capacity(chbench::Fleet(small), 1000), Contains("below the 7"));
  small.capacity = 7;
  CHECK(chbench::fleet_capacity(chbench::Fleet(small), 1000) == 7);
}

TEST_CASE("scenario: over a given list of names, the orders apply to its positions", "[scenario]") {
  Scenario s;
  s.nodes = 99;  // not read: the list sets N
  s.names = {"e", "a", "d", "b", "c"};
  s.remove_fraction = 0.4;
  CHECK(chbench::removal_list(s) == std::vector<std::string>{"c", "b"});
  s.order = RemovalOrder::kFifo;
  CHECK(chbench::removal_list(s) == std::vector<std::string>{"e", "a"});
  s.order = RemovalOrder::kRandom;
  s.seed = 3;
  const auto ids = model_shuffle(5, 2, 3);
  CHECK(chbench::removal_list(s) == std::vector<std::string>{s.names[ids[0]], s.names[ids[1]]});
  s.order = RemovalOrder::kExplicit;
  s.removed = {"d", "e"};
  s.readds = 1;
  s.vnodes = 7;
  const chbench::Fleet f = chbench::scenario_fleet(s);
  CHECK(f.nodes().names == std::vector<std::string>{"a", "b", "c", "e"});
  CHECK(f.initial() == s.names);
  CHECK(f.removed() == std::vector<std::string>{"d"});
  CHECK(f.nodes().vnodes == 7);
  s.removed = {"node-0"};
  CHECK_THROWS_WITH(chbench::removal_list(s), Contains("'node-0' is not in the initial node list"));
  s.removed = {"a", "a"};
  CHECK_THROWS_WITH(chbench::removal_list(s), Contains("removed twice"));
  s.removed = s.names;
  CHECK_THROWS_WITH(chbench::removal_list(s), Contains("every node"));
}

TEST_CASE("fleet: join_all is join() in order, and refuses without a change", "[fleet]") {
  chbench::Fleet a(chbench::default_nodes(4));
  chbench::Fleet b(chbench::default_nodes(4));
  a.leave("node-1");
  b.leave("node-1");
  const std::vector<std::string> back = {"x", "node-1", "y"};
  a.join_all(back);
  for (const auto& name : back) b.join(name);
  CHECK(a.nodes().names == b.nodes().names);
  CHECK(std::vector<chbench::FleetChange>(a.history().begin(), a.history().end()) ==
        std::vector<chbench::FleetChange>(b.history().begin(), b.history().end()));
  CHECK(a.initial() == chbench::default_nodes(4).names);
  CHECK_THROWS_WITH(a.join_all(names({0})), Contains("'node-0' is already in the fleet"));
  const std::vector<std::string> twice = {"z", "z"};
  CHECK_THROWS_WITH(a.join_all(twice), Contains("joins twice"));
  const std::vector<std::string> empty_name = {"w", ""};
  CHECK_THROWS_WITH(a.join_all(empty_name), Contains("needs a name"));
  CHECK(a.size() == 6);
  CHECK(a.history().size() == 4);
  chbench::Fleet buckets = chbench::Fleet::of_buckets(3);
  buckets.join_all(names({3, 4}));
  CHECK(buckets.nodes().names == names({0, 1, 2, 3, 4}));
  chbench::Fleet none = chbench::Fleet::of_buckets(3);
  none.join_all({});
  CHECK_FALSE(none.named());
}
