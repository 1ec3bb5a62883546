// Consistent hashing with bounded loads on the ring in the lab: a whole
// request stream placed at once, as chbench/ring/bounded_loads.h defines the
// rule (Mirrokni, Thorup and Zadimoghaddam, SODA 2018; HAProxy's
// hash-balance-factor; the ring walk over distinct nodes, capacity
// ceil(c * R * w_n / W) for node n of weight w_n, W the weights' sum:
// ceil(c * R / N) unweighted).
// A key asked for many times is placed per request (HAProxy's setting); with
// one request per key (the lab's stream without --popularity) the balls are
// the keys, the paper's setting.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "chbench/ring/bounded_loads.h"
#include "chbench/ring/ring.h"

namespace chbench::lab {

struct BoundedAssignment {
  uint64_t capacity = 0;             // the largest node capacity
  std::vector<uint64_t> capacities;  // per node: its capacity
  std::vector<uint32_t> node;        // per request, in stream order: its node index
  std::vector<uint64_t> load;        // per node: requests taken, each <= its capacity
  uint64_t walked = 0;               // requests not on the ring owner of their hash
};

// Places the requests of `request_hashes` (one key hash per request, in
// stream order) on `ring` over nodes 0 ... capacities.size() - 1, one thread
// (BoundedLoads::place), node n taking at most capacities[n]; every request
// is placed and counted once. Throws std::invalid_argument when the
// capacities sum to fewer than the requests, or a node of capacity above 0
// holds no token (the walk's precondition).
BoundedAssignment bounded_assign(const SortedRing<uint64_t>& ring, std::vector<uint64_t> capacities,
                                 std::span<const uint64_t> request_hashes);

// The same with node n's capacity bounded_capacities(c, R, weights)[n].
// Throws as bounded_capacities.
BoundedAssignment bounded_assign(const SortedRing<uint64_t>& ring,
                                 std::span<const uint32_t> weights,
                                 std::span<const uint64_t> request_hashes, double c);

// The same over `nodes` nodes of weight 1: capacity bounded_capacity(c, R,
// nodes) each. Throws as bounded_capacity.
BoundedAssignment bounded_assign(const SortedRing<uint64_t>& ring, uint32_t nodes,
                                 std::span<const uint64_t> request_hashes, double c);

}  // namespace chbench::lab
