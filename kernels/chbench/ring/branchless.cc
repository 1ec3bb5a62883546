// The registry entry of ring/branchless (branchless.h).
#include "chbench/ring/branchless.h"

#include "chbench/registry.h"
#include "chbench/ring/replicas.h"
#include "chbench/ring/table.h"

namespace chbench {

constinit const KernelInfo registry::ring_branchless{
    .scheme = Scheme::kRing,
    .name = "branchless",
    .summary = "branchless binary search (cmov halving)",
    .simd = false,
    .baseline = false,
    .rank = 50,
    .knob = nullptr,
    .make = &glue::ring_make<registry::ring_branchless, RingBranchless,
                             glue::ring_over<registry::ring_branchless, RingBranchless>>,
    .table_bytes = &glue::ring_bytes<12>,
    .make_over_ring = &glue::ring_over<registry::ring_branchless, RingBranchless>,
    .make_replicas = &ring_walk_replicas,
};

}  // namespace chbench
