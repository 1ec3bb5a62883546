// Consistent hashing with bounded loads (bounded.h): exact assignments on
// hand-made rings, every node within its capacity on the lab's rings, and
// the requests that move on a join exactly those the rule sends elsewhere.
#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <vector>

#include "bounded.h"
#include "commands/load.h"
#include "popularity.h"

using namespace chbench;
using namespace chbench::lab;

namespace {

SortedRing<uint64_t> ring_of(std::vector<uint64_t> tokens, std::vector<uint32_t> owners) {
  SortedRing<uint64_t> r;
  r.tokens = std::move(tokens);
  r.owners = std::move(owners);
  r.owners.push_back(r.owners.front());
  return r;
}

Setup ring_setup(uint32_t nodes, uint32_t vnodes) {
  Setup s;
  s.scheme = Scheme::kRing;
  s.placement.scheme = Scheme::kRing;
  s.fleet = Fleet(default_nodes(nodes, vnodes));
  return s;
}

}  // namespace

TEST_CASE("bounded: capacity is ceil(c x requests / nodes)") {
  CHECK(bounded_capacity(1.25, 10, 4) == 4);  // 3.125
  CHECK(bounded_capacity(1.0, 6, 3) == 2);
  CHECK(bounded_capacity(1.5, 6, 3) == 3);
  CHECK(bounded_capacity(1.0, 7, 3) == 3);
  CHECK_THROWS(bounded_capacity(0.9, 6, 3));
  CHECK_THROWS(bounded_capacity(1.0, 6, 0));
}

TEST_CASE("bounded: exact assignment on a hand-made ring") {
  // Tokens 100 (node 0), 200 (node 1), 300 (node 2).
  const auto ring = ring_of({100, 200, 300}, {0, 1, 2});
  const std::vector<uint64_t> req = {50, 60, 70, 80, 150, 250};
  // c = 1: capacity 2. 70 and 80 find node 0 full and walk to node 1, which
  // 150 then finds full: it walks on to node 2.
  const BoundedAssignment a = bounded_assign(ring, 3, req, 1.0);
  CHECK(a.capacity == 2);
  CHECK(a.node == std::vector<uint32_t>{0, 0, 1, 1, 2, 2});
  CHECK(a.load == std::vector<uint64_t>{2, 2, 2});
  CHECK(a.walked == 3);
  // c = 1.5: capacity 3; only 80 walks.
  const BoundedAssignment b = bounded_assign(ring, 3, req, 1.5);
  CHECK(b.node == std::vector<uint32_t>{0, 0, 0, 1, 1, 2});
  CHECK(b.walked == 1);
  // Capacity 1. Past the last token the walk wraps to the first: 350 goes to
  // node 0; 270 finds node 2 full, wraps past node 0, full too, to node 1.
  const BoundedAssignment w = bounded_assign(ring, 3, std::vector<uint64_t>{350, 260, 270}, 1.0);
  CHECK(w.node == std::vector<uint32_t>{0, 2, 1});
}

TEST_CASE("bounded: a full node's other tokens are passed over") {
  // Node 0 holds tokens 100 and 200: the third request at 50 walks past both.
  const auto ring = ring_of({100, 200, 300, 400}, {0, 0, 1, 2});
  const BoundedAssignment a = bounded_assign(ring, 3, std::vector<uint64_t>{50, 50, 50, 150}, 1.0);
  CHECK(a.capacity == 2);
  CHECK(a.node == std::vector<uint32_t>{0, 0, 1, 1});
}

TEST_CASE("bounded: a join moves only the requests the rule sends to the newcomer") {
  const std::vector<uint64_t> req = {50, 60, 70, 80, 150, 250};
  const auto before = bounded_assign(ring_of({100, 200, 300}, {0, 1, 2}), 3, req, 1.0);
  // Node 3 joins at 250: capacity stays ceil(6 / 4) = 2; 150 walks from the
  // full node 1 to node 3 now, and 250 is node 3's own.
  const auto after = bounded_assign(ring_of({100, 200, 250, 300}, {0, 1, 3, 2}), 4, req, 1.0);
  CHECK(after.capacity == 2);
  CHECK(before.node == std::vector<uint32_t>{0, 0, 1, 1, 2, 2});
  CHECK(after.node == std::vector<uint32_t>{0, 0, 1, 1, 3, 3});
}

