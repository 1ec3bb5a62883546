// jump/scalar: the paper's loop (jump_hash), one key at a time.
#include <cstddef>
#include <cstdint>
#include <span>

#include "chbench/jump/jump.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

class JumpScalar final : public OwnerTable {
 public:
  explicit JumpScalar(uint32_t n) : n_(n) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = jump_hash(h[i], n_);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

}  // namespace

constinit const KernelInfo registry::jump_scalar{
    .scheme = Scheme::kJump,
    .name = "scalar",
    .summary = "the paper's loop, one key at a time",
    .simd = false,
    .baseline = false,
    .rank = 30,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::jump_scalar, JumpScalar, kJumpMaxBuckets>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench
