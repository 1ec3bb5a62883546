// The order of a group's members within a round (bench/round_order.h): every
// member once, a scheme's members next to each other, the blocks and the
// members within them shuffled anew each round, and a group of one scheme
// shuffled exactly as a plain shuffle does.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "round_order.h"

using chbench::bench::RoundOrder;

TEST_CASE("a round runs every member once, each block's members side by side", "[order]") {
  // Members 0 ... 8 of three schemes, interleaved in the group's own order.
  const std::vector<int> blocks = {7, 3, 7, 5, 3, 7, 5, 3, 3};
  RoundOrder order(blocks);
  CHECK(order.blocks() == 3);
  std::mt19937_64 rng(1);
  for (int round = 0; round < 50; ++round) {
    const auto& o = order.next(rng);
    std::vector<std::size_t> sorted(o.begin(), o.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::size_t> all(blocks.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    REQUIRE(sorted == all);
    // The blocks in the order run: a block never comes back after another.
    std::vector<int> seen;
    for (std::size_t k : o)
      if (seen.empty() || seen.back() != blocks[k]) seen.push_back(blocks[k]);
    REQUIRE(seen.size() == 3);
  }
}

TEST_CASE("rounds shuffle both the blocks and the members within them", "[order]") {
  const std::vector<int> blocks = {0, 0, 0, 1, 1, 1, 2, 2, 2};
  RoundOrder order(blocks);
  std::mt19937_64 rng(2);
  std::set<std::vector<int>> block_orders;
  std::set<std::vector<std::size_t>> within_first;  // block 0's members, as run
  for (int round = 0; round < 60; ++round) {
    const auto& o = order.next(rng);
    std::vector<int> bs;
    std::vector<std::size_t> zero;
    for (std::size_t k : o) {
      if (bs.empty() || bs.back() != blocks[k]) bs.push_back(blocks[k]);
      if (blocks[k] == 0) zero.push_back(k);
    }
    block_orders.insert(bs);
    within_first.insert(zero);
  }
  // 3! orders of the blocks and of block 0's members; 60 rounds see them all
  // (each missing with probability (5/6)^60, about 2e-5, fixed by the seed).
  CHECK(block_orders.size() == 6);
  CHECK(within_first.size() == 6);
}

TEST_CASE("a group of one scheme runs the plain shuffle's orders", "[order]") {
  const std::vector<int> blocks(8, 4);
  RoundOrder order(blocks);
  std::mt19937_64 a(20170422), b(20170422);
  std::vector<std::size_t> plain(8);
  std::iota(plain.begin(), plain.end(), std::size_t{0});
  for (int round = 0; round < 20; ++round) {
    std::shuffle(plain.begin(), plain.end(), b);
    REQUIRE(order.next(a) == plain);
  }
  CHECK(a() == b());  // no draw more or fewer
}

TEST_CASE("a group of one member a block runs the plain shuffle's orders, all of them", "[order]") {
  const std::vector<int> blocks = {9, 2, 5, -1};
  RoundOrder order(blocks);
  CHECK(order.blocks() == 4);
  std::mt19937_64 rng(3), plain_rng(3);
  std::vector<std::size_t> plain = {0, 1, 2, 3};
  std::set<std::vector<std::size_t>> orders;
  for (int round = 0; round < 200; ++round) {
    std::shuffle(plain.begin(), plain.end(), plain_rng);
    const auto& o = order.next(rng);
    REQUIRE(o == plain);
    orders.insert(o);
  }
  CHECK(rng() == plain_rng());
  CHECK(orders.size() == 24);  // every permutation of four
}

TEST_CASE("an empty group has an empty order", "[order]") {
  RoundOrder order(std::vector<int>{});
  std::mt19937_64 rng(4);
  CHECK(order.next(rng).empty());
  CHECK(order.blocks() == 0);
}
