// The glue between the ring kernels and the registry: OwnerTable adapters over
// a ring search, the make / make_over_ring functions a ring kernel's
// KernelInfo names, the byte estimates, and the helpers the SIMD ring kernels
// share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>

#include "chbench/fleet.h"
#include "chbench/kernel_glue.h"
#include "chbench/nodes.h"
#include "chbench/registry.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"

namespace chbench::glue {

// Adapts a 64-bit ring search kernel template (RingEytzinger, RingSTree, ...)
// to OwnerTable.
template <template <class> class Search>
class RingTable final : public OwnerTable {
 public:
  explicit RingTable(const NodeSet& nodes)
      : search_(SortedRing<uint64_t>::from_entries(ring_entries(nodes))) {}
  template <class... Args>
  explicit RingTable(const SortedRing<uint64_t>& ring, Args... args) : search_(ring, args...) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    search_.owners(h, out);
  }
  uint32_t owner(uint64_t h) const override { return search_.owner(h); }
  std::size_t memory_bytes() const noexcept override { return search_.memory_bytes(); }

 private:
  Search<uint64_t> search_;
};

// Adapts a SIMD ring search class (64-bit tokens only, batches only) to
// OwnerTable.
template <class Search>
class RingSimdTable final : public OwnerTable {
 public:
  explicit RingSimdTable(const NodeSet& nodes)
      : search_(SortedRing<uint64_t>::from_entries(ring_entries(nodes))) {}
  explicit RingSimdTable(const SortedRing<uint64_t>& ring) : search_(ring) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    search_.owners(h, out);
  }
  std::size_t memory_bytes() const noexcept override { return search_.memory_bytes(); }

 private:
  Search search_;
};

// V * (sum of the weights; N without weights), saturating: ring_entries' count.
inline uint64_t ring_tokens(const Fleet& f) {
  return saturating_mul(f.named() ? ring_weight_units(f.nodes()) : f.size(), f.nodes().vnodes);
}

// The fixed part of a ring kernel's layout (whole 64-byte records and nodes,
// at least one of each, at least 4 buckets: 320 B for a ring of one token)
// lies within kLayoutBytes.
inline constexpr uint64_t kLayoutBytes = 4096;

// A ring kernel's peak: the sorted entries (16 B/token) and the SortedRing (12
// B/token) alive while its own layout of `layout` B/token is built, and the
// layout's fixed part.
template <unsigned Layout>
uint64_t ring_bytes(const Fleet& f) {
  return saturating_add(saturating_mul(ring_tokens(f), 16 + 12 + Layout), kLayoutBytes);
}

// make_over_ring of kernel K (no knob): RingTable<Search> over the ring.
template <const KernelInfo& K, template <class> class Search>
std::unique_ptr<OwnerTable> ring_over(const SortedRing<uint64_t>& ring, unsigned knob) {
  no_knob(K, knob);
  return std::make_unique<RingTable<Search>>(ring);
}

// make_over_ring of kernel K whose constructor takes its knob as
// std::optional<unsigned>.
template <const KernelInfo& K, template <class> class Search>
std::unique_ptr<OwnerTable> ring_over_knob(const SortedRing<uint64_t>& ring, unsigned knob) {
  knob_in_range(K, knob);
  return std::make_unique<RingTable<Search>>(ring, knob_or_default(knob));
}

// make of a ring kernel: the fleet checked (registry::ring_check), its ring
// built, then the kernel over it by `Over` (ring_over or ring_over_knob).
template <const KernelInfo& K, template <class> class Search,
          std::unique_ptr<OwnerTable> (*Over)(const SortedRing<uint64_t>&, unsigned)>
std::unique_ptr<OwnerTable> ring_make(const Fleet& f, unsigned knob) {
  registry::ring_check(f);
  return Over(SortedRing<uint64_t>::from_entries(ring_entries(f.nodes())), knob);
}

// make_over_ring of kernel K (no knob) built by a function of the ring.
template <const KernelInfo& K, std::unique_ptr<OwnerTable> (*Build)(const SortedRing<uint64_t>&)>
std::unique_ptr<OwnerTable> ring_over_with(const SortedRing<uint64_t>& ring, unsigned knob) {
  no_knob(K, knob);
  return Build(ring);
}

// make of kernel K (no knob) built by a function of the node list.
template <const KernelInfo& K, std::unique_ptr<OwnerTable> (*Build)(const NodeSet&)>
std::unique_ptr<OwnerTable> ring_make_with(const Fleet& f, unsigned knob) {
  no_knob(K, knob);
  return Build(f.nodes());
}

// ---- shared by the SIMD ring kernels --------------------------------------------

// A token with its top bit flipped: the signed order of the results is the
// unsigned order of the tokens, for targets without an unsigned 64-bit compare.
inline int64_t ordered(uint64_t token) { return static_cast<int64_t>(token ^ (uint64_t{1} << 63)); }

// The ring's token count; throws std::invalid_argument for a ring without
// tokens or whose owners do not match its tokens.
inline std::size_t checked_size(const SortedRing<uint64_t>& ring) {
  if (ring.tokens.empty() || ring.owners.size() != ring.tokens.size() + 1)
    throw std::invalid_argument("ring: no tokens, or owners do not match tokens");
  return ring.tokens.size();
}

}  // namespace chbench::glue
