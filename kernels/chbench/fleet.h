// A fleet state: the nodes in service now, the scheme parameters, and the
// joins and leaves that led to it. Schemes that place keys by the fleet's
// history (AnchorHash, MementoHash, DxHash: which nodes left, in what order)
// read the history; the others read the current node list only.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "chbench/nodes.h"

namespace chbench {

// One change of a fleet. A join appends its node at the end of the list (the
// next owner index); a leave removes its node, and the nodes after it move
// down one index.
struct FleetChange {
  enum class Kind : uint8_t { kJoin, kLeave };
  Kind kind = Kind::kJoin;
  std::string node;

  friend bool operator==(const FleetChange&, const FleetChange&) = default;
};

// The ordered nodes now in service with their parameters (NodeSet: names,
// virtual nodes V, Maglev's table size M), the list they started from, and
// every change since, oldest first. A fleet made from a NodeSet has no
// history, so every scheme built from it places keys exactly as from the
// NodeSet itself.
class Fleet {
 public:
  Fleet() = default;
  // Implicit: a NodeSet is a fleet that never changed. Does not validate
  // (schemes do, when built). Takes the NodeSet by value and moves it in:
  // `Fleet(std::move(nodes))` copies no name, and a fleet without history
  // holds each name once.
  Fleet(NodeSet nodes);  // NOLINT(google-explicit-constructor)

  // A fleet of `n` buckets 0 ... n-1 whose names (node-0 ... node-(n-1), the
  // default list) are not held: for the schemes that place keys by the bucket
  // count alone (mod-N, jump hash and its successors), so that N = 2^31 - 1
  // costs no memory. nodes().names is empty until a join or leave, which
  // first fills in the default names. Throws std::invalid_argument if n == 0.
  static Fleet of_buckets(uint32_t n);

  // The nodes in service now, with V and M.
  // Empty for a fleet of_buckets() (see named()).
  const NodeSet& nodes() const noexcept { return nodes_; }
  uint32_t size() const noexcept { return named() ? nodes_.size() : buckets_; }
  // False for a fleet of_buckets() whose names have not been filled in.
  bool named() const noexcept { return buckets_ == 0; }
  // The node names the fleet started from, before any change (the current
  // names while the history is empty).
  const std::vector<std::string>& initial() const noexcept {
    return history_.empty() ? nodes_.names : initial_;
  }
  // Every change applied, oldest first.
  std::span<const FleetChange> history() const noexcept { return history_; }
  // The nodes that left and have not joined again, in the order they left.
  std::vector<std::string> removed() const;

  // Appends `name` to the node list (of weight 1 when the nodes have
  // weights; a leave takes its node's weight with it). Throws std::invalid_argument when the
  // name is empty or already in service.
  Fleet& join(std::string name);
  // Removes `name` from the node list. Throws std::invalid_argument when no
  // node has that name, or when it is the last node (a fleet is never empty).
  Fleet& leave(std::string_view name);
  // Removes the named nodes, as leave() one after the other in that order
  // would, in time linear in the fleet's size (a scenario removes 90% of a
  // million nodes). Throws std::invalid_argument, changing nothing, when a
  // name is not in service or listed twice, or when no node would be left.
  Fleet& leave_all(std::span<const std::string> names);
  // Appends the named nodes, as join() one after the other in that order
  // would, in time linear in the fleet's size (a scenario re-adds half of a
  // million nodes). Throws std::invalid_argument, changing nothing, when a
  // name is empty, already in service or listed twice.
  Fleet& join_all(std::span<const std::string> names);
  // Sets the nodes' weights (NodeSet::weights, one per node in service, or
  // empty for all 1): the fleet's parameters, not a change of its history.
  // Throws std::invalid_argument for a count other than the nodes' (the
  // values are validate()'s to check).
  Fleet& weigh(std::vector<uint32_t> weights);
  // join or leave, as the change says; throws as they do.
  Fleet& apply(const FleetChange& change);

 private:
  // Keeps the starting names in initial_ before the first change; a fleet
  // without history leaves initial_ empty (initial() is nodes_.names).
  void keep_initial();
  // Fills in the default names of a fleet of_buckets().
  void name_buckets();
  // Drops the weights of the nodes named in `gone` (before their names go).
  void erase_weights(const std::unordered_set<std::string>& gone);

  NodeSet nodes_;
  std::vector<std::string> initial_;  // filled by the first join or leave
  std::vector<FleetChange> history_;
  uint32_t buckets_ = 0;  // of_buckets(n) without names: n; otherwise 0
};

}  // namespace chbench
