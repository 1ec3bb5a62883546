// Cassandra's token allocation (allocation.h): replicated ownership on a
// hand-made ring, the first allocated token, and the experiment's claim that
// 16 allocated tokens spread ownership no worse than 256 random ones.
#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "allocation.h"

using namespace chbench;
using namespace chbench::lab;

namespace {

// A token at k/16 of the circle.
constexpr uint64_t sixteenth(uint64_t k) { return k << 60; }

}  // namespace

TEST_CASE("allocation: replicated ownership of a hand-made ring") {
  // node 0 at 2/16 and 13/16, node 1 at 5/16, node 2 at 10/16.
  const TokenRing ring = {
      {sixteenth(2), 0}, {sixteenth(5), 1}, {sixteenth(10), 2}, {sixteenth(13), 0}};
  // RF 1: each token owns back to the previous one.
  const auto one = replicated_ownership(ring, 3, 1);
  CHECK(one[0] == Approx(8.0 / 16));
  CHECK(one[1] == Approx(3.0 / 16));
  CHECK(one[2] == Approx(5.0 / 16));
  // RF 2: the ranges' replica pairs are (13,2] {0,1}, (2,5] {1,2}, (5,10]
  // {2,0}, (10,13] {0,1}: node 0 holds 5 + 5 + 3, node 1 5 + 3 + 3, node 2 3 + 5.
  const auto two = replicated_ownership(ring, 3, 2);
  CHECK(two[0] == Approx(13.0 / 16));
  CHECK(two[1] == Approx(11.0 / 16));
  CHECK(two[2] == Approx(8.0 / 16));
  // RF 3 with three nodes: every node holds everything.
  for (const double o : replicated_ownership(ring, 3, 3)) CHECK(o == Approx(1.0));
}

TEST_CASE("allocation: the second node halves a one-token ring") {
  TokenRing ring = {{sixteenth(4), 0}};
  allocate_tokens(ring, 2, 1, 1, 1);
  REQUIRE(ring.size() == 2);
  CHECK(ring[1].token == sixteenth(4) + (uint64_t{1} << 63));
  CHECK(ring[1].node == 1);
  const auto own = replicated_ownership(ring, 2, 1);
  CHECK(own[0] == Approx(0.5));
  CHECK(own[1] == Approx(0.5));
}

TEST_CASE("allocation: a joining node takes its tokens, the ring stays sorted") {
  TokenRing ring = ring_entries(default_nodes(5, 16));
  allocate_tokens(ring, 6, 5, 16, 3);
  CHECK(ring.size() == 96);
  CHECK(std::is_sorted(ring.begin(), ring.end()));
  CHECK(std::count_if(ring.begin(), ring.end(), [](const auto& e) { return e.node == 5; }) == 16);
}

TEST_CASE("allocation: 16 allocated tokens spread no worse than 256 random at 10+ nodes") {
  const std::vector<uint32_t> random = {256}, rfs = {1, 3};
  for (const bool cassandra : {false, true}) {
    const auto rows = allocation_experiment(cassandra, 10, 40, 16, random, rfs);
    for (const AllocationRow& a : rows) {
      if (!a.allocated) continue;
      const auto r = std::find_if(rows.begin(), rows.end(), [&](const AllocationRow& x) {
        return !x.allocated && x.nodes == a.nodes && x.rf == a.rf;
      });
      REQUIRE(r != rows.end());
      INFO((cassandra ? "cassandra" : "ring") << ", N = " << a.nodes << ", RF = " << a.rf);
      CHECK(a.spread.std_pct <= r->spread.std_pct);
      CHECK(a.spread.busiest_over_mean <= r->spread.busiest_over_mean);
    }
  }
  CHECK_THROWS(allocation_experiment(false, 1, 10, 16, random, rfs));
  CHECK_THROWS(allocation_experiment(false, 3, 10, 16, random, std::vector<uint32_t>{0}));
}
