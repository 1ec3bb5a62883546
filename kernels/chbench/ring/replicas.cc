// The ring's replica reference and its scalar walk (ring/replicas.h).
#include "chbench/ring/replicas.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/ring/ring.h"

namespace chbench {

namespace {

// Appends `node` to the c chosen owners at `chosen` unless it is among them;
// returns the new count.
uint32_t choose(uint32_t* chosen, uint32_t c, uint32_t node) noexcept {
  if (std::find(chosen, chosen + c, node) != chosen + c) return c;
  chosen[c] = node;
  return c + 1;
}

// The plainest walk: std::lower_bound over the entries, then entry after
// entry, modulo their count.
class RingReplicaReference final : public ReplicaTable {
 public:
  RingReplicaReference(const NodeSet& nodes, uint32_t r) : entries_(ring_entries(nodes)), r_(r) {}
  void replicas(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    glue::check_replica_sizes(h, out, r_);
    const std::size_t n = entries_.size();
    for (std::size_t i = 0; i < h.size(); ++i) {
      const auto first =
          std::lower_bound(entries_.begin(), entries_.end(), RingEntry<uint64_t>{h[i], 0}) -
          entries_.begin();
      uint32_t* chosen = out.data() + i * r_;
      uint32_t c = 0;
      // One turn of the ring meets every node with a token: R of them exist
      // (check_replica_count), so c reaches R within n steps.
      for (std::size_t step = 0; c < r_ && step < n; ++step)
        c = choose(chosen, c, entries_[(static_cast<std::size_t>(first) + step) % n].node);
    }
  }
  uint32_t replica_count() const noexcept override { return r_; }
  std::size_t memory_bytes() const noexcept override {
    return entries_.size() * sizeof(RingEntry<uint64_t>);
  }

 private:
  std::vector<RingEntry<uint64_t>> entries_;
  uint32_t r_;
};

// The entries split into tokens and nodes; a branchless binary search
// (Khuong and Morin, ACM JEA 22, 2017, section 2.1) finds the first token
// >= h, then the walk.
class RingReplicaWalk final : public ReplicaTable {
 public:
  RingReplicaWalk(const NodeSet& nodes, uint32_t r) : r_(r) {
    const auto entries = ring_entries(nodes);
    tokens_.reserve(entries.size());
    nodes_.reserve(entries.size());
    for (const auto& e : entries) {
      tokens_.push_back(e.token);
      nodes_.push_back(e.node);
    }
  }
  void replicas(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    glue::check_replica_sizes(h, out, r_);
    for (std::size_t i = 0; i < h.size(); ++i) walk(h[i], out.data() + i * r_);
  }
  uint32_t replica_count() const noexcept override { return r_; }
  std::size_t memory_bytes() const noexcept override {
    return tokens_.size() * (sizeof(uint64_t) + sizeof(uint32_t));
  }

 private:
  std::size_t first_at_or_above(uint64_t x) const noexcept {
    const uint64_t* base = tokens_.data();
    std::size_t len = tokens_.size();
    while (len > 1) {
      const std::size_t half = len / 2;
      base += static_cast<std::size_t>(base[half - 1] < x) * half;  // a cmov, not a branch
      len -= half;
    }
    return static_cast<std::size_t>(base - tokens_.data()) + (*base < x);
  }
  void walk(uint64_t h, uint32_t* chosen) const noexcept {
    const std::size_t n = tokens_.size();
    std::size_t at = first_at_or_above(h);
    uint32_t c = 0;
    // At most one turn of the ring, as the reference's walk.
    for (std::size_t step = 0; c < r_ && step < n; ++step) {
      if (at == n) at = 0;  // the ring closes
      c = choose(chosen, c, nodes_[at++]);
    }
  }

  std::vector<uint64_t> tokens_;
  std::vector<uint32_t> nodes_;
  uint32_t r_;
};

}  // namespace

std::unique_ptr<ReplicaTable> registry::ring_replicas_reference(const Fleet& f, uint32_t r) {
  registry::ring_check(f);
  check_replica_count(f, r);
  return std::make_unique<RingReplicaReference>(f.nodes(), r);
}

std::unique_ptr<ReplicaTable> ring_walk_replicas(const Fleet& f, uint32_t r) {
  registry::ring_check(f);
  check_replica_count(f, r);
  return std::make_unique<RingReplicaWalk>(f.nodes(), r);
}

}  // namespace chbench
