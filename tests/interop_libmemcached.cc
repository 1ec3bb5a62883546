// The ketama profile against libmemcached itself (Debian libmemcached-dev
// 1.1.4): for several server lists and weights, memcached_generate_hash's
// server index for 100,000+ keys must equal the profile's reference and every
// ring kernel's owner. libmemcached is configured as weighted ketama
// (MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, which also selects the MD5 key hash) with
// MEMCACHED_BEHAVIOR_KETAMA_HASH = MD5. No server is contacted: placement is
// computed locally. libmemcached 1.1 aborts past 100 servers, so no list here
// is longer. The ketama_unweighted profile is checked the same way against
// libmemcached with MEMCACHED_BEHAVIOR_KETAMA alone (its default hash,
// one-at-a-time, for keys and points; 100 points a server; no weights).
#include <libmemcached/memcached.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "chbench/hash.h"
#include "chbench/profiles/profiles.h"
#include "chbench/scheme.h"
#include "support.h"

namespace {

struct ServerList {
  std::string what;
  std::vector<std::string> names;  // host or host:port
  std::vector<uint32_t> weights;
};

// printf into a std::string (GCC 12 warns falsely, -Wrestrict, on chains of
// std::string + std::to_string).
template <class... Args>
std::string format(const char* f, Args... args) {
  char buf[128];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

using Memcached = std::unique_ptr<memcached_st, decltype(&memcached_free)>;

Memcached libmemcached_for(const ServerList& list) {
  Memcached memc(memcached_create(nullptr), &memcached_free);
  REQUIRE(memc);
  REQUIRE(memcached_behavior_set(memc.get(), MEMCACHED_BEHAVIOR_DISTRIBUTION,
                                 MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA) == MEMCACHED_SUCCESS);
  REQUIRE(memcached_behavior_set(memc.get(), MEMCACHED_BEHAVIOR_KETAMA_HASH, MEMCACHED_HASH_MD5) ==
          MEMCACHED_SUCCESS);
  REQUIRE(memcached_behavior_set(memc.get(), MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1) ==
          MEMCACHED_SUCCESS);
  REQUIRE(memcached_behavior_set(memc.get(), MEMCACHED_BEHAVIOR_HASH, MEMCACHED_HASH_MD5) ==
          MEMCACHED_SUCCESS);
  for (std::size_t i = 0; i < list.names.size(); ++i) {
    const auto server = chbench::ketama_server(list.names[i]);
    REQUIRE(memcached_server_add_with_weight(memc.get(), server.host.c_str(),
                                             static_cast<in_port_t>(server.port),
                                             list.weights[i]) == MEMCACHED_SUCCESS);
  }
  REQUIRE(memcached_server_count(memc.get()) == list.names.size());
  REQUIRE(memcached_behavior_get(memc.get(), MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED) == 1);
  return memc;
}

std::vector<ServerList> server_lists() {
  std::vector<ServerList> lists;
  auto add = [&](std::string what, uint32_t n, auto name, auto weight) {
    ServerList list{std::move(what), {}, {}};
    for (uint32_t i = 0; i < n; ++i) {
      list.names.push_back(name(i));
      list.weights.push_back(weight(i));
    }
    lists.push_back(std::move(list));
  };
  auto one = [](uint32_t) { return 1u; };
  add(
      "1 server", 1, [](uint32_t) { return std::string("10.0.0.1"); }, one);
  add(
      "3 servers, default port", 3, [](uint32_t i) { return format("10.0.0.%u:11211", i + 1); },
      one);
  add(
      "10 servers, ports 11212...", 10,
      [](uint32_t i) { return format("cache%u.example:%u", i, 11212 + i); }, one);
  add(
      "7 servers, weights 1..5", 7, [](uint32_t i) { return format("mc-%u", i); },
      [](uint32_t i) { return 1 + i % 5; });
  add(
      "25 servers (156 points each)", 25, [](uint32_t i) { return format("192.168.1.%u", i); },
      one);
  add(
      "64 servers, weights 1, 2, 4, 8", 64,
      [](uint32_t i) { return format("host-%u:%u", i, 20000 + i); },
      [](uint32_t i) { return 1u << (i % 4); });
  add(
      "100 servers, weights 1..3", 100, [](uint32_t i) { return format("node-%u", i); },
      [](uint32_t i) { return 1 + i % 3; });
  add(
      "2 servers, weights 1 and 100", 2, [](uint32_t i) { return format("w%u", i); },
      [](uint32_t i) { return i == 0 ? 1u : 100u; });
  return lists;
}

// 100,000 default keys plus 20,000 random printable keys of 1 ... 120 bytes
// (past one MD5 block).
std::vector<std::string> interop_keys() {
  std::vector<std::string> keys;
  for (uint64_t i = 1; i <= 100'000; ++i) keys.push_back(chbench::default_key(i));
  std::mt19937_64 rng(chbench_test::kSeed + 70);
  for (int i = 0; i < 20'000; ++i) {
    std::string key(1 + rng() % 120, ' ');
    for (char& c : key) c = static_cast<char>('!' + rng() % 94);
    keys.push_back(std::move(key));
  }
  return keys;
}

// libmemcached in its unweighted ketama mode: MEMCACHED_BEHAVIOR_KETAMA only,
// every other behaviour left at its default.
Memcached unweighted_for(const std::vector<std::string>& names) {
  Memcached memc(memcached_create(nullptr), &memcached_free);
  REQUIRE(memc);
  REQUIRE(memcached_behavior_set(memc.get(), MEMCACHED_BEHAVIOR_KETAMA, 1) == MEMCACHED_SUCCESS);
  for (const std::string& name : names) {
    const auto server = chbench::ketama_server(name);
    REQUIRE(memcached_server_add(memc.get(), server.host.c_str(),
                                 static_cast<in_port_t>(server.port)) == MEMCACHED_SUCCESS);
  }
  REQUIRE(memcached_behavior_get(memc.get(), MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED) == 0);
  REQUIRE(memcached_behavior_get(memc.get(), MEMCACHED_BEHAVIOR_HASH) == MEMCACHED_HASH_DEFAULT);
  return memc;
}

// Checks the profile's reference and every ring kernel over `cluster`
// against libmemcached's server for each key; returns how many keys the
// reference places as libmemcached does.
std::size_t check_against(const Memcached& memc, chbench::Profile profile,
                          const chbench::ProfileCluster& cluster,
                          const std::vector<std::string>& keys,
                          const std::vector<uint64_t>& hashes) {
  std::vector<uint32_t> theirs(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    theirs[i] = memcached_generate_hash(memc.get(), keys[i].data(), keys[i].size());
  const auto reference = chbench::build_profile_reference(profile, cluster);
  const auto ours = chbench_test::owners_of(*reference, hashes);
  std::size_t matches = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) matches += ours[i] == theirs[i];
  CHECK(chbench_test::first_mismatch<uint64_t>(hashes, theirs, ours) == "");
  for (const auto* kernel : chbench::kernels_of(chbench::Scheme::kRing)) {
    INFO("kernel " << kernel->name);
    const auto table = chbench::build_profile_table(profile, cluster, kernel->name);
    CHECK(chbench_test::first_mismatch<uint64_t>(hashes, theirs,
                                                 chbench_test::owners_of(*table, hashes)) == "");
  }
  return matches;
}

}  // namespace

TEST_CASE("ketama_unweighted profile: memcached_generate_hash under MEMCACHED_BEHAVIOR_KETAMA",
          "[interop][libmemcached]") {
  const std::vector<std::string> keys = interop_keys();
  const std::vector<std::string_view> key_views(keys.begin(), keys.end());
  std::vector<uint64_t> hashes(keys.size());
  chbench::profile_key_hashes(chbench::Profile::kKetamaUnweighted, key_views, hashes);
  // The weighted lists' names (their weights ignored, as this mode ignores
  // them), and a list mixing the default port with others.
  std::vector<ServerList> lists = server_lists();
  lists.push_back({"4 servers, ports mixed", {"a", "a:11212", "b:11211", "10.1.1.1:1"}, {}});
  for (const ServerList& list : lists) {
    INFO(list.what);
    const Memcached memc = unweighted_for(list.names);
    const chbench::ProfileCluster cluster{chbench::NodeSet{list.names, 1}, {}};
    const std::size_t matches =
        check_against(memc, chbench::Profile::kKetamaUnweighted, cluster, keys, hashes);
    std::printf(
        "libmemcached interop (unweighted ketama): %-32s %3zu servers: %zu of %zu keys match\n",
        list.what.c_str(), list.names.size(), matches, keys.size());
  }
  // Weights are refused: this mode ignores them.
  CHECK_THROWS_WITH(
      chbench::build_profile_reference(chbench::Profile::kKetamaUnweighted,
                                       chbench::ProfileCluster{chbench::default_nodes(2), {1, 2}}),
      Catch::Contains("weights apply to the profiles that take them"));
}

TEST_CASE("ketama profile: memcached_generate_hash picks the same server for every key",
          "[interop][libmemcached]") {
  const std::vector<std::string> keys = interop_keys();
  const std::vector<std::string_view> key_views(keys.begin(), keys.end());
  std::vector<uint64_t> hashes(keys.size());
  chbench::profile_key_hashes(chbench::Profile::kKetama, key_views, hashes);

  for (const ServerList& list : server_lists()) {
    INFO(list.what);
    const Memcached memc = libmemcached_for(list);
    const chbench::ProfileCluster cluster{chbench::NodeSet{list.names, 1}, list.weights};
    const std::size_t matches =
        check_against(memc, chbench::Profile::kKetama, cluster, keys, hashes);
    std::string weights;
    for (uint32_t w : list.weights) weights += format(weights.empty() ? "%u" : ",%u", w);
    std::printf(
        "libmemcached interop: %-32s %3zu servers, weights %.40s%s: %zu of %zu keys match\n",
        list.what.c_str(), list.names.size(), weights.c_str(), weights.size() > 40 ? "..." : "",
        matches, keys.size());
  }
}
