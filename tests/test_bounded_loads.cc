// Bounded loads on the ring (chbench/ring/bounded_loads.h): the walk on a
// hand-made ring, and concurrent placement on many threads keeping every
// node within its capacity.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <numeric>
#include <vector>

#include "chbench/hash.h"
#include "chbench/ring/bounded_loads.h"

using namespace chbench;

namespace {

SortedRing<uint64_t> ring_of(std::vector<uint64_t> tokens, std::vector<uint32_t> owners) {
  SortedRing<uint64_t> r;
  r.tokens = std::move(tokens);
  r.owners = std::move(owners);
  r.owners.push_back(r.owners.front());
  return r;
}

}  // namespace

TEST_CASE("bounded loads: place walks past full nodes, reset starts a new stream") {
  // Tokens 100 (node 0), 200 (node 0), 300 (node 1), 400 (node 2); capacity 2.
  const auto ring = ring_of({100, 200, 300, 400}, {0, 0, 1, 2});
  BoundedLoads loads(ring, 3, 2);
  CHECK(loads.place(50, 0) == 0);
  CHECK(loads.place(50, 0) == 0);
  CHECK(loads.place(50, 0) == 1);   // node 0 full: both its tokens passed over
  CHECK(loads.place(150, 0) == 1);  // from token 200 (node 0, full) on to node 1
  CHECK(loads.place(350, 2) == 2);
  CHECK(loads.place(450, 0) == 2);  // wraps to token 100 (node 0, full) ... node 1 full, node 2
  CHECK(loads.load(0) == 2);
  CHECK(loads.load(1) == 2);
  CHECK(loads.load(2) == 2);
  // Every node full: the precondition broken, the owner comes back uncounted.
  CHECK(loads.place(50, 0) == 0);
  CHECK(loads.load(0) == 2);
  loads.reset();
  CHECK(loads.place(50, 0) == 0);
  CHECK(loads.load(0) == 1);
}

TEST_CASE("bounded loads: concurrent placement keeps every node within its capacity") {
  const NodeSet nodes = default_nodes(16, 8);
  const auto entries = ring_entries(nodes);
  const auto ring = SortedRing<uint64_t>::from_entries(entries);
  constexpr uint64_t kRequests = 200'000;
  // A skewed stream: one request in four is for the same key.
  std::vector<uint64_t> hashes = default_key_hashes(kRequests);
  for (uint64_t i = 0; i < kRequests; i += 4) hashes[i] = key_hash("hot");
  for (const double c : {1.0, 1.1, 1.5}) {
    BoundedLoads loads(ring, 16, bounded_capacity(c, kRequests, 16));
    std::vector<uint32_t> out(kRequests);
    tbb::task_arena arena(2);
    arena.execute([&] {
      tbb::parallel_for(uint64_t{0}, kRequests, [&](uint64_t i) {
        out[i] = loads.place_concurrent(hashes[i], ring.owners[ring_position(ring, hashes[i])]);
      });
    });
    std::vector<uint64_t> counted(16, 0);
    for (const uint32_t n : out) ++counted[n];
    INFO("c = " << c);
    for (uint32_t n = 0; n < 16; ++n) {
      CHECK(counted[n] == loads.load(n));
      CHECK(counted[n] <= loads.capacity());
    }
    CHECK(std::accumulate(counted.begin(), counted.end(), uint64_t{0}) == kRequests);
  }
}

TEST_CASE("bounded loads: capacities by weight, a weight-0 node loses no request") {
  // Node 0 of weight 0 holds no token: tokens 100, 300 (node 1), 200 (node 2).
  const auto ring = ring_of({100, 200, 300}, {1, 2, 1});
  const auto caps = bounded_capacities(1.0, 6, std::vector<uint32_t>{0, 2, 1});
  CHECK(caps == std::vector<uint64_t>{0, 4, 2});
  BoundedLoads loads(ring, caps);
  CHECK(loads.total_capacity() == 6);
  CHECK(loads.capacity() == 4);
  for (int i = 0; i < 6; ++i) CHECK(loads.place(150, 2) != 0);  // all 6 placed, none on node 0
  CHECK(loads.load(0) == 0);
  CHECK(loads.load(1) == 4);
  CHECK(loads.load(2) == 2);
  // A node with a capacity but no token would break the walk's bound: refused.
  CHECK_THROWS_WITH(BoundedLoads(ring, std::vector<uint64_t>{1, 4, 2}),
                    "bounded loads: node 0 has a capacity but no ring token");
  CHECK_THROWS_WITH(BoundedLoads(ring, std::vector<uint64_t>{4, 2}),
                    "bounded loads: a ring token of node 2 past the 2 capacities");
}
