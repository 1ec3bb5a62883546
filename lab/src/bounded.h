// Consistent hashing with bounded loads on the ring in the lab: a whole
// request stream placed at once, as chbench/ring/bounded_loads.h defines the
// rule (Mirrokni, Thorup and Zadimoghaddam, SODA 2018; HAProxy's
// hash-balance-factor; the ring walk over distinct nodes, capacity
// ceil(c * R / N) per node).
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
  uint64_t capacity = 0;
  std::vector<uint32_t> node;  // per request, in stream order: its node index
  std::vector<uint64_t> load;  // per node: requests taken, each <= capacity
  uint64_t walked = 0;         // requests not on the ring owner of their hash
};

// Places the requests of `request_hashes` (one key hash per request, in
// stream order) on `ring` over `nodes` nodes (ring.owners[i] < nodes), one
// thread (BoundedLoads::place), capacity bounded_capacity(c, R, nodes).
// Throws as bounded_capacity.
BoundedAssignment bounded_assign(const SortedRing<uint64_t>& ring, uint32_t nodes,
                                 std::span<const uint64_t> request_hashes, double c);

}  // namespace chbench::lab
