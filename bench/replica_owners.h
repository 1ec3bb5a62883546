// Family replicas: a replica kernel (KernelInfo::make_replicas) timed on the
// bench's one path, as an OwnerTable whose owners() computes each key's
// R-set and hands back its first member (the scheme's owner, which the
// workbench checks against the reference).
#pragma once

#include <memory>

#include "chbench/scheme.h"

namespace chbench::bench {

// Takes `replicas` over. Each owners() call computes every key's R owners
// (ReplicaTable::replicas, into a buffer of each calling thread, grown once)
// and writes out[i] = the first owner of key i. Shapes as OwnerTable.
std::unique_ptr<OwnerTable> replica_owners(std::unique_ptr<ReplicaTable> replicas);

}  // namespace chbench::bench
