#include "bounded.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace chbench::lab {

uint64_t bounded_capacity(double c, uint64_t requests, uint32_t nodes) {
  if (!(c >= 1 && c <= 1000))
    throw std::invalid_argument("--bounded-load takes a balance factor c in [1, 1000]");
  if (nodes == 0) throw std::invalid_argument("bounded loads need at least one node");
  const long double cap =
      std::ceil(static_cast<long double>(c) * static_cast<long double>(requests) / nodes);
  return static_cast<uint64_t>(cap);
}

std::size_t ring_position(const SortedRing<uint64_t>& ring, uint64_t h) {
  const auto it = std::lower_bound(ring.tokens.begin(), ring.tokens.end(), h);
  return it == ring.tokens.end() ? 0 : static_cast<std::size_t>(it - ring.tokens.begin());
}

BoundedAssignment bounded_assign(const SortedRing<uint64_t>& ring, uint32_t nodes,
                                 std::span<const uint64_t> request_hashes, double c) {
  BoundedAssignment a;
  a.capacity = bounded_capacity(c, request_hashes.size(), nodes);
  a.load.assign(nodes, 0);
  a.node.reserve(request_hashes.size());
  const std::size_t n = ring.tokens.size();
  for (const uint64_t h : request_hashes) {
    std::size_t p = ring_position(ring, h);
    // At most n steps: N * capacity >= R, so some node has room.
    while (a.load[ring.owners[p]] >= a.capacity) p = p + 1 == n ? 0 : p + 1;
    const uint32_t node = ring.owners[p];
    a.walked += node != ring.owners[ring_position(ring, h)];
    ++a.load[node];
    a.node.push_back(node);
  }
  return a;
}

}  // namespace chbench::lab
