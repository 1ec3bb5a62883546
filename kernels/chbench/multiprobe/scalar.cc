// multiprobe/scalar: one key at a time, its k probes in turn, each located
// through the bucket index (MultiprobeIndex::owner: the pairs while built,
// else start and scan), the closest kept.
#include <cstddef>
#include <cstdint>
#include <span>

#include "chbench/kernel_glue.h"
#include "chbench/multiprobe/multiprobe.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

// The batch: each key through MultiprobeIndex::owner.
void scalar_owners(const MultiprobeIndex& index, std::span<const uint64_t> h,
                   std::span<uint32_t> out) {
  glue::check_sizes(h, out);
  for (std::size_t i = 0; i < h.size(); ++i) out[i] = index.owner(h[i]);
}

}  // namespace

constinit const KernelInfo registry::multiprobe_scalar{
    .scheme = Scheme::kMultiprobe,
    .name = "scalar",
    .summary =
        "one key at a time, each probe through its bucket's first two tokens (or start and scan)",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &multiprobe_make<registry::multiprobe_scalar, &scalar_owners>,
    .table_bytes = &multiprobe_index_bytes,
};

}  // namespace chbench
