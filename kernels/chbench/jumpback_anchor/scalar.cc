// jumpback_anchor/scalar: JumpBackHash over n_max (jumpback.h), then the walk
// on the packed table (jumpback_anchor_finish), one key at a time, and the
// kernel's registry entry.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "chbench/jumpback_anchor/jumpback_anchor.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

class JumpBackAnchorScalar final : public OwnerTable {
 public:
  explicit JumpBackAnchorScalar(const Fleet& f) : t_(jumpback_anchor_table(f)) {}

  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    if (!t_.entries) {
      jumpback_scalar_owners<SplitMix64>(h, t_.shape.n, out);
      return;
    }
    // Each key's JumpBackHash runs kAhead keys before its walk, and its first
    // entry is prefetched then, so that the misses of a large table overlap.
    constexpr std::size_t kAhead = 8;
    const std::size_t n = h.size();
    if (n < kAhead) {
      for (std::size_t i = 0; i < n; ++i) out[i] = jumpback_anchor_owner(t_, h[i]);
      return;
    }
    JumpBackAnchorWalk ring[kAhead];
    for (std::size_t i = 0; i < kAhead; ++i) ring[i] = start(h[i]);
    for (std::size_t i = 0; i < n; ++i) {
      const JumpBackAnchorWalk w = ring[i % kAhead];
      if (i + kAhead < n) ring[i % kAhead] = start(h[i + kAhead]);
      out[i] = jumpback_anchor_finish(t_.entries.get(), w);
    }
  }
  uint32_t owner(uint64_t key_hash) const override { return jumpback_anchor_owner(t_, key_hash); }
  std::size_t memory_bytes() const noexcept override { return t_.memory_bytes(); }

 private:
  JumpBackAnchorWalk start(uint64_t h) const {
    const JumpBackAnchorWalk w = jumpback_anchor_start(t_, h);
    __builtin_prefetch(t_.entries.get() + w.bucket);
    return w;
  }

  JumpBackAnchorTable t_;
};

std::unique_ptr<OwnerTable> make(const Fleet& f, unsigned knob) {
  glue::no_knob(registry::jumpback_anchor_scalar, knob);
  return std::make_unique<JumpBackAnchorScalar>(f);
}

}  // namespace

constinit const KernelInfo registry::jumpback_anchor_scalar{
    .scheme = Scheme::kJumpBackAnchor,
    .name = "scalar",
    .summary = "JumpBackHash, then A and K in one 8-byte entry per bucket, one key at a time",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &make,
    .table_bytes = &jumpback_anchor_table_bytes,
};

}  // namespace chbench
