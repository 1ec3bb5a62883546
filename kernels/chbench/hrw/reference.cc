// Rendezvous' reference (docs/spec.md §7: every node scored from its own record), the
// node seeds every kernel starts from, and the scheme's registry functions.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "chbench/hash.h"
#include "chbench/hrw/hrw.h"
#include "chbench/hrw/replicas.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

std::vector<uint64_t> rendezvous_seeds(const NodeSet& nodes) {
  validate(nodes);
  std::vector<uint64_t> seeds;
  seeds.reserve(nodes.size());
  for (const auto& name : nodes.names) seeds.push_back(key_hash(name));
  return seeds;
}

namespace {

// Scores each node from its own record, one node at a time.
class RendezvousReference final : public OwnerTable {
 public:
  explicit RendezvousReference(const NodeSet& nodes) {
    validate(nodes);
    for (const auto& name : nodes.names) seeds_.push_back(key_hash(name));
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) {
      uint32_t owner = 0;
      uint64_t best = rendezvous_score(h[i], seeds_[0]);
      for (uint32_t n = 1; n < seeds_.size(); ++n) {
        const uint64_t w = rendezvous_score(h[i], seeds_[n]);
        if (w > best) {  // a tie keeps the lower index
          best = w;
          owner = n;
        }
      }
      out[i] = owner;
    }
  }
  std::size_t memory_bytes() const noexcept override { return seeds_.size() * sizeof(uint64_t); }

 private:
  std::vector<uint64_t> seeds_;
};

}  // namespace

std::unique_ptr<OwnerTable> registry::hrw_reference(const Fleet& f) {
  return std::make_unique<RendezvousReference>(f.nodes());
}

void registry::hrw_check(const Fleet& f) { validate(f.nodes()); }

// An upper estimate of the seeds: 16 B per node.
uint64_t registry::hrw_reference_bytes(const Fleet& f) {
  return glue::saturating_mul(f.size(), 16);
}

namespace {
constexpr std::string_view kAliases[] = {"rendezvous"};
}  // namespace

constinit const SchemeInfo registry::hrw_scheme{
    .id = Scheme::kRendezvous,
    .name = "hrw",
    .aliases = kAliases,
    .title = "rendezvous (HRW)",
    .source =
        "Thaler and Ravishankar, Using Name-Based Mappings to Increase Hit Rates, "
        "IEEE/ACM ToN 6(1), 1998, section 3; docs/spec.md §7",
    .params = 0,
    .removal = Removal::kAnyNode,
    .removal_note = "any node can leave: only its keys move",
    .max_nodes = 0xffffffffu,
    .reference = &registry::hrw_reference,
    .check = &registry::hrw_check,
    .reference_bytes = &registry::hrw_reference_bytes,
    .scores_every_node = true,
    .replicas_reference = &registry::hrw_replicas_reference,
    .replicas_note = "the R highest scores, highest first (Thaler and Ravishankar, section 3)",
    .growth = &minimal_growth};

}  // namespace chbench
