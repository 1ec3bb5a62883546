// The HAProxy profiles (haproxy_consistent, haproxy_map): HAProxy's key hashes
// against the values its own regression tests expect (v2.6.12
// reg-tests/sample_fetches/hashes.vtc), the map-based placement against
// reg-tests/balance/balance-uri.vtc, the server map and the tree's points
// against hand-worked cases, the reference's nearest-point rule against a
// brute-force search, and every kernel against the reference on 10^5 keys and
// every point, midpoint and their neighbours. The real haproxy is compared in
// haproxy_interop.sh.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "chbench/profiles/haproxy_hash.h"
#include "chbench/profiles/haproxy_lb.h"
#include "chbench/profiles/profiles.h"
#include "support.h"

using chbench::HaproxyHashFunction;
using chbench::Profile;
using chbench::ProfileCluster;

namespace {

ProfileCluster fleet(std::vector<std::string> names, std::vector<uint32_t> weights = {}) {
  ProfileCluster c;
  c.nodes.names = std::move(names);
  c.weights = std::move(weights);
  return c;
}

ProfileCluster numbered(uint32_t n, std::vector<uint32_t> weights = {}) {
  ProfileCluster c{chbench::default_nodes(n), std::move(weights)};
  return c;
}

// The owner by its definition: the point at the least circular distance
// from `hash`, the one before it winning a tie (chash_get_server_hash),
// found by looking at every point.
uint32_t nearest_by_scan(const std::vector<chbench::RingEntry<uint32_t>>& points, uint32_t hash) {
  uint64_t best_distance = UINT64_MAX;
  uint32_t owner = 0;
  bool best_is_before = false;
  for (const auto& p : points) {
    const uint32_t before = hash - p.token;  // p at or before hash, going back
    const uint32_t after = p.token - hash;   // p at or after hash, going forward
    const bool is_before = before <= after;
    const uint64_t d = is_before ? before : after;
    // A tie between the point before and the point after: the one before wins.
    if (d < best_distance || (d == best_distance && is_before && !best_is_before)) {
      best_distance = d;
      owner = p.node;
      best_is_before = is_before;
    }
  }
  return owner;
}

// Every point, the midpoints between neighbours, each +-1, and `random`
// random 32-bit hashes, all as key hashes h << 32.
std::vector<uint64_t> probes(const std::vector<chbench::RingEntry<uint32_t>>& points,
                             std::size_t random, std::mt19937_64& rng) {
  std::vector<uint64_t> h;
  const auto add = [&](uint32_t v) {
    for (uint32_t d : {0u, 1u, 0xffffffffu})
      h.push_back(uint64_t{static_cast<uint32_t>(v + d)} << 32);
  };
  for (std::size_t k = 0; k < points.size(); ++k) {
    const uint32_t p = points[k].token;
    const uint32_t q = points[(k + 1) % points.size()].token;
    add(p);
    add(p + (q - p) / 2);
    add(p + (q - p) / 2 + 1);
  }
  for (uint32_t v : {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu}) add(v);
  for (std::size_t i = 0; i < random; ++i)
    h.push_back(uint64_t{static_cast<uint32_t>(rng())} << 32);
  return h;
}

}  // namespace

// ---- hashes -----------------------------------------------------------------------

TEST_CASE("haproxy: sdbm, djb2, wt6, crc32 and avalanche as hashes.vtc expects",
          "[profiles][haproxy][hash]") {
  // hashes.vtc hashes the 256 bytes 0x00, 0x01, ..., 0xff.
  std::string bytes(256, '\0');
  for (int i = 0; i < 256; ++i) bytes[i] = static_cast<char>(i);
  const auto h = [&](HaproxyHashFunction f, bool avalanche) {
    return chbench::haproxy_key_hash(f, avalanche, bytes);
  };
  CHECK(h(HaproxyHashFunction::kCrc32, false) == 688229491u);
  CHECK(h(HaproxyHashFunction::kCrc32, true) == 4230317029u);
  CHECK(h(HaproxyHashFunction::kDjb2, false) == 2589693061u);
  CHECK(h(HaproxyHashFunction::kDjb2, true) == 600622701u);
  CHECK(h(HaproxyHashFunction::kSdbm, false) == 905707648u);
  CHECK(h(HaproxyHashFunction::kSdbm, true) == 3103804144u);
  CHECK(h(HaproxyHashFunction::kWt6, false) == 4090277559u);
  CHECK(h(HaproxyHashFunction::kWt6, true) == 1192658767u);
  // The CRC-32 check value, and the empty input.
  CHECK(chbench::haproxy_crc32("123456789") == 0xcbf43926u);
  CHECK(chbench::haproxy_sdbm("") == 0u);
  CHECK(chbench::haproxy_djb2("") == 5381u);
  CHECK(chbench::haproxy_crc32("") == 0u);
  CHECK(chbench::haproxy_hash_function_name(HaproxyHashFunction::kWt6) == "wt6");
}

