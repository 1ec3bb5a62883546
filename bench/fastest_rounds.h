// The rounds a group's figures keep: those the host ran in its fastest state.
// On a shared VM the host switches between states within seconds, and a
// state can slow a group's members unequally while it lasts. On the Zen 5 VM
// of this project (2026-12-07), in one group of family `dense`, 24 of 30
// rounds ran `flip/scalar` at 5.5 to 6.0 ns a key and `flip/simd` at 0.37 to
// 0.40, the other 6 at 3.5 to 3.6 and 0.33: the per-round ratio is 0.065 in
// the one state and 0.093 in the other, and the median of the rounds lands on
// whichever state held the majority, which the next run need not share.
// Interference only adds time, so the rounds in which the whole group ran
// fastest are the nearest to the machine alone: a round's pace is the
// geometric mean over the members of its time ÷ the member's median, and the
// figures keep the rounds whose pace is within a margin of the fastest
// (the second fastest round, so that one lucky round does not set the bar),
// at least as many as an interval needs. A round's pace would also carry
// the noise of the members the figure is of: keeping the rounds in which the
// pace was fast would keep those in which a noisy member happened to run
// fast, and favour it (docs/measurement.md). So a figure's rounds are chosen
// by the pace of the group's other members alone: a member's median by the
// others', a ratio of two members by the rest's. These functions decide;
// rounds.cc applies them after the visits kept (revisits.h), and
// scripts/chbench_plots/rounds.py does the same from the bench JSON.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace chbench::bench {

// The fewest members a round's pace needs: with fewer counting, every
// round is kept.
inline constexpr std::size_t kMinStateMembers = 2;

// Each round's pace (rounds[m][r]: member m's ns/key in round r): the
// geometric mean, over the members that count, of rounds[m][r] ÷
// median(rounds[m]). A member counts when it is not in `leave_out` (indices
// into rounds), has as many rounds as the first member with any, and a
// median above 0; its rounds that are not above 0 are left out of that
// round's mean, and a round no member counts in has pace 1. Empty when no
// member has rounds.
std::vector<double> round_paces(std::span<const std::vector<double>> rounds,
                                std::span<const std::size_t> leave_out = {});

// The rounds (0-based, ascending) whose pace (round_paces, `leave_out` not
// counting) is at most (1 + margin) times the second fastest round's, or the
// kMinIntervalValues fastest-paced rounds when fewer are (ties by round
// order); every round when the margin is 0, there are at most
// kMinIntervalValues rounds or fewer than kMinStateMembers members count.
// Empty when no member has rounds. Throws std::invalid_argument for a
// negative margin.
std::vector<std::size_t> fastest_rounds(std::span<const std::vector<double>> rounds, double margin,
                                        std::span<const std::size_t> leave_out = {});

// The values of `rounds` at the places `kept` (0-based), in that order.
// Throws std::out_of_range for a place past the end.
std::vector<double> rounds_at(std::span<const double> rounds, std::span<const std::size_t> kept);

}  // namespace chbench::bench