TEST_CASE("bounded: every node within capacity on the lab's rings") {
  const KeySet keys = KeySet::counted(5000);
  const Requests req = zipf_requests(keys.size(), 1.2, 50'000, 1);
  for (const double c : {1.0, 1.1, 1.25, 2.0}) {
    const LoadBalanceReport r = run_load_balance(ring_setup(20, 10), req, c, keys);
    REQUIRE(r.bounded);
    INFO("c = " << c);
    CHECK(r.bounded->capacity == bounded_capacity(c, 50'000, 20));
    CHECK(*std::max_element(r.bounded->load.begin(), r.bounded->load.end()) <= r.bounded->capacity);
    CHECK(std::accumulate(r.bounded->load.begin(), r.bounded->load.end(), uint64_t{0}) == 50'000);
    // The unbounded busiest node (the hottest key alone takes about 8%) is over it.
    CHECK(*std::max_element(r.node_requests.begin(), r.node_requests.end()) > r.bounded->capacity);
  }
}

TEST_CASE("bounded: with room for every request, moves are the plain ring's") {
  // c = N: capacity R, no node ever full, so every request stays on its owner.
  const KeySet keys = KeySet::counted(4000);
  const Requests req = zipf_requests(keys.size(), 0.9, 20'000, 2);
  MoveRequest add;
  add.add = {"node-10"};
  // The walk starts where the ring kernel answers: the loads are the plain ring's.
  const LoadBalanceReport b = run_load_balance(ring_setup(10, 20), req, 10.0, keys);
  CHECK(b.bounded->walked == 0);
  CHECK(b.bounded->load == b.node_requests);
  const LoadMoveReport r = run_load_move(ring_setup(10, 20), add, req, 10.0, keys);
  REQUIRE(r.bounded);
  CHECK(r.bounded->requests == r.plain.requests);
  CHECK(r.plain.requests > 0);
  // One request per key (no --popularity): the keys moved are the plain ring's too.
  const Requests one = requests_of(LoadOptions{}, keys);
  const LoadMoveReport k = run_load_move(ring_setup(10, 20), add, one, 10.0, keys);
  CHECK(k.bounded->keys == k.plain.keys);
  CHECK(k.plain.keys == k.plain.requests);
  CHECK(k.plain.keys > 0);
}

namespace {

// A ring Setup over `weights` (one per node) and V tokens a unit of weight.
Setup weighted_ring(std::vector<uint32_t> weights, uint32_t vnodes) {
  Setup s = ring_setup(static_cast<uint32_t>(weights.size()), vnodes);
  s.fleet.weigh(std::move(weights));
  return s;
}

// Counts from a file's shape: key i asked 1 + (7 i mod 60) times.
Requests counted_requests(uint64_t keys) {
  Requests r;
  for (uint64_t i = 0; i < keys; ++i) r.per_key.push_back(1 + (7 * i) % 60);
  r.total = std::accumulate(r.per_key.begin(), r.per_key.end(), uint64_t{0});
  return r;
}

}  // namespace

TEST_CASE("bounded: capacities follow the weights, a weight-0 node gets none") {
  CHECK(bounded_capacities(1.0, 12, std::vector<uint32_t>{1, 2, 3}) ==
        std::vector<uint64_t>{2, 4, 6});
  CHECK(bounded_capacities(1.25, 10, std::vector<uint32_t>{1, 1, 1, 1}) ==
        std::vector<uint64_t>{4, 4, 4, 4});  // ceil(3.125), as bounded_capacity
  CHECK(bounded_capacities(1.0, 7, std::vector<uint32_t>{0, 1, 1}) ==
        std::vector<uint64_t>{0, 4, 4});  // ceil(3.5)
  CHECK(bounded_capacities(1.0, 3, std::vector<uint32_t>{kMaxWeight, 1, 1}) ==
        std::vector<uint64_t>{3, 1, 1});
  CHECK_THROWS_WITH(bounded_capacities(1.0, 3, std::vector<uint32_t>{0, 0}),
                    "bounded loads need a node of weight above 0");
  CHECK_THROWS(bounded_capacities(0.5, 3, std::vector<uint32_t>{1}));
}

TEST_CASE("bounded: a weight-0 node loses no request, each node within its weighted capacity") {
  const KeySet keys = KeySet::counted(200);
  const Requests req = counted_requests(keys.size());
  for (const auto& weights : {std::vector<uint32_t>{0, 1, 1}, std::vector<uint32_t>{1, 2, 3},
                              std::vector<uint32_t>{0, 0, 1}, std::vector<uint32_t>{5, 0, 1, 0}}) {
    const Setup s = weighted_ring(weights, 100);
    const LoadBalanceReport r = run_load_balance(s, req, 1.0, keys);
    REQUIRE(r.bounded);
    // Every request counted once: the loads sum to the stream, key for key.
    CHECK(std::accumulate(r.bounded->load.begin(), r.bounded->load.end(), uint64_t{0}) ==
          req.total);
    CHECK(r.bounded->node.size() == req.total);
    std::vector<uint64_t> counted(weights.size(), 0);
    for (const uint32_t n : r.bounded->node) ++counted[n];
    CHECK(counted == r.bounded->load);
    const uint64_t sum = std::accumulate(weights.begin(), weights.end(), uint64_t{0});
    for (std::size_t n = 0; n < weights.size(); ++n) {
      INFO("node " << n << " of weight " << weights[n]);
      const auto cap =
          static_cast<uint64_t>(std::ceil(static_cast<long double>(req.total) * weights[n] / sum));
      CHECK(r.bounded->capacities[n] == cap);
      CHECK(r.bounded->load[n] <= cap);
      if (weights[n] == 0) CHECK(r.bounded->load[n] == 0);
    }
  }
}

TEST_CASE("bounded: every request counted once over random weights, zeros and c") {
  const KeySet keys = KeySet::counted(300);
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    std::vector<uint32_t> weights;
    for (uint32_t n = 0; n < 2 + seed % 5; ++n) weights.push_back((seed * 7 + n * 13) % 4);
    if (std::accumulate(weights.begin(), weights.end(), 0u) == 0) weights[0] = 1;
    const Requests req = zipf_requests(keys.size(), 1.1, 5000, seed);
    const double c = 1.0 + (seed % 4) * 0.25;
    INFO("seed " << seed << ", c = " << c);
    const LoadBalanceReport r = run_load_balance(weighted_ring(weights, 20), req, c, keys);
    REQUIRE(r.bounded);
    CHECK(std::accumulate(r.bounded->load.begin(), r.bounded->load.end(), uint64_t{0}) == 5000);
    for (std::size_t n = 0; n < weights.size(); ++n)
      CHECK(r.bounded->load[n] <= r.bounded->capacities[n]);
  }
}

TEST_CASE("bounded: capacities below the stream are refused, not walked past") {
  const auto ring = ring_of({100, 200}, {0, 1});
  CHECK_THROWS_WITH(
      bounded_assign(ring, std::vector<uint64_t>{1, 1}, std::vector<uint64_t>{1, 2, 3}),
      "bounded loads: capacities sum to 2, fewer than the 3 requests");
  CHECK_THROWS_WITH(
      bounded_assign(ring, std::vector<uint64_t>{1, 1, 5}, std::vector<uint64_t>{1, 2, 3}),
      "bounded loads: node 2 has a capacity but no ring token");
}
