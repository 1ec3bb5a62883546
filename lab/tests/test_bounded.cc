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
