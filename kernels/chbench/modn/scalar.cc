// modn/scalar: h % N, one key at a time.
#include <cstddef>
#include <cstdint>
#include <span>

#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

// The scalar kernel divides by a 32-bit count held in a register; it is the
// reference's arithmetic, kept apart so SIMD kernels have a scalar rival.
class ModNScalar final : public OwnerTable {
 public:
  explicit ModNScalar(uint32_t n) : n_(n) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    const uint64_t n = n_;
    const uint64_t* in = h.data();
    uint32_t* o = out.data();
    for (std::size_t i = 0, size = h.size(); i < size; ++i) o[i] = static_cast<uint32_t>(in[i] % n);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

}  // namespace

constinit const KernelInfo registry::modn_scalar{
    .scheme = Scheme::kModN,
    .name = "scalar",
    .summary = "h % N, one key at a time",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::modn_scalar, ModNScalar, 0xffffffffu>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench
