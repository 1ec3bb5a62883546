// The twemproxy_ketama profile: twemproxy's own published values (the C unit
// tests of src/test_all.c, commit ca45646e4e976fa42231fa7114f2cab504e60706,
// release 0.5.0), its server names, point strings, point counts and server
// order as nutcracker's config and ketama_update build them, its refusals,
// and every ring kernel against its reference on 10^5 keys plus every point
// and point +- 1. nutcracker itself is compared in nutcracker_interop.sh.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "chbench/profiles/profile_hash.h"
#include "chbench/profiles/profiles.h"
#include "chbench/profiles/twemproxy_ketama.h"
#include "support.h"

using chbench::Profile;
using chbench::ProfileCluster;

namespace {

ProfileCluster cluster_of(std::vector<std::string> names, std::vector<uint32_t> weights = {}) {
  ProfileCluster c;
  c.nodes.names = std::move(names);
  c.weights = std::move(weights);
  return c;
}

// Every point, point - 1 and point + 1 on the 64-bit circle (p << 32), plus
// random key hashes whose low 32 bits are 0 (the profile's key hashes).
std::vector<uint64_t> probe_hashes(const ProfileCluster& cluster, std::size_t random) {
  std::vector<uint64_t> h;
  for (const auto& e : chbench::twemproxy_continuum(cluster))
    for (const uint32_t p : {e.token - 1, e.token, e.token + 1}) h.push_back(uint64_t{p} << 32);
  std::mt19937_64 rng(chbench_test::kSeed + 77);
  for (std::size_t i = 0; i < random; ++i) h.push_back(rng() << 32);
  h.push_back(0);
  h.push_back(uint64_t{0xffffffffu} << 32);
  return h;
}

}  // namespace

TEST_CASE("twemproxy: src/test_all.c's published hash values", "[profiles][twemproxy][hash]") {
  // test_hash_algorithms: hash_fnv1a_64("apple") and ketama_hash("server1-8", 0 and 3).
  CHECK(chbench::twemproxy_fnv1a_64("apple") == 1488911807u);
  const auto digest = chbench::md5("server1-8");
  CHECK(chbench::md5_word(digest, 0) == 3853726576u);
  CHECK(chbench::md5_word(digest, 3) == 2667054752u);
}

TEST_CASE("twemproxy: fnv1a_64 is 32-bit FNV-1a from truncated constants, signed bytes",
          "[profiles][twemproxy][hash]") {
  CHECK(chbench::twemproxy_fnv1a_64("") == 0x84222325u);
  CHECK(chbench::twemproxy_fnv1a_64("a") == (0x84222325u ^ 'a') * 0x1b3u);
  // A byte >= 0x80 goes in as a sign-extended char: 0xff as 0xffffffff.
  CHECK(chbench::twemproxy_fnv1a_64("\xff") == (0x84222325u ^ 0xffffffffu) * 0x1b3u);
  // The empty key hashes to 0 (server_pool_hash), other keys to fnv1a_64.
  CHECK(chbench::twemproxy_key_hash("") == 0);
  CHECK(chbench::twemproxy_key_hash("apple") == 1488911807u);
  CHECK(chbench::profile_key_hash(Profile::kTwemproxyKetama, "apple") == uint64_t{1488911807u}
                                                                             << 32);
}

TEST_CASE("twemproxy: server names and point strings as nutcracker's config builds them",
          "[profiles][twemproxy]") {
  const auto name = [](std::string_view node) { return chbench::twemproxy_server(node).name; };
  CHECK(name("127.0.0.1:11212") == "127.0.0.1:11212");
  CHECK(name("127.0.0.1:11211") == "127.0.0.1");  // the default port is left out
  CHECK(name("cache-a:011211") == "cache-a");     // the port is read as a number
  CHECK(name("cache-a:0011212") == "cache-a:0011212");
  CHECK(name("127.0.0.1:11212 alpha") == "alpha");  // the name field
  CHECK(chbench::twemproxy_server("10.0.0.1:11213").port == 11213);
  CHECK(chbench::twemproxy_server("10.0.0.1:11213").host == "10.0.0.1");
  CHECK(chbench::twemproxy_point_string("127.0.0.1:11212", 39) == "127.0.0.1:11212-39");
  // Cut to 272 bytes, as the 273-byte buffer of ketama_update cuts it.
  CHECK(chbench::twemproxy_point_string(std::string(300, 'h'), 7) == std::string(272, 'h'));
  CHECK(chbench::twemproxy_point_string(std::string(270, 'h'), 12) == std::string(270, 'h') + "-1");
}

TEST_CASE("twemproxy: points per server, 160 scaled by weight in float", "[profiles][twemproxy]") {
  CHECK(chbench::twemproxy_points_per_server(1, 3, 3) == 160);
  CHECK(chbench::twemproxy_points_per_server(1, 1, 1) == 160);
  CHECK(chbench::twemproxy_points_per_server(3, 5, 3) == 288);
  CHECK(chbench::twemproxy_points_per_server(1, 5, 3) == 96);
  CHECK(chbench::twemproxy_points_per_server(1, 1001, 2) == 0);  // too light: no points
  // The same counts as libmemcached's formula over a range of fleets.
  for (uint32_t n = 1; n <= 60; ++n)
    for (uint32_t w = 1; w <= 7; ++w) {
      const uint32_t total = w + (n - 1) * 3;
      INFO("n " << n << " w " << w);
      CHECK(chbench::twemproxy_points_per_server(w, total, n) ==
            chbench::ketama_points_per_server(w, total, n));
    }
}

TEST_CASE("twemproxy: the continuum in nutcracker's server order, equal points stable",
          "[profiles][twemproxy]") {
  // Servers sorted by name, shorter first: "b:1" < "a:11212" < "c:11213"
  // (the port-11211 name "b:1" has 3 bytes).
  const auto c = cluster_of({"c:11213", "a:11212", "b:1"}, {1, 2, 1});
  const auto continuum = chbench::twemproxy_continuum(c);
  std::vector<uint32_t> count(3, 0);
  for (const auto& e : continuum) ++count[e.node];
  CHECK(count == std::vector<uint32_t>{120, 240, 120});
  for (std::size_t i = 1; i < continuum.size(); ++i)
    CHECK(continuum[i - 1].token <= continuum[i].token);
  // Point group 0 of "a:11212": words 0 ... 3 of MD5("a:11212-0").
  const auto d = chbench::md5("a:11212-0");
  for (unsigned k = 0; k < 4; ++k) {
    const uint32_t p = chbench::md5_word(d, k);
    CHECK(std::any_of(continuum.begin(), continuum.end(),
                      [&](const auto& e) { return e.token == p && e.node == 1; }));
  }
}

TEST_CASE("twemproxy: every ring kernel equals nutcracker's lookup, every point +- 1",
          "[profiles][twemproxy][reference]") {
  const std::vector<ProfileCluster> clusters = {
      cluster_of({"127.0.0.1:11211", "127.0.0.1:11212", "127.0.0.1:11213"}),
      cluster_of({"10.0.0.1:11211", "10.0.0.2:11211", "10.0.0.3:11212", "10.0.0.4:11213 d"},
                 {1, 2, 3, 5}),
      cluster_of({"solo:11211"}),
  };
  for (const auto& c : clusters) {
    const auto hashes = probe_hashes(c, 100'000);
    const auto reference = chbench::build_profile_reference(Profile::kTwemproxyKetama, c);
    const auto want = chbench_test::owners_of(*reference, hashes);
    INFO("servers " << c.nodes.size());
    for (const auto* kernel : chbench_test::test_kernels_of(chbench::Scheme::kRing)) {
      INFO("kernel " << kernel->name);
      const auto table = chbench::build_profile_table(Profile::kTwemproxyKetama, c, kernel->name);
      chbench_test::check_table(*table, hashes, want);
    }
  }
}

TEST_CASE("twemproxy: an equal point goes to the server nutcracker sorts first by name",
          "[profiles][twemproxy][reference]") {
  // MD5("s5622:11212-15") word 0 == MD5("s10051:11212-32") word 2 == 3667602854
  // (found by search). Nutcracker sorts "s5622:11212" first (the shorter name),
  // though it is the second node here and the greater string byte by byte.
  const uint32_t tie = 3667602854u;
  CHECK(chbench::md5_word(chbench::md5("s5622:11212-15"), 0) == tie);
  CHECK(chbench::md5_word(chbench::md5("s10051:11212-32"), 2) == tie);
  for (const auto& names :
       {std::vector<std::string>{"s10051:11212", "s5622:11212"},
        std::vector<std::string>{"127.0.0.1:1 s10051:11212", "127.0.0.1:2 s5622:11212"}}) {
    const auto c = cluster_of(names);
    const std::vector<uint64_t> at = {uint64_t{tie} << 32, uint64_t{tie - 1} << 32};
    const auto reference = chbench::build_profile_reference(Profile::kTwemproxyKetama, c);
    CHECK(chbench_test::owners_of(*reference, at) == std::vector<uint32_t>{1, 1});
    const auto hashes = probe_hashes(c, 1000);
    const auto want = chbench_test::owners_of(*reference, hashes);
    for (const auto* kernel : chbench_test::test_kernels_of(chbench::Scheme::kRing)) {
      INFO("kernel " << kernel->name);
      chbench_test::check_table(
          *chbench::build_profile_table(Profile::kTwemproxyKetama, c, kernel->name), hashes, want);
    }
  }
}

TEST_CASE("twemproxy: bad clusters are refused with one message", "[profiles][twemproxy][errors]") {
  using Catch::Matchers::Contains;
  const auto refuses = [](const ProfileCluster& c, const std::string& what) {
    CHECK_THROWS_WITH(chbench::validate_profile(Profile::kTwemproxyKetama, c), Contains(what));
  };
  refuses(cluster_of({"a", "b:11212"}), "server 'a' needs host:port");
  refuses(cluster_of({"a:", "b:11212"}), "has no port 1 ... 65535");
  refuses(cluster_of({"a:0"}), "has no port");
  refuses(cluster_of({"a:65536"}), "has no port");
  refuses(cluster_of({"a:1x"}), "has no port");
  refuses(cluster_of({"a:11211", "a:011211"}), "one server name 'a'");
  refuses(cluster_of({"a:11212 x", "b:11213 x"}), "one server name 'x'");
  refuses(cluster_of({"a:11212 ", "b:11213"}), "no name field");
  refuses(cluster_of({"/tmp/mc.sock"}), "unix socket");
  refuses(cluster_of({"a:1", "b:1"}, {1, 0}), "every weight must be 1 ... 2^31 - 1");
  refuses(cluster_of({"a:1", "b:1"}, {1, 0x80000000u}), "every weight");
  refuses(cluster_of({"a:1", "b:1", "c:1"}, {0x7fffffffu, 0x7fffffffu, 2}), "total weight");
  refuses(cluster_of({"a:1", "b:1"}, {1, 2, 3}), "3 weights for 2 servers");
  CHECK_NOTHROW(chbench::validate_profile(Profile::kTwemproxyKetama,
                                          cluster_of({"a:11211", "a:11212", "a:11211 b"})));
}
