#include "chbench/ring/bounded_loads.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

std::vector<uint64_t> bounded_capacities(double c, uint64_t requests,
                                         std::span<const uint32_t> weights) {
  bounded_capacity(c, requests, 1);  // c's range
  long double total = 0;
  for (const uint32_t w : weights) total += w;
  if (!(total > 0)) throw std::invalid_argument("bounded loads need a node of weight above 0");
  std::vector<uint64_t> caps;
  caps.reserve(weights.size());
  // c * R * w / W rounds to within one unit of the exact value, so its
  // ceiling is never below the exact quotient: the sum stays >= c * R.
  for (const uint32_t w : weights)
    caps.push_back(static_cast<uint64_t>(
        std::ceil(static_cast<long double>(c) * static_cast<long double>(requests) * w / total)));
  return caps;
}

BoundedLoads::BoundedLoads(const SortedRing<uint64_t>& ring, uint32_t nodes, uint64_t capacity)
    : BoundedLoads(ring, std::vector<uint64_t>(nodes, capacity)) {}

BoundedLoads::BoundedLoads(const SortedRing<uint64_t>& ring, std::vector<uint64_t> capacities)
    : ring_(ring),
      capacities_(std::move(capacities)),
      loads_(std::make_unique<std::atomic<uint64_t>[]>(capacities_.size())) {
  std::vector<bool> holds(capacities_.size(), false);
  for (const uint32_t node : ring_.owners) {
    if (node >= holds.size())
      throw std::invalid_argument("bounded loads: a ring token of node " + std::to_string(node) +
                                  " past the " + std::to_string(holds.size()) + " capacities");
    holds[node] = true;
  }
  for (uint32_t n = 0; n < capacities_.size(); ++n) {
    if (capacities_[n] > 0 && !holds[n])
      throw std::invalid_argument("bounded loads: node " + std::to_string(n) +
                                  " has a capacity but no ring token");
    max_capacity_ = std::max(max_capacity_, capacities_[n]);
    total_capacity_ += capacities_[n];
  }
  reset();
}

void BoundedLoads::reset() noexcept {
  for (uint32_t i = 0; i < nodes(); ++i) loads_[i].store(0, std::memory_order_relaxed);
}

bool BoundedLoads::claim(uint32_t node) noexcept {
  std::atomic<uint64_t>& l = loads_[node];
  const uint64_t v = l.load(std::memory_order_relaxed);
  if (v >= capacities_[node]) return false;
  l.store(v + 1, std::memory_order_relaxed);
  return true;
}

// A failed strong swap means the load grew (loads only grow between resets):
// at most capacity_n retries.
bool BoundedLoads::claim_concurrent(uint32_t node) noexcept {
  std::atomic<uint64_t>& l = loads_[node];
  uint64_t v = l.load(std::memory_order_relaxed);
  while (v < capacities_[node])
    if (l.compare_exchange_strong(v, v + 1, std::memory_order_relaxed)) return true;
  return false;
}

uint32_t BoundedLoads::place(uint64_t h, uint32_t owner) noexcept {
  return claim(owner) ? owner : walk(h, owner, false);
}

uint32_t BoundedLoads::place_concurrent(uint64_t h, uint32_t owner) noexcept {
  return claim_concurrent(owner) ? owner : walk(h, owner, true);
}

// From h's ring position on, the first node that takes the request, within
// one turn of the ring (the header's bound); past it the precondition is
// broken and the owner comes back uncounted.
uint32_t BoundedLoads::walk(uint64_t h, uint32_t owner, bool concurrent) noexcept {
  const std::size_t n = ring_.tokens.size();
  std::size_t p = ring_position(ring_, h);
  for (std::size_t step = 0; step < n; ++step, p = p + 1 == n ? 0 : p + 1) {
    const uint32_t node = ring_.owners[p];
    if (concurrent ? claim_concurrent(node) : claim(node)) return node;
  }
  return owner;
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
