// hrw_weighted/scalar: every node's cost in turn over contiguous seeds and
// inverse weights, the first minimum kept. Compiled with -ffp-contract=off
// (neglog.h).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "chbench/hrw/hrw.h"
#include "chbench/hrw_weighted/hrw_weighted.h"
#include "chbench/hrw_weighted/neglog.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

class WeightedScalar final : public OwnerTable {
 public:
  explicit WeightedScalar(const NodeSet& nodes) : nodes_(weighted_nodes(nodes)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = owner_of(h[i]);
  }
  std::size_t memory_bytes() const noexcept override {
    return nodes_.seeds.size() * (sizeof(uint64_t) + sizeof(double));
  }

 private:
  uint32_t owner_of(uint64_t h) const noexcept {
    const uint64_t* seeds = nodes_.seeds.data();
    const double* inverse = nodes_.inverse_weights.data();
    uint32_t owner = 0;
    double best = weighted::cost(rendezvous_score(h, seeds[0]), inverse[0]);
    for (uint32_t n = 1; n < nodes_.seeds.size(); ++n) {
      const double c = weighted::cost(rendezvous_score(h, seeds[n]), inverse[n]);
      if (c < best) {  // strictly lower: an equal cost keeps the lower index
        best = c;
        owner = n;
      }
    }
    return owner;
  }
  WeightedNodes nodes_;
};

}  // namespace

constinit const KernelInfo registry::hrw_weighted_scalar{
    .scheme = Scheme::kWeightedRendezvous,
    .name = "scalar",
    .summary = "every node's cost in turn, keeps the first minimum",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &glue::make_plain<registry::hrw_weighted_scalar, WeightedScalar>,
    .table_bytes = &registry::hrw_weighted_reference_bytes,
};

}  // namespace chbench
