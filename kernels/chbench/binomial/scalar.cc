// binomial/scalar: BinomialHash one key at a time (binomial_bucket: the first
// draw and the minor-tree fallback computed together, a branch only for the
// keys that need the engine's redraws).
#include <cstddef>
#include <cstdint>
#include <span>

#include "chbench/binomial/binomial.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

class BinomialScalar final : public OwnerTable {
 public:
  explicit BinomialScalar(uint32_t n) : n_(n), filters_(binomial_filters(n)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    // Locals: the stores to out (uint32_t) could otherwise alias the members.
    const uint32_t n = n_;
    const BinomialFilters filters = filters_;
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = binomial_bucket(h[i], n, filters);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
  BinomialFilters filters_;
};

}  // namespace

constinit const KernelInfo registry::binomial_scalar{
    .scheme = Scheme::kBinomial,
    .name = "scalar",
    .summary = "the engine's draws rearranged, one key at a time",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::binomial_scalar, BinomialScalar, kBinomialMaxBuckets>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench
