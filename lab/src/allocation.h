// Cassandra's token allocation (Cassandra 4.0's
// allocate_tokens_for_local_replication_factor; Branimir Lambov's
// replication-aware allocator of CASSANDRA-7032, described in his "New token
// allocation algorithm in Cassandra 3.0", DataStax blog, January 2016),
// implemented from that description for one datacentre and one rack, and
// the replicated ownership it evens out.
//
// Replicated ownership (the blog's "responsibility"): with replication factor
// RF the replicas of a key are the owner of the first token clockwise from it
// and the next RF - 1 distinct nodes clockwise (SimpleStrategy, no racks).
// Equivalently a token is responsible for the span of the circle that ends at
// it and begins at the nearest preceding token of its own node or at the
// nearest preceding token of the RF-th distinct other node, whichever is
// closer (the whole circle when neither exists). A node's ownership is the sum
// of its tokens' spans, as a fraction of the circle; the ownerships sum to
// min(RF, N).
//
// Allocation: a joining node with T tokens takes them one at a time, each
// greedily. The candidates are, in every range between two adjacent tokens
// of the ring as it stands (the joining node's earlier tokens included), its
// midpoint and the point where the new token's span would be exactly its
// share, target / T (when that point lies inside the range). A candidate is
// scored by the sum, over the nodes whose ownership it changes, of the change
// of (ownership - target)^2, target = min(RF, N) / N with N counting the
// newcomer, whose ownership is projected to all its tokens (its current
// ownership times T / tokens placed so far), plus 1/4 of the change of the
// sum over the tokens whose span changes of (span - target / T)^2 (the
// blog's second aim, even vnode ownership); the lowest score is taken, the
// first in ring order on a tie. While the cluster has at most RF nodes every
// node replicates the whole circle, so RF cannot tell candidates apart:
// those first nodes are allocated as for RF = 1 (evenly spread tokens).
// The projection, the exact-share candidate and the weight 1/4 are this
// file's reading of the description, not taken from Cassandra's code. With
// midpoints alone RF = 1 stays near 11% std at 100 nodes; of the weights 0,
// 1/4, 1/2, 1, 2, 4, 16 and 64 compared on the experiment below (3 ... 100
// nodes, both rings), 1/4 alone kept every row from 10 nodes on at or below
// 256 random tokens in both max / mean and std, at RF = 1 and 3, and gave the
// lowest mean std at RF = 3 (weight 0: 1.76% at RF = 1 against 1.83%, but
// rows worse than random at RF = 3).
// Inserting a token changes only its own span and those of the following
// tokens whose span reached over it (until RF distinct nodes lie between),
// so a candidate costs a few span walks. Cassandra keeps its candidates in a
// priority queue and re-evaluates them lazily; this evaluates every one.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "chbench/ring/ring.h"
#include "placement.h"

namespace chbench::lab {

using TokenRing = std::vector<RingEntry<uint64_t>>;  // sorted by (token, node)

// Each node's replicated ownership (fractions of the circle) on `ring` of
// `nodes` nodes (every entry's node < nodes). Precondition: ring non-empty,
// rf >= 1.
std::vector<double> replicated_ownership(const TokenRing& ring, uint32_t nodes, uint32_t rf);

// Adds `count` tokens of node `node` (the newcomer; `nodes` counts it) to
// `ring` by the greedy rule of the header, for replication factor rf. A range narrower than 2 is no
// candidate. Throws std::invalid_argument when no range can be split.
void allocate_tokens(TokenRing& ring, uint32_t nodes, uint32_t node, uint32_t count, uint32_t rf);

// One row of the experiment: the spread of replicated ownership at N nodes.
struct AllocationRow {
  uint32_t nodes = 0, rf = 0, tokens = 0;
  bool allocated = false;  // allocated tokens, or random ones
  ShareStats spread;       // max / mean and std (% of mean) of the ownerships
};

// The experiment: nodes node-0, node-1, ... join one at a time. With
// `allocated_tokens` per node, node-0 takes its own random tokens (the
// profile's or docs/spec.md §6's, below) and every later node allocate_tokens with
// RF = rf; a row per rf and N = from ... to. Beside them, for each count in
// `random_tokens`, N nodes with that many random tokens each: for the
// Cassandra profile cassandra_ring() (XXH3 of "<name>#<i>" as Murmur3
// tokens), for the generic ring docs/spec.md §6's ring_entries(). Throws
// std::invalid_argument for from < 2, from > to, to > 1000, no rf, an rf
// outside 1 ... 8, or allocated_tokens outside 1 ... 1024.
std::vector<AllocationRow> allocation_experiment(bool cassandra, uint32_t from, uint32_t to,
                                                 uint32_t allocated_tokens,
                                                 std::span<const uint32_t> random_tokens,
                                                 std::span<const uint32_t> rfs);

}  // namespace chbench::lab
