#include "round_order.h"

#include <algorithm>

namespace chbench::bench {

const std::vector<std::size_t>& RoundOrder::next(std::mt19937_64& rng) noexcept {
  std::shuffle(block_order_.begin(), block_order_.end(), rng);
  std::size_t at = 0;
  for (std::size_t b : block_order_) {
    std::shuffle(members_[b].begin(), members_[b].end(), rng);
    at = static_cast<std::size_t>(
        std::copy(members_[b].begin(), members_[b].end(), order_.begin() + at) - order_.begin());
  }
  return order_;
}

}  // namespace chbench::bench
