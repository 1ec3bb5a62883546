// Jump hash's reference (figure 1 of the paper, with its own types) and the
// scheme's registry functions.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "chbench/jump/jump.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

uint32_t jump_buckets(const Fleet& fleet) {
  return glue::bucket_count(fleet, kJumpMaxBuckets, "jump hash (int32_t in the paper)");
}

namespace {

// Figure 1 of the paper transcribed with its own types (int32_t buckets,
// int64_t b and j), independent of the kernels' jump_hash().
class JumpReference final : public OwnerTable {
 public:
  explicit JumpReference(const Fleet& f) : n_(static_cast<int32_t>(jump_buckets(f))) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) {
      uint64_t key = h[i];
      int64_t b = -1, j = 0;
      while (j < n_) {
        b = j;
        key = key * 2862933555777941757ULL + 1;
        j = static_cast<int64_t>((b + 1) * (double(1LL << 31) / double((key >> 33) + 1)));
      }
      out[i] = static_cast<uint32_t>(b);
    }
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  int32_t n_;
};

}  // namespace

std::unique_ptr<OwnerTable> registry::jump_reference(const Fleet& f) {
  return std::make_unique<JumpReference>(f);
}

void registry::jump_check(const Fleet& f) { jump_buckets(f); }

uint64_t registry::jump_reference_bytes(const Fleet& f) { return glue::no_bytes(f); }

constinit const SchemeInfo registry::jump_scheme{
    .id = Scheme::kJump,
    .name = "jump",
    .aliases = {},
    .title = "jump hash",
    .source =
        "Lamping and Veach, A Fast, Minimal Memory, Consistent Hash Algorithm, "
        "arXiv:1406.2294, figure 1; docs/spec.md §8",
    .params = 0,
    .removal = Removal::kLastOnly,
    .removal_note =
        "only the last bucket can leave (buckets are 0 ... N-1); any other leave "
        "renumbers buckets",
    .max_nodes = kJumpMaxBuckets,
    .reference = &registry::jump_reference,
    .check = &registry::jump_check,
    .reference_bytes = &registry::jump_reference_bytes,
    .buckets_only = true,
    .replicas_note =
        "the paper's algorithm returns one bucket and defines no replicas "
        "(arXiv:1406.2294)",
    .growth = &minimal_growth};

}  // namespace chbench
