"""The intervals of medians and ratios (chbench_plots/intervals.py), checked
on values whose order statistics are known by hand."""

from __future__ import annotations

import unittest

import support  # noqa: F401  (puts scripts/ on sys.path)
from chbench_plots import intervals
from chbench_plots.intervals import Estimate


class MedianInterval(unittest.TestCase):
    def test_ten_values(self):
        # P(Bin(10, 1/2) <= 1) = 11/1024 <= 0.025 < P(<= 2) = 56/1024: k = 2.
        self.assertEqual(intervals.lower_rank(10), 2)
        self.assertEqual(intervals.median_interval([7, 3, 10, 1, 5, 2, 9, 4, 8, 6]), (2, 9))

    def test_twenty_values(self):
        # P(Bin(20, 1/2) <= 5) = 0.0207, P(<= 6) = 0.0577: k = 6, x_6 and x_15.
        self.assertEqual(intervals.lower_rank(20), 6)
        values = [10 * i for i in range(1, 21)]
        self.assertEqual(intervals.median_interval(values), (60, 150))

    def test_six_values_span_them_all(self):
        self.assertEqual(intervals.lower_rank(6), 1)
        self.assertEqual(intervals.median_interval([4, 1, 6, 2, 5, 3]), (1, 6))

    def test_fewer_than_six_have_none(self):
        self.assertIsNone(intervals.lower_rank(5))
        self.assertIsNone(intervals.median_interval([1, 2, 3, 4, 5]))
        self.assertIsNone(intervals.median_interval([1, 2, 3, 4, 5, None, float("nan")]))
        estimate = intervals.median_estimate([1, 2, 3])
        self.assertEqual((estimate.value, estimate.lo, estimate.hi), (2, None, None))


class Ratios(unittest.TestCase):
    def test_paired_ratio_on_constructed_rounds(self):
        # Per-round ratios 1.9, 2.0, ..., 2.8 (rounds pair even where b drifts).
        b = [10.0, 20.0, 5.0, 40.0, 10.0, 8.0, 16.0, 10.0, 4.0, 50.0]
        factors = [1.9, 2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7, 2.8]
        a = [x * f for x, f in zip(b, factors)]
        got = intervals.paired_ratio(a, b)
        self.assertEqual(got.basis, "paired")
        self.assertAlmostEqual(got.value, 2.35)
        self.assertAlmostEqual(got.lo, 2.0)
        self.assertAlmostEqual(got.hi, 2.7)

    def test_paired_ratio_skips_rounds_either_lacks(self):
        got = intervals.paired_ratio([2.0, None, 6.0], [1.0, 1.0, 0.0])
        self.assertEqual((got.value, got.lo), (2.0, None))

    def test_unpaired_ratio_is_seeded(self):
        a = [20.0 + i for i in range(10)]
        b = [10.0 + 0.5 * i for i in range(10)]
        first, second = intervals.unpaired_ratio(a, b), intervals.unpaired_ratio(a, b)
        self.assertEqual(first, second)
        self.assertAlmostEqual(first.value, 24.5 / 12.25)
        self.assertLess(first.lo, first.value)
        self.assertGreater(first.hi, first.value)
        self.assertEqual(intervals.unpaired_ratio(a[:5], b).lo, None)


