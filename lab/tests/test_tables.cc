// Tests of the lab's tables: every scheme's default kernel is the registry's
// (lowest rank) and agrees with the reference; memory estimates are the
// registry's.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "chbench/hash.h"
#include "commands/setup.h"
#include "placement.h"
#include "support.h"

using namespace chbench;
using namespace chbench::lab;
using namespace chbench::lab::test;

TEST_CASE("the lab's fast kernels and batches agree with every scheme's reference") {
  const KeySet keys = KeySet::counted(20'000);
  const auto hashes = default_key_hashes(20'000);
  for (Scheme scheme : all_schemes()) {
    for (uint32_t n : {1u, 7u, 64u}) {
      const NodeSet nodes = default_nodes(n, 40);
      INFO(scheme_name(scheme) << " N = " << n);
      std::vector<uint32_t> got(keys.size());
      lookup_owners(*make_table(scheme, nodes), keys, 0, got);
      CHECK(got == reference_owners(scheme, nodes, hashes));
      // An offset slice that does not start on a block boundary.
      std::vector<uint32_t> slice(5000);
      lookup_owners(*make_table(scheme, nodes), keys, 3001, slice);
      CHECK(std::equal(slice.begin(), slice.end(), got.begin() + 3001));
    }
  }
  CHECK(make_table(Scheme::kRing, default_nodes(3), "reference") != nullptr);
  CHECK_THROWS_AS(make_table(Scheme::kRing, default_nodes(3), "nope"), std::invalid_argument);
}

TEST_CASE("every scheme takes key hashes as given: the owners of the keys they hash") {
  // --key-format hash hands the hashes to the scheme unhashed: the keys
  // user:1 ... user:K and their key hashes (docs/spec.md §2) given as such place alike.
  const KeySet counted = KeySet::counted(5'000);
  const KeySet given = KeySet::from_hashes(default_key_hashes(5'000));
  for (Scheme scheme : all_schemes()) {
    INFO(scheme_name(scheme));
    const auto table = make_table(scheme, default_nodes(9, 20));
    std::vector<uint32_t> from_keys(counted.size()), from_hashes(given.size());
    lookup_owners(*table, counted, 0, from_keys);
    lookup_owners(*table, given, 0, from_hashes);
    CHECK(from_hashes == from_keys);
  }
}

TEST_CASE("the lab's default kernel is the registry's: the lowest rank of the scheme") {
  const NodeSet nodes = default_nodes(9, 20);
  const auto hashes = default_key_hashes(5'000);
  for (const SchemeInfo& info : all_scheme_infos()) {
    INFO(info.name);
    const Placement placement{info.id, std::nullopt, {}};
    const KernelInfo& want = default_kernel(info.id);
    for (const KernelInfo* k : kernels_of(info.id)) CHECK(want.rank <= k->rank);
    CHECK(default_kernel_name(placement) == want.name);
    CHECK(kernel_full_name(placement, "") == want.full_name());
    CHECK(kernel_full_name(placement, "reference") == std::string(info.name) + "/reference");
    // The table made without a kernel name is that kernel's (same size), with
    // the reference's owners.
    const auto table = make_table(info.id, nodes);
    CHECK(table->memory_bytes() == want.build(nodes)->memory_bytes());
    std::vector<uint32_t> got(hashes.size());
    table->owners(hashes, got);
    CHECK(got == reference_owners(info.id, nodes, hashes));
    // The memory estimate is the registry's, for the default, a named kernel
    // and the reference alike.
    CHECK(table_bytes(placement, nodes) == want.table_bytes(nodes));
    for (const KernelInfo* k : kernels_of(info.id))
      CHECK(table_bytes(placement, nodes, k->name) == k->table_bytes(nodes));
    CHECK(table_bytes(placement, nodes, "reference") == info.reference_bytes(nodes));
    CHECK_THROWS_AS(kernel_full_name(placement, "nope"), std::invalid_argument);
    CHECK_THROWS_AS(table_bytes(placement, nodes, "nope"), std::invalid_argument);
  }
  // A profile keeps its own default among its scheme's kernels.
  for (Profile profile : all_profiles()) {
    const Placement placement{profile_scheme(profile), profile, {}};
    CHECK(default_kernel_name(placement) == default_profile_kernel(profile));
    CHECK(kernel_full_name(placement, "reference") ==
          std::string(profile_name(profile)) + "/reference");
  }
}

TEST_CASE("a ketama table's estimate counts the continuum's points, not V") {
  // Three servers of weights 3, 1, 1: libmemcached gives them 288, 96 and 96
  // points (160 * 3 scaled by weight / total), 480 in all: 160 per server.
  Placement ketama{Scheme::kRing, Profile::kKetama, {{"a", 3}}};
  NodeSet nodes;
  nodes.names = {"a", "b", "c"};
  nodes.vnodes = 1000;  // not ketama's business
  const auto points = ketama_continuum(profile_cluster(ketama, nodes)).size();
  NodeSet as_ring = nodes;
  as_ring.vnodes = static_cast<uint32_t>((points + 2) / 3);
  const KernelInfo& kernel = find_kernel(Scheme::kRing, default_profile_kernel(Profile::kKetama));
  CHECK(table_bytes(ketama, nodes) == kernel.table_bytes(as_ring));
  CHECK(table_bytes(ketama, nodes) < kernel.table_bytes(nodes));
}

TEST_CASE("the memory guard names what a profile builds: ketama's points, no V") {
  // Weights 3,000,000 each scale like 1, 1, 1: 160 points a server, 480 in all
  // (the weights add no points), and the estimate is the one of that continuum.
  Setup heavy;
  heavy.scheme = Scheme::kRing;
  heavy.placement = {
      Scheme::kRing, Profile::kKetama, {{"a", 3000000}, {"b", 3000000}, {"c", 3000000}}};
  heavy.fleet = Fleet(NodeSet{{"a", "b", "c"}, 100, 65537});
  CHECK(ketama_point_count(heavy.placement, heavy.nodes()) == 480);
  CHECK(tables_label(heavy) == "the ketama profile's continuum of 480 points over N = 3 servers");
  Setup light = heavy;
  light.placement.weights.clear();
  CHECK(table_bytes(heavy.placement, heavy.fleet) == table_bytes(light.placement, light.fleet));
  // The ring's V and Cassandra's num_tokens are named where they exist.
  Setup ring;
  ring.scheme = ring.placement.scheme = Scheme::kRing;
  ring.fleet = Fleet(NodeSet{{"a", "b"}, 7, 65537});
  CHECK(tables_label(ring) == "the ring table(s) of N = 2, V = 7");
  Setup cassandra = ring;
  cassandra.placement.profile = Profile::kCassandra;
  CHECK(tables_label(cassandra) == "the cassandra profile's table(s) of N = 2, num_tokens = 7");
  Setup kafka = ring;
  kafka.scheme = kafka.placement.scheme = Scheme::kModN;
  kafka.placement.profile = Profile::kKafka;
  CHECK(tables_label(kafka) == "the kafka profile's table(s) of N = 2");
}
