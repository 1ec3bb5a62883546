#include "bounded.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace chbench::lab {

namespace {

// Throws unless the walk's precondition holds for the whole stream (the
// tokens' own check is BoundedLoads').
void check_room(const BoundedLoads& loads, uint64_t requests) {
  if (loads.total_capacity() < requests)
    throw std::invalid_argument("bounded loads: capacities sum to " +
                                std::to_string(loads.total_capacity()) + ", fewer than the " +
                                std::to_string(requests) + " requests");
}

}  // namespace

BoundedAssignment bounded_assign(const SortedRing<uint64_t>& ring, std::vector<uint64_t> capacities,
                                 std::span<const uint64_t> request_hashes) {
  BoundedAssignment a;
  BoundedLoads loads(ring, std::move(capacities));
  check_room(loads, request_hashes.size());
  a.capacity = loads.capacity();
  a.node.reserve(request_hashes.size());
  for (const uint64_t h : request_hashes) {
    const uint32_t owner = ring.owners[ring_position(ring, h)];
    const uint32_t node = loads.place(h, owner);
    a.walked += node != owner;
    a.node.push_back(node);
  }
  for (uint32_t i = 0; i < loads.nodes(); ++i) {
    a.capacities.push_back(loads.capacity(i));
    a.load.push_back(loads.load(i));
  }
  return a;
}

BoundedAssignment bounded_assign(const SortedRing<uint64_t>& ring,
                                 std::span<const uint32_t> weights,
                                 std::span<const uint64_t> request_hashes, double c) {
  return bounded_assign(ring, bounded_capacities(c, request_hashes.size(), weights),
                        request_hashes);
}

BoundedAssignment bounded_assign(const SortedRing<uint64_t>& ring, uint32_t nodes,
                                 std::span<const uint64_t> request_hashes, double c) {
  return bounded_assign(
      ring, std::vector<uint64_t>(nodes, bounded_capacity(c, request_hashes.size(), nodes)),
      request_hashes);
}

}  // namespace chbench::lab
