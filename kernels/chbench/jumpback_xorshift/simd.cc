// jumpback_xorshift/simd: JumpBackHash over XorshiftL7R9 with the keys in
// lanes, for every Highway target: simd::jumpback_xorshift_owners, compiled
// per target with jumpback/simd's code (jumpback/simd.cc, lanes-inl.h). Its
// registry entry.
#include "chbench/jumpback/jumpback.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

using JumpBackXorshiftSimd = JumpBackTable<&simd::jumpback_xorshift_owners>;

constinit const KernelInfo registry::jumpback_xorshift_simd{
    .scheme = Scheme::kJumpBackXorshift,
    .name = "simd",
    .summary = "keys in lanes, buckets in 32-bit lanes, masked draws (Highway)",
    .simd = true,
    .rival = &registry::jumpback_xorshift_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::jumpback_xorshift_simd, JumpBackXorshiftSimd,
                                   kJumpBackMaxBuckets>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench
