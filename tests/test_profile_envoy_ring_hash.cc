// The envoy_ring_hash profile against the rings and picks that Envoy's own
// unit test publishes (envoyproxy/envoy test/extensions/load_balancing_policies/
// ring_hash/ring_hash_lb_test.cc at 13e9fdb2d4db3480ff278565a596324951e8dccd),
// and its kernels against its reference.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "chbench/hash.h"
#include "chbench/profiles/envoy_bounded_load.h"
#include "chbench/profiles/profiles.h"
#include "chbench/profiles/ring_hash.h"
#include "support.h"

using chbench::NodeSet;
using chbench::Profile;
using chbench::ProfileCluster;
namespace rh = chbench::ring_hash;

namespace {

// Hosts 127.0.0.1:<port> for each port, as Envoy prints their addresses
// (the test's "tcp://" URLs name them; the address string is what is hashed).
ProfileCluster hosts(std::vector<int> ports, uint32_t min_ring_size,
                     std::vector<uint32_t> weights = {}) {
  NodeSet nodes;
  for (int p : ports) nodes.names.push_back("127.0.0.1:" + std::to_string(p));
  nodes.vnodes = min_ring_size;
  return ProfileCluster{std::move(nodes), std::move(weights)};
}

uint32_t pick(const std::vector<chbench::RingEntry<uint64_t>>& ring, uint64_t h) {
  return ring[rh::ketama_search(ring, h)].node;
}

uint32_t envoy_owner(const ProfileCluster& cluster, uint64_t h) {
  const auto table = chbench::build_profile_reference(Profile::kEnvoyRingHash, cluster);
  uint32_t out = 0;
  table->owners(std::span<const uint64_t>(&h, 1), std::span<uint32_t>(&out, 1));
  return out;
}

// The owners of `count` hashes i * (2^64 - 1) / count, per host, as the
// weighted tests count them.
std::vector<uint32_t> spread(const std::vector<chbench::RingEntry<uint64_t>>& ring, uint32_t hosts,
                             uint32_t count) {
  std::vector<uint32_t> counts(hosts, 0);
  const uint64_t step = std::numeric_limits<uint64_t>::max() / count;
  for (uint32_t i = 0; i < count; ++i) ++counts[pick(ring, i * step)];
  return counts;
}

rh::RingOptions envoy(uint64_t min, uint64_t max = rh::kEnvoyMaxRingSize) {
  return {min, max, false};
}

}  // namespace

TEST_CASE("envoy_ring_hash: the Basic test's ring of 12 and its picks",
          "[profiles][envoy_ring_hash]") {
  const ProfileCluster cluster = hosts({90, 91, 92, 93, 94, 95}, 12);
  const auto ring = rh::build_ring(cluster, envoy(12));
  // (position, host index of the port) in the test's listed order.
  const std::vector<std::pair<uint64_t, uint32_t>> want = {
      {833437586790550860u, 4},   {928266305478181108u, 2},   {1033482794131418490u, 0},
      {3551244743356806947u, 5},  {3851675632748031481u, 3},  {5583722120771150861u, 1},
      {6311230543546372928u, 1},  {7700377290971790572u, 3},  {13144177310400110813u, 5},
      {13444792449719432967u, 2}, {15516499411664133160u, 4}, {16117243373044804889u, 0}};
  REQUIRE(ring.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    CHECK(ring[i].token == want[i].first);
    CHECK(ring[i].node == want[i].second);
  }
  CHECK(rh::point_counts(cluster, envoy(12)) == std::vector<uint64_t>(6, 2));
  CHECK(envoy_owner(cluster, 0) == 4);
  CHECK(envoy_owner(cluster, std::numeric_limits<uint64_t>::max()) == 4);
  CHECK(envoy_owner(cluster, 3551244743356806947u) == 5);
  CHECK(envoy_owner(cluster, 3551244743356806948u) == 3);
  CHECK(envoy_owner(cluster, 16117243373044804880u) == 0);
}

TEST_CASE("envoy_ring_hash: UnevenHosts, a minimum of 3 gives 2 points each",
          "[profiles][envoy_ring_hash]") {
  auto tokens = [](const ProfileCluster& c) {
    std::vector<std::pair<uint64_t, uint32_t>> out;
    for (const auto& e : rh::build_ring(c, envoy(3))) out.push_back({e.token, e.node});
    return out;
  };
  const ProfileCluster first = hosts({80, 81}, 3);
  CHECK(tokens(first) == std::vector<std::pair<uint64_t, uint32_t>>{{5454692015285649509u, 0},
                                                                    {7859399908942313493u, 1},
                                                                    {13838424394637650569u, 0},
                                                                    {16064866803292627174u, 1}});
  CHECK(envoy_owner(first, 0) == 0);
  const ProfileCluster second = hosts({81, 82}, 3);
  CHECK(tokens(second) == std::vector<std::pair<uint64_t, uint32_t>>{{7859399908942313493u, 0},
                                                                     {8241336090459785962u, 1},
                                                                     {12882406409176325258u, 1},
                                                                     {16064866803292627174u, 0}});
  CHECK(envoy_owner(second, 0) == 0);
}

TEST_CASE("envoy_ring_hash: HostWeightedTinyRing, weights 1, 2, 3 on a ring of exactly 6",
          "[profiles][envoy_ring_hash]") {
  const ProfileCluster cluster = hosts({90, 91, 92}, 6, {1, 2, 3});
  const auto ring = rh::build_ring(cluster, envoy(6, 6));
  CHECK(ring.size() == 6);
  CHECK(rh::point_counts(cluster, envoy(6, 6)) == std::vector<uint64_t>{1, 2, 3});
  const std::vector<std::pair<uint64_t, uint32_t>> want = {
      {928266305478181108u, 2},  {4443673547860492590u, 2},  {5583722120771150861u, 1},
      {6311230543546372928u, 1}, {13444792449719432967u, 2}, {16117243373044804889u, 0}};
  for (const auto& [h, host] : want) CHECK(pick(ring, h) == host);
}

TEST_CASE("envoy_ring_hash: HostWeightedLargeRing, the profile at minimum ring size 6144",
          "[profiles][envoy_ring_hash]") {
  const ProfileCluster cluster = hosts({90, 91, 92}, 6144, {1, 2, 3});
  CHECK(rh::point_counts(cluster, envoy(6144)) == std::vector<uint64_t>{1024, 2048, 3072});
  const auto ring = rh::build_ring(cluster, envoy(6144));
  CHECK(spread(ring, 3, 6000) == std::vector<uint32_t>{987, 1932, 3081});
}

TEST_CASE("envoy_ring_hash: the fractional scales, sizes 2 and 1023",
          "[profiles][envoy_ring_hash]") {
  // SmallFractionalScale: 4 hosts on a ring of exactly 2: two hosts own nothing.
  const ProfileCluster four = hosts({90, 91, 92, 93}, 2);
  const auto counts = rh::point_counts(four, envoy(2, 2));
  CHECK(counts == std::vector<uint64_t>{1, 0, 1, 0});
  const auto small = spread(rh::build_ring(four, envoy(2, 2)), 4, 1024);
  CHECK(std::count(small.begin(), small.end(), 0u) == 2);
  // LargeFractionalScale: 2 hosts on a ring of exactly 1023: 512 and 511 points.
  const ProfileCluster two = hosts({90, 91}, 1023);
  CHECK(rh::point_counts(two, envoy(1023, 1023)) == std::vector<uint64_t>{512, 511});
  CHECK(spread(rh::build_ring(two, envoy(1023, 1023)), 2, 1023) == std::vector<uint32_t>{526, 497});
}

