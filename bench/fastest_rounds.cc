#include "fastest_rounds.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "intervals.h"

namespace chbench::bench {

namespace {

// The round count of the first member with rounds (0 when none has any).
std::size_t round_count(std::span<const std::vector<double>> rounds) {
  for (const auto& member : rounds)
    if (!member.empty()) return member.size();
  return 0;
}

// Whether member m counts in the paces of rounds of count n: not left out,
// n rounds, and a median above 0.
bool counts(std::span<const std::vector<double>> rounds, std::size_t m, std::size_t n,
            std::span<const std::size_t> leave_out) {
  return n != 0 && rounds[m].size() == n &&
         std::find(leave_out.begin(), leave_out.end(), m) == leave_out.end() &&
         median(rounds[m]) > 0;
}

// How many members count in the paces of rounds of count n.
std::size_t counted_members(std::span<const std::vector<double>> rounds, std::size_t n,
                            std::span<const std::size_t> leave_out) {
  std::size_t count = 0;
  for (std::size_t m = 0; m < rounds.size(); ++m) count += counts(rounds, m, n, leave_out);
  return count;
}

}  // namespace

std::vector<double> round_paces(std::span<const std::vector<double>> rounds,
                                std::span<const std::size_t> leave_out) {
  const std::size_t n = round_count(rounds);
  std::vector<double> logs(n, 0);
  std::vector<std::size_t> counted(n, 0);
  for (std::size_t m = 0; m < rounds.size(); ++m) {
    if (!counts(rounds, m, n, leave_out)) continue;
    const double middle = median(rounds[m]);
    for (std::size_t r = 0; r < n; ++r) {
      if (!(rounds[m][r] > 0)) continue;
      logs[r] += std::log(rounds[m][r] / middle);
      ++counted[r];
    }
  }
  std::vector<double> pace(n, 1);
  for (std::size_t r = 0; r < n; ++r)
    if (counted[r] != 0) pace[r] = std::exp(logs[r] / static_cast<double>(counted[r]));
  return pace;
}

std::vector<std::size_t> fastest_rounds(std::span<const std::vector<double>> rounds, double margin,
                                        std::span<const std::size_t> leave_out) {
  if (margin < 0) throw std::invalid_argument("the margin of the fastest rounds is negative");
  const std::vector<double> pace = round_paces(rounds, leave_out);
  std::vector<std::size_t> order(pace.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (margin == 0 || pace.size() <= kMinIntervalValues ||
      counted_members(rounds, pace.size(), leave_out) < kMinStateMembers)
    return order;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return pace[a] < pace[b]; });
  const double bar = pace[order[1]] * (1 + margin);
  std::size_t keep = kMinIntervalValues;
  while (keep < order.size() && pace[order[keep]] <= bar) ++keep;
  order.resize(keep);
  std::sort(order.begin(), order.end());
  return order;
}

std::vector<double> rounds_at(std::span<const double> rounds, std::span<const std::size_t> kept) {
  std::vector<double> out;
  out.reserve(kept.size());
  for (std::size_t r : kept) {
    if (r >= rounds.size()) throw std::out_of_range("no such round");
    out.push_back(rounds[r]);
  }
  return out;
}

}  // namespace chbench::bench
