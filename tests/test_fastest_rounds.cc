// The rounds a group's figures keep (bench/fastest_rounds.h): each round's
// pace, the rounds within the margin of the second fastest, at least an
// interval's worth, members enough, and a group whose host switched state
// in some rounds still giving the ratio of its fast state.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "fastest_rounds.h"
#include "intervals.h"

using namespace chbench::bench;  // NOLINT(google-build-using-namespace): a test of one module
using Rounds = std::vector<std::vector<double>>;
using Places = std::vector<std::size_t>;

namespace {

// A group of four members that all ran `member`'s times: its paces are the
// member's times over their median.
Rounds four(const std::vector<double>& member) { return {member, member, member, member}; }

}  // namespace

TEST_CASE("a round's pace is the geometric mean of its members' times over their medians",
          "[fastest]") {
  // Medians 2 and 10. Round 0: 1/2 and 10/10, pace sqrt(0.5); round 1: 2/2
  // and 40/10, pace 2; round 2: 4/2 and 5/10, pace 1.
  const auto pace = round_paces(Rounds{{1, 2, 4}, {10, 40, 5}});
  REQUIRE(pace.size() == 3);
  CHECK(pace[0] == Approx(std::sqrt(0.5)));
  CHECK(pace[1] == Approx(2.0));
  CHECK(pace[2] == Approx(1.0));
  // A member that failed (no rounds) or has another count does not count.
  const auto with_gaps = round_paces(Rounds{{}, {1, 2, 4}, {7, 7}});
  REQUIRE(with_gaps.size() == 3);
  CHECK(with_gaps[0] == Approx(0.5));
  CHECK(with_gaps[2] == Approx(2.0));
  CHECK(round_paces(Rounds{{}, {}}).empty());
}

TEST_CASE("the rounds kept are those within the margin of the second fastest", "[fastest]") {
  // Four alike: the paces are one member's times over its median, so the bar is its
  // second fastest time (1.00) plus 3 %, 1.03. Within it: 0.95, 1.00 twice,
  // 1.01 twice, 1.02 twice and 1.029 twice; not 1.04 nor the slow rounds.
  const std::vector<double> member{1.00, 2.0,  0.95, 1.02,  1.04, 1.029, 2.1,
                                   1.01, 1.00, 1.02, 1.029, 2.2,  1.01,  1.5};
  CHECK(fastest_rounds(four(member), 0.03) == Places{0, 2, 3, 5, 7, 8, 9, 10, 12});
  // A margin of 0 keeps every round; so do six rounds or fewer, and fewer
  // than two members counting (a failed member or one left out does not).
  CHECK(fastest_rounds(four(member), 0).size() == member.size());
  CHECK(fastest_rounds(four({5, 1, 9, 2, 8, 3}), 0.03) == Places{0, 1, 2, 3, 4, 5});
  CHECK(fastest_rounds(Rounds{member, {}}, 0.03).size() == member.size());
  CHECK(fastest_rounds(four(member), 0.03, Places{0, 1, 2}).size() == member.size());
  CHECK(fastest_rounds(four(member), 0.03, Places{0, 1}).size() == 9);
  CHECK_THROWS_AS(fastest_rounds(four(member), -0.1), std::invalid_argument);
  CHECK(fastest_rounds(Rounds{{}}, 0.03).empty());
}

TEST_CASE("fewer rounds within the margin than an interval needs: the six fastest", "[fastest]") {
  // Paces in order 1, 2, 3, ...: only rounds 0 and 1 are near the second
  // fastest; the six fastest are kept, in round order.
  const std::vector<double> member{9, 1, 8, 2, 7, 3, 6, 4, 5, 10};
  CHECK(fastest_rounds(four(member), 0.03) == Places{1, 3, 5, 6, 7, 8});
  // Ties keep round order: two fast rounds, then the first four of eight
  // equal slow ones.
  CHECK(fastest_rounds(four({1, 1, 5, 5, 5, 5, 5, 5, 5, 5}), 0.03) == Places{0, 1, 2, 3, 4, 5});
  // Every round within the margin: all kept.
  CHECK(fastest_rounds(four(std::vector<double>(8, 2.0)), 0.03).size() == 8);
}

