// The grpc_ring_hash profile: gRPC's xDS ring_hash (gRFC A42) as grpc-go
// builds its ring (balancer/ringhash/ring.go at
// 40245426fe1ff21159d28d639bd52cf69bd4b59a), and where it and
// envoy_ring_hash place keys differently.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "chbench/hash.h"
#include "chbench/profiles/profiles.h"
#include "chbench/profiles/ring_hash.h"
#include "support.h"

using chbench::Profile;
using chbench::ProfileCluster;
namespace rh = chbench::ring_hash;

namespace {

ProfileCluster cluster_of(std::vector<std::string> names, uint32_t min_ring_size,
                          std::vector<uint32_t> weights = {}) {
  chbench::NodeSet nodes;
  nodes.names = std::move(names);
  nodes.vnodes = min_ring_size;
  return ProfileCluster{std::move(nodes), std::move(weights)};
}

std::vector<uint32_t> owners(Profile profile, const ProfileCluster& cluster,
                             std::span<const uint64_t> h) {
  return chbench_test::owners_of(*chbench::build_profile_reference(profile, cluster), h);
}

std::vector<uint64_t> key_hashes(uint64_t count) {
  std::vector<uint64_t> h;
  for (uint64_t k = 1; k <= count; ++k) h.push_back(rh::xxh64(chbench::default_key(k)));
  return h;
}

constexpr rh::RingOptions kGrpc{rh::kGrpcMinRingSize, rh::kGrpcRingSizeCap, true};
constexpr rh::RingOptions kEnvoy{rh::kEnvoyMinRingSize, rh::kEnvoyMaxRingSize, false};

}  // namespace

TEST_CASE("grpc_ring_hash: Envoy's points, hosts walked in name order",
          "[profiles][grpc_ring_hash]") {
  // Envoy's Basic hosts listed backwards, ring size 12: the same 12 points
  // (each host's count is whole, so the order changes no count).
  std::vector<std::string> names;
  for (int p = 95; p >= 90; --p) names.push_back("127.0.0.1:" + std::to_string(p));
  const ProfileCluster cluster = cluster_of(names, 12);
  const auto ring = rh::build_ring(cluster, {12, rh::kGrpcRingSizeCap, true});
  REQUIRE(ring.size() == 12);
  CHECK(ring[0].token == 833437586790550860u);  // 127.0.0.1:94_0 ...
  CHECK(ring[0].node == 1);                     // ... now host 1 of the list
  CHECK(ring[11].token == 16117243373044804889u);
  CHECK(ring[11].node == 5);  // 127.0.0.1:90
  // The fractional case: which host takes the extra point follows the name
  // order, not the list (grpc-go sorts by hash key before the running sums).
  const ProfileCluster two = cluster_of({"127.0.0.1:91", "127.0.0.1:90"}, 1023);
  CHECK(rh::point_counts(two, {1023, 1023, true}) == std::vector<uint64_t>{511, 512});
  CHECK(rh::point_counts(two, {1023, 1023, false}) == std::vector<uint64_t>{512, 511});
}

TEST_CASE("grpc_ring_hash: ring sizes clamped to the cap 4096", "[profiles][grpc_ring_hash]") {
  const ProfileCluster two = cluster_of({"127.0.0.1:90", "127.0.0.1:91"}, 5000);
  CHECK(rh::build_ring(two, {4096, 4096, true}).size() == 4096);
  CHECK(rh::build_ring(two, {5000, rh::kEnvoyMaxRingSize, false}).size() == 5000);
  const auto h = key_hashes(100'000);
  CHECK(owners(Profile::kGrpcRingHash, two, h) ==
        chbench_test::owners_of(*rh::reference_table(rh::build_ring(two, {4096, 4096, true})), h));
  ProfileCluster bad = two;
  bad.nodes.vnodes = 8388609;
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kGrpcRingHash, bad),
                    Catch::Contains("grpc_ring_hash: the minimum ring size (--vnodes 8388609)"));
  bad.nodes.vnodes = 1024;
  bad.weights = {1, 0};
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kGrpcRingHash, bad),
                    Catch::Contains("every weight must be 1"));
}

