// The ring's replica sets (ReplicaTable, scheme.h): R distinct owners per key
// in preference order, walking clockwise from the key and skipping the tokens
// of nodes already chosen (DeCandia et al., "Dynamo: Amazon's Highly
// Available Key-value Store", SOSP 2007, section 4.3, the preference list).
//
// The walk goes over docs/spec.md §6's entries sorted by (token, node): from the
// first entry >= h (the ring's owner), then each next entry, closing the ring
// after the last; an entry whose node is already chosen is skipped. Equal
// tokens are separate entries here, the lower node first: the owner is
// docs/spec.md §6's, and the node of an equal token is the next choice.
#pragma once

#include <cstdint>
#include <memory>

#include "chbench/fleet.h"
#include "chbench/scheme.h"

namespace chbench {

// The walk with a branchless binary search over the entries' tokens: the
// replica lookup of ring/branchless (KernelInfo::make_replicas). Throws as
// registry::ring_check, and std::invalid_argument for R = 0 or R above the
// nodes of weight above 0 (check_replica_count).
std::unique_ptr<ReplicaTable> ring_walk_replicas(const Fleet& fleet, uint32_t r);

// The ring's replica reference (SchemeInfo::replicas_reference): the walk
// above, entry by entry over the reference's ring. Throws as
// ring_walk_replicas.
namespace registry {
std::unique_ptr<ReplicaTable> ring_replicas_reference(const Fleet& fleet, uint32_t r);
}  // namespace registry

}  // namespace chbench