TEST_CASE("ring_hash: the ketama search is the first point >= h, wrapping, ties included",
          "[profiles][envoy_ring_hash][grpc_ring_hash]") {
  std::mt19937_64 rng(chbench_test::kSeed + 91);
  for (int round = 0; round < 200; ++round) {
    // Small rings with repeated points and the extremes 0 and 2^64 - 1.
    const std::size_t size = 1 + rng() % 40;
    std::vector<chbench::RingEntry<uint64_t>> ring;
    for (std::size_t i = 0; i < size; ++i) {
      const uint64_t pool[] = {0, 1, 2, std::numeric_limits<uint64_t>::max(), rng() % 16, rng()};
      ring.push_back({pool[rng() % 6], static_cast<uint32_t>(rng() % 5)});
    }
    std::sort(ring.begin(), ring.end());
    std::vector<uint64_t> probes = {0, 1, 2, 3, std::numeric_limits<uint64_t>::max()};
    for (const auto& e : ring) probes.insert(probes.end(), {e.token - 1, e.token, e.token + 1});
    for (int i = 0; i < 50; ++i) probes.push_back(rng());
    for (uint64_t h : probes) {
      INFO("ring size " << size << ", h = " << h);
      CHECK(pick(ring, h) == chbench::ring_reference_owner<uint64_t>(ring, h));
    }
  }
}

TEST_CASE("envoy_ring_hash: refusals, one message each", "[profiles][envoy_ring_hash][errors]") {
  ProfileCluster cluster = hosts({90, 91}, 1024, {1, 0});
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kEnvoyRingHash, cluster),
                    Catch::Contains("every weight must be 1"));
  cluster.weights = {0xffffffffu, 1};
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kEnvoyRingHash, cluster),
                    Catch::Contains("above 2^32 - 1"));
  cluster.weights = {1, 2, 3};
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kEnvoyRingHash, cluster),
                    Catch::Contains("3 weights for 2 hosts"));
  cluster.weights = {};
  cluster.nodes.vnodes = 8388609;
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kEnvoyRingHash, cluster),
                    Catch::Contains("minimum ring size (--vnodes 8388609) must be 1 ... 8388608"));
  cluster.nodes.vnodes = 8388608;
  CHECK_NOTHROW(chbench::validate_profile(Profile::kEnvoyRingHash, cluster));
  cluster.nodes.names[1] = cluster.nodes.names[0];
  CHECK_THROWS_AS(chbench::validate_profile(Profile::kEnvoyRingHash, cluster),
                  std::invalid_argument);
}

