// Maglev's reference (Pseudocode 1 of the paper as written) and the scheme's
// registry functions.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "chbench/kernel_glue.h"
#include "chbench/maglev/maglev.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

// Pseudocode 1 of the paper as written: permutation[i][j] = (offset + j * skip)
// mod M computed afresh for every probe, next[i] the position in it, backends
// taking turns; independent of maglev_table()'s incremental walk.
class MaglevReference final : public OwnerTable {
 public:
  explicit MaglevReference(const NodeSet& nodes)
      : entry_((validate_maglev(nodes), nodes.table_size)) {
    const uint64_t m = nodes.table_size;
    const uint32_t n = nodes.size();
    std::vector<MaglevPermutation> permutation;
    for (const auto& name : nodes.names) permutation.push_back(maglev_permutation(name, m));
    std::vector<uint64_t> next(n, 0);
    std::vector<int64_t> entry(m, -1);
    uint64_t filled = 0;
    while (filled < m) {
      for (uint32_t i = 0; i < n && filled < m; ++i) {
        uint64_t c = (permutation[i].offset + next[i] * permutation[i].skip) % m;
        while (entry[c] >= 0) {
          ++next[i];
          c = (permutation[i].offset + next[i] * permutation[i].skip) % m;
        }
        entry[c] = i;
        ++next[i];
        ++filled;
      }
    }
    for (uint64_t j = 0; j < m; ++j) entry_[j] = static_cast<uint32_t>(entry[j]);
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = entry_[h[i] % entry_.size()];
  }
  std::size_t memory_bytes() const noexcept override { return entry_.size() * sizeof(uint32_t); }

 private:
  std::vector<uint32_t> entry_;
};

}  // namespace

std::unique_ptr<OwnerTable> registry::maglev_reference(const Fleet& f) {
  return std::make_unique<MaglevReference>(f.nodes());
}

void registry::maglev_check(const Fleet& f) { validate_maglev(f.nodes()); }

// The reference's permutations and slot list beside the table.
uint64_t registry::maglev_reference_bytes(const Fleet& f) {
  return glue::saturating_add(glue::saturating_mul(f.nodes().table_size, 12),
                              glue::saturating_mul(f.size(), 40));
}

constinit const SchemeInfo registry::maglev_scheme{
    .id = Scheme::kMaglev,
    .name = "maglev",
    .aliases = {},
    .title = "Maglev",
    .source =
        "Eisenbud et al., Maglev: A Fast and Reliable Software Network Load Balancer, "
        "NSDI 2016, section 3.4, pseudocode 1; docs/profiles/maglev.md",
    .params = kParamTableSize,
    .removal = Removal::kAnyNode,
    .removal_note =
        "any node can leave: its keys move, and a few between survivors (minimal "
        "disruption, not zero)",
    .max_nodes = kMaglevMaxTableSize,
    .reference = &registry::maglev_reference,
    .check = &registry::maglev_check,
    .reference_bytes = &registry::maglev_reference_bytes,
    .replicas_note =
        "its lookup table names one backend per entry (NSDI 2016, section 3.4); "
        "the paper defines no second choice"};

}  // namespace chbench
