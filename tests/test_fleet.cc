// The fleet (fleet.h): joins and leaves with their history, bad changes
// refused, every kernel over a changed fleet, fleets of buckets.

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <climits>
#include <cstdint>
#include <new>
#include <ostream>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/hash.h"
#include "chbench/hrw/hrw.h"
#include "chbench/jump/jump.h"
#include "chbench/maglev/maglev.h"
#include "chbench/nodes.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"
#include "support.h"

using Catch::Matchers::Contains;
using chbench::Fleet;
using chbench::FleetChange;
using chbench::KernelInfo;
using chbench::NodeSet;
using chbench::Scheme;
using chbench::SchemeInfo;
using chbench_test::first_mismatch;
using chbench_test::keys_for;
using chbench_test::kSeed;
using chbench_test::owners_of;

TEST_CASE("fleet: joins and leaves, with their history", "[fleet]") {
  NodeSet start = chbench::default_nodes(4, 7);
  start.table_size = 251;
  Fleet fleet(start);
  CHECK(fleet.nodes().names == start.names);
  CHECK(fleet.size() == 4);
  CHECK(fleet.initial() == start.names);
  CHECK(fleet.history().empty());
  CHECK(fleet.removed().empty());

  fleet.join("e").leave("node-1");
  fleet.apply({FleetChange::Kind::kJoin, "f"});
  fleet.apply({FleetChange::Kind::kLeave, "node-3"});
  fleet.leave("e");
  CHECK(fleet.nodes().names == std::vector<std::string>{"node-0", "node-2", "f"});
  CHECK(fleet.size() == 3);
  CHECK(fleet.nodes().vnodes == 7);  // the parameters stay
  CHECK(fleet.nodes().table_size == 251);
  CHECK(fleet.initial() == start.names);
  using K = FleetChange::Kind;
  const std::vector<FleetChange> history = {{K::kJoin, "e"},
                                            {K::kLeave, "node-1"},
                                            {K::kJoin, "f"},
                                            {K::kLeave, "node-3"},
                                            {K::kLeave, "e"}};
  CHECK(std::vector<FleetChange>(fleet.history().begin(), fleet.history().end()) == history);
  CHECK(fleet.removed() == std::vector<std::string>{"node-1", "node-3", "e"});
  // A node that comes back is no longer removed, and joins at the end.
  fleet.join("node-1");
  CHECK(fleet.removed() == std::vector<std::string>{"node-3", "e"});
  CHECK(fleet.nodes().names.back() == "node-1");
  CHECK(fleet.history().size() == 6);

  // Leaving by a name that lives in the fleet's own list (a view of it).
  const std::string first = fleet.nodes().names.front();
  fleet.leave(fleet.nodes().names.front());
  CHECK(fleet.history().back() == FleetChange{K::kLeave, first});
  CHECK(fleet.removed().back() == first);
  const std::string long_name(100, 'x');  // not in a short-string buffer
  fleet.join(long_name);
  fleet.leave(fleet.nodes().names.back());
  CHECK(fleet.history().back() == FleetChange{K::kLeave, long_name});
  CHECK(fleet.nodes().names == std::vector<std::string>{"node-2", "f", "node-1"});

  // A default fleet is empty, and a NodeSet converts to a fleet without history.
  CHECK(Fleet().size() == 0);
  const Fleet implicit = start;
  CHECK(implicit.nodes().names == start.names);
  CHECK(implicit.history().empty());

  // Without history a fleet holds each name once: initial() is the current
  // list, and a moved-in NodeSet keeps its storage (no name copied).
  NodeSet big = chbench::default_nodes(1000);
  const std::string* storage = big.names.data();
  Fleet moved(std::move(big));
  CHECK(moved.nodes().names.data() == storage);
  CHECK(&moved.initial() == &moved.nodes().names);
  // The first change keeps the starting names; later ones leave them alone.
  const std::vector<std::string> before = moved.nodes().names;
  moved.leave("node-0").join("node-0");
  CHECK(moved.initial() == before);
  CHECK(&moved.initial() != &moved.nodes().names);
}

TEST_CASE("fleet: bad changes are refused and change nothing", "[fleet][errors]") {
  Fleet fleet(chbench::default_nodes(2));
  fleet.join("c");
  const auto names = fleet.nodes().names;
  const auto changes = fleet.history().size();
  CHECK_THROWS_WITH(fleet.join(""), Contains("needs a name"));
  CHECK_THROWS_WITH(fleet.join("node-1"), Contains("'node-1' is already in the fleet"));
  CHECK_THROWS_WITH(fleet.apply({FleetChange::Kind::kJoin, "c"}), Contains("'c' is already"));
  CHECK_THROWS_WITH(fleet.leave("node-7"), Contains("no node 'node-7'"));
  CHECK_THROWS_WITH(fleet.leave(""), Contains("no node ''"));
  CHECK_THROWS_AS(fleet.apply({FleetChange::Kind::kLeave, "gone"}), std::invalid_argument);
  CHECK(fleet.nodes().names == names);
  CHECK(fleet.history().size() == changes);
  fleet.leave("node-0").leave("c");
  CHECK_THROWS_AS(fleet.leave("node-0"), std::invalid_argument);  // already left
  CHECK_THROWS_WITH(fleet.leave("node-1"), Contains("last one"));
  CHECK(fleet.nodes().names == std::vector<std::string>{"node-1"});
  CHECK(fleet.history().size() == changes + 2);
}

