// The order a comparison group's members run in, round by round: blocked
// randomization (the randomized complete block design: Montgomery, "Design
// and Analysis of Experiments", chapter 4). The members a ratio of rounds.h
// pairs (a kernel and its reference, its scalar rival or its scheme's
// baseline: reference_of) are of one scheme at one point, a block; a round
// runs the group's blocks in a fresh random order and each block's members
// side by side, in a fresh random order of their own. A disturbance then has
// to change within a block's few slices to slow one member of such a ratio
// and not the other, where a fully shuffled round of the 40 kernels of a
// family `nodes` point put the two about a third of a 0.3 to 0.5 s round
// apart (docs/measurement.md). Ratios across blocks (two schemes, a kernel
// over a floor) are as far apart as in a plain shuffle. With one block, or
// one member a block, a round is the plain shuffle (Abedi and Brecht, ICPE
// 2017, section 4) and draws exactly what it drew.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>
#include <vector>

namespace chbench::bench {

// chbench_timing's "order" of a run whose rounds run this way (older runs
// have none: every member of a round shuffled alike).
inline constexpr const char* kBlockedOrder = "schemes as blocks";

class RoundOrder {
 public:
  // block_of[k]: member k's block (any equality-comparable key, equal for
  // the members of one block). Throws std::bad_alloc only.
  template <class Key>
  explicit RoundOrder(const std::vector<Key>& block_of) : order_(block_of.size()) {
    std::vector<Key> keys;  // first seen first
    for (std::size_t k = 0; k < block_of.size(); ++k) {
      const auto b =
          static_cast<std::size_t>(std::find(keys.begin(), keys.end(), block_of[k]) - keys.begin());
      if (b == keys.size()) {
        keys.push_back(block_of[k]);
        members_.emplace_back();
      }
      members_[b].push_back(k);
    }
    block_order_.resize(members_.size());
    std::iota(block_order_.begin(), block_order_.end(), std::size_t{0});
  }

  // The next round's order: every member index 0 ... block_of.size() - 1
  // once, each block's members contiguous. Each round shuffles the block
  // order and then every block's members, from the previous round's orders
  // (the standard library's std::shuffle). Never throws.
  const std::vector<std::size_t>& next(std::mt19937_64& rng) noexcept;

  // The number of distinct blocks.
  std::size_t blocks() const noexcept { return members_.size(); }

 private:
  std::vector<std::vector<std::size_t>> members_;  // per block, first seen first
  std::vector<std::size_t> block_order_;
  std::vector<std::size_t> order_;
};

}  // namespace chbench::bench
