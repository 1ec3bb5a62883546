// Consistent hashing with bounded loads on the ring: Mirrokni, Thorup and
// Zadimoghaddam, "Consistent Hashing with Bounded Loads", SODA 2018, section
// 2 (the ring form), as HAProxy's hash-balance-factor runs it.
//
// The variant, exactly: the ring walk over distinct nodes, with the capacity
// per node (not per token). With R requests over N nodes and balance factor
// c >= 1 every node takes at most capacity = ceil(c * R / N) requests. Each
// request goes to its ring owner (SPEC.md: the first token >= its hash,
// wrapping past the last) if that node holds fewer than `capacity` requests,
// else to the next token clockwise whose node has room; a full node's tokens
// are passed over, so the walk meets the nodes in ring order until one has
// room, which exists while at most N * capacity requests are placed. Loads
// only grow until reset() (a stream of R requests, then the next).
//
// Concurrent placement (place_concurrent, many threads on one BoundedLoads):
// a node's load is a relaxed std::atomic; a request claims a slot with
// fetch_add and keeps it when the value it read was below the capacity, else
// gives it back (fetch_sub) and walks on. A node therefore never holds more
// than `capacity` requests, but a request may pass a node that is full only
// for the moment another thread's claim is being given back; the threads'
// interleaving decides which request of a stream gets which node (a stream
// placed by one thread is deterministic). The cost is one atomic
// read-modify-write per node tried, and the cache line of a hot node's load
// bouncing between cores.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>

#include "chbench/ring/ring.h"
#include "chbench/scheme.h"

namespace chbench {

// ceil(c * requests / nodes), computed in long double (c = 1.25, R = 10,
// N = 4 gives ceil(3.125) = 4). Throws std::invalid_argument for c < 1,
// c > 1000 or nodes = 0.
uint64_t bounded_capacity(double c, uint64_t requests, uint32_t nodes);

// The ring position of key hash h: the first token >= h, 0 past the last.
std::size_t ring_position(const SortedRing<uint64_t>& ring, uint64_t h);

class BoundedLoads {
 public:
  // `ring` (over nodes 0 ... nodes - 1) must outlive this object.
  BoundedLoads(const SortedRing<uint64_t>& ring, uint32_t nodes, uint64_t capacity);

  uint64_t capacity() const noexcept { return capacity_; }
  uint32_t nodes() const noexcept { return nodes_; }
  // Every load back to 0: the next stream starts.
  void reset() noexcept;
  // The node request h goes to, its ring owner being `owner` (a kernel's
  // answer for h, or ring.owners[ring_position(h)]); counts it. One thread
  // at a time. Precondition: fewer than nodes * capacity requests placed
  // since reset() (past that it returns `owner` uncounted).
  uint32_t place(uint64_t h, uint32_t owner) noexcept;
  // The same from any number of threads at once (the header's protocol).
  uint32_t place_concurrent(uint64_t h, uint32_t owner) noexcept;
  uint64_t load(uint32_t node) const noexcept {
    return loads_[node].load(std::memory_order_relaxed);
  }

 private:
  uint32_t walk(uint64_t h, bool concurrent) noexcept;

  const SortedRing<uint64_t>& ring_;
  uint32_t nodes_;
  uint64_t capacity_;
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