TEST_CASE("fleet: every kernel built from a changed fleet matches the reference over it",
          "[fleet][reference]") {
  // Every kernel places keys as its scheme's reference over the same changed
  // fleet. The schemes of docs/spec.md §5 to §8 and Maglev read the node list, not the
  // history: for them a fleet that got here by joins and leaves places every
  // key as a fresh fleet of the same nodes does (schemes that read the
  // history, added later, need not).
  std::mt19937_64 rng(kSeed + 82);
  Fleet fleet(NodeSet{chbench::default_nodes(30).names, 20, 4093});
  fleet.leave("node-4").join("extra-a").leave("node-29").join("node-4");
  fleet.apply({FleetChange::Kind::kLeave, "node-0"});
  fleet.apply({FleetChange::Kind::kJoin, "extra-b"});
  REQUIRE(fleet.history().size() == 6);
  const Fleet fresh(fleet.nodes());
  REQUIRE(fresh.history().empty());
  // The fixture pins which schemes read the history; every other scheme must
  // place keys from the node list alone (SchemeInfo::reads_history).
  const std::set<std::string_view> history_readers = {"anchor", "dx", "memento", "jumpback_anchor"};
  const auto keys = keys_for(fleet.nodes(), 4000, rng);
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    INFO("scheme " << s.name);
    CHECK(s.reads_history == (history_readers.count(s.name) != 0));
    const bool history_free = !s.reads_history;
    CHECK_NOTHROW(s.check(fleet));
    const auto want = owners_of(*s.reference(fleet), keys);
    if (history_free)
      CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*s.reference(fresh), keys)) == "");
    for (const KernelInfo* k : chbench_test::test_kernels_of(s.id)) {
      INFO("kernel " << k->full_name());
      CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*k->build(fleet), keys)) == "");
      if (history_free) CHECK(k->table_bytes(fleet) == k->table_bytes(fresh));
    }
  }
}

TEST_CASE("fleet: a fleet of buckets places keys as the default node list of that size",
          "[fleet][reference]") {
  // The schemes that say they place by the bucket count alone build from
  // Fleet::of_buckets(N), which holds no names; every other scheme needs the
  // names and refuses it as an empty node list.
  std::mt19937_64 rng(kSeed + 83);
  CHECK_THROWS_WITH(Fleet::of_buckets(0), Contains("N = 0"));
  int bucket_schemes = 0;
  for (uint32_t n : {1u, 2u, 7u, 1000u, 65537u}) {
    const Fleet buckets = Fleet::of_buckets(n);
    const Fleet named(chbench::default_nodes(n));
    REQUIRE(buckets.size() == n);
    REQUIRE_FALSE(buckets.named());
    REQUIRE(buckets.nodes().names.empty());
    const auto keys = keys_for(named.nodes(), 2000, rng);
    for (const SchemeInfo& s : chbench::all_scheme_infos()) {
      INFO("scheme " << s.name << ", N = " << n);
      if (!s.buckets_only) {
        CHECK_THROWS_AS(s.check(buckets), std::invalid_argument);
        continue;
      }
      bucket_schemes += n == 1;
      const auto want = owners_of(*s.reference(named), keys);
      CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*s.reference(buckets), keys)) == "");
      for (const KernelInfo* k : chbench_test::test_kernels_of(s.id)) {
        INFO("kernel " << k->full_name());
        CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*k->build(buckets), keys)) == "");
      }
    }
  }
  CHECK(bucket_schemes >= 2);  // mod-N and jump at least
}

TEST_CASE("fleet: a fleet of buckets takes names on its first change", "[fleet]") {
  Fleet f = Fleet::of_buckets(3);
  f.leave("node-2");
  CHECK(f.named());
  CHECK(f.nodes().names == std::vector<std::string>{"node-0", "node-1"});
  CHECK(f.initial() == std::vector<std::string>{"node-0", "node-1", "node-2"});
  CHECK(f.removed() == std::vector<std::string>{"node-2"});
  f.join("node-9");
  CHECK(f.size() == 3);
  CHECK_THROWS_AS(Fleet::of_buckets(2).leave("node-7"), std::invalid_argument);
}
