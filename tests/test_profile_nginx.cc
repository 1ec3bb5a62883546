// nginx 1.22.1's hash module (src/http/modules/ngx_http_upstream_hash_module.c,
// tag release-1.22.1): the point strings, the CRC-32 values, and every kernel
// against the reference on random keys, every point and point +- 1, and every
// plain-hash value. tests/nginx_interop.sh compares with the running nginx.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "chbench/profiles/nginx.h"
#include "chbench/profiles/profile_info.h"
#include "support.h"

using chbench::Profile;
using chbench::ProfileCluster;

namespace {

ProfileCluster cluster_of(std::vector<std::string> names, std::vector<uint32_t> weights) {
  ProfileCluster c;
  c.nodes.names = std::move(names);
  c.weights = std::move(weights);
  return c;
}

void check_all_kernels(Profile profile, const ProfileCluster& cluster,
                       const std::vector<uint64_t>& hashes) {
  const auto reference = chbench::build_profile_reference(profile, cluster);
  const auto want = chbench_test::owners_of(*reference, hashes);
  for (const auto* kernel : chbench_test::test_kernels_of(chbench::profile_scheme(profile))) {
    INFO("kernel " << kernel->name);
    chbench_test::check_table(*chbench::build_profile_table(profile, cluster, kernel->name), hashes,
                              want);
  }
}

}  // namespace

TEST_CASE("nginx: the bytes hashed before a server's points", "[profiles][nginx]") {
  using namespace std::string_literals;
  CHECK(chbench::nginx_point_base("127.0.0.1:8080") ==
        "127.0.0.1\0"s
        "8080");
  CHECK(chbench::nginx_point_base("127.0.0.1") == "127.0.0.1\0"s);
  CHECK(chbench::nginx_point_base("backend") == "backend\0"s);
  CHECK(chbench::nginx_point_base("[::1]:81") ==
        "[::1]\0"s
        "81");
  CHECK(chbench::nginx_point_base("unix:/tmp/s") == "/tmp/s\0"s);
  CHECK(chbench::nginx_point_base("12345") == "12345\0"s);
}

TEST_CASE("nginx: CRC-32 key hashes (IEEE, the check value of \"123456789\")",
          "[profiles][nginx]") {
  CHECK(chbench::profile_key_hash(Profile::kNginxConsistent, "123456789") == uint64_t{0xcbf43926}
                                                                                 << 32);
  CHECK(chbench::profile_key_hash(Profile::kNginxHash, "123456789") ==
        ((0xcbf43926u >> 16) & 0x7fff));
}

TEST_CASE("nginx: 160 points a unit of weight, sorted and distinct", "[profiles][nginx]") {
  const auto c = cluster_of({"127.0.0.1:8080", "127.0.0.1:8081"}, {1, 3});
  const auto points = chbench::nginx_chash_points(c);
  CHECK(points.size() <= 640);
  CHECK(points.size() >= 638);
  for (std::size_t i = 1; i < points.size(); ++i) CHECK(points[i - 1].token < points[i].token);
}

TEST_CASE("nginx_consistent: every kernel equals the reference on keys and points +- 1",
          "[profiles][nginx]") {
  std::mt19937_64 rng(91);
  for (const auto& c : {cluster_of({"127.0.0.1:8080", "127.0.0.1:8081", "127.0.0.1:8082"}, {}),
                        cluster_of({"a:1", "b", "unix:/s", "10.0.0.1:11211"}, {1, 2, 5, 1})}) {
    std::vector<uint64_t> hashes;
    for (int i = 0; i < 100'000; ++i) hashes.push_back(rng() & 0xffffffff00000000u);
    for (const auto& p : chbench::nginx_chash_points(c))
      for (uint64_t d : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}})
        hashes.push_back(uint64_t{static_cast<uint32_t>(p.token + d)} << 32);
    hashes.push_back(0);
    hashes.push_back(0xffffffff00000000u);
    check_all_kernels(Profile::kNginxConsistent, c, hashes);
  }
}

TEST_CASE("nginx_hash: every kernel equals the reference on every key hash", "[profiles][nginx]") {
  std::vector<uint64_t> hashes;
  for (uint64_t h = 0; h < 0x8000; ++h) hashes.push_back(h);
  for (const auto& c : {cluster_of({"a", "b", "c"}, {}), cluster_of({"a", "b", "c"}, {1, 7, 2}),
                        cluster_of({"a", "b"}, {40000, 3}), cluster_of({"a", "b"}, {3, 40000})})
    check_all_kernels(Profile::kNginxHash, c, hashes);
  // Walking by weight: w = h mod 10 in 0 ... 9; a holds 0, b 1 ... 7, c 8 ... 9.
  const auto ref =
      chbench::build_profile_reference(Profile::kNginxHash, cluster_of({"a", "b", "c"}, {1, 7, 2}));
  const std::vector<uint64_t> some{10, 11, 17, 18, 19};
  CHECK(chbench_test::owners_of(*ref, some) == std::vector<uint32_t>{0, 1, 1, 2, 2});
}

TEST_CASE("nginx: weight 0 is refused", "[profiles][nginx][errors]") {
  for (Profile p : {Profile::kNginxConsistent, Profile::kNginxHash})
    CHECK_THROWS_AS(chbench::validate_profile(p, cluster_of({"a", "b"}, {1, 0})),
                    std::invalid_argument);
}
