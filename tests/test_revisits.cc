// The choice of the visits the bench times again (bench/revisits.h): a
// group's rounds split by visit, the pace of one visit against another, the
// disturbed visit found, its rounds replaced only by faster ones, and the
// revisits' time budget.
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "fastest_rounds.h"
#include "intervals.h"
#include "revisits.h"

using namespace chbench::bench;  // NOLINT(google-build-using-namespace): a test of one module
using Rounds = std::vector<std::vector<double>>;

namespace {

// A member's rounds: `first` in each of visit 1's rounds, `second` in each of
// visit 2's, with a small wobble so that no two rounds are equal.
std::vector<double> two_visits(double first, double second, unsigned each) {
  std::vector<double> out;
  for (unsigned k = 0; k < 2 * each; ++k)
    out.push_back((k < each ? first : second) * (1 + 0.001 * static_cast<double>(k % 5)));
  return out;
}

}  // namespace

TEST_CASE("a visit's rounds are its share of each member's, in order", "[revisits]") {
  const Rounds rounds{{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}, {1, 2}};
  const std::vector<unsigned> sizes{2, 3};
  CHECK(visit_rounds_of(rounds, sizes, 0) == Rounds{{1, 2}, {6, 7}, {}});
  CHECK(visit_rounds_of(rounds, sizes, 1) == Rounds{{3, 4, 5}, {8, 9, 10}, {}});
  CHECK_THROWS_AS(visit_rounds_of(rounds, sizes, 2), std::out_of_range);
}

TEST_CASE("the pace of two visits is the geometric mean of the members' ratios", "[revisits]") {
  // Medians 2 and 3 against 1 and 3: sqrt(2 x 1).
  CHECK(pace_ratio(Rounds{{2, 2, 2}, {3, 3, 3}}, Rounds{{1, 1, 1}, {3, 3, 3}}) ==
        Approx(std::sqrt(2.0)));
  // A member without rounds on one side does not count; with none in common, 1.
  CHECK(pace_ratio(Rounds{{4, 4}, {}}, Rounds{{1, 1}, {2, 2}}) == Approx(4));
  CHECK(pace_ratio(Rounds{{}, {}}, Rounds{{1}, {2}}) == 1);
  CHECK_THROWS_AS(pace_ratio(Rounds{{1}}, Rounds{{1}, {1}}), std::invalid_argument);
}

TEST_CASE("the visit a state of the host slowed is found past the margin", "[revisits]") {
  const std::vector<unsigned> sizes{15, 15};
  // The second visit slows one member by 60 %, another by 20 %, the third not:
  // the visit is (1.6 x 1.2 x 1)^(1/3) = 1.243 times as slow.
  const Rounds rounds{two_visits(4, 6.4, 15), two_visits(10, 12, 15), two_visits(7, 7, 15)};
  const auto d = disturbed_visit(rounds, sizes, 0.10);
  REQUIRE(d);
  CHECK(d->visit == 1);
  CHECK(d->slower == Approx(std::cbrt(1.6 * 1.2)).epsilon(0.01));
  CHECK_FALSE(disturbed_visit(rounds, sizes, 0.30));
  CHECK_FALSE(disturbed_visit(rounds, sizes, 0));                         // margin 0: never
  CHECK_FALSE(disturbed_visit(rounds, std::vector<unsigned>{30}, 0.10));  // one visit
  // The first visit slowed instead: visit 1 (0-based 0).
  const Rounds early{two_visits(6.4, 4, 15), two_visits(12, 10, 15), two_visits(7, 7, 15)};
  REQUIRE(disturbed_visit(early, sizes, 0.10));
  CHECK(disturbed_visit(early, sizes, 0.10)->visit == 0);
  // 3 % is wobble, not a state.
  const Rounds calm{two_visits(4, 4.12, 15), two_visits(10, 10.3, 15), two_visits(7, 7.2, 15)};
  CHECK_FALSE(disturbed_visit(calm, sizes, 0.10));
}

TEST_CASE("faster new rounds take the disturbed visit's place and restore the true ratio",
          "[revisits]") {
  const std::vector<unsigned> sizes{15, 15};
  // True ratio of member 0 to member 1: 4 / 10 = 0.4. The second visit slowed
  // member 0 by 60 % and member 1 by 20 %: its rounds' ratio is 0.533, and
  // the median of all thirty per-round ratios lands on that visit's side.
  Rounds rounds{two_visits(4, 6.4, 15), two_visits(10, 12, 15)};
  const double before = median(paired_ratios(rounds[0], rounds[1]));
  CHECK(before > 0.45);
  // Slower new rounds change nothing.
  const Rounds slower{std::vector<double>(15, 7.0), std::vector<double>(15, 13.0)};
  CHECK_FALSE(replace_if_faster(rounds, sizes, 1, slower));
  CHECK(rounds[0][20] == Approx(6.4 * 1.0));
  // A member not timed again: nothing is replaced.
  const Rounds partial{std::vector<double>(15, 4.0), {}};
  CHECK_FALSE(replace_if_faster(rounds, sizes, 1, partial));
  // Rounds of the machine alone replace the visit.
  const Rounds calm{std::vector<double>(15, 4.02), std::vector<double>(15, 10.0)};
  REQUIRE(replace_if_faster(rounds, sizes, 1, calm));
  CHECK(rounds[0].size() == 30);
  CHECK(rounds[0][15] == 4.02);
  CHECK(rounds[1][29] == 10.0);
  CHECK(median(paired_ratios(rounds[0], rounds[1])) == Approx(0.4).epsilon(0.01));
}

TEST_CASE("a visit still slower past the margin is left out of the figures", "[revisits]") {
  const std::vector<unsigned> sizes{15, 15};
  const Rounds slowed{two_visits(4, 6.4, 15), two_visits(10, 12, 15)};
  CHECK(kept_visits(slowed, sizes, 0.10) == std::vector<unsigned>{0});
  CHECK(kept_visits(slowed, sizes, 0) == std::vector<unsigned>{0, 1});  // margin 0: all
  const Rounds calm{two_visits(4, 4.1, 15), two_visits(10, 10.2, 15)};
  CHECK(kept_visits(calm, sizes, 0.10) == std::vector<unsigned>{0, 1});
  // The kept rounds give the true ratio, 0.4, where all of them gave 0.467.
  const std::vector<unsigned> first{0};
  const auto a = rounds_at(slowed[0], places_of_visits(sizes, first));
  const auto b = rounds_at(slowed[1], places_of_visits(sizes, first));
  CHECK(a.size() == 15);
  CHECK(median(paired_ratios(a, b)) == Approx(0.4).epsilon(0.01));
  // Five rounds kept would leave no interval: every visit stays.
  const Rounds short_group{two_visits(4, 6.4, 5), two_visits(10, 12, 5)};
  CHECK(kept_visits(short_group, std::vector<unsigned>{5, 5}, 0.10) == std::vector<unsigned>{0, 1});
  CHECK(places_of_visits(std::vector<unsigned>{2, 3}, std::vector<unsigned>{1}) ==
        std::vector<std::size_t>{2, 3, 4});
  CHECK(places_of_visits(std::vector<unsigned>{2, 3}, std::vector<unsigned>{0, 1}) ==
        std::vector<std::size_t>{0, 1, 2, 3, 4});
  CHECK_THROWS_AS(places_of_visits(std::vector<unsigned>{2, 3}, std::vector<unsigned>{2}),
                  std::out_of_range);
}

TEST_CASE("revisits stop once they have taken their share of the visits' time", "[revisits]") {
  // After 235 s of visits the budget is 8 % of them, 18.8 s.
  CHECK(revisit_may_start(0, 100, 235));  // the first always runs
  CHECK(revisit_may_start(5, 18.7, 235));
  CHECK_FALSE(revisit_may_start(5, 18.9, 235));
  CHECK_FALSE(revisit_may_start(1, 0.1, 0));  // no visits: no time for a second
}
