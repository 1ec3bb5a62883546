// The envoy_maglev profile against Envoy's own published expectations: the
// tables of maglev_lb_test.cc (envoyproxy/envoy test/extensions/
// load_balancing_policies/maglev/maglev_lb_test.cc at
// e7495d2690fac1d2c4041b7945959abbcb4f9eaa), its limits, the independence
// from host order, and every Maglev kernel against the profile's reference.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "chbench/maglev/maglev.h"
#include "chbench/profiles/envoy_maglev.h"
#include "chbench/profiles/profiles.h"
#include "support.h"

using chbench::Profile;
using chbench::ProfileCluster;

namespace {

ProfileCluster envoy_cluster(std::vector<std::string> hosts, uint32_t m,
                             std::vector<uint32_t> weights = {}) {
  ProfileCluster c;
  c.nodes.names = std::move(hosts);
  c.nodes.table_size = m;
  c.weights = std::move(weights);
  return c;
}

// "127.0.0.1:<first>" ... "127.0.0.1:<first + count - 1>".
std::vector<std::string> loopback_hosts(uint32_t first, uint32_t count) {
  std::vector<std::string> hosts;
  for (uint32_t p = first; p < first + count; ++p)
    hosts.push_back("127.0.0.1:" + std::to_string(p));
  return hosts;
}

// Envoy's checks of a table: the owner of hash i is expected[i mod M] for
// the first 3 M hashes (by the profile's reference), and the fewest and most
// entries a host holds (its min/max_entries_per_host gauges).
void check_envoy_table(const ProfileCluster& c, const std::vector<uint32_t>& expected,
                       uint32_t min_entries, uint32_t max_entries) {
  CHECK(chbench::envoy_maglev_table(c) == expected);
  const auto reference = chbench::build_profile_reference(Profile::kEnvoyMaglev, c);
  for (uint64_t i = 0; i < 3 * expected.size(); ++i)
    CHECK(reference->owner(i) == expected[i % expected.size()]);
  std::vector<uint32_t> count(c.nodes.size(), 0);
  for (uint32_t o : expected) ++count[o];
  CHECK(*std::min_element(count.begin(), count.end()) == min_entries);
  CHECK(*std::max_element(count.begin(), count.end()) == max_entries);
}

}  // namespace

TEST_CASE("envoy_maglev: the Basic and BasicWithHostName tables of maglev_lb_test.cc",
          "[profiles][envoy_maglev]") {
  // Hosts tcp://127.0.0.1:90 ... 95, hashed by address "127.0.0.1:9x", M = 7.
  check_envoy_table(envoy_cluster(loopback_hosts(90, 6), 7), {2, 4, 0, 1, 5, 0, 3}, 1, 2);
  // The same hosts hashed by hostname "90" ... "95" (use_hostname_for_hashing).
  check_envoy_table(envoy_cluster({"90", "91", "92", "93", "94", "95"}, 7), {2, 5, 0, 3, 4, 1, 0},
                    1, 2);
}

TEST_CASE("envoy_maglev: the Weighted and locality-weighted tables of maglev_lb_test.cc",
          "[profiles][envoy_maglev]") {
  // Weighted: 127.0.0.1:90 weight 1, :91 weight 2, M = 17.
  check_envoy_table(envoy_cluster(loopback_hosts(90, 2), 17, {1, 2}),
                    {1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1}, 6, 11);
  // LocalityWeightedSameLocalityWeights: each host alone in a locality of
  // weight 1, so both normalise to 1/2: host weights 1, 1.
  check_envoy_table(envoy_cluster(loopback_hosts(90, 2), 17, {1, 1}),
                    {1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1}, 8, 9);
  // LocalityWeightedDifferentLocalityWeights: :90 normalises to 8/10, :91 to
  // (2/10) * 2 / 2, :92's locality has weight 0 (no host): weights 4, 1 give
  // the same doubles, 0.8 and 0.2.
  check_envoy_table(envoy_cluster(loopback_hosts(90, 2), 17, {4, 1}),
                    {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0}, 4, 13);
}

TEST_CASE("envoy_maglev: LocalityWeightedLopsided, one heavy host and 1023 light ones",
          "[profiles][envoy_maglev]") {
  // Envoy: host :0 normalises to 127/128, hosts :1 ... :1023 to (1/128) / 1023;
  // weights 127 * 1023 and 1 give the same doubles (each one rounding of the
  // same quotient). Each light host holds one entry, the heavy one the rest.
  std::vector<uint32_t> weights(1024, 1);
  weights[0] = 127 * 1023;
  const auto c = envoy_cluster(loopback_hosts(0, 1024), chbench::kEnvoyMaglevDefaultTableSize,
                               std::move(weights));
  const auto table = chbench::envoy_maglev_table(c);
  std::vector<uint32_t> count(1024, 0);
  for (uint32_t o : table) ++count[o];
  CHECK(count[0] == chbench::kEnvoyMaglevDefaultTableSize - 1023);
  CHECK(std::count(count.begin() + 1, count.end(), 1u) == 1023);
}

