// The groupcache profile against golang/groupcache's published expectations
// (consistenthash/consistenthash_test.go at
// 2c02b8208cf8c02a3e358cb1d9b60950647543fc: TestHashing with its decimal
// hash, TestConsistency with CRC-32), CRC-32's check value, the last peer
// keeping a shared point, and every ring kernel against the reference.
#include <algorithm>
#include <catch2/catch.hpp>
#include <charconv>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "chbench/profiles/groupcache.h"
#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_info.h"
#include "chbench/profiles/profiles.h"
#include "support.h"

using chbench::Profile;
using chbench::ProfileCluster;

namespace {

// TestHashing's hash: the bytes read as a decimal number (strconv.Atoi).
uint32_t decimal_hash(std::string_view bytes) noexcept {
  uint32_t v = 0;
  std::from_chars(bytes.data(), bytes.data() + bytes.size(), v);
  return v;
}

ProfileCluster peers_of(std::vector<std::string> peers, uint32_t replicas) {
  ProfileCluster c;
  c.nodes.names = std::move(peers);
  c.nodes.vnodes = replicas;
  return c;
}

// Map.Get with `hash` over `peers`, by ring kernel `kernel`.
std::string get(const std::vector<std::string>& peers, uint32_t replicas,
                chbench::GroupcacheHash hash, std::string_view kernel, const std::string& key) {
  const auto ring = chbench::profile_glue::ring_kernel(
      kernel,
      chbench::profile_glue::ketama_entries_64(chbench::groupcache_ring(peers, replicas, hash)));
  return peers[ring->owner(uint64_t{hash(key)} << 32)];
}

}  // namespace

TEST_CASE("groupcache: TestHashing of consistenthash_test.go", "[profiles][groupcache]") {
  // Peers 6, 4, 2 with 3 replicas: points 2, 4, 6, 12, 14, 16, 22, 24, 26.
  std::vector<std::string> peers = {"6", "4", "2"};
  std::vector<uint32_t> points;
  for (const auto& e : chbench::groupcache_ring(peers, 3, decimal_hash)) points.push_back(e.token);
  CHECK(points == std::vector<uint32_t>{2, 4, 6, 12, 14, 16, 22, 24, 26});
  std::vector<std::pair<std::string, std::string>> cases = {
      {"2", "2"}, {"11", "2"}, {"23", "4"}, {"27", "2"}};
  for (const auto* kernel : chbench_test::test_kernels_of(chbench::Scheme::kRing)) {
    INFO("kernel " << kernel->name);
    for (const auto& [key, want] : cases)
      CHECK(get(peers, 3, decimal_hash, kernel->name, key) == want);
    // Adding peer 8 (points 8, 18, 28): 27 now maps to 8.
    auto more = peers;
    more.push_back("8");
    const std::vector<std::pair<std::string, std::string>> cases8 = {
        {"2", "2"}, {"11", "2"}, {"23", "4"}, {"27", "8"}};
    for (const auto& [key, want] : cases8)
      CHECK(get(more, 3, decimal_hash, kernel->name, key) == want);
  }
}

TEST_CASE("groupcache: TestConsistency of consistenthash_test.go, CRC-32",
          "[profiles][groupcache]") {
  CHECK(chbench::groupcache_crc32("123456789") == 0xcbf43926u);  // CRC-32/ISO-HDLC check
  CHECK(chbench::groupcache_crc32("") == 0u);
  CHECK(chbench::groupcache_crc32("a") == 0xe8b7be43u);
  CHECK(chbench::profile_key_hash(Profile::kGroupcache, "abc") == uint64_t{0x352441c2u} << 32);
  const auto owner = [](const ProfileCluster& c, const std::string& key) {
    const auto ref = chbench::build_profile_reference(Profile::kGroupcache, c);
    return c.nodes.names[ref->owner(chbench::profile_key_hash(Profile::kGroupcache, key))];
  };
  const auto one = peers_of({"Bill", "Bob", "Bonny"}, 1);
  auto two = peers_of({"Bob", "Bonny", "Bill"}, 1);
  CHECK(owner(one, "Ben") == owner(two, "Ben"));
  two.nodes.names.insert(two.nodes.names.end(), {"Becky", "Ben", "Bobby"});
  for (const char* key : {"Ben", "Bob", "Bonny"}) CHECK(owner(one, key) == owner(two, key));
}

