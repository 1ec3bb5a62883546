// Multi-probe's reference (multiprobe.h, docs/schemes/multiprobe.md): for
// each probe, std::lower_bound over the sorted entries; the circle every
// kernel starts from, and the scheme's registry functions.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "chbench/hash.h"
#include "chbench/kernel_glue.h"
#include "chbench/multiprobe/multiprobe.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

// Every probe searched on its own, the distances compared as the paper says.
class MultiprobeReference final : public OwnerTable {
 public:
  explicit MultiprobeReference(const NodeSet& nodes)
      : entries_(multiprobe_entries(nodes)), probes_(nodes.probes) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = owner(h[i]);
  }
  std::size_t memory_bytes() const noexcept override {
    return entries_.size() * sizeof(RingEntry<uint64_t>);
  }
  uint32_t owner(uint64_t h) const override {
    uint64_t best = 0;
    uint32_t owner = 0;
    for (uint32_t j = 0; j < probes_; ++j) {
      const uint64_t p = multiprobe_probe(h, j);
      auto it = std::lower_bound(entries_.begin(), entries_.end(), RingEntry<uint64_t>{p, 0});
      if (it == entries_.end()) it = entries_.begin();  // the circle closes
      const uint64_t distance = it->token - p;          // mod 2^64: clockwise
      if (j == 0 || distance < best) {  // strictly less: the earlier probe keeps a tie
        best = distance;
        owner = it->node;
      }
    }
    return owner;
  }

 private:
  std::vector<RingEntry<uint64_t>> entries_;
  uint32_t probes_;
};

}  // namespace

std::vector<RingEntry<uint64_t>> multiprobe_entries(const NodeSet& nodes) {
  validate(nodes);
  std::vector<RingEntry<uint64_t>> entries;
  entries.reserve(nodes.size());
  for (uint32_t n = 0; n < nodes.size(); ++n)
    entries.push_back({key_hash(nodes.names[n] + "#0"), n});
  std::sort(entries.begin(), entries.end());
  return entries;
}

void multiprobe_check_probes(const Fleet& f) {
  validate(f.nodes());
  const uint32_t k = f.nodes().probes;
  if (k < 1 || k > kMultiprobeMaxProbes)
    throw std::invalid_argument("multiprobe: probes k = " + std::to_string(k) + " must be 1 to " +
                                std::to_string(kMultiprobeMaxProbes));
}

std::unique_ptr<OwnerTable> registry::multiprobe_reference(const Fleet& f) {
  multiprobe_check_probes(f);
  return std::make_unique<MultiprobeReference>(f.nodes());
}

void registry::multiprobe_check(const Fleet& f) { multiprobe_check_probes(f); }

uint64_t registry::multiprobe_reference_bytes(const Fleet& f) {
  return glue::saturating_mul(f.size(), sizeof(RingEntry<uint64_t>));
}

constinit const SchemeInfo registry::multiprobe_scheme{
    .id = Scheme::kMultiprobe,
    .name = "multiprobe",
    .aliases = {},
    .title = "multi-probe consistent hashing",
    .source =
        "Appleton and O'Reilly, Multi-probe consistent hashing, arXiv:1505.00062, 2015; "
        "probes by double hashing (Kirsch and Mitzenmacher, ESA 2006); "
        "docs/schemes/multiprobe.md",
    .params = kParamProbes,
    .removal = Removal::kAnyNode,
    .removal_note =
        "any node can leave: only its keys move (every other key's closest probe "
        "keeps its token)",
    .max_nodes = 0xffffffffu,
    .reference = &registry::multiprobe_reference,
    .check = &registry::multiprobe_check,
    .reference_bytes = &registry::multiprobe_reference_bytes,
    .growth = &minimal_growth};

}  // namespace chbench
