#include "intervals.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace chbench::bench {

double median(std::span<const double> values) {
  if (values.empty()) throw std::invalid_argument("the median of no values");
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::size_t median_interval_rank(std::size_t n, double confidence) {
  const double tail = (1 - confidence) / 2;
  // P(Binomial(n, 1/2) <= j), summed term by term in logarithms (n! would
  // overflow a double from n = 171 on).
  const double log_half_n = static_cast<double>(n) * std::log(0.5);
  double cdf = 0;
  std::size_t k = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const double log_choose =
        std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0);
    cdf += std::exp(log_choose + log_half_n);
    if (cdf > tail) break;
    k = j + 1;  // P(X <= k - 1) <= tail
  }
  return k;
}

std::optional<Interval> median_interval(std::span<const double> values, double confidence) {
  const std::size_t k = median_interval_rank(values.size(), confidence);
  if (k == 0) return std::nullopt;
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  return Interval{v[k - 1], v[v.size() - k]};
}

std::vector<double> paired_ratios(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size()) throw std::invalid_argument("paired ratios of unequal round counts");
  std::vector<double> out(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) out[k] = a[k] / b[k];
  return out;
}

}  // namespace chbench::bench