TEST_CASE("groupcache: a point two peers share belongs to the peer added last",
          "[profiles][groupcache]") {
  // With the decimal hash, "0" + "1" and "0" + "01" are both point 1.
  for (const auto& peers : {std::vector<std::string>{"1", "01"}, {"01", "1"}}) {
    INFO(peers[0] << ", " << peers[1]);
    for (const auto* kernel : chbench_test::test_kernels_of(chbench::Scheme::kRing))
      CHECK(get(peers, 1, decimal_hash, kernel->name, "1") == peers[1]);
  }
  // Two peers whose point 0 collides under CRC-32 ("0p828" and "0p16619600",
  // found by a search), in both orders: the reference's map and the kernels'
  // resolved ring both give the last one.
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "0" + string.
  const auto point0 = [](const std::string& name) {
    std::string s = "0";
    s += name;
    return chbench::groupcache_crc32(s);
  };
  const std::pair<std::string, std::string> pair = {"p828", "p16619600"};
  REQUIRE(point0(pair.first) == point0(pair.second));
  for (const auto& c :
       {peers_of({pair.first, pair.second}, 1), peers_of({pair.second, pair.first}, 1)}) {
    const uint64_t h = uint64_t{point0(pair.first)} << 32;
    CHECK(chbench::build_profile_reference(Profile::kGroupcache, c)->owner(h) == 1);
    for (const auto* kernel : chbench_test::test_kernels_of(chbench::Scheme::kRing))
      CHECK(chbench::build_profile_table(Profile::kGroupcache, c, kernel->name)->owner(h) == 1);
  }
}

TEST_CASE("groupcache: defaults and refusals", "[profiles][groupcache][errors]") {
  CHECK(chbench::profile_info(Profile::kGroupcache).default_vnodes == 50);
  CHECK(chbench::profile_params(Profile::kGroupcache) == chbench::kParamVnodes);
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kGroupcache, peers_of({"a", "b"}, 0)),
                    Catch::Contains("V = 0"));
  CHECK_THROWS_WITH(
      chbench::validate_profile(Profile::kGroupcache, peers_of({"a", "b"}, 0x80000000u)),
      Catch::Contains("N * replicas"));
  CHECK_THROWS_WITH(chbench::validate_profile(Profile::kGroupcache, peers_of({"a", "a"}, 50)),
                    Catch::Contains("duplicate"));
}

TEST_CASE("groupcache: every ring kernel equals the reference, each point and its neighbours",
          "[profiles][groupcache][reference]") {
  std::mt19937_64 rng(chbench_test::kSeed + 111);
  std::vector<std::string> peers;
  for (int i = 0; i < 40; ++i) peers.push_back("http://10.0.0." + std::to_string(i) + ":8080");
  const auto c = peers_of(peers, chbench::kGroupcacheDefaultReplicas);
  std::vector<uint64_t> keys;
  for (int i = 0; i < 100'000; ++i) keys.push_back(rng() & 0xffffffff00000000ull);
  for (const auto& e : chbench::groupcache_ring(peers, c.nodes.vnodes))
    for (uint64_t p : {uint64_t{e.token} - 1, uint64_t{e.token}, uint64_t{e.token} + 1})
      keys.push_back((p & 0xffffffffu) << 32);
  const auto reference = chbench::build_profile_reference(Profile::kGroupcache, c);
  const auto want = chbench_test::owners_of(*reference, keys);
  for (const auto* kernel : chbench_test::test_kernels_of(chbench::Scheme::kRing)) {
    INFO("kernel " << kernel->name);
    chbench_test::check_table(*chbench::build_profile_table(Profile::kGroupcache, c, kernel->name),
                              keys, want);
  }
}
