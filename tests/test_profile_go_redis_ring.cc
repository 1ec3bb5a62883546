// The go_redis_ring profile against the projects' published expectations:
// cespare/xxhash's XXH64 vectors (xxhash_test.go at
// ab37246c889f9db16b606fda1c232d659df9271d), go-redis's hash tags
// (internal/hashtag/hashtag_test.go) and rendezvous tests
// (internal/hashtag/rendezvous_test.go, both at
// 216593cc01faa029006266a5f1fc3d5004312ecf), go-rendezvous's empty ring
// (rdv_test.go at 9f7001d12a5f0021fd3283525f888b5814ccee27); and the
// profile's lookups under every rendezvous kernel name against its reference.
#include <xxhash.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "chbench/profiles/go_redis_ring.h"
#include "chbench/profiles/profiles.h"
#include "support.h"

using chbench::Profile;
using chbench::ProfileCluster;

namespace {

ProfileCluster ring_of(std::vector<std::string> shards) {
  ProfileCluster c;
  c.nodes.names = std::move(shards);
  return c;
}

// Ring.GetByKey's shard name for `key`, by the profile's reference.
std::string shard_of(const ProfileCluster& c, const chbench::OwnerTable& ref,
                     const std::string& key) {
  return c.nodes.names[ref.owner(chbench::profile_key_hash(Profile::kGoRedisRing, key))];
}

std::map<std::string, int> spread(const ProfileCluster& c, int keys) {
  const auto ref = chbench::build_profile_reference(Profile::kGoRedisRing, c);
  std::map<std::string, int> count;
  for (int i = 0; i < keys; ++i) ++count[shard_of(c, *ref, "key-" + std::to_string(i))];
  return count;
}

}  // namespace

TEST_CASE("go_redis_ring: XXH64 seed 0 is cespare/xxhash's Sum64", "[profiles][go_redis_ring]") {
  const std::string s63 = "Call me Ishmael. Some years ago--never mind how long precisely-";
  const std::vector<std::pair<std::string, uint64_t>> vectors = {
      {"", 0xef46db3751d8e999ull},     {"a", 0xd24ec4f1a98c6e5bull},
      {"as", 0x1c330fb2d66be179ull},   {"asd", 0x631c37ce72a97393ull},
      {"asdf", 0x415872f599cea71eull}, {s63, 0x02a2e85470d6fd96ull}};
  for (const auto& [input, want] : vectors) {
    INFO("input '" << input << "'");
    CHECK(chbench::go_redis_key_hash(input) == want);  // no hash tag in these
  }
}

TEST_CASE("go_redis_ring: hash tags as hashtag_test.go expects", "[profiles][go_redis_ring]") {
  const auto h = [](const std::string& key) { return chbench::go_redis_key_hash(key); };
  const auto whole = [](const std::string& key) { return XXH64(key.data(), key.size(), 0); };
  CHECK(h("foo{bar}") == h("bar"));
  CHECK(h("{foo}bar") == h("foo"));
  CHECK(h("{user1000}.following") == h("{user1000}.followers"));
  CHECK(h("foo{{bar}}zap") == h("{bar"));
  CHECK(h("foo{bar}{zap}") == h("bar"));
  // No tag present: the whole key.
  for (const char* key : {"123456789", "{}foo", "foo{}", "foo{}{bar}", ""})
    CHECK(h(key) == whole(key));
}

