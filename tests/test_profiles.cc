// The production profiles' hashes against published values, each with its
// source; their placement rules against hand-checked cases (redis-cli's slot
// ranges, Table 1 of the Maglev paper, libmemcached's point strings); and
// every kernel of every profile against the profile's reference. The real
// clients are compared in interop_libmemcached.cc and redis_interop.sh.
#include <murmurhash.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "chbench/hash.h"
#include "chbench/maglev/maglev.h"
#include "chbench/profiles/profile_hash.h"
#include "chbench/profiles/profile_info.h"
#include "chbench/profiles/profiles.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"

using chbench::Profile;
using chbench::ProfileCluster;
using chbench_test::first_mismatch;
using chbench_test::kSeed;

namespace {

std::string hex(const std::array<uint8_t, 16>& digest) {
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : digest) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

// Random byte strings of length 0 ... max_len, every byte value possible.
std::vector<std::string> random_keys(std::size_t count, std::size_t max_len, std::mt19937_64& rng) {
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < count; ++i) {
    std::string key(rng() % (max_len + 1), '\0');
    for (char& c : key) c = static_cast<char>(rng());
    keys.push_back(std::move(key));
  }
  return keys;
}

std::vector<std::string_view> views(const std::vector<std::string>& keys) {
  return {keys.begin(), keys.end()};
}

// default_nodes(n, vnodes), or, for a profile that needs "host:port" servers
// (twemproxy_ketama), "10.0.<i / 256>.<i % 256>:11211" with the same vnodes.
chbench::NodeSet profile_test_nodes(Profile profile, uint32_t n, uint32_t vnodes) {
  chbench::NodeSet nodes = chbench::default_nodes(n, vnodes);
  if (profile != Profile::kTwemproxyKetama) return nodes;
  for (uint32_t i = 0; i < n; ++i)
    nodes.names[i] = "10.0." + std::to_string(i / 256) + "." + std::to_string(i % 256) + ":11211";
  return nodes;
}

}  // namespace

// ---- hashes -----------------------------------------------------------------------

