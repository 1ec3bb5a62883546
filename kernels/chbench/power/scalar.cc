// power/scalar: PowerCH (power_hash, power.h), one key at a time.
#include <cstddef>
#include <cstdint>
#include <span>

#include "chbench/kernel_glue.h"
#include "chbench/power/power.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

class PowerScalar final : public OwnerTable {
 public:
  explicit PowerScalar(uint32_t n) : buckets_(power_buckets(n)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = power_hash(h[i], buckets_);
  }
  uint32_t owner(uint64_t key_hash) const override { return power_hash(key_hash, buckets_); }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  PowerBuckets buckets_;
};

}  // namespace

constinit const KernelInfo registry::power_scalar{
    .scheme = Scheme::kPower,
    .name = "scalar",
    .summary = "the crate's steps, one key at a time",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::power_scalar, PowerScalar, kPowerMaxBuckets>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench
