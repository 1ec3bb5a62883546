// Weighted rendezvous' reference (Schindelhauer and Schomaker, SPAA 2005,
// section 3, the logarithmic method, with docs/schemes/hrw_weighted.md's fixed
// logarithm): every node's cost from its own name and weight, the lowest
// first cost kept, and the scheme's registry functions. Compiled with
// -ffp-contract=off (neglog.h).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "chbench/hash.h"
#include "chbench/hrw/hrw.h"
#include "chbench/hrw_weighted/hrw_weighted.h"
#include "chbench/hrw_weighted/neglog.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

WeightedNodes weighted_nodes(const NodeSet& nodes) {
  WeightedNodes out{rendezvous_seeds(nodes), {}};
  out.inverse_weights.reserve(nodes.size());
  for (uint32_t n = 0; n < nodes.size(); ++n)
    out.inverse_weights.push_back(weighted::inverse_weight(nodes.weight(n)));
  return out;
}

double weighted_rendezvous_neglog(uint64_t x) noexcept {
  return weighted::neglog(weighted::unit_from_score(x));
}

namespace {

// One record per node, its cost computed from its own name and weight.
class WeightedReference final : public OwnerTable {
 public:
  explicit WeightedReference(const NodeSet& nodes) {
    validate(nodes);
    for (uint32_t n = 0; n < nodes.size(); ++n)
      records_.push_back({key_hash(nodes.names[n]), nodes.weight(n)});
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) {
      uint32_t owner = 0;
      double best = cost(h[i], records_[0]);
      for (uint32_t n = 1; n < records_.size(); ++n) {
        const double c = cost(h[i], records_[n]);
        if (c < best) {  // a tie keeps the lower index
          best = c;
          owner = n;
        }
      }
      out[i] = owner;
    }
  }
  std::size_t memory_bytes() const noexcept override { return records_.size() * sizeof(Record); }

 private:
  struct Record {
    uint64_t seed;
    uint32_t weight;
  };
  static double cost(uint64_t h, const Record& r) noexcept {
    return weighted::cost(rendezvous_score(h, r.seed), weighted::inverse_weight(r.weight));
  }
  std::vector<Record> records_;
};

}  // namespace

std::unique_ptr<OwnerTable> registry::hrw_weighted_reference(const Fleet& f) {
  return std::make_unique<WeightedReference>(f.nodes());
}

void registry::hrw_weighted_check(const Fleet& f) { validate(f.nodes()); }

// An upper estimate of the node records and arrays: 32 B per node.
uint64_t registry::hrw_weighted_reference_bytes(const Fleet& f) {
  return glue::saturating_mul(f.size(), 32);
}

namespace {
constexpr std::string_view kAliases[] = {"weighted_rendezvous"};
}  // namespace

constinit const SchemeInfo registry::hrw_weighted_scheme{
    .id = Scheme::kWeightedRendezvous,
    .name = "hrw_weighted",
    .aliases = kAliases,
    .title = "weighted rendezvous",
    .source =
        "Schindelhauer and Schomaker, Weighted Distributed Hash Tables, SPAA 2005, "
        "section 3 (the logarithmic method); docs/schemes/hrw_weighted.md",
    .params = kParamWeights,
    .removal = Removal::kAnyNode,
    .removal_note = "any node can leave, or change its weight: only its keys move",
    .max_nodes = 0xffffffffu,
    .reference = &registry::hrw_weighted_reference,
    .check = &registry::hrw_weighted_check,
    .reference_bytes = &registry::hrw_weighted_reference_bytes,
    .scores_every_node = true,
    .growth = &minimal_growth};

}  // namespace chbench
