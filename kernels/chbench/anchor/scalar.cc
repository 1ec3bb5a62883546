// anchor/scalar: the packed table of anchor.cc (A and K in one 8-byte entry,
// the owner in a working bucket's K half, no entry for the buckets that never
// worked) walked one key at a time by anchor_lookup, and the kernel's
// registry entry.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "chbench/anchor/anchor.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

template <AnchorHashing H>
class AnchorScalar final : public OwnerTable {
 public:
  explicit AnchorScalar(const Fleet& fleet) : t_(anchor_table(fleet)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    // Walks are started kAhead keys early and their first entry prefetched,
    // so that its miss overlaps the walks of the keys before.
    constexpr std::size_t kAhead = 8;
    const std::size_t n = h.size();
    if (n < kAhead) {
      for (std::size_t i = 0; i < n; ++i) out[i] = anchor_lookup<H>(t_, h[i]);
      return;
    }
    AnchorWalk<H> ring[kAhead];
    for (std::size_t i = 0; i < kAhead; ++i) start(ring[i], h[i]);
    for (std::size_t i = 0; i < n; ++i) {
      const AnchorWalk<H> w = ring[i % kAhead];
      if (i + kAhead < n) start(ring[i % kAhead], h[i + kAhead]);
      out[i] = anchor_finish(t_, w);
    }
  }
  uint32_t owner(uint64_t h) const override { return anchor_lookup<H>(t_, h); }
  std::size_t memory_bytes() const noexcept override {
    return std::size_t{t_.used} * sizeof(uint64_t);
  }

 private:
  void start(AnchorWalk<H>& w, uint64_t h) const {
    w = anchor_start<H>(t_, h);
    __builtin_prefetch(t_.entries.get() + w.c);
  }

  AnchorTable t_;
};

std::unique_ptr<OwnerTable> make(const Fleet& f, unsigned knob) {
  glue::no_knob(registry::anchor_scalar, knob);
  return make_anchor_scalar(f, AnchorHashing::kSplitMix64);
}

}  // namespace

std::unique_ptr<OwnerTable> make_anchor_scalar(const Fleet& fleet, AnchorHashing hashing) {
  switch (hashing) {
    case AnchorHashing::kCrc32c:
      return std::make_unique<AnchorScalar<AnchorHashing::kCrc32c>>(fleet);
    case AnchorHashing::kSupsiXx32:
      return std::make_unique<AnchorScalar<AnchorHashing::kSupsiXx32>>(fleet);
    case AnchorHashing::kSplitMix64:
      break;
  }
  return std::make_unique<AnchorScalar<AnchorHashing::kSplitMix64>>(fleet);
}

constinit const KernelInfo registry::anchor_scalar{
    .scheme = Scheme::kAnchor,
    .name = "scalar",
    .summary = "A and K packed in one 8-byte entry per bucket, one key at a time",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &make,
    .table_bytes = &anchor_table_bytes,
};

}  // namespace chbench