TEST_CASE("grpc_ring_hash and envoy_ring_hash: where they agree and where they do not",
          "[profiles][grpc_ring_hash][envoy_ring_hash]") {
  const auto h = key_hashes(100'000);
  SECTION("unweighted, N <= 4096, defaults: the same ring, the same owners") {
    const ProfileCluster c = cluster_of({"10.0.0.3:80", "10.0.0.1:80", "10.0.0.2:80"}, 1024);
    CHECK(rh::point_counts(c, kGrpc) == std::vector<uint64_t>{342, 342, 342});
    CHECK(owners(Profile::kGrpcRingHash, c, h) == owners(Profile::kEnvoyRingHash, c, h));
  }
  SECTION("weights 1 and 4999: Envoy's ring has 5000 points, gRPC's 4096") {
    const ProfileCluster c = cluster_of({"10.0.0.1:80", "10.0.0.2:80"}, 1024, {1, 4999});
    CHECK(rh::point_counts(c, kEnvoy) == std::vector<uint64_t>{1, 4999});
    CHECK(rh::point_counts(c, kGrpc) == std::vector<uint64_t>{1, 4095});
    // 10.0.0.1's one point is "10.0.0.1:80_0" in both; its arc differs.
    const auto envoy = owners(Profile::kEnvoyRingHash, c, h);
    const auto grpc = owners(Profile::kGrpcRingHash, c, h);
    const auto moved = std::inner_product(envoy.begin(), envoy.end(), grpc.begin(), 0u,
                                          std::plus<>(), std::not_equal_to<>());
    INFO("keys owned differently: " << moved);
    CHECK(moved > 0);
  }
  SECTION("weights 2, 3, 3 listed out of name order, minimum 1020: the extra point moves") {
    const ProfileCluster c =
        cluster_of({"10.0.0.1:80", "10.0.0.3:80", "10.0.0.2:80"}, 1020, {2, 3, 3});
    // 255, 382.5, 382.5 points: the first of the two weight-3 hosts walked
    // takes 383. Envoy walks the list (10.0.0.3 first), gRPC the names.
    CHECK(rh::point_counts(c, {1020, rh::kEnvoyMaxRingSize, false}) ==
          std::vector<uint64_t>{255, 383, 382});
    CHECK(rh::point_counts(c, {1020, rh::kGrpcRingSizeCap, true}) ==
          std::vector<uint64_t>{255, 382, 383});
    // The key hash at Envoy's point "10.0.0.3:80_382" is 10.0.0.3's there;
    // gRPC has no such point and gives it to the next point's host.
    const uint64_t at = rh::xxh64("10.0.0.3:80_382");
    const std::vector<uint64_t> one = {at};
    CHECK(owners(Profile::kEnvoyRingHash, c, one) == std::vector<uint32_t>{1});
    const auto grpc_ring = rh::build_ring(c, {1020, rh::kGrpcRingSizeCap, true});
    const auto next = grpc_ring[rh::ketama_search(grpc_ring, at)];
    CHECK(next.token != at);
    CHECK(owners(Profile::kGrpcRingHash, c, one) == std::vector<uint32_t>{next.node});
  }
}

TEST_CASE("grpc_ring_hash: grpc-go's ring_test.go (TestRingNew and the weight-sum overflows)",
          "[profiles][grpc_ring_hash]") {
  // grpc-go balancer/ringhash/ring_test.go at
  // 012a70d19833e0e04bc22f05b826c38a9d2be636: endpoints a, b, c of weights
  // 3, 3, 4; each ring within [min, max], each share within 25% of its weight.
  auto share_ok = [](double got, double want) {
    return std::abs(got - want) / (std::abs(got + want) / 2) < 0.25;
  };
  const ProfileCluster abc = cluster_of({"a", "b", "c"}, 1, {3, 3, 4});
  for (const uint64_t min : {3u, 4u, 6u, 8u})
    for (const uint64_t max : {20u, 8u}) {
      INFO("min " << min << ", max " << max);
      const auto counts = rh::point_counts(abc, {min, max, true});
      const double total = static_cast<double>(counts[0] + counts[1] + counts[2]);
      CHECK(total >= static_cast<double>(min));
      CHECK(total <= static_cast<double>(max));
      CHECK(share_ok(static_cast<double>(counts[0]) / total, 0.3));
      CHECK(share_ok(static_cast<double>(counts[1]) / total, 0.3));
      CHECK(share_ok(static_cast<double>(counts[2]) / total, 0.4));
    }
  // Weights summing to 2^32 (grpc-go sums in 64 bits): half the ring each.
  ProfileCluster big = cluster_of({"a", "b"}, 1024, {1u << 31, 1u << 31});
  CHECK_NOTHROW(chbench::validate_profile(Profile::kGrpcRingHash, big));
  CHECK(rh::point_counts(big, rh::grpc_options(big.nodes)) == std::vector<uint64_t>{512, 512});
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kEnvoyRingHash, big),
                    Catch::Contains("above 2^32 - 1"));
  // 2^31, 2^31, 2^30: shares about 0.4, 0.4, 0.2, the ring within [1024, 4096].
  big = cluster_of({"a", "b", "c"}, 1024, {1u << 31, 1u << 31, 1u << 30});
  const auto counts = rh::point_counts(big, rh::grpc_options(big.nodes));
  const double total = static_cast<double>(counts[0] + counts[1] + counts[2]);
  CHECK(total >= 1024);
  CHECK(total <= 4096);
  CHECK(share_ok(static_cast<double>(counts[2]) / total, 0.2));
}
