// Rendezvous replica sets (ReplicaTable, scheme.h): the R highest scores of
// docs/spec.md §7's w(h, n) = fmix64(h ^ seed_n), highest first, equal scores in
// ascending node index (the top-1 rule, applied down the list). Thaler and
// Ravishankar, IEEE/ACM ToN 6(1), 1998, section 3: the nodes ranked by
// weight, the first R of them.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "chbench/fleet.h"
#include "chbench/scheme.h"

namespace chbench {

// The scalar top-R (hrw/scalar's make_replicas): one pass over the seeds,
// the R best kept sorted, a node entering only above the R-th score. Throws
// std::invalid_argument on an invalid node list, for R = 0 or R above N.
std::unique_ptr<ReplicaTable> hrw_scalar_replicas(const Fleet& fleet, uint32_t r);

// The SIMD top-R (hrw/simd_keys' make_replicas; hrw/replicas_simd.cc): keys
// in lanes, the R best scores and nodes per lane. From 8 * R nodes on (R
// up to 8, not on SVE), each lane keeps the R + 1 groups of four nodes with
// the highest maximum score, in registers, and rescores the first R groups'
// nodes; otherwise a node is inserted only where some lane's score beats
// that lane's R-th. R = 1 is hrw/simd_keys' owner. Throws as
// hrw_scalar_replicas.
std::unique_ptr<ReplicaTable> hrw_simd_replicas(const Fleet& fleet, uint32_t r);

// Rendezvous' replica reference (SchemeInfo::replicas_reference): the R
// highest scores, highest first, scored as the reference scores. Throws as
// hrw_scalar_replicas.
namespace registry {
std::unique_ptr<ReplicaTable> hrw_replicas_reference(const Fleet& fleet, uint32_t r);
}  // namespace registry

}  // namespace chbench