class Verdicts(unittest.TestCase):
    def test_at_least(self):
        judge = intervals.judge
        self.assertEqual(judge(Estimate(2.4, 2.33, 2.5, "paired"), 2.0, True), intervals.MET)
        self.assertEqual(judge(Estimate(1.8, 1.7, 1.95, "paired"), 2.0, True), intervals.NOT_MET)
        self.assertEqual(judge(Estimate(2.1, 1.9, 2.3, "paired"), 2.0, True),
                         intervals.INCONCLUSIVE)

    def test_run_to_run_margin(self):
        # Two sweeps' intervals of one speed-up, on either side of 4x and
        # 3 % apart: neither decides. An interval clear of 4x by more than
        # the margin does.
        judge = intervals.judge
        self.assertEqual(judge(Estimate(4.05, 4.01, 4.12, "paired"), 4.0, True),
                         intervals.INCONCLUSIVE)
        self.assertEqual(judge(Estimate(3.92, 3.89, 3.95, "paired"), 4.0, True),
                         intervals.INCONCLUSIVE)
        self.assertEqual(judge(Estimate(4.2, 4.11, 4.3, "paired"), 4.0, True), intervals.MET)
        self.assertEqual(judge(Estimate(3.8, 3.7, 3.9, "paired"), 4.0, True), intervals.NOT_MET)
        self.assertEqual(judge(Estimate(0.97, 0.96, 0.975, "paired"), 1.0, False),
                         intervals.MET)
        self.assertEqual(judge(Estimate(0.99, 0.98, 0.99, "paired"), 1.0, False),
                         intervals.INCONCLUSIVE)

    def test_beyond_l2_margin(self):
        # One pair of sweeps' speed-ups at 16M tokens against a goal of 30x:
        # met and not met with the L2 margin, met and inconclusive with the
        # wider one for lookup structures larger than the L2.
        judge, wide = intervals.judge, intervals.run_to_run(True)
        self.assertEqual(wide, intervals.RUN_TO_RUN_WIDE)
        self.assertEqual(intervals.run_to_run(False), intervals.RUN_TO_RUN)
        self.assertEqual(wide, 0.10)
        first, second = Estimate(48.0, 42.2, 54.3, "paired"), Estimate(25.2, 21.8, 27.7, "paired")
        self.assertEqual(judge(first, 30.0, True), intervals.MET)
        self.assertEqual(judge(second, 30.0, True), intervals.NOT_MET)
        self.assertEqual(judge(first, 30.0, True, wide), intervals.MET)
        self.assertEqual(judge(second, 30.0, True, wide), intervals.INCONCLUSIVE)
        # 27.2 × 1.1 = 29.92 stays below 30: not met again.
        self.assertEqual(judge(Estimate(26.0, 25.0, 27.2, "paired"), 30.0, True, wide),
                         intervals.NOT_MET)
        self.assertEqual(judge(Estimate(0.85, 0.8, 0.9, "paired"), 1.0, False, wide),
                         intervals.MET)
        self.assertEqual(judge(Estimate(0.9, 0.85, 0.95, "paired"), 1.0, False, wide),
                         intervals.INCONCLUSIVE)

    def test_at_most_mirrors(self):
        judge = intervals.judge
        self.assertEqual(judge(Estimate(0.9, 0.8, 0.95, "paired"), 1.0, False), intervals.MET)
        self.assertEqual(judge(Estimate(1.2, 1.1, 1.3, "paired"), 1.0, False), intervals.NOT_MET)
        self.assertEqual(judge(Estimate(1.0, 0.9, 1.1, "paired"), 1.0, False),
                         intervals.INCONCLUSIVE)

    def test_without_an_interval(self):
        # A run without rounds keeps its point verdict; rounds too few for an
        # interval judge nothing.
        self.assertEqual(intervals.judge(Estimate(2.1), 2.0, True), intervals.MET)
        self.assertEqual(intervals.judge(Estimate(1.9), 2.0, True), intervals.NOT_MET)
        self.assertEqual(intervals.judge(Estimate(9.0, basis="paired"), 2.0, True),
                         intervals.INCONCLUSIVE)

    def test_worst_figure_decides(self):
        met, no, maybe = intervals.MET, intervals.NOT_MET, intervals.INCONCLUSIVE
        self.assertEqual(intervals.combine([met, met]), met)
        self.assertEqual(intervals.combine([met, maybe]), maybe)
        self.assertEqual(intervals.combine([maybe, no, met]), no)
        self.assertIsNone(intervals.combine([]))

    def test_text(self):
        self.assertEqual(intervals.figure_text(Estimate(2.41, 2.33, 2.5, "paired")),
                         "2.41× (95 % interval 2.33–2.50)")
        self.assertEqual(intervals.figure_text(Estimate(2.41)), "2.41×")


class Fastest(unittest.TestCase):
    ROUNDS = {"a": [10.0, 11.0, 10.5, 10.2, 10.8, 10.1, 10.4, 10.9],
              "b": [10.3, 10.6, 10.9, 10.0, 10.4, 10.7, 10.2, 11.0],
              "c": [20.0, 21.0, 20.5, 20.2, 20.8, 20.1, 20.4, 20.9]}

    def fastest(self, names: list) -> list:
        rounds = self.ROUNDS
        return intervals.fastest(
            names, lambda n: intervals.median_estimate(rounds[n]).value,
            lambda x, y: intervals.paired_ratio(rounds[x], rounds[y]))

    def test_overlapping_rounds_tie(self):
        # a and b trade places round by round: no fastest is named.
        self.assertEqual(self.fastest(["c", "b", "a"]), ["a", "b"])

    def test_separated_fastest_is_named(self):
        self.assertEqual(self.fastest(["c", "a"]), ["a"])

    def test_runs_without_rounds_name_the_lowest(self):
        ns = {"x": 3.0, "y": 3.1}
        got = intervals.fastest(["y", "x"], ns.get,
                                lambda p, q: Estimate(ns[p] / ns[q]))
        self.assertEqual(got, ["x"])


if __name__ == "__main__":
    unittest.main()