TEST_CASE("a state that slows the group in most rounds leaves the fast state's ratio",
          "[fastest]") {
  // 30 rounds; in 22 of them (every round but those in `fast`) the host
  // slows the scalar member by 1.65, the SIMD one by 1.14 and two more
  // scalar kernels by 1.4 and 1.5, as on the Zen 5 VM. The fast state's ratio
  // is 0.33 / 3.5 = 0.0943; all rounds give the slow state's, 0.376 / 5.78 =
  // 0.065.
  const std::vector<bool> fast{true, false, false, true,  false, false, false, true,  false, false,
                               true, false, false, false, true,  false, false, true,  false, false,
                               true, false, false, true,  false, false, false, false, false, false};
  std::vector<double> scalar, simd, other, third;
  for (std::size_t r = 0; r < fast.size(); ++r) {
    const double wobble = 1 + 0.002 * static_cast<double>(r % 7);
    scalar.push_back((fast[r] ? 3.5 : 3.5 * 1.65) * wobble);
    simd.push_back((fast[r] ? 0.33 : 0.33 * 1.14) * wobble);
    other.push_back((fast[r] ? 1.3 : 1.3 * 1.4) * wobble);
    third.push_back((fast[r] ? 3.0 : 3.0 * 1.5) * wobble);
  }
  const Rounds group{scalar, simd, other, third};
  CHECK(median(paired_ratios(simd, scalar)) == Approx(0.33 * 1.14 / (3.5 * 1.65)));
  const Places kept = fastest_rounds(group, 0.03);
  CHECK(kept == Places{0, 3, 7, 10, 14, 17, 20, 23});
  CHECK(median(paired_ratios(rounds_at(simd, kept), rounds_at(scalar, kept))) ==
        Approx(0.33 / 3.5));
  // The ratio of the first two, by the pace of the other two alone: the same
  // rounds, the same ratio.
  const Places apart = fastest_rounds(group, 0.03, Places{0, 1});
  CHECK(apart == kept);
  CHECK(median(paired_ratios(rounds_at(simd, apart), rounds_at(scalar, apart))) ==
        Approx(0.33 / 3.5));
}

TEST_CASE("a member's own noise does not choose its rounds", "[fastest]") {
  // Member 0 ran fast in rounds 0 to 9 by its own noise (0.8 against 1.2);
  // members 1 and 2 ran alike in every round but rounds 20 to 29, a slow
  // state of the host (1.3). Counted with the others, member 0's fast rounds
  // pull the bar to them; left out, the host's fast rounds 0 to 19 stay.
  std::vector<double> noisy, steady;
  for (std::size_t r = 0; r < 30; ++r) {
    noisy.push_back(r < 10 ? 0.8 : 1.2);
    steady.push_back(r < 20 ? 1.0 + 0.001 * static_cast<double>(r % 3) : 1.3);
  }
  const Rounds group{noisy, steady, steady};
  CHECK(fastest_rounds(group, 0.03).size() == 10);
  Places host(20);
  for (std::size_t r = 0; r < 20; ++r) host[r] = r;
  CHECK(fastest_rounds(group, 0.03, Places{0}) == host);
  // Member 0's median over the rounds chosen without it: 0.8 in half of
  // them and 1.2 in the other half, 1.0, not the 0.8 its own noise picked.
  CHECK(median(rounds_at(noisy, fastest_rounds(group, 0.03, Places{0}))) == Approx(1.0));
}

TEST_CASE("rounds_at picks the places kept, in order", "[fastest]") {
  CHECK(rounds_at(std::vector<double>{4, 5, 6, 7}, Places{3, 0}) == std::vector<double>{7, 4});
  CHECK(rounds_at(std::vector<double>{4, 5}, Places{}).empty());
  CHECK_THROWS_AS(rounds_at(std::vector<double>{4, 5}, Places{2}), std::out_of_range);
}
