// Consistent hashing with bounded loads on the ring: Mirrokni, Thorup and
// Zadimoghaddam, "Consistent Hashing with Bounded Loads", SODA 2018, section
// 2 (the algorithm in the paper's ring form), as HAProxy's hash-balance-factor
// runs it (a server over its bound is skipped for the next one on the tree).
//
// The variant, exactly: the ring walk over distinct nodes, with the capacity
// per node (not per token). With R requests over N nodes and balance factor
// c >= 1, every node takes at most capacity = ceil(c * R / N) requests. The
// requests arrive in stream order and are never withdrawn (the loads only
// grow). Request j, of key hash h, goes to the first token clockwise from h
// (SPEC.md's ring rule: the first token >= h, wrapping past the last one)
// whose node holds fewer than `capacity` requests so far; a full node's
// tokens are passed over, so the walk meets the nodes in ring order, each
// once, until one has room. Since N * capacity >= R there always is one.
// A key asked for many times is placed per request (HAProxy's setting); with
// one request per key (the lab's stream without --popularity) the balls are
// the keys, the paper's setting.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "chbench/ring/ring.h"

namespace chbench::lab {

// ceil(c * requests / nodes), computed in long double (c = 1.25, R = 10,
// N = 4 gives ceil(3.125) = 4). Throws std::invalid_argument for c < 1,
// c > 1000 or nodes = 0.
uint64_t bounded_capacity(double c, uint64_t requests, uint32_t nodes);

struct BoundedAssignment {
  uint64_t capacity = 0;
  std::vector<uint32_t> node;  // per request, in stream order: its node index
  std::vector<uint64_t> load;  // per node: requests taken, each <= capacity
  uint64_t walked = 0;         // requests not on the ring owner of their hash
};

// Places the requests of `request_hashes` (one key hash per request, in
// stream order) on `ring` over `nodes` nodes (ring.owners[i] < nodes) as the
// header says. Cost: one binary search per request plus the tokens walked
// past. Throws as bounded_capacity.
BoundedAssignment bounded_assign(const SortedRing<uint64_t>& ring, uint32_t nodes,
                                 std::span<const uint64_t> request_hashes, double c);

// The ring position of key hash h: the first token >= h, 0 past the last.
std::size_t ring_position(const SortedRing<uint64_t>& ring, uint64_t h);

}  // namespace chbench::lab
