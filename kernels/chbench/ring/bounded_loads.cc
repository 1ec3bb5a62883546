#include "chbench/ring/bounded_loads.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace chbench {

uint64_t bounded_capacity(double c, uint64_t requests, uint32_t nodes) {
  if (!(c >= 1 && c <= 1000))
    throw std::invalid_argument("bounded loads take a balance factor c in [1, 1000]");
  if (nodes == 0) throw std::invalid_argument("bounded loads need at least one node");
  const long double cap =
      std::ceil(static_cast<long double>(c) * static_cast<long double>(requests) / nodes);
  return static_cast<uint64_t>(cap);
}

std::size_t ring_position(const SortedRing<uint64_t>& ring, uint64_t h) {
  const auto it = std::lower_bound(ring.tokens.begin(), ring.tokens.end(), h);
  return it == ring.tokens.end() ? 0 : static_cast<std::size_t>(it - ring.tokens.begin());
}

BoundedLoads::BoundedLoads(const SortedRing<uint64_t>& ring, uint32_t nodes, uint64_t capacity)
    : ring_(ring),
      nodes_(nodes),
      capacity_(capacity),
      loads_(std::make_unique<std::atomic<uint64_t>[]>(nodes)) {
  reset();
}

void BoundedLoads::reset() noexcept {
  for (uint32_t i = 0; i < nodes_; ++i) loads_[i].store(0, std::memory_order_relaxed);
}

uint32_t BoundedLoads::place(uint64_t h, uint32_t owner) noexcept {
  std::atomic<uint64_t>& l = loads_[owner];
  const uint64_t v = l.load(std::memory_order_relaxed);
  if (v < capacity_) {
    l.store(v + 1, std::memory_order_relaxed);
    return owner;
  }
  return walk(h, false);
}

uint32_t BoundedLoads::place_concurrent(uint64_t h, uint32_t owner) noexcept {
  if (loads_[owner].fetch_add(1, std::memory_order_relaxed) < capacity_) return owner;
  loads_[owner].fetch_sub(1, std::memory_order_relaxed);
  return walk(h, true);
}

// From h's ring position on, the first node that takes the request. One
// thread gives up after one turn of the ring (every node full: the
// precondition broken); many threads go round again, since a node may have
// looked full only while another thread's claim was being given back.
uint32_t BoundedLoads::walk(uint64_t h, bool concurrent) noexcept {
  const std::size_t n = ring_.tokens.size();
  std::size_t p = ring_position(ring_, h);
  for (std::size_t step = 0; concurrent || step < n; ++step, p = p + 1 == n ? 0 : p + 1) {
    std::atomic<uint64_t>& l = loads_[ring_.owners[p]];
    if (concurrent) {
      if (l.fetch_add(1, std::memory_order_relaxed) < capacity_) return ring_.owners[p];
      l.fetch_sub(1, std::memory_order_relaxed);
    } else if (const uint64_t v = l.load(std::memory_order_relaxed); v < capacity_) {
      l.store(v + 1, std::memory_order_relaxed);
      return ring_.owners[p];
    }
  }
  return ring_.owners[ring_position(ring_, h)];
}

void BoundedLoadsTable::owners(std::span<const uint64_t> key_hashes,
                               std::span<uint32_t> out) const {
  inner_.owners(key_hashes, out);
  for (std::size_t i = 0; i < key_hashes.size(); ++i)
    out[i] = concurrent_ ? loads_.place_concurrent(key_hashes[i], out[i])
                         : loads_.place(key_hashes[i], out[i]);
}

std::size_t BoundedLoadsTable::memory_bytes() const noexcept {
  return inner_.memory_bytes() + loads_.nodes() * sizeof(std::atomic<uint64_t>);
}

}  // namespace chbench
