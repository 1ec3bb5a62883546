#include "bounded.h"

namespace chbench::lab {

BoundedAssignment bounded_assign(const SortedRing<uint64_t>& ring, uint32_t nodes,
                                 std::span<const uint64_t> request_hashes, double c) {
  BoundedAssignment a;
  a.capacity = bounded_capacity(c, request_hashes.size(), nodes);
  BoundedLoads loads(ring, nodes, a.capacity);
  a.node.reserve(request_hashes.size());
  for (const uint64_t h : request_hashes) {
    const uint32_t owner = ring.owners[ring_position(ring, h)];
    const uint32_t node = loads.place(h, owner);
    a.walked += node != owner;
    a.node.push_back(node);
  }
  a.load.resize(nodes);
  for (uint32_t i = 0; i < nodes; ++i) a.load[i] = loads.load(i);
  return a;
}

}  // namespace chbench::lab
