// hrw/scalar: every node scored in turn over contiguous seeds
// (rendezvous_owner), the first maximum kept.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "chbench/hrw/hrw.h"
#include "chbench/hrw/replicas.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

class RendezvousScalar final : public OwnerTable {
 public:
  explicit RendezvousScalar(const NodeSet& nodes) : seeds_(rendezvous_seeds(nodes)) {}
  explicit RendezvousScalar(std::span<const uint64_t> seeds) : seeds_(chosen_seeds(seeds)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = rendezvous_owner(h[i], seeds_);
  }
  std::size_t memory_bytes() const noexcept override { return seeds_.size() * sizeof(uint64_t); }

 private:
  std::vector<uint64_t> seeds_;
};

}  // namespace

constinit const KernelInfo registry::hrw_scalar{
    .scheme = Scheme::kRendezvous,
    .name = "scalar",
    .summary = "scores every node, keeps the first maximum",
    .simd = false,
    .baseline = false,
    .rank = 40,
    .knob = nullptr,
    .make = &glue::make_plain<registry::hrw_scalar, RendezvousScalar>,
    .table_bytes = &registry::hrw_reference_bytes,  // the seeds, as the reference holds them
    .make_over_seeds = &glue::make_over_seeds<RendezvousScalar>,
    .make_replicas = &hrw_scalar_replicas,
};

}  // namespace chbench
