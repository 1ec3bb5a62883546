// The ring's reference (docs/spec.md §6): the sorted
// entries searched with std::lower_bound, plus what every ring kernel starts
// from (ring_entries, clustered rings) and the scheme's registry functions.
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chbench/hash.h"
#include "chbench/kernel_glue.h"
#include "chbench/memory.h"
#include "chbench/registry.h"
#include "chbench/ring/replicas.h"
#include "chbench/ring/ring.h"
#include "chbench/ring/table.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

class RingReference final : public OwnerTable {
 public:
  explicit RingReference(const NodeSet& nodes) : entries_(ring_entries(nodes)) {}
  explicit RingReference(std::vector<RingEntry<uint64_t>> entries) : entries_(std::move(entries)) {
    if (entries_.empty()) throw std::invalid_argument("ring: no tokens");
    if (!std::is_sorted(entries_.begin(), entries_.end()))
      throw std::invalid_argument("ring: entries are not sorted by (token, node)");
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i)
      out[i] = ring_reference_owner<uint64_t>(entries_, h[i]);
  }
  std::size_t memory_bytes() const noexcept override {
    return entries_.size() * sizeof(RingEntry<uint64_t>);
  }

 private:
  std::vector<RingEntry<uint64_t>> entries_;
};

// The message of a ring of more tokens than it indexes.
std::string too_many_tokens(uint64_t total) {
  return "N * V = " + std::to_string(total) + " tokens exceeds the 2^32 - 1 a ring indexes";
}

}  // namespace

std::vector<RingEntry<uint64_t>> ring_entries(const NodeSet& nodes) {
  validate(nodes);
  const uint64_t total = ring_weight_units(nodes) * nodes.vnodes;  // < 2^63 + 2^32 * 2^32
  if (total > 0xffffffffu) throw std::length_error(too_many_tokens(total));
  std::vector<RingEntry<uint64_t>> entries;
  reserve_huge(entries, total);  // 16 B a token: 256 MiB for 16M tokens
  std::string label;
  for (uint32_t n = 0; n < nodes.size(); ++n) {
    const uint64_t tokens = uint64_t{nodes.weight(n)} * nodes.vnodes;
    for (uint64_t i = 0; i < tokens; ++i) {
      label = nodes.names[n];
      label += '#';
      label += std::to_string(i);
      entries.push_back({key_hash(label), n});
    }
  }
  // (token, node) orders every entry, so the order is the same whichever
  // sort and however many threads.
  tbb::parallel_sort(entries.begin(), entries.end());
  return entries;
}

std::vector<RingEntry<uint64_t>> clustered_ring_entries(const NodeSet& nodes,
                                                        unsigned window_bits) {
  if (window_bits < 1 || window_bits > 63)
    throw std::invalid_argument("cluster window must be 1 to 63 bits");
  auto entries = ring_entries(nodes);
  // into_cluster never reverses two tokens, so the entries stay sorted by
  // token; only the runs of tokens it made equal need their nodes sorted.
  for (auto& e : entries) e.token = into_cluster(e.token, window_bits);
  for (auto run = entries.begin(); run != entries.end();) {
    const auto end =
        std::find_if(run, entries.end(), [&](const auto& e) { return e.token != run->token; });
    std::sort(run, end);
    run = end;
  }
  return entries;
}

std::unique_ptr<OwnerTable> build_ring_reference(std::vector<RingEntry<uint64_t>> entries) {
  return std::make_unique<RingReference>(std::move(entries));
}

std::unique_ptr<OwnerTable> build_ring_kernel(std::string_view name,
                                              const SortedRing<uint64_t>& ring, unsigned knob) {
  return find_kernel(Scheme::kRing, name).make_over_ring(ring, knob);
}

std::unique_ptr<OwnerTable> registry::ring_reference(const Fleet& f) {
  return std::make_unique<RingReference>(f.nodes());
}

void registry::ring_check(const Fleet& f) {
  validate(f.nodes());
  if (glue::ring_tokens(f) > 0xffffffffu)
    throw std::length_error(too_many_tokens(glue::ring_tokens(f)));
}

uint64_t registry::ring_reference_bytes(const Fleet& f) {
  return glue::saturating_mul(glue::ring_tokens(f), sizeof(RingEntry<uint64_t>));
}

constinit const SchemeInfo registry::ring_scheme{
    .id = Scheme::kRing,
    .name = "ring",
    .aliases = {},
    .title = "ring (consistent hashing)",
    .source =
        "Karger et al., Consistent Hashing and Random Trees, STOC 1997, section 4; "
        "docs/spec.md §6",
    .params = kParamVnodes | kParamWeights,
    .removal = Removal::kAnyNode,
    .removal_note = "any node can leave: only its keys move",
    .max_nodes = 0xffffffffu,
    .reference = &registry::ring_reference,
    .check = &registry::ring_check,
    .reference_bytes = &registry::ring_reference_bytes,
    .replicas_reference = &registry::ring_replicas_reference,
    .replicas_note =
        "clockwise from the key, skipping tokens of nodes already chosen "
        "(DeCandia et al., Dynamo, SOSP 2007, section 4.3)",
    .growth = &minimal_growth};

}  // namespace chbench
