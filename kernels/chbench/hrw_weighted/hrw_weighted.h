// Weighted rendezvous hashing: Schindelhauer and Schomaker, "Weighted
// Distributed Hash Tables", SPAA 2005, the logarithmic method (section 3):
// node n scores a key -w_n / ln(u_n), u_n uniform in (0, 1) per (key, node);
// the highest score wins, and node n wins a share w_n / sum(w) of the keys.
// Here u_n comes from rendezvous' own score fmix64(h ^ seed_n) (hrw/hrw.h,
// docs/spec.md §7), and the winner is the node of lowest cost L(u_n) * (1 / w_n), L
// the fixed logarithm of neglog.h, so that every kernel and SIMD target picks
// the same node; equal costs go to the lower index, weight 0 never wins.
// docs/schemes/hrw_weighted.md defines it exactly, with L's error.
#pragma once

#include <cstdint>
#include <vector>

#include "chbench/nodes.h"

namespace chbench {

// What the kernels read per node: seeds[n] = XXH3_64bits(name_n) (as
// rendezvous_seeds) and inverse_weights[n] = 1 / weight(n) rounded to double
// (+infinity for weight 0).
struct WeightedNodes {
  std::vector<uint64_t> seeds;
  std::vector<double> inverse_weights;
};

// Throws std::invalid_argument on an invalid node list (validate(): weights
// not one per node, above 2^31 or all 0).
WeightedNodes weighted_nodes(const NodeSet& nodes);

// L(u) of neglog.h for the score x (u = (2 (x >> 12) + 1) 2^-53): for tests
// and docs, the same bits the kernels compute.
double weighted_rendezvous_neglog(uint64_t x) noexcept;

}  // namespace chbench