TEST_CASE("haproxy: the profiles' key hashes are hash-type's defaults",
          "[profiles][haproxy][hash]") {
  for (const char* key : {"", "user:1", "/url1", "\xff\x00z"}) {
    INFO("key " << key);
    CHECK(chbench::profile_key_hash(Profile::kHaproxyConsistent, key) ==
          uint64_t{chbench::haproxy_full_hash(chbench::haproxy_sdbm(key))} << 32);
    CHECK(chbench::profile_key_hash(Profile::kHaproxyMap, key) == chbench::haproxy_sdbm(key));
  }
}

// ---- hash-type map-based ------------------------------------------------------------

TEST_CASE("haproxy_map: balance-uri.vtc's four servers and four URIs", "[profiles][haproxy]") {
  // balance uri, no hash-type: map-based, sdbm of the path.
  const ProfileCluster c = fleet({"srv1", "srv2", "srv3", "srv4"});
  const std::vector<std::pair<const char*, uint32_t>> want = {
      {"/url1", 1}, {"/url2", 2}, {"/url3", 3}, {"/url4", 0}};
  const auto reference = chbench::build_profile_reference(Profile::kHaproxyMap, c);
  const auto table = chbench::build_profile_table(Profile::kHaproxyMap, c);
  for (const auto& [uri, owner] : want) {
    INFO("uri " << uri);
    const std::vector<uint64_t> h = {chbench::profile_key_hash(Profile::kHaproxyMap, uri)};
    CHECK(chbench_test::owners_of(*reference, h)[0] == owner);
    CHECK(chbench_test::owners_of(*table, h)[0] == owner);
  }
}

TEST_CASE("haproxy_map: the server map of recalc_server_map", "[profiles][haproxy]") {
  using V = std::vector<uint32_t>;
  CHECK(chbench::haproxy_server_map(numbered(1, {7})) == V{0});
  CHECK(chbench::haproxy_server_map(numbered(3)) == V{0, 1, 2});
  // Worked by hand: weights 2, 1 (scores 2,1 -> 0 wins the tie; -1,2 -> 0; 0,3 -> 1).
  CHECK(chbench::haproxy_server_map(numbered(2, {2, 1})) == V{0, 0, 1});
  // 2, 4 divided by their gcd: 1, 2.
  CHECK(chbench::haproxy_server_map(numbered(2, {2, 4})) == V{0, 1, 1});
  CHECK(chbench::haproxy_server_map(numbered(2, {1, 2})) == V{0, 1, 1});
  // Every server holds weight / gcd slots.
  const std::vector<uint32_t> w = {10, 256, 1, 37, 2, 100, 3, 64, 5, 17, 8, 200};
  const auto map = chbench::haproxy_server_map(numbered(12, w));
  REQUIRE(map.size() == 703);
  for (uint32_t i = 0; i < 12; ++i) CHECK(std::count(map.begin(), map.end(), i) == w[i]);
}

// ---- hash-type consistent ---------------------------------------------------------

TEST_CASE("haproxy_consistent: the tree's points", "[profiles][haproxy]") {
  const auto points = chbench::haproxy_chash_points(numbered(3, {1, 2, 256}));
  REQUIRE(points.size() == (1 + 2 + 256) * 16u);
  CHECK(std::is_sorted(points.begin(), points.end()));
  CHECK(std::adjacent_find(points.begin(), points.end(), [](const auto& a, const auto& b) {
          return a.token == b.token;
        }) == points.end());
  // Server 2 (id 3), point 4095: full_hash(3 x 4096 + 4095).
  const uint32_t key = chbench::haproxy_full_hash(3 * 4096 + 4095);
  CHECK(std::find(points.begin(), points.end(), chbench::RingEntry<uint32_t>{key, 2}) !=
        points.end());
  for (uint32_t i = 0; i < 3; ++i)
    CHECK(std::count_if(points.begin(), points.end(), [&](const auto& p) { return p.node == i; }) ==
          (i == 0   ? 16
           : i == 1 ? 32
                    : 4096));
}

