// mod-N's reference (docs/spec.md §5: h % N) and the scheme's registry functions.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

class ModNReference final : public OwnerTable {
 public:
  explicit ModNReference(uint32_t n) : n_(n) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = static_cast<uint32_t>(h[i] % n_);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint64_t n_;
};

// A key stays only if h mod n == h mod (n + 1), that is h mod n(n + 1) < n:
// n / (n + 1) of the keys move, 1 / (n + 1) to the newcomer and (n - 1) /
// (n + 1) between old nodes (h taken as uniform; the bias of reducing a 64-bit
// hash mod n is below n / 2^64).
GrowthShares modn_growth(uint64_t n) noexcept {
  const double nd = static_cast<double>(n);
  return {nd / (nd + 1), (nd - 1) / (nd + 1)};
}

}  // namespace

std::unique_ptr<OwnerTable> registry::modn_reference(const Fleet& f) {
  return std::make_unique<ModNReference>(glue::bucket_count(f, 0xffffffffu, "mod-N"));
}

void registry::modn_check(const Fleet& f) { glue::bucket_count(f, 0xffffffffu, "mod-N"); }

uint64_t registry::modn_reference_bytes(const Fleet& f) { return glue::no_bytes(f); }

constinit const SchemeInfo registry::modn_scheme{
    .id = Scheme::kModN,
    .name = "modn",
    .aliases = {},
    .title = "mod-N",
    .source = "h % N; docs/spec.md §5",
    .params = 0,
    .removal = Removal::kNone,
    .removal_note = "any change of N moves most keys, between survivors too",
    .max_nodes = 0xffffffffu,
    .reference = &registry::modn_reference,
    .check = &registry::modn_check,
    .reference_bytes = &registry::modn_reference_bytes,
    .buckets_only = true,
    .growth = &modn_growth};

}  // namespace chbench
