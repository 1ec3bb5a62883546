// memento/scalar: jump hash over the b-array, then the replacement loop on
// the flat slot array (memento_owner, memento.h), one key at a time.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "chbench/kernel_glue.h"
#include "chbench/memento/memento.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

class MementoScalar final : public OwnerTable {
 public:
  explicit MementoScalar(const Fleet& f) : s_(memento_slots(f)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = memento_owner(s_, h[i]);
  }
  uint32_t owner(uint64_t key_hash) const override { return memento_owner(s_, key_hash); }
  std::size_t memory_bytes() const noexcept override { return s_.memory_bytes(); }

 private:
  MementoSlots s_;
};

std::unique_ptr<OwnerTable> make_scalar(const Fleet& f, unsigned knob) {
  glue::no_knob(registry::memento_scalar, knob);
  return std::make_unique<MementoScalar>(f);
}

}  // namespace

constinit const KernelInfo registry::memento_scalar{
    .scheme = Scheme::kMemento,
    .name = "scalar",
    .summary = "jump hash, then the replacement loop on a flat slot array, one key at a time",
    .simd = false,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &make_scalar,
    .table_bytes = &memento_slots_bytes,
};

}  // namespace chbench
