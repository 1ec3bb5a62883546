// The statistics of the bench's interleaved rounds (bench/intervals.h):
// medians, the order-statistic interval of a median against hand-computed
// binomial sums, and paired per-round ratios.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

#include "intervals.h"

using chbench::bench::median;
using chbench::bench::median_interval;
using chbench::bench::median_interval_rank;
using chbench::bench::paired_ratios;

TEST_CASE("the median of odd and even counts, in any order", "[intervals]") {
  CHECK(median(std::vector<double>{3, 1, 2}) == 2);
  CHECK(median(std::vector<double>{4, 1, 3, 2}) == 2.5);
  CHECK(median(std::vector<double>{7}) == 7);
  CHECK_THROWS_AS(median(std::vector<double>{}), std::invalid_argument);
}

TEST_CASE("the interval's rank is the binomial tail's, by hand", "[intervals]") {
  // n = 6: P(X <= 0) = 1/64 = 0.016 <= 0.025, P(X <= 1) = 7/64 = 0.11: rank 1.
  CHECK(median_interval_rank(6) == 1);
  // n = 5: P(X <= 0) = 1/32 = 0.031 > 0.025: no 95 % interval.
  CHECK(median_interval_rank(5) == 0);
  CHECK(median_interval_rank(1) == 0);
  CHECK(median_interval_rank(0) == 0);
  // n = 10: P(X <= 1) = 11/1024 = 0.0107, P(X <= 2) = 56/1024 = 0.0547: rank 2.
  CHECK(median_interval_rank(10) == 2);
  // n = 20: P(X <= 5) = 21700/2^20 = 0.0207, P(X <= 6) = 60460/2^20 = 0.0577: rank 6.
  CHECK(median_interval_rank(20) == 6);
  // n = 30: P(X <= 9) = 0.0214, P(X <= 10) = 0.0494: rank 10.
  CHECK(median_interval_rank(30) == 10);
  // A lower confidence narrows it: at 90 % (tails of 0.05) P(X <= 2) = 0.0547
  // is over the tail, rank 2 still; at 80 % (0.1) it is under, and P(X <= 3) =
  // 0.172 is not: rank 3.
  CHECK(median_interval_rank(10, 0.90) == 2);
  CHECK(median_interval_rank(10, 0.80) == 3);
  // Large n does not overflow: the rank stays near n/2 - 0.98 sqrt(n).
  const std::size_t k = median_interval_rank(1000);
  CHECK(k >= 468);
  CHECK(k <= 470);
}

TEST_CASE("the interval of the median is the order statistics at the rank", "[intervals]") {
  const std::vector<double> ten = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  const auto i10 = median_interval(ten);
  REQUIRE(i10);
  CHECK(i10->lo == 2);
  CHECK(i10->hi == 9);
  std::vector<double> twenty;
  for (int x = 1; x <= 20; ++x) twenty.push_back(x * 0.5);
  const auto i20 = median_interval(twenty);
  REQUIRE(i20);
  CHECK(i20->lo == 3.0);  // x_(6)
  CHECK(i20->hi == 7.5);  // x_(15)
  CHECK_FALSE(median_interval(std::vector<double>{1, 2, 3, 4, 5}));
  const auto six = median_interval(std::vector<double>{4, 6, 1, 5, 2, 3});
  REQUIRE(six);
  CHECK(six->lo == 1);
  CHECK(six->hi == 6);
}

TEST_CASE("paired ratios keep their true value when one member is slowed every third round",
          "[intervals]") {
  // Member b takes 2 ns a key, a 1 ns; in every third round the host slows
  // both by 3x (a disturbance longer than a round): the per-round ratios
  // stay 2, while the ratio of the means of unpaired rounds would not.
  std::vector<double> a, b;
  for (int r = 0; r < 30; ++r) {
    const double slow = r % 3 == 0 ? 3.0 : 1.0;
    a.push_back(1.0 * slow);
    b.push_back(2.0 * slow);
  }
  const auto ratios = paired_ratios(b, a);
  CHECK(median(ratios) == Approx(2.0));
  const auto interval = median_interval(ratios);
  REQUIRE(interval);
  CHECK(interval->lo == Approx(2.0));
  CHECK(interval->hi == Approx(2.0));
  // Slowed in every third round alone (b only): the median ratio is still 2.
  for (int r = 0; r < 30; r += 3) {
    a[r] = 1.0;
    b[r] = 6.0;  // b slowed 3x, a not
  }
  const auto lopsided = paired_ratios(b, a);
  CHECK(median(lopsided) == Approx(2.0));
  const auto lop = median_interval(lopsided);
  REQUIRE(lop);
  CHECK(lop->lo == Approx(2.0));  // x_(10) of twenty 2s and ten 6s
  CHECK(lop->hi == Approx(6.0));  // x_(21): the interval is honest about the slow third
  CHECK_THROWS_AS(paired_ratios(a, std::vector<double>(3, 1.0)), std::invalid_argument);
}