TEST_CASE("go_redis_ring: the expectations of rendezvous_test.go", "[profiles][go_redis_ring]") {
  // One shard takes every key.
  CHECK(spread(ring_of({"only"}), 100) == std::map<std::string, int>{{"only", 100}});
  // Three shards, 100 keys: more than 25 each.
  for (const auto& [shard, n] : spread(ring_of({"node-0", "node-1", "node-2"}), 100)) {
    INFO(shard);
    CHECK(n > 25);
  }
  // Five shards, 100,000 keys: each within 10% of 20,000.
  const auto five = spread(ring_of({"node-0", "node-1", "node-2", "node-3", "node-4"}), 100'000);
  REQUIRE(five.size() == 5);
  for (const auto& [shard, n] : five) {
    INFO(shard);
    CHECK(n > 18'000);
    CHECK(n < 22'000);
  }
  // Removing node-2 moves its keys only (rendezvous), some keys stay.
  const auto three = ring_of({"node-0", "node-1", "node-2"});
  const auto two = ring_of({"node-0", "node-1"});
  const auto ref3 = chbench::build_profile_reference(Profile::kGoRedisRing, three);
  const auto ref2 = chbench::build_profile_reference(Profile::kGoRedisRing, two);
  int moved = 0, stayed = 0;
  for (int i = 0; i < 100; ++i) {
    const std::string key = "key-" + std::to_string(i);
    const std::string before = shard_of(three, *ref3, key), after = shard_of(two, *ref2, key);
    if (before == after)
      ++stayed;
    else
      ++moved;
    if (before != "node-2") CHECK(before == after);
  }
  CHECK(moved > 0);
  CHECK(stayed > 0);
  // go-rendezvous's TestEmpty: no shards. Here an empty ring is refused.
  CHECK_THROWS_WITH(chbench::build_profile_reference(Profile::kGoRedisRing, ring_of({})),
                    Catch::Contains("empty"));
}

TEST_CASE("go_redis_ring: the mixer, and shards in any order", "[profiles][go_redis_ring]") {
  // rdv.go's xorshiftMult64 step by step.
  const uint64_t x = 0x0123456789abcdefull;
  uint64_t y = x ^ (x >> 12);
  y ^= y << 25;
  y ^= y >> 27;
  CHECK(chbench::go_redis_mix64(x) == y * 2685821657736338717ull);
  CHECK(chbench::go_redis_mix64(0) == 0);
  // Ring builds its shard list from a Go map, in random order: the owner's
  // name must not depend on it.
  std::vector<std::string> shards;
  for (int i = 0; i < 30; ++i) shards.push_back("10.0.0." + std::to_string(i) + ":6379");
  const auto c = ring_of(shards);
  std::mt19937_64 rng(chbench_test::kSeed + 9);
  auto shuffled = shards;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  const auto d = ring_of(shuffled);
  const auto ref_c = chbench::build_profile_reference(Profile::kGoRedisRing, c);
  const auto ref_d = chbench::build_profile_reference(Profile::kGoRedisRing, d);
  int differ = 0;
  for (int i = 0; i < 20'000; ++i) {
    const std::string key = "user:" + std::to_string(i);
    differ += shard_of(c, *ref_c, key) != shard_of(d, *ref_d, key);
  }
  CHECK(differ == 0);
}

TEST_CASE("go_redis_ring: every rendezvous kernel name answers as the reference",
          "[profiles][go_redis_ring][reference]") {
  std::mt19937_64 rng(chbench_test::kSeed + 91);
  std::vector<std::string> shards;
  for (int i = 0; i < 37; ++i) shards.push_back("shard" + std::to_string(i));
  const auto c = ring_of(shards);
  const auto hashes = chbench::go_redis_shard_hashes(c.nodes);
  std::vector<uint64_t> keys;
  for (int i = 0; i < 100'000; ++i) keys.push_back(rng());
  // A key hash equal to a shard's hash (its score is 0) and its neighbours.
  for (uint64_t s : hashes)
    for (uint64_t h : {s - 1, s, s + 1}) keys.push_back(h);
  const auto reference = chbench::build_profile_reference(Profile::kGoRedisRing, c);
  const auto want = chbench_test::owners_of(*reference, keys);
  for (std::size_t i = 0; i < 2000; ++i) CHECK(want[i] == chbench::go_redis_shard(keys[i], hashes));
  for (const auto* kernel : chbench_test::test_kernels_of(chbench::Scheme::kRendezvous)) {
    INFO("kernel " << kernel->name);
    chbench_test::check_table(*chbench::build_profile_table(Profile::kGoRedisRing, c, kernel->name),
                              keys, want);
  }
  CHECK_THROWS_WITH(chbench::build_profile_table(Profile::kGoRedisRing, c, "no_such"),
                    Catch::Contains("unknown kernel"));
}
