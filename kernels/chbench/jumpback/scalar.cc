// jumpback/scalar: JumpBackHash over SplitMix64 (jumpback_bucket, jumpback.h),
// one key at a time.
#include "chbench/jumpback/jumpback.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

using JumpBackScalar = JumpBackTable<&jumpback_scalar_owners<SplitMix64>>;

constinit const KernelInfo registry::jumpback_scalar{
    .scheme = Scheme::kJumpBack,
    .name = "scalar",
    .summary = "hash4j's steps, one key at a time, a branch only when the first draw fails",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::jumpback_scalar, JumpBackScalar, kJumpBackMaxBuckets>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench
