// The order a comparison group's members run in, round by round: blocked
// randomization. The members a ratio pairs (a kernel and its reference: its
// scalar rival or its scheme's baseline, rounds.h: reference_of) are of one
// scheme, so a round runs the group's schemes as blocks, the blocks in a
// fresh random order and each block's members in a fresh random order within
// it, next to each other. A disturbance then has to change within a block's
// few slices to slow one member of a ratio and not the other, where a fully
// shuffled round of the 40 kernels of a family `nodes` point put the two
// about a third of a 0.3 to 0.5 s round apart (docs/measurement.md). A group
// of one scheme is one block: its order is the plain shuffle (Abedi and
// Brecht, ICPE 2017, section 4), the same permutations from the same
// generator as before blocks existed.
#pragma once

#include <cstddef>
#include <random>
#include <span>
#include <vector>

namespace chbench::bench {

// chbench_timing's "order" of a run whose rounds run this way (older runs
// have none: every member of a round shuffled alike).
inline constexpr const char* kBlockedOrder = "schemes as blocks";

class RoundOrder {
 public:
  // block_of[k]: member k's block (any key; the members of a scheme share
  // one). Throws std::bad_alloc only.
  explicit RoundOrder(std::span<const int> block_of);

  // The next round's order: every member index 0 ... block_of.size() - 1
  // once, each block's members contiguous. Each round shuffles the block
  // order and then every block's members, from the previous round's orders
  // (std::shuffle, so the permutations are those of libstdc++'s shuffle).
  // Never throws.
  const std::vector<std::size_t>& next(std::mt19937_64& rng) noexcept;

  std::size_t blocks() const noexcept { return members_.size(); }

 private:
  std::vector<std::vector<std::size_t>> members_;  // per block, first seen first
  std::vector<std::size_t> block_order_;
  std::vector<std::size_t> order_;
};

}  // namespace chbench::bench
