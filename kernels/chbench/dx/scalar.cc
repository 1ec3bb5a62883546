// dx/scalar: one key at a time, its sequence (dx/sequence.h) probed until a
// bucket is active, then that bucket's owner; for every profile of dx.h.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>

#include "chbench/dx/dx.h"
#include "chbench/dx/sequence.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

template <class Sequence>
class DxScalar final : public OwnerTable {
 public:
  explicit DxScalar(DxState s) : s_(std::move(s)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    const uint32_t* words = s_.words.data();
    const uint32_t* owner = s_.owner.data();
    uint32_t probes = 0;
    for (std::size_t i = 0; i < h.size(); ++i)
      out[i] = owner[dx::first_active(words, s_.limit, Sequence(h[i], s_.capacity), &probes)];
  }
  std::size_t memory_bytes() const noexcept override { return s_.bytes(); }

 private:
  DxState s_;
};

std::unique_ptr<OwnerTable> build(const Fleet& f, unsigned knob) {
  glue::no_knob(registry::dx_scalar, knob);
  return make_dx_scalar(f, DxProfile::kChbench);
}

}  // namespace

std::unique_ptr<OwnerTable> make_dx_scalar(const Fleet& f, DxProfile profile) {
  DxState s = dx_state(f, profile);
  switch (profile) {
    case DxProfile::kChaosD:
      return std::make_unique<DxScalar<dx::ChaosDSequence>>(std::move(s));
    case DxProfile::kSupsi:
      return std::make_unique<DxScalar<dx::SupsiSequence>>(std::move(s));
    case DxProfile::kChbench:
      break;
  }
  return std::make_unique<DxScalar<dx::LcgSequence>>(std::move(s));
}

constinit const KernelInfo registry::dx_scalar{
    .scheme = Scheme::kDx,
    .name = "scalar",
    .summary = "one key at a time: its sequence probed until a bucket is active",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &build,
    .table_bytes = &dx_state_bytes,
};

}  // namespace chbench
