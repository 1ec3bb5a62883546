#include "round_order.h"

#include <algorithm>
#include <numeric>

namespace chbench::bench {

RoundOrder::RoundOrder(std::span<const int> block_of) : order_(block_of.size()) {
  std::vector<int> keys;  // block keys, first seen first
  for (std::size_t k = 0; k < block_of.size(); ++k) {
    const auto at = std::find(keys.begin(), keys.end(), block_of[k]);
    const std::size_t b = static_cast<std::size_t>(at - keys.begin());
    if (at == keys.end()) {
      keys.push_back(block_of[k]);
      members_.emplace_back();
    }
    members_[b].push_back(k);
  }
  block_order_.resize(members_.size());
  std::iota(block_order_.begin(), block_order_.end(), std::size_t{0});
}

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
