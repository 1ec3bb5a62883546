// What the weighted schemes' tests share (test_hrw_weighted.cc,
// test_ring_weights.cc): nodes with weights, the share of keys each node owns,
// and the exact check that a weight change moves only keys to or from the
// changed node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "chbench/nodes.h"
#include "chbench/scheme.h"
#include "support.h"

namespace chbench_test {

// The default nodes node-0 ... node-(n-1) with the given weights (n = their
// count) and `vnodes` tokens per unit of weight on the ring.
inline chbench::NodeSet weighted_default_nodes(std::vector<uint32_t> weights, uint32_t vnodes = 1) {
  chbench::NodeSet nodes = chbench::default_nodes(static_cast<uint32_t>(weights.size()), vnodes);
  nodes.weights = std::move(weights);
  return nodes;
}

// `count` random key hashes drawn from `rng`.
inline std::vector<uint64_t> random_keys(std::size_t count, std::mt19937_64& rng) {
  std::vector<uint64_t> keys;
  keys.reserve(count);
  append_random(keys, count, rng);
  return keys;
}

// The fraction of `owners` equal to each node index 0 ... n-1.
inline std::vector<double> owner_shares(const std::vector<uint32_t>& owners, uint32_t n) {
  std::vector<double> counts(n, 0.0);
  for (uint32_t o : owners) counts.at(o) += 1.0;
  for (double& c : counts) c /= static_cast<double>(owners.size());
  return counts;
}

// How many keys changed owner between `before` and `after`, and how many of
// them moved between two nodes neither of which is `changed` (must be 0).
struct MoveCount {
  std::size_t moved = 0;
  std::size_t between_others = 0;
};
inline MoveCount count_moves(const std::vector<uint32_t>& before,
                             const std::vector<uint32_t>& after, uint32_t changed) {
  MoveCount m;
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (before[i] == after[i]) continue;
    ++m.moved;
    if (before[i] != changed && after[i] != changed) ++m.between_others;
  }
  return m;
}

// Checks the owners before and after node `changed` went from weight `from`
// to `to`: some keys moved, none between two other nodes, and every moved key
// came to the node (heavier) or left it (lighter).
inline void check_weight_change(const std::vector<uint32_t>& before,
                                const std::vector<uint32_t>& after, uint32_t changed, uint32_t from,
                                uint32_t to) {
  const MoveCount m = count_moves(before, after, changed);
  CHECK(m.between_others == 0);
  CHECK(m.moved > 0);
  std::size_t wrong_way = 0;
  for (std::size_t i = 0; i < before.size(); ++i)
    if (before[i] != after[i] && (to > from ? after[i] : before[i]) != changed) ++wrong_way;
  CHECK(wrong_way == 0);
}

}  // namespace chbench_test
