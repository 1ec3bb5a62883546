#include "revisits.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "intervals.h"

namespace chbench::bench {

namespace {

// Where visit v's rounds start among a member's.
std::size_t visit_start(std::span<const unsigned> sizes, unsigned v) {
  return std::accumulate(sizes.begin(), sizes.begin() + v, std::size_t{0});
}

// Each visit's pace_ratio to visit 0 (1 for visit 0 itself).
std::vector<double> visit_paces(std::span<const std::vector<double>> rounds,
                                std::span<const unsigned> sizes) {
  const auto first = visit_rounds_of(rounds, sizes, 0);
  std::vector<double> pace(sizes.size(), 1);
  for (unsigned v = 1; v < sizes.size(); ++v)
    pace[v] = pace_ratio(visit_rounds_of(rounds, sizes, v), first);
  return pace;
}

}  // namespace

std::vector<std::vector<double>> visit_rounds_of(std::span<const std::vector<double>> rounds,
                                                 std::span<const unsigned> sizes, unsigned v) {
  if (v >= sizes.size()) throw std::out_of_range("no such visit");
  const std::size_t total = visit_start(sizes, static_cast<unsigned>(sizes.size()));
  const std::size_t start = visit_start(sizes, v);
  std::vector<std::vector<double>> out(rounds.size());
  for (std::size_t m = 0; m < rounds.size(); ++m)
    if (rounds[m].size() == total)
      out[m].assign(rounds[m].begin() + static_cast<std::ptrdiff_t>(start),
                    rounds[m].begin() + static_cast<std::ptrdiff_t>(start + sizes[v]));
  return out;
}

double pace_ratio(std::span<const std::vector<double>> a, std::span<const std::vector<double>> b) {
  if (a.size() != b.size()) throw std::invalid_argument("the two visits differ in members");
  double logs = 0;
  std::size_t counted = 0;
  for (std::size_t m = 0; m < a.size(); ++m) {
    if (a[m].empty() || b[m].empty()) continue;
    const double x = median(a[m]), y = median(b[m]);
    if (!(x > 0) || !(y > 0)) continue;
    logs += std::log(x / y);
    ++counted;
  }
  return counted == 0 ? 1 : std::exp(logs / static_cast<double>(counted));
}

std::optional<Disturbed> disturbed_visit(std::span<const std::vector<double>> rounds,
                                         std::span<const unsigned> sizes, double margin) {
  if (sizes.size() < 2 || margin <= 0) return std::nullopt;
  const std::vector<double> pace = visit_paces(rounds, sizes);
  const auto slowest =
      static_cast<unsigned>(std::max_element(pace.begin(), pace.end()) - pace.begin());
  const auto fastest =
      static_cast<unsigned>(std::min_element(pace.begin(), pace.end()) - pace.begin());
  const double slower =
      pace_ratio(visit_rounds_of(rounds, sizes, slowest), visit_rounds_of(rounds, sizes, fastest));
  if (slower <= 1 + margin) return std::nullopt;
  return Disturbed{slowest, slower};
}

bool replace_if_faster(std::vector<std::vector<double>>& rounds, std::span<const unsigned> sizes,
                       unsigned v, std::span<const std::vector<double>> fresh) {
  const auto old = visit_rounds_of(rounds, sizes, v);
  if (fresh.size() != old.size()) throw std::invalid_argument("the two visits differ in members");
  for (std::size_t m = 0; m < old.size(); ++m)
    if (!old[m].empty() && fresh[m].size() != sizes[v]) return false;  // a member not re-timed
  if (!(pace_ratio(fresh, old) < 1)) return false;
  const std::size_t start = visit_start(sizes, v);
  for (std::size_t m = 0; m < old.size(); ++m)
    if (!old[m].empty())
      std::copy(fresh[m].begin(), fresh[m].end(),
                rounds[m].begin() + static_cast<std::ptrdiff_t>(start));
  return true;
}

std::vector<unsigned> kept_visits(std::span<const std::vector<double>> rounds,
                                  std::span<const unsigned> sizes, double margin) {
  std::vector<unsigned> all(sizes.size());
  std::iota(all.begin(), all.end(), 0u);
  if (sizes.size() < 2 || margin <= 0) return all;
  const std::vector<double> pace = visit_paces(rounds, sizes);
  const double fastest = *std::min_element(pace.begin(), pace.end());
  std::vector<unsigned> kept;
  std::size_t kept_rounds = 0;
  for (unsigned v = 0; v < sizes.size(); ++v)
    if (pace[v] <= fastest * (1 + margin)) kept.push_back(v), kept_rounds += sizes[v];
  return kept_rounds >= kMinIntervalValues ? kept : all;
}

std::vector<std::size_t> places_of_visits(std::span<const unsigned> sizes,
                                          std::span<const unsigned> kept) {
  std::vector<std::size_t> places;
  for (unsigned v : kept) {
    if (v >= sizes.size()) throw std::out_of_range("no such visit");
    const std::size_t start = visit_start(sizes, v);
    for (std::size_t r = start; r < start + sizes[v]; ++r) places.push_back(r);
  }
  return places;
}

}  // namespace chbench::bench
