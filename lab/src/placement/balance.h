// How evenly keys (and, for the ring, the circle) spread over the nodes: the
// counts, the circle's shares, their summaries, and the replica fleets that
// repeat a measurement over independent rings.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/nodes.h"
#include "chbench/scheme.h"
#include "keys.h"
#include "placement/tables.h"

namespace chbench::lab {

// Where K keys land, and for the ring where the circle goes.
struct Balance {
  uint64_t keys = 0;
  std::vector<uint64_t> node_keys;  // keys per node, in node order
  std::vector<double> circle;       // ring only: circle_shares(); empty otherwise
};

// Counts each node's keys (in parallel blocks) and, for the ring, its share of
// the circle. Memory: the counts, 8 B a node (up to 2^16 nodes each thread
// also counts apart; above, the threads add into the one array atomically),
// and the circle's. Throws like make_table().
Balance measure_balance(Scheme scheme, const Fleet& fleet, const KeySet& keys,
                        std::string_view kernel = {});
// For a profile there is no circle share (the shares of docs/spec.md §6's circle do
// not describe a profile's own ring): `circle` stays empty.
Balance measure_balance(const Placement& placement, const Fleet& fleet, const KeySet& keys,
                        std::string_view kernel = {});

// Each node's share of docs/spec.md §6's 64-bit ring: the summed length of the arcs it
// owns, an arc running from the previous distinct token (exclusive) to the
// token (inclusive), the first token's arc wrapping around 2^64, divided by
// 2^64. A token hidden by an equal token of a lower node index owns nothing.
// Shape: nodes.size() shares summing to 1 (up to rounding). Throws like
// ring_entries().
std::vector<double> circle_shares(const NodeSet& nodes);

// Summary of one set of shares (any non-negative weights: key counts or arcs).
struct ShareStats {
  double busiest_over_mean = 0;  // max share / mean share
  double std_pct = 0;            // population std of the shares, % of the mean (fair) share
};
// Precondition: shares non-empty with a positive sum. Allocates nothing.
ShareStats share_stats(std::span<const double> shares);
ShareStats share_stats(std::span<const uint64_t> counts);

// Summary of shares against fair shares (weights w_i / sum(w)): busiest is
// the largest share_i / fair_i, the std the deviation of share_i / fair_i
// from 1 weighted by fair_i, sqrt(sum fair_i (share_i / fair_i - 1)^2), in %;
// nodes of fair share 0 are left out. With equal fair shares it is
// share_stats of the shares; a fleet placed exactly at its weights reads
// 1.0 and 0 %. Shapes: shares and fair of one length, each summing to 1
// (counts are divided by their sum). Precondition: some fair share above 0.
ShareStats fair_share_stats(std::span<const double> shares, std::span<const double> fair);
ShareStats fair_share_stats(std::span<const uint64_t> counts, std::span<const double> fair);

// Replica r of a node list, for repeating a measurement over independent rings:
// r = 0 is `nodes` itself, r >= 1 appends "@r" to every name (node-3@2), which
// gives every node new tokens and seeds. Every parameter (vnodes, M,
// capacity, weights, probes) is kept.
NodeSet replica_nodes(const NodeSet& nodes, uint32_t r);
// The name of `name` in replica r: `name` itself for r = 0, else name + "@r".
std::string replica_name(std::string_view name, uint32_t r);

}  // namespace chbench::lab
