// Request popularity (popularity.h) and the load reports of balance and move
// (commands/load.h): exact loads on hand-checked streams over mod-N (owner =
// h mod N, docs/spec.md §5), and the Zipf generator's frequencies against its pmf.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "commands/load.h"
#include "popularity.h"
#include "support.h"

using namespace chbench;
using namespace chbench::lab;
using namespace chbench::lab::test;
using Catch::Matchers::Contains;

namespace {

Setup setup_of(Scheme scheme, uint32_t nodes) {
  Setup s;
  s.scheme = scheme;
  s.placement.scheme = scheme;
  s.fleet = Fleet(default_nodes(nodes, 1));
  return s;
}

const std::vector<uint64_t> kHashes = {0, 1, 2, 3, 4, 5};

}  // namespace

TEST_CASE("popularity: request loads of a hand-checked stream over mod-N") {
  // h mod 3: keys 0 and 3 on node-0 (5 + 1 requests), 1 and 4 on node-1, 2 and 5 on node-2.
  const KeySet keys = KeySet::from_hashes(kHashes);
  const Requests req = requests_from_lines("5\n1\n1\n1\n1\n1\n", 6, "w");
  const LoadBalanceReport r = run_load_balance(setup_of(Scheme::kModN, 3), req, {}, keys);
  CHECK(r.requests == 10);
  CHECK(r.node_keys == std::vector<uint64_t>{2, 2, 2});
  CHECK(r.node_requests == std::vector<uint64_t>{6, 2, 2});
  CHECK(r.key_stats.busiest_over_mean == Approx(1.0));
  CHECK(r.request_stats.busiest_over_mean == Approx(1.8));  // 6 / (10 / 3)
  // Deviations 8/3, -4/3, -4/3 from the mean 10/3: std sqrt(32) / 10 of it.
  CHECK(r.request_stats.std_pct == Approx(100 * std::sqrt(32.0) / 10));
  CHECK(r.hottest == Approx(0.5));
}

TEST_CASE("popularity: the requests that move when mod-N grows from 3 to 4 nodes") {
  // Owners h mod 3 = 0 1 2 0 1 2, then h mod 4 = 0 1 2 3 0 1: keys 3, 4, 5 move.
  const KeySet keys = KeySet::from_hashes(kHashes);
  const Requests req = requests_from_lines("5\n1\n1\n2\n3\n4", 6, "w");
  MoveRequest add;
  add.add = {"node-3"};
  const LoadMoveReport r = run_load_move(setup_of(Scheme::kModN, 3), add, req, {}, keys);
  CHECK(r.requests == 16);
  CHECK(r.plain.keys == 3);
  CHECK(r.plain.requests == 9);
  CHECK_FALSE(r.bounded);
}

TEST_CASE("popularity: the Zipf pmf and the generator's frequencies") {
  // K = 3, s = 1: H = 1 + 1/2 + 1/3 = 11/6.
  CHECK(zipf_pmf(3, 1.0, 1) == Approx(6.0 / 11));
  CHECK(zipf_pmf(3, 1.0, 3) == Approx(2.0 / 11));
  CHECK(zipf_pmf(4, 0.0, 2) == Approx(0.25));
  constexpr uint64_t kK = 50, kR = 200'000;
  for (const double s : {0.0, 0.7, 1.0, 1.5}) {
    const Requests r = zipf_requests(kK, s, kR, 7);
    REQUIRE(r.total == kR);
    REQUIRE(r.stream.size() == kR);
    for (uint64_t i = 0; i < kK; ++i) {
      const double p = zipf_pmf(kK, s, i + 1);
      const double f = static_cast<double>(r.per_key[i]) / kR;
      INFO("s = " << s << ", rank " << i + 1);
      CHECK(std::abs(f - p) <= kSigmas * binomial_sd(p, kR));
    }
  }
  // Seeded: the same seed draws the same stream, another seed another.
  CHECK(zipf_requests(kK, 1.0, 1000, 3).stream == zipf_requests(kK, 1.0, 1000, 3).stream);
  CHECK(zipf_requests(kK, 1.0, 1000, 3).stream != zipf_requests(kK, 1.0, 1000, 4).stream);
}

TEST_CASE("popularity: bad specs and count files are refused with one line") {
  CHECK(parse_popularity("zipf:0.99").s == Approx(0.99));
  CHECK(parse_popularity("file:a.txt").path == "a.txt");
  CHECK_THROWS_WITH(parse_popularity("zipf:1.6"), Contains("[0, 1.5]"));
  CHECK_THROWS_WITH(parse_popularity("zipf:-0.1"), Contains("[0, 1.5]"));
  CHECK_THROWS_WITH(parse_popularity("uniform"), Contains("neither zipf:S"));
  CHECK_THROWS_WITH(parse_popularity("file:"), Contains("neither zipf:S"));
  CHECK_THROWS_WITH(requests_from_lines("1\nx\n", 2, "w"), Contains("w line 2 is not"));
  CHECK_THROWS_WITH(requests_from_lines("1\n\n3\n", 3, "w"), Contains("w line 2 is not"));
  CHECK_THROWS_WITH(requests_from_lines("1\n2\n3\n", 2, "w"), Contains("gives 3 request counts"));
  CHECK_THROWS_WITH(requests_from_lines("0\n0\n", 2, "w"), Contains("0 requests"));
  CHECK(requests_from_lines(" 4 \r\n2", 2, "w").per_key == std::vector<uint64_t>{4, 2});
}
