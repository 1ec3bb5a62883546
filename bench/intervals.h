// The statistics of the interleaved rounds (rounds.h): the median of a
// member's per-round ns/key, the median of its per-round ratios to its
// group's reference, and distribution-free 95 % confidence intervals of both
// from order statistics. The scripts compute the same interval
// (scripts/chbench_plots/intervals.py) for the pairs a goal names.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace chbench::bench {

// The confidence of every interval the bench reports.
inline constexpr double kConfidence = 0.95;

// Fewest values for which a 95 % interval of the median exists: with n
// values the widest interval [min, max] covers the median with probability
// 1 - 2 / 2^n, at least 0.95 from n = 6 on.
inline constexpr std::size_t kMinIntervalValues = 6;

struct Interval {
  double lo = 0, hi = 0;
};

// The median of `values` (the mean of the middle two for an even count).
// Throws std::invalid_argument for no values.
double median(std::span<const double> values);

// The 1-based rank k of the interval's lower end among n sorted values: the
// largest k with P(Binomial(n, 1/2) <= k - 1) <= (1 - confidence) / 2; the
// interval is [x_(k), x_(n+1-k)] (Conover, Practical Nonparametric
// Statistics, 3rd ed., section 3.2: the confidence interval for a quantile).
// 0 when n < kMinIntervalValues (no interval at that confidence).
std::size_t median_interval_rank(std::size_t n, double confidence = kConfidence);

// The interval of the median of `values` at `confidence`, from order
// statistics (median_interval_rank), or none for fewer than
// kMinIntervalValues values.
std::optional<Interval> median_interval(std::span<const double> values,
                                        double confidence = kConfidence);

// a[k] / b[k] for every round k. Throws std::invalid_argument when the two
// differ in length.
std::vector<double> paired_ratios(std::span<const double> a, std::span<const double> b);

}  // namespace chbench::bench
