// Visits a state of the host slowed. A group's rounds are shared between
// visits, passes of the whole run minutes apart (TimeModel::visits). On a
// shared VM a state of the host can last a minute or more and slow the
// members of a group unequally while it lasts: on the Zen 5 VM of this
// project, in one quick sweep, `ring/branchless` over 10 tokens took 5.8 ns
// a key in the first visit and 3.7 in the second while `ring/lower_bound`
// took 15.5 and 12.6, so the median of the per-round ratios landed between
// the two states, wherever the split of the rounds put it. Interference only
// adds time, so the faster visit is the nearer to the machine alone: a visit
// that ran more than a margin slower than the group's fastest is timed again
// at the end of the run, and the new rounds take its place when they are
// faster. A visit still that much slower after that (the revisits are
// capped) is left out of the group's figures: its medians, intervals and
// ratios come from the other visits' rounds. These functions decide;
// rounds.cc re-times and summarises.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace chbench::bench {

// The most groups a run times again, as a share of its groups, rounded up
// (the most disturbed first): it bounds the time revisits add to a run.
inline constexpr double kRevisitShare = 0.25;

// The time the revisits may take, as a share of the visits' own: the first
// revisit always runs, no later one starts past it. On a busy host (Zen 5
// VM, 2026-12-07) a quick sweep found 24 to 27 visits to time again, which
// took 33 s after 3 min 55 s of visits and put run.sh past 5 minutes.
inline constexpr double kRevisitBudget = 0.08;

// Whether the next revisit may start, after `timed` of them took `spent_s`
// seconds following `visits_s` seconds of visits: the first always, a later
// one while spent_s is at most kRevisitBudget x visits_s.
constexpr bool revisit_may_start(std::size_t timed, double spent_s, double visits_s) noexcept {
  return timed == 0 || spent_s <= kRevisitBudget * visits_s;
}

// Each member's rounds of visit `v`: rounds[m] holds member m's rounds in
// visit order, visit u having sizes[u] of them. A member whose rounds are
// not sizes' sum in number (one not timed) gets no rounds. Throws
// std::out_of_range when v is not below sizes.size().
std::vector<std::vector<double>> visit_rounds_of(std::span<const std::vector<double>> rounds,
                                                 std::span<const unsigned> sizes, unsigned v);

// How much slower the rounds `a` ran than the rounds `b` of the same
// members: the geometric mean, over the members with rounds in both, of
// median(a[m]) ÷ median(b[m]); 1 when no member has rounds in both. Throws
// std::invalid_argument when a and b differ in size.
double pace_ratio(std::span<const std::vector<double>> a, std::span<const std::vector<double>> b);

// The visit to time again: the group's slowest visit when its pace_ratio to
// the fastest is above 1 + margin, with that ratio; none with fewer than two
// visits or a margin of 0.
struct Disturbed {
  unsigned visit = 0;
  double slower = 1;  // its pace_ratio to the fastest visit
};
std::optional<Disturbed> disturbed_visit(std::span<const std::vector<double>> rounds,
                                         std::span<const unsigned> sizes, double margin);

// Replaces visit v's rounds of every member with `fresh` (fresh[m] the new
// rounds of member m, as many as sizes[v]) when pace_ratio(fresh, old) is
// below 1; returns whether it did. Members without rounds are left alone.
bool replace_if_faster(std::vector<std::vector<double>>& rounds, std::span<const unsigned> sizes,
                       unsigned v, std::span<const std::vector<double>> fresh);

// The visits whose rounds a group's figures use, 0-based and ascending:
// every visit whose pace_ratio to the fastest is at most 1 + margin; every
// visit with one visit or a margin of 0, or when those would hold fewer
// rounds than an interval needs (kMinIntervalValues).
std::vector<unsigned> kept_visits(std::span<const std::vector<double>> rounds,
                                  std::span<const unsigned> sizes, double margin);

// The places (0-based, ascending) of the rounds of the visits `kept`
// (0-based, ascending) among a member's rounds in visit order, visit u
// having sizes[u] of them. Throws std::out_of_range for a visit not below
// sizes.size().
std::vector<std::size_t> places_of_visits(std::span<const unsigned> sizes,
                                          std::span<const unsigned> kept);

}  // namespace chbench::bench
