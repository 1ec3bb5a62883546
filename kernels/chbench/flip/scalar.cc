// flip/scalar: FlipHash (FlipRange::bucket), one key at a time.
#include <cstddef>
#include <cstdint>
#include <span>

#include "chbench/flip/flip.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

class FlipScalar final : public OwnerTable {
 public:
  explicit FlipScalar(uint32_t n) : range_(n) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = range_.bucket(h[i]);
  }
  uint32_t owner(uint64_t h) const override { return range_.bucket(h); }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  FlipRange range_;
};

}  // namespace

constinit const KernelInfo registry::flip_scalar{
    .scheme = Scheme::kFlip,
    .name = "scalar",
    .summary = "the crate's steps, one key at a time",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::flip_scalar, FlipScalar, kFlipMaxBuckets>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench
