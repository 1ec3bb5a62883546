// The registry entry of ring/eytzinger (eytzinger.h).
#include "chbench/ring/eytzinger.h"

#include "chbench/registry.h"
#include "chbench/ring/table.h"

namespace chbench {

constinit const KernelInfo registry::ring_eytzinger{
    .scheme = Scheme::kRing,
    .name = "eytzinger",
    .summary = "Eytzinger (BFS) layout, prefetch, 16 keys descending in lockstep",
    .simd = false,
    .baseline = false,
    .rank = 30,
    .knob = nullptr,
    .make = &glue::ring_make<registry::ring_eytzinger, RingEytzinger,
                             glue::ring_over<registry::ring_eytzinger, RingEytzinger>>,
    .table_bytes = &glue::ring_bytes<12>,
    .make_over_ring = &glue::ring_over<registry::ring_eytzinger, RingEytzinger>,
};

}  // namespace chbench