TEST_CASE("ring_hash profiles: every ring kernel equals the ketama search",
          "[profiles][envoy_ring_hash][grpc_ring_hash][reference]") {
  for (const Profile profile : {Profile::kEnvoyRingHash, Profile::kGrpcRingHash}) {
    for (const uint32_t n : {1u, 13u, 200u}) {
      ProfileCluster cluster;
      for (uint32_t i = 0; i < n; ++i) {
        cluster.nodes.names.push_back("10.0." + std::to_string(i / 250) + "." +
                                      std::to_string(i % 250) + ":8080");
        cluster.weights.push_back(1 + i % 4);
      }
      cluster.nodes.vnodes = 1024;
      INFO("profile " << chbench::profile_name(profile) << ", N = " << n);
      // 10^5 keys, and every point of the ring with its neighbours.
      std::vector<uint64_t> h;
      for (uint64_t k = 1; k <= 100'000; ++k)
        h.push_back(chbench::profile_key_hash(profile, chbench::default_key(k)));
      const bool grpc = profile == Profile::kGrpcRingHash;
      const rh::RingOptions options{grpc ? rh::kGrpcMinRingSize : 1024u,
                                    grpc ? rh::kGrpcRingSizeCap : rh::kEnvoyMaxRingSize, grpc};
      for (const auto& e : rh::build_ring(cluster, options))
        h.insert(h.end(), {e.token - 1, e.token, e.token + 1});
      h.insert(h.end(), {0, 1, std::numeric_limits<uint64_t>::max()});
      const auto reference = chbench::build_profile_reference(profile, cluster);
      const auto want = chbench_test::owners_of(*reference, h);
      for (const auto* kernel : chbench_test::test_kernels_of(chbench::Scheme::kRing)) {
        INFO("kernel " << kernel->name);
        const auto table = chbench::build_profile_table(profile, cluster, kernel->name);
        chbench_test::check_table(*table, h, want);
      }
    }
  }
}

TEST_CASE("envoy_ring_hash: the running sums are doubles, so 99 hosts make 1090 points",
          "[profiles][envoy_ring_hash]") {
  // scale = 11 / (1 / 99) = 1089, but scale * (1 / 99) rounds to
  // 11.000000000000002: the first host's target is above 11, so it takes a
  // twelfth point, and each later host's whole target is then already met
  // one point early. Ring size 1090, not 1089.
  ProfileCluster cluster;
  for (int i = 0; i < 99; ++i) cluster.nodes.names.push_back("node-" + std::to_string(i));
  cluster.nodes.vnodes = 1024;
  std::vector<uint64_t> want(99, 11);
  want[0] = 12;
  CHECK(rh::point_counts(cluster, rh::envoy_options(cluster.nodes)) == want);
  cluster.nodes.names.push_back("node-99");
  CHECK(rh::point_counts(cluster, rh::envoy_options(cluster.nodes)) ==
        std::vector<uint64_t>(100, 11));
}

TEST_CASE("envoy_ring_hash: hash_balance_factor's bounded load over the ring",
          "[profiles][envoy_ring_hash][bounded]") {
  const ProfileCluster two = hosts({90, 91}, 12);
  const auto ring = rh::build_ring(two, rh::envoy_options(two.nodes));
  const auto weights = rh::normalized_weights(two);
  // Slots: ceil((active + 1) * 100 / 100) * 0.5, at least 1.
  CHECK(rh::envoy_slots(0, 100, 0.5) == 1);
  CHECK(rh::envoy_slots(2, 100, 0.5) == 2);
  CHECK(rh::envoy_slots(5, 150, 0.5) == 5);
  // Every request on the owner of hash 0: it keeps them while its active
  // count is within its slots, and the other host takes the rest.
  const uint32_t owner = ring[rh::ketama_search(ring, 0)].node;
  const std::vector<uint64_t> same(6, 0);
  const auto a = rh::envoy_bounded_assign(ring, weights, same, 100);
  const uint32_t other = 1 - owner;
  CHECK(a.host == std::vector<uint32_t>{owner, owner, owner, other, owner, other});
  CHECK(a.probed == 2);
  // A factor too large to bind gives the plain owners.
  std::vector<uint64_t> h;
  for (uint64_t k = 1; k <= 10'000; ++k) h.push_back(rh::xxh64(chbench::default_key(k)));
  const ProfileCluster five = hosts({90, 91, 92, 93, 94}, 1024, {1, 1, 2, 3, 5});
  const auto ring5 = rh::build_ring(five, rh::envoy_options(five.nodes));
  const auto loose = rh::envoy_bounded_assign(ring5, rh::normalized_weights(five), h, 100'000);
  CHECK(loose.probed == 0);
  for (std::size_t i = 0; i < h.size(); ++i) CHECK(loose.host[i] == pick(ring5, h[i]));
  // At 125 each host ends within its slots plus the one request it may take
  // at its bound.
  const auto w5 = rh::normalized_weights(five);
  const auto tight = rh::envoy_bounded_assign(ring5, w5, h, 125);
  CHECK(tight.probed > 0);
  for (uint32_t k = 0; k < 5; ++k)
    CHECK(tight.load[k] <= rh::envoy_slots(static_cast<uint32_t>(h.size()), 125, w5[k]) + 1);
  CHECK(tight.host == rh::envoy_bounded_assign(ring5, w5, h, 125).host);
  CHECK_THROWS_WITH(rh::envoy_bounded_assign(ring5, w5, h, 99), Catch::Contains("at least 100"));
}
