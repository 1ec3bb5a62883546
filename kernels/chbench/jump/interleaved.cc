// jump/interleaved: the paper's loop (jump_hash), four keys interleaved.
#include <cstddef>
#include <cstdint>
#include <span>

#include "chbench/jump/jump.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

// Four independent keys per iteration: their dependency chains (an LCG step, a
// division, a compare) interleave in the pipeline instead of running back to
// back. Each key still takes exactly the paper's steps.
class JumpInterleaved final : public OwnerTable {
 public:
  explicit JumpInterleaved(uint32_t n) : n_(n) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    std::size_t i = 0;
    for (; i + 4 <= h.size(); i += 4) {
      out[i] = jump_hash(h[i], n_);
      out[i + 1] = jump_hash(h[i + 1], n_);
      out[i + 2] = jump_hash(h[i + 2], n_);
      out[i + 3] = jump_hash(h[i + 3], n_);
    }
    for (; i < h.size(); ++i) out[i] = jump_hash(h[i], n_);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

}  // namespace

constinit const KernelInfo registry::jump_interleaved{
    .scheme = Scheme::kJump,
    .name = "interleaved",
    .summary = "the paper's loop, four keys interleaved",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::jump_interleaved, JumpInterleaved, kJumpMaxBuckets>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench
