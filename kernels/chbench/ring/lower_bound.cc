// The registry entry of ring/lower_bound (lower_bound.h).
#include "chbench/ring/lower_bound.h"

#include "chbench/registry.h"
#include "chbench/ring/table.h"

namespace chbench {

constinit const KernelInfo registry::ring_lower_bound{
    .scheme = Scheme::kRing,
    .name = "lower_bound",
    .summary = "std::lower_bound over sorted tokens (the usual baseline)",
    .simd = false,
    .baseline = true,
    .rank = 70,
    .knob = nullptr,
    .make = &glue::ring_make<registry::ring_lower_bound, RingLowerBound,
                             glue::ring_over<registry::ring_lower_bound, RingLowerBound>>,
    .table_bytes = &glue::ring_bytes<12>,
    .make_over_ring = &glue::ring_over<registry::ring_lower_bound, RingLowerBound>,
};

}  // namespace chbench
