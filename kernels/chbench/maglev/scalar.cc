// maglev/scalar: Maglev's lookup table (maglev_table) read one key at a time,
// entry[h % M] (make_table_lookup_scalar, maglev.cc).
#include <memory>

#include "chbench/kernel_glue.h"
#include "chbench/maglev/maglev.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

std::unique_ptr<OwnerTable> build_maglev_scalar(const NodeSet& nodes) {
  return make_table_lookup_scalar(maglev_table(nodes));
}

}  // namespace

constinit const KernelInfo registry::maglev_scalar{
    .scheme = Scheme::kMaglev,
    .name = "scalar",
    .summary = "lookup table entry[h % M], one key at a time",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &glue::make_with<registry::maglev_scalar, build_maglev_scalar>,
    .table_bytes =
        &registry::maglev_reference_bytes,  // the table and permutations, as the reference
    .make_over_table = &make_table_lookup_scalar,
};

}  // namespace chbench