TEST_CASE("envoy_maglev: the table does not depend on the order of the hosts",
          "[profiles][envoy_maglev]") {
  // BasicStability shuffles the hosts; the table names the same hosts.
  std::mt19937_64 rng(chbench_test::kSeed + 7);
  for (const bool weighted : {false, true}) {
    auto hosts = loopback_hosts(8000, 40);
    std::vector<uint32_t> weights;
    if (weighted)
      for (uint32_t i = 0; i < hosts.size(); ++i) weights.push_back(1 + i % 7);
    const auto c = envoy_cluster(hosts, 10007, weights);
    const auto table = chbench::envoy_maglev_table(c);
    std::vector<uint32_t> order(hosts.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    ProfileCluster shuffled = c;
    for (uint32_t i = 0; i < order.size(); ++i) {
      shuffled.nodes.names[i] = c.nodes.names[order[i]];
      if (weighted) shuffled.weights[i] = c.weights[order[i]];
    }
    const auto table2 = chbench::envoy_maglev_table(shuffled);
    std::size_t differ = 0;
    for (std::size_t s = 0; s < table.size(); ++s)
      differ += c.nodes.names[table[s]] != shuffled.nodes.names[table2[s]];
    INFO("weighted " << weighted);
    CHECK(differ == 0);
  }
}

TEST_CASE("envoy_maglev: permutations, the key hash and the default table size",
          "[profiles][envoy_maglev]") {
  CHECK(chbench::NodeSet{}.table_size == chbench::kEnvoyMaglevDefaultTableSize);
  CHECK(chbench::is_prime(chbench::kEnvoyMaglevDefaultTableSize));
  CHECK(chbench::is_prime(chbench::kEnvoyMaglevMaxTableSize));
  // XXH64 with seed 0 (cespare/xxhash's xxhash_test.go vectors, the same
  // function): "" and "a".
  CHECK(chbench::envoy_key_hash("") == 0xef46db3751d8e999ull);
  CHECK(chbench::envoy_key_hash("a") == 0xd24ec4f1a98c6e5bull);
  CHECK(chbench::profile_key_hash(Profile::kEnvoyMaglev, "asdf") == 0x415872f599cea71eull);
  const auto p = chbench::envoy_maglev_permutation("127.0.0.1:90", 7);
  CHECK(p.offset < 7);
  CHECK(p.skip >= 1);
  CHECK(p.skip < 7);
}

TEST_CASE("envoy_maglev: bad clusters are refused with one message",
          "[profiles][envoy_maglev][errors]") {
  using Catch::Matchers::Contains;
  const auto hosts = loopback_hosts(90, 3);
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kEnvoyMaglev, envoy_cluster(hosts, 8)),
                    Contains("the table size must be a prime, 2 ... 5000011 (got 8"));
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kEnvoyMaglev, envoy_cluster(hosts, 5000077)),
                    Contains("got 5000077"));
  CHECK_NOTHROW(chbench::validate_profile(Profile::kEnvoyMaglev,
                                          envoy_cluster(hosts, chbench::kEnvoyMaglevMaxTableSize)));
  CHECK_THROWS_WITH(
      chbench::validate_profile(Profile::kEnvoyMaglev, envoy_cluster(hosts, 7, {1, 0, 1})),
      Contains("every weight must be at least 1"));
  CHECK_THROWS_WITH(
      chbench::validate_profile(Profile::kEnvoyMaglev, envoy_cluster(hosts, 7, {1, 1})),
      Contains("2 weights for 3 hosts"));
  CHECK_THROWS_WITH(
      chbench::validate_profile(Profile::kEnvoyMaglev,
                                envoy_cluster(hosts, 7, {0x80000000u, 0x80000000u, 1})),
      Contains("above Envoy's bound of 4294967295"));
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kEnvoyMaglev,
                                              envoy_cluster({"127.0.0.1:90", "127.0.0.1:90"}, 7)),
                    Contains("duplicate"));
  for (const char* bare : {"10.0.0.1", "::1", "[::1]", "fe80::1"})
    CHECK_THROWS_WITH(
        chbench::validate_profile(Profile::kEnvoyMaglev, envoy_cluster({"10.0.0.2:80", bare}, 7)),
        Contains("is an IP address without its port"));
  for (const char* bad : {"10.0.0.1:65536", "[::1]:", "10.0.0.1:8o"})
    CHECK_THROWS_WITH(
        chbench::validate_profile(Profile::kEnvoyMaglev, envoy_cluster({"10.0.0.2:80", bad}, 7)),
        Contains("has no port 0 ... 65535"));
  // Hostnames and addresses with ports are host keys.
  CHECK_NOTHROW(chbench::validate_profile(
      Profile::kEnvoyMaglev,
      envoy_cluster({"backend-1", "10.0.0.1:80", "[::1]:443", "api.example:8080"}, 7)));
}

TEST_CASE("envoy_maglev: every Maglev kernel equals the reference, each slot and its neighbours",
          "[profiles][envoy_maglev][reference]") {
  std::mt19937_64 rng(chbench_test::kSeed + 71);
  std::vector<uint32_t> weights;
  for (uint32_t i = 0; i < 50; ++i) weights.push_back(1 + i % 9);
  for (const auto& c : {envoy_cluster(loopback_hosts(9000, 50), 65537, weights),
                        envoy_cluster(loopback_hosts(9000, 13), 7919),
                        envoy_cluster(loopback_hosts(9000, 20), 7)}) {
    const uint64_t m = c.nodes.table_size;
    std::vector<uint64_t> keys;
    for (int i = 0; i < 100'000; ++i) keys.push_back(rng());
    for (uint64_t s = 0; s <= m; ++s)
      for (uint64_t h : {s, s + 1, s + m * 1000003 - 1, ~uint64_t{0} - s}) keys.push_back(h);
    const auto reference = chbench::build_profile_reference(Profile::kEnvoyMaglev, c);
    const auto want = chbench_test::owners_of(*reference, keys);
    for (const auto* kernel : chbench_test::test_kernels_of(chbench::Scheme::kMaglev)) {
      INFO("M = " << m << ", kernel " << kernel->name);
      const auto table = chbench::build_profile_table(Profile::kEnvoyMaglev, c, kernel->name);
      chbench_test::check_table(*table, keys, want);
    }
  }
}
