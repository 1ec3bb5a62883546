// Consistent hashing with bounded loads on the ring: Mirrokni, Thorup and
// Zadimoghaddam, "Consistent Hashing with Bounded Loads", SODA 2018, section
// 2 (the ring form), as HAProxy's hash-balance-factor runs it.
//
// The variant, exactly: the ring walk over distinct nodes, with the capacity
// per node (not per token), split by weight as HAProxy's hash-balance-factor
// splits it. With R requests over nodes of weights w_0 ... w_{N-1} (W their
// sum; all 1 unweighted) and balance factor c >= 1 node n takes at most
// capacity_n = ceil(c * R * w_n / W) requests: ceil(c * R / N) unweighted, 0
// for a node of weight 0 (which holds no token either). Each request goes to
// its ring owner (docs/spec.md §6: the first token >= its hash, wrapping past the
// last) if that node holds fewer than its capacity, else to the next token
// clockwise whose node has room; a full node's tokens are passed over, so the
// walk meets the nodes in ring order until one has room. The capacities sum
// to at least c * R >= R, and every node of capacity above 0 holds a token,
// so while fewer than the capacities' sum are placed one turn of the ring
// finds room: the walk's bound (n tokens). Loads only grow until reset() (a
// stream of R requests, then the next).
//
// Concurrent placement (place_concurrent, many threads on one BoundedLoads):
// a node's load is a relaxed std::atomic; a request claims a slot with a
// compare-and-swap of load -> load + 1 while the load it read is below the
// capacity. A failed swap means another request took a slot of that node
// (loads only grow), so a node is retried at most capacity times, and a node
// looks full only when it is: the one-turn bound holds for every thread. The
// threads' interleaving decides which request of a stream gets which node (a
// stream placed by one thread is deterministic). The cost is one atomic
// read-modify-write per node tried, and the cache line of a hot node's load
// bouncing between cores.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "chbench/ring/ring.h"
#include "chbench/scheme.h"

namespace chbench {

// ceil(c * requests / nodes), computed in long double (c = 1.25, R = 10,
// N = 4 gives ceil(3.125) = 4). Throws std::invalid_argument for c < 1,
// c > 1000 or nodes = 0.
uint64_t bounded_capacity(double c, uint64_t requests, uint32_t nodes);

// Per node n: ceil(c * requests * weights[n] / sum of weights), in long
// double (c = 1, R = 12, weights 1, 2, 3 give 2, 4, 6; a weight 0 gives 0).
// Their sum is at least c * requests. Throws std::invalid_argument for c
// outside [1, 1000], no weights or every weight 0.
std::vector<uint64_t> bounded_capacities(double c, uint64_t requests,
                                         std::span<const uint32_t> weights);

// The ring position of key hash h: the first token >= h, 0 past the last.
std::size_t ring_position(const SortedRing<uint64_t>& ring, uint64_t h);

class BoundedLoads {
 public:
  // `ring` (over nodes 0 ... nodes - 1) must outlive this object. Throws
  // std::invalid_argument when a token's node is past the nodes, or a node of
  // capacity above 0 holds no token of the ring (a weight-0 node holds none
  // and gets capacity 0): the walk's bound needs both.
  BoundedLoads(const SortedRing<uint64_t>& ring, uint32_t nodes, uint64_t capacity);
  // capacities[n] is node n's (bounded_capacities).
  BoundedLoads(const SortedRing<uint64_t>& ring, std::vector<uint64_t> capacities);

  // The largest node capacity (every node's, unweighted).
  uint64_t capacity() const noexcept { return max_capacity_; }
  uint64_t capacity(uint32_t node) const noexcept { return capacities_[node]; }
  // The capacities' sum: the requests a stream may place.
  uint64_t total_capacity() const noexcept { return total_capacity_; }
  uint32_t nodes() const noexcept { return static_cast<uint32_t>(capacities_.size()); }
  // Every load back to 0: the next stream starts.
  void reset() noexcept;
  // The node request h goes to, its ring owner being `owner` (a kernel's
  // answer for h, or ring.owners[ring_position(h)]); counts it. One thread
  // at a time. Precondition: fewer than total_capacity() requests placed
  // since reset() (past that it returns `owner` uncounted after one turn).
  uint32_t place(uint64_t h, uint32_t owner) noexcept;
  // The same from any number of threads at once (the header's protocol).
  uint32_t place_concurrent(uint64_t h, uint32_t owner) noexcept;
  uint64_t load(uint32_t node) const noexcept {
    return loads_[node].load(std::memory_order_relaxed);
  }

 private:
  uint32_t walk(uint64_t h, uint32_t owner, bool concurrent) noexcept;
  bool claim(uint32_t node) noexcept;
  bool claim_concurrent(uint32_t node) noexcept;

  const SortedRing<uint64_t>& ring_;
  std::vector<uint64_t> capacities_;
  uint64_t max_capacity_ = 0;
  uint64_t total_capacity_ = 0;
  std::unique_ptr<std::atomic<uint64_t>[]> loads_;
};

// A ring kernel's table with bounded loads on top: owners() asks `inner`
// (a table over the same ring) for the batch's owners, then places each
// request with `loads` (place_concurrent when `concurrent`, for a batch split
// over threads, else place). Not const in effect: every call adds to the
// loads; the caller resets them between streams. Both must outlive it.
class BoundedLoadsTable final : public OwnerTable {
 public:
  BoundedLoadsTable(const OwnerTable& inner, BoundedLoads& loads, bool concurrent)
      : inner_(inner), loads_(loads), concurrent_(concurrent) {}
  void owners(std::span<const uint64_t> key_hashes, std::span<uint32_t> out) const override;
  // The inner table's and the loads' (8 B a node).
  std::size_t memory_bytes() const noexcept override;

 private:
  const OwnerTable& inner_;
  BoundedLoads& loads_;
  bool concurrent_;
};

}  // namespace chbench