TEST_CASE("md5: the test suite of RFC 1321, appendix A.5", "[profiles][hash][md5]") {
  const std::vector<std::pair<std::string, std::string>> suite = {
      {"", "d41d8cd98f00b204e9800998ecf8427e"},
      {"a", "0cc175b9c0f1b6a831c399e269772661"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72"},
      {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
      {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
       "d174ab98d277d9f5a5611c2c9f419d9f"},
      {"1234567890123456789012345678901234567890123456789012345678901234567890123456789"
       "0",
       "57edf4a22be3c955ac49da2e2107b67a"}};
  for (const auto& [message, digest] : suite) {
    INFO("MD5(\"" << message << "\")");
    CHECK(hex(chbench::md5(message)) == digest);
    // libmemcached's MEMCACHED_HASH_MD5 is the first four digest bytes,
    // little-endian: for "" that is d4 1d 8c d9 -> 0xd98c1dd4.
    const auto d = chbench::md5(message);
    CHECK(chbench::ketama_key_hash(message) ==
          (uint32_t{d[0]} | uint32_t{d[1]} << 8 | uint32_t{d[2]} << 16 | uint32_t{d[3]} << 24));
  }
  CHECK(chbench::ketama_key_hash("") == 0xd98c1dd4u);
}

TEST_CASE("md5: the multi-lane kernel equals OpenSSL on every SIMD target",
          "[profiles][hash][md5][simd][targets]") {
  std::mt19937_64 rng(kSeed + 60);
  // Every length 0 ... 80 (one and two MD5 blocks, 55 and 56 at the edge),
  // the RFC messages, and batches that end mid-vector.
  std::vector<std::string> keys = random_keys(3000, 80, rng);
  for (std::size_t len = 0; len <= 80; ++len) keys.push_back(std::string(len, 'k'));
  keys.push_back("message digest");
  const auto key_views = views(keys);
  std::vector<uint64_t> want(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    want[i] = uint64_t{chbench::ketama_key_hash(keys[i])} << 32;
  for (int64_t target : chbench_test::test_targets()) {
    chbench::simd::ForcedTarget force(target);
    INFO("target " << chbench::simd::target_name(target));
    for (std::size_t batch : {std::size_t{1}, std::size_t{7}, std::size_t{33}, keys.size()}) {
      INFO("batch " << batch);
      std::vector<uint64_t> got(keys.size(), 0);
      for (std::size_t at = 0; at < keys.size(); at += batch) {
        const std::size_t n = std::min(batch, keys.size() - at);
        chbench::ketama_key_hashes_shifted(std::span(key_views).subspan(at, n),
                                           std::span(got).subspan(at, n));
      }
      CHECK(got == want);
    }
  }
}

TEST_CASE("crc16 and Redis hash slots: the cluster specification's values",
          "[profiles][hash][redis]") {
  // Redis Cluster specification, appendix A: the CRC16 of "123456789" is 0x31C3.
  CHECK(chbench::crc16_xmodem("123456789") == 0x31C3);
  CHECK(chbench::crc16_xmodem("") == 0);
  // CLUSTER KEYSLOT's documentation (redis.io/commands/cluster-keyslot).
  CHECK(chbench::redis_key_slot("somekey") == 11058);
  CHECK(chbench::redis_key_slot("foo{hash_tag}") == 2515);
  CHECK(chbench::redis_key_slot("bar{hash_tag}") == 2515);
  // The specification's hash-tag examples ("Hash tags").
  using chbench::redis_hash_tag;
  CHECK(redis_hash_tag("{user1000}.following") == "user1000");
  CHECK(redis_hash_tag("{user1000}.followers") == "user1000");
  CHECK(redis_hash_tag("foo{}{bar}") == "foo{}{bar}");
  CHECK(redis_hash_tag("foo{{bar}}zap") == "{bar");
  CHECK(redis_hash_tag("foo{bar}{zap}") == "bar");
  // Edge cases: no '}', a '}' only before the '{', empty keys and tags.
  CHECK(redis_hash_tag("") == "");
  CHECK(redis_hash_tag("{}") == "{}");
  CHECK(redis_hash_tag("{") == "{");
  CHECK(redis_hash_tag("}{a") == "}{a");
  CHECK(redis_hash_tag("}a{b}") == "b");
  CHECK(redis_hash_tag("{{a}}") == "{a");
  CHECK(redis_hash_tag("a{}{b}") == "a{}{b}");
  CHECK(redis_hash_tag("{a}b}") == "a");
  CHECK(chbench::redis_key_slot("{user1000}.following") == chbench::redis_key_slot("user1000"));
  CHECK(chbench::redis_key_slot("") == 0);
}

TEST_CASE("kafka murmur2: the values of Kafka's UtilsTest.testMurmur2", "[profiles][hash][kafka]") {
  // clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java
  CHECK(chbench::kafka_murmur2("21") == -973932308);
  CHECK(chbench::kafka_murmur2("foobar") == -790332482);
  CHECK(chbench::kafka_murmur2("a-little-bit-long-string") == -985981536);
  CHECK(chbench::kafka_murmur2("a-little-bit-longer-string") == -1486304829);
  CHECK(chbench::kafka_murmur2("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8") == -58897971);
  CHECK(chbench::kafka_murmur2("abc") == 479470107);
  // toPositive drops the sign bit only.
  CHECK(chbench::kafka_positive_hash("21") == (static_cast<uint32_t>(-973932308) & 0x7fffffffu));
  CHECK(chbench::kafka_positive_hash("abc") == 479470107u);
}

TEST_CASE("cassandra murmur3: the DataStax driver's token values, and the signed-byte quirk",
          "[profiles][hash][cassandra]") {
  // DataStax python-driver, tests/unit/test_metadata.py (Murmur3 tokens, checked
  // there against Cassandra): tails with bytes >= 0x80 exercise the quirk.
  CHECK(chbench::cassandra_token("123") == -7468325962851647638LL);
  std::string pattern;
  for (int i = 0; i < 10; ++i) pattern += std::string("\x00\xff\x10\xfa\x99", 5);
  CHECK(chbench::cassandra_token(pattern) == 5837342703291459765LL);
  CHECK(chbench::cassandra_token(std::string(8, '\xfe')) == -8927430733708461935LL);
  CHECK(chbench::cassandra_token(std::string(8, '\x10')) == 1446172840243228796LL);
  CHECK(chbench::cassandra_token("9223372036854775807") == 7162290910810015547LL);
  // Murmur3Partitioner gives the empty key the minimum token.
  CHECK(chbench::cassandra_token("") == INT64_MIN);

  // Where no tail byte is >= 0x80, Cassandra's hash is the standard
  // MurmurHash3 x64 128 (Debian's libmurmurhash); where one is, it differs.
  std::mt19937_64 rng(kSeed + 61);
  int equal = 0, differ = 0;
  for (const std::string& key : random_keys(4000, 70, rng)) {
    uint64_t standard[2];
    lmmh_x64_128(key.data(), static_cast<unsigned>(key.size()), 0, standard);
    const auto cassandra = chbench::cassandra_murmur3_x64_128(key);
    bool high_tail = false;
    for (std::size_t i = key.size() / 16 * 16; i < key.size(); ++i)
      high_tail |= static_cast<unsigned char>(key[i]) >= 0x80;
    if (!high_tail) {
      INFO("key of " << key.size() << " bytes");
      CHECK(cassandra[0] == standard[0]);
      CHECK(cassandra[1] == standard[1]);
      ++equal;
    } else {
      differ += cassandra[0] != standard[0];
    }
  }
  // ASCII keys: the standard hash exactly.
  for (const char* key : {"", "a", "user:1", "0123456789abcdef", "0123456789abcdef0"}) {
    uint64_t standard[2];
    lmmh_x64_128(key, static_cast<unsigned>(std::string_view(key).size()), 0, standard);
    CHECK(chbench::cassandra_murmur3_x64_128(key)[0] == standard[0]);
  }
  CHECK(equal > 100);
  CHECK(differ > 100);
}

// ---- placement rules -------------------------------------------------------------------

TEST_CASE("ketama: server strings and points as libmemcached builds them", "[profiles][ketama]") {
  using chbench::ketama_point_string;
  using chbench::ketama_server;
  CHECK(ketama_server("10.0.0.1").host == "10.0.0.1");
  CHECK(ketama_server("10.0.0.1").port == 11211);
  CHECK(ketama_server("cache-a:11212").host == "cache-a");
  CHECK(ketama_server("cache-a:11212").port == 11212);
  CHECK(ketama_server("cache-a:0").port == 11211);  // not a port: part of the name
  CHECK(ketama_server("cache-a:0").host == "cache-a:0");
  // hosts.cc: "%s-%u" on the default port, "%s:%u-%u" on any other.
  CHECK(ketama_point_string(ketama_server("10.0.0.1:11211"), 0) == "10.0.0.1-0");
  CHECK(ketama_point_string(ketama_server("cache-a:11212"), 39) == "cache-a:11212-39");
  // Equal weights: 160 points each, except where libmemcached's float sum
  // lands just below 40 groups and floors to 39: 156 points at N = 25, 100.
  for (uint32_t n : {1u, 2u, 3u, 10u, 99u})
    CHECK(chbench::ketama_points_per_server(1, n, n) == 160);
  for (uint32_t n : {25u, 47u, 100u}) CHECK(chbench::ketama_points_per_server(1, n, n) == 156);
  CHECK(chbench::ketama_points_per_server(2, 4, 3) == 240);  // 0.5 * 40 * 3 = 60 groups
  CHECK(chbench::ketama_points_per_server(1, 4, 3) == 120);  // 0.25 * 40 * 3 = 30 groups
  // A continuum of 3 equal servers: 480 points, sorted by (value, index),
  // each point one of the four words of MD5("<host>-<group>").
  ProfileCluster cluster{chbench::default_nodes(3), {}};
  const auto continuum = chbench::ketama_continuum(cluster);
  REQUIRE(continuum.size() == 480);
  CHECK(std::is_sorted(continuum.begin(), continuum.end()));
  const auto digest = chbench::md5("node-1-7");
  for (unsigned k = 0; k < 4; ++k) {
    const chbench::RingEntry<uint32_t> point{chbench::md5_word(digest, k), 1};
    CHECK(std::binary_search(continuum.begin(), continuum.end(), point));
  }
}

TEST_CASE("redis: slot ranges as redis-cli --cluster create assigns them", "[profiles][redis]") {
  // redis-cli prints Master[0] -> Slots 0 - 5460, [1] 5461 - 10922, [2] 10923 - 16383.
  const auto three = chbench::redis_slot_owners(3);
  CHECK(three[0] == 0);
  CHECK(three[5460] == 0);
  CHECK(three[5461] == 1);
  CHECK(three[10922] == 1);
  CHECK(three[10923] == 2);
  CHECK(three[16383] == 2);
  // One slot per node at 16384 nodes; every node keeps a contiguous range.
  const auto all = chbench::redis_slot_owners(16384);
  for (uint32_t s = 0; s < 16384; ++s) CHECK(all[s] == s);
  for (uint32_t n : {1u, 2u, 5u, 7u, 100u, 1000u, 16383u}) {
    const auto owners = chbench::redis_slot_owners(n);
    CHECK(std::is_sorted(owners.begin(), owners.end()));
    CHECK(owners.front() == 0);
    CHECK(owners.back() == n - 1);
    std::vector<uint32_t> count(n, 0);
    for (uint32_t o : owners) ++count[o];
    INFO("N = " << n);
    CHECK(*std::min_element(count.begin(), count.end()) >= 16384 / n - 1);
    CHECK(*std::max_element(count.begin(), count.end()) <= 16384 / n + 2);
  }
  CHECK_THROWS_AS(chbench::redis_slot_owners(0), std::invalid_argument);
  CHECK_THROWS_AS(chbench::redis_slot_owners(16385), std::invalid_argument);
}

TEST_CASE("maglev: Table 1 of the paper, and balance within one entry", "[profiles][maglev]") {
  // Eisenbud et al. 2016, Table 1: M = 7, B0 (offset 3, skip 4), B1 (0, 2),
  // B2 (3, 1), whose lookup table is B1 B0 B1 B0 B2 B2 B0.
  const std::vector<chbench::MaglevPermutation> three = {{3, 4}, {0, 2}, {3, 1}};
  CHECK(chbench::maglev_populate(three, 7) == std::vector<uint32_t>{1, 0, 1, 0, 2, 2, 0});
  // Without B1, by hand from Pseudocode 1: B0 takes 3, B2 4 (3 is taken), B0 0,
  // B2 5, B0 1, B2 6, B0 2 (B2 is index 1 in the shorter list). B1's slots 0
  // and 2 go to B0, and slot 6 moves from B0 to B2: Maglev's small disruption.
  const std::vector<chbench::MaglevPermutation> without_b1 = {{3, 4}, {3, 1}};
  CHECK(chbench::maglev_populate(without_b1, 7) == std::vector<uint32_t>{0, 0, 0, 0, 1, 1, 1});

  // Backends take one slot per round, so entry counts differ by at most one.
  for (uint32_t n : {1u, 2u, 3u, 10u, 100u, 1000u, 65537u}) {
    chbench::NodeSet nodes = chbench::default_nodes(n);
    const auto table = chbench::maglev_table(nodes);
    REQUIRE(table.size() == 65537);
    std::vector<uint32_t> count(n, 0);
    for (uint32_t o : table) ++count[o];
    INFO("N = " << n);
    CHECK(*std::max_element(count.begin(), count.end()) -
              *std::min_element(count.begin(), count.end()) <=
          1);
  }
  CHECK(chbench::is_prime(65537));
  CHECK(!chbench::is_prime(65536));
  chbench::NodeSet bad = chbench::default_nodes(3);
  bad.table_size = 65536;
  CHECK_THROWS_WITH(chbench::maglev_table(bad), Catch::Contains("prime"));
  bad.table_size = 2;
  CHECK_THROWS_WITH(chbench::maglev_table(bad), Catch::Contains("below the 3 nodes"));
}

// ---- kernels against references ----------------------------------------------------------

TEST_CASE("every profile kernel matches the profile's reference", "[profiles][reference]") {
  std::mt19937_64 rng(kSeed + 62);
  std::vector<std::string> keys = random_keys(20'000, 40, rng);
  for (uint64_t i = 1; i <= 20'000; ++i) keys.push_back(chbench::default_key(i));
  for (const char* edge : {"", "{}", "{{a}}", "a{}{b}", "{a}b}", "\xff\xfe", "{user1000}.x"})
    keys.emplace_back(edge);
  const auto key_views = views(keys);

  for (Profile profile : chbench::all_profiles()) {
    // Hashes: the batch (fast) path equals the one-key (plain) path.
    std::vector<uint64_t> plain(keys.size()), fast(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
      plain[i] = chbench::profile_key_hash(profile, keys[i]);
    chbench::profile_key_hashes(profile, key_views, fast);
    INFO("profile " << chbench::profile_name(profile));
    CHECK(plain == fast);

    for (uint32_t n : {1u, 3u, 10u, 97u, 1000u}) {
      const unsigned params = chbench::profile_params(profile);
      ProfileCluster cluster{
          profile_test_nodes(profile, n, params & chbench::kParamVnodes ? 16 : 1), {}};
      if (params & chbench::kParamWeights)
        for (uint32_t i = 0; i < n; ++i) cluster.weights.push_back(1 + i % 5);
      const auto reference = chbench::build_profile_reference(profile, cluster);
      const auto want = chbench_test::owners_of(*reference, plain);
      std::vector<uint32_t> count(n, 0);
      for (uint32_t o : want) ++count[o < n ? o : 0];
      INFO("N = " << n);
      if (n > 1 && n <= 10) CHECK(std::count(count.begin(), count.end(), 0u) == 0);
      for (const auto* kernel : chbench_test::test_kernels_of(chbench::profile_scheme(profile))) {
        INFO("kernel " << kernel->name);
        const auto table = chbench::build_profile_table(profile, cluster, kernel->name);
        chbench_test::check_table(*table, plain, want);
      }
    }
  }
}

TEST_CASE("the profiles' registry: one entry a line of profiles.def, in its order", "[profiles]") {
  const auto infos = chbench::all_profile_infos();
  const std::vector<std::string> want = {"ketama",
                                         "redis",
                                         "kafka",
                                         "cassandra",
                                         "maglev",
                                         "ketama_unweighted",
                                         "haproxy_consistent",
                                         "haproxy_map",
                                         "envoy_maglev",
                                         "go_redis_ring",
                                         "groupcache",
                                         "twemproxy_ketama",
                                         "envoy_ring_hash",
                                         "grpc_ring_hash",
                                         "nginx_consistent",
                                         "nginx_hash"};
  REQUIRE(infos.size() == want.size());
  REQUIRE(chbench::all_profiles().size() == want.size());
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const chbench::ProfileInfo& info = *infos[i];
    INFO("profile " << info.name);
    CHECK(info.name == want[i]);
    CHECK(static_cast<std::size_t>(info.id) == i);
    CHECK(chbench::all_profiles()[i] == info.id);
    CHECK(&chbench::profile_info(info.id) == &info);
    CHECK(chbench::parse_profile(info.name) == info.id);
    CHECK(chbench::profile_name(info.id) == info.name);
    CHECK(chbench::profile_scheme(info.id) == info.scheme);
  }
  CHECK(chbench::profile_scheme(Profile::kKafka) == chbench::Scheme::kModN);
  CHECK(chbench::profile_scheme(Profile::kRedis) == chbench::Scheme::kMaglev);
  CHECK(!chbench::profile_placement_scheme(Profile::kRedis));
  CHECK(chbench::profile_placement_scheme(Profile::kCassandra) == chbench::Scheme::kRing);
  CHECK(chbench::profile_params(Profile::kKetama) == chbench::kParamWeights);
  CHECK(chbench::profile_params(Profile::kCassandra) == chbench::kParamVnodes);
  CHECK(chbench::profile_params(Profile::kMaglev) == chbench::kParamTableSize);
  CHECK(chbench::profile_params(Profile::kKetamaUnweighted) == 0);
}

TEST_CASE("profiles refuse bad clusters with one message", "[profiles][errors]") {
  ProfileCluster cluster{chbench::default_nodes(3), {1, 2}};
  CHECK_THROWS_WITH(chbench::build_profile_table(Profile::kKetama, cluster),
                    Catch::Contains("2 weights for 3 servers"));
  cluster.weights = {1, 0, 1};
  CHECK_THROWS_WITH(chbench::build_profile_reference(Profile::kKetama, cluster),
                    Catch::Contains("weight"));
  cluster.weights = {1, 1, 1};
  CHECK_THROWS_WITH(chbench::build_profile_table(Profile::kKafka, cluster),
                    Catch::Contains("weights apply to the profiles that take them"));
  CHECK_THROWS_AS(chbench::build_profile_table(Profile::kRedis,
                                               ProfileCluster{chbench::default_nodes(16385), {}}),
                  std::invalid_argument);
  CHECK_THROWS_WITH(chbench::parse_profile("memcache"), Catch::Contains("known: ketama, redis"));
  CHECK_THROWS_WITH(chbench::build_profile_table(
                        Profile::kKetama, ProfileCluster{chbench::default_nodes(3), {}}, "no_such"),
                    Catch::Contains("unknown kernel"));
  for (Profile p : chbench::all_profiles())
    CHECK(chbench::parse_profile(chbench::profile_name(p)) == p);
}

TEST_CASE("ketama: two names of one server are refused, in both ketama profiles",
          "[profiles][ketama][errors]") {
  using Catch::Matchers::Contains;
  const auto cluster = [](std::vector<std::string> names) {
    ProfileCluster c;
    c.nodes.names = std::move(names);
    return c;
  };
  for (const Profile p : {Profile::kKetama, Profile::kKetamaUnweighted}) {
    CHECK_THROWS_WITH(chbench::validate_profile(p, cluster({"a", "a:11211"})),
                      "ketama: 'a' and 'a:11211' are one server (host 'a', port 11211): it would "
                      "own nothing");
    CHECK_THROWS_WITH(chbench::validate_profile(p, cluster({"b", "a:011211", "a"})),
                      Contains("'a:011211' and 'a' are one server"));
    CHECK_THROWS_WITH(chbench::validate_profile(p, cluster({"a:80", "a:080"})),
                      Contains("(host 'a', port 80)"));
    CHECK_THROWS(chbench::build_profile_table(p, cluster({"a:80", "b", "a:0080"})));
    // Other ports, other hosts, and a name whose tail is no port are distinct.
    CHECK_NOTHROW(chbench::validate_profile(p, cluster({"a:80", "a:81", "a", "b:11211"})));
    CHECK_NOTHROW(chbench::validate_profile(p, cluster({"a:0", "a:11211"})));
  }
  CHECK_NOTHROW(chbench::validate_profile(Profile::kRedis, cluster({"a", "a:11211"})));
}