TEST_CASE("haproxy_consistent: the nearer point owns a hash, the one before on a tie",
          "[profiles][haproxy]") {
  using E = chbench::RingEntry<uint32_t>;
  const std::vector<E> points = {{100, 0}, {200, 1}, {0xfffffff0u, 2}};
  CHECK(chbench::haproxy_chash_owner(points, 100) == 0);
  CHECK(chbench::haproxy_chash_owner(points, 149) == 0);
  CHECK(chbench::haproxy_chash_owner(points, 150) == 0);  // a tie: the point before
  CHECK(chbench::haproxy_chash_owner(points, 151) == 1);
  CHECK(chbench::haproxy_chash_owner(points, 200) == 1);
  CHECK(chbench::haproxy_chash_owner(points, 0xfffffff8u) == 2);
  CHECK(chbench::haproxy_chash_owner(points, 0xffffffffu) == 2);  // 15 after 2, 101 before 0
  CHECK(chbench::haproxy_chash_owner(points, 41) == 2);           // 57 after 2, 59 before 0
  CHECK(chbench::haproxy_chash_owner(points, 42) == 2);           // 58 and 58: a tie
  CHECK(chbench::haproxy_chash_owner(points, 43) == 0);
  const std::vector<E> one = {{5, 0}};
  for (uint32_t h : {0u, 5u, 6u, 0x80000005u, 0xffffffffu})
    CHECK(chbench::haproxy_chash_owner(one, h) == 0);

  std::mt19937_64 rng(chbench_test::kSeed + 2612);
  const auto fleet_points = chbench::haproxy_chash_points(numbered(7, {1, 3, 1, 2, 5, 1, 4}));
  const auto h = probes(fleet_points, 20'000, rng);
  for (uint64_t v : h) {
    const auto hash = static_cast<uint32_t>(v >> 32);
    INFO("hash " << hash);
    REQUIRE(chbench::haproxy_chash_owner(fleet_points, hash) ==
            nearest_by_scan(fleet_points, hash));
  }
}

TEST_CASE("haproxy_consistent: every kernel over the midpoint ring equals the reference",
          "[profiles][haproxy][reference]") {
  std::mt19937_64 rng(chbench_test::kSeed + 2626);
  const std::vector<ProfileCluster> clusters = {
      numbered(1),
      numbered(2),
      numbered(3, {1, 1, 1}),
      numbered(5, {1, 2, 3, 4, 5}),
      numbered(12, {10, 256, 1, 37, 2, 100, 3, 64, 5, 17, 8, 200}),
      numbered(300)};
  for (const ProfileCluster& c : clusters) {
    INFO("N = " << c.nodes.size());
    const auto points = chbench::haproxy_chash_points(c);
    const auto h = probes(points, 100'000, rng);
    const auto reference = chbench::build_profile_reference(Profile::kHaproxyConsistent, c);
    const auto want = chbench_test::owners_of(*reference, h);
    for (const auto* kernel : chbench_test::test_kernels_of(chbench::Scheme::kRing)) {
      INFO("kernel " << kernel->name);
      const auto table = chbench::build_profile_table(Profile::kHaproxyConsistent, c, kernel->name);
      chbench_test::check_table(*table, h, want);
    }
  }
}

TEST_CASE("haproxy_map: every table kernel equals the reference",
          "[profiles][haproxy][reference]") {
  std::mt19937_64 rng(chbench_test::kSeed + 2627);
  for (const ProfileCluster& c : {numbered(1), numbered(4), numbered(5, {1, 2, 3, 4, 5}),
                                  numbered(12, {10, 256, 1, 37, 2, 100, 3, 64, 5, 17, 8, 200})}) {
    INFO("N = " << c.nodes.size());
    std::vector<uint64_t> h;
    for (int i = 0; i < 100'000; ++i) h.push_back(static_cast<uint32_t>(rng()));
    for (uint64_t v : {0ull, 1ull, 702ull, 703ull, 0xffffffffull}) h.push_back(v);
    const auto reference = chbench::build_profile_reference(Profile::kHaproxyMap, c);
    const auto want = chbench_test::owners_of(*reference, h);
    for (const auto* kernel : chbench_test::test_kernels_of(chbench::Scheme::kMaglev)) {
      if (kernel->make_over_table == nullptr) continue;
      INFO("kernel " << kernel->name);
      const auto table = chbench::build_profile_table(Profile::kHaproxyMap, c, kernel->name);
      chbench_test::check_table(*table, h, want);
    }
  }
}

// ---- bad input ------------------------------------------------------------------------

TEST_CASE("haproxy: bad fleets are refused with one message", "[profiles][haproxy][errors]") {
  for (Profile p : {Profile::kHaproxyConsistent, Profile::kHaproxyMap}) {
    INFO("profile " << chbench::profile_name(p));
    CHECK_THROWS_WITH(chbench::validate_profile(p, numbered(2, {1, 0})),
                      Catch::Contains("every weight must be 1 ... 256"));
    CHECK_THROWS_WITH(chbench::validate_profile(p, numbered(2, {1, 257})),
                      Catch::Contains("every weight must be 1 ... 256"));
    CHECK_THROWS_WITH(chbench::validate_profile(p, numbered(3, {1, 2})),
                      Catch::Contains("2 weights for 3 servers"));
    CHECK_THROWS_WITH(chbench::validate_profile(p, fleet({"web 1", "web2"})),
                      Catch::Contains("server name 'web 1'"));
    CHECK_THROWS_AS(chbench::validate_profile(p, fleet({"a", "a"})), std::invalid_argument);
    CHECK_NOTHROW(chbench::validate_profile(p, fleet({"10.0.0.1:80", "web_2.x-y"}, {256, 1})));
  }
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kHaproxyMap, numbered(100'000)),
                    Catch::Contains("more than 2^31 steps"));
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kHaproxyConsistent,
                                              numbered(chbench::kHaproxyMaxChashServers + 1)),
                    Catch::Contains("at most 1048575 servers"));
}
