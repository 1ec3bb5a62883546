"""Tests of chbench_plots/first_screen.py: the table of each scheme's fastest
kernel per N with the fastest marked, rendezvous ÷ ring with its interval,
the crossover between two measured N (never interpolated), the noise line,
and the length of the whole screen; on the plain fixture (no rounds) and on
a run timed in rounds (intervals)."""

from __future__ import annotations

import unittest

from support import FIXTURE

import make_rounds_fixture as rf
from chbench_plots import first_screen
from chbench_plots.load import load
from test_rounds import load_groups


def screen(run) -> list:
    return first_screen.lines(run, [("Full report", "report.md")])


class PlainRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lines = screen(load(FIXTURE))

    def row(self, scheme: str) -> list:
        return next(line for line in self.lines if line.startswith(scheme + " ")).split()

    def test_table(self):
        head = next(line for line in self.lines if line.startswith("scheme"))
        self.assertIn("N = 3", head)
        self.assertIn("N = 1,000", head)
        # mod-N is the fastest at every N; hrw at N = 1,000 costs 502 ns.
        self.assertEqual(self.row("modn")[1:], ["1.10*"] * 6)
        self.assertEqual(self.row("hrw")[-1], "502")
        self.assertEqual(self.row("hrw")[5], "151~")  # flagged noisy

    def test_ratio_and_crossover(self):
        ratio = next(line for line in self.lines if line.startswith("Rendezvous ÷ ring"))
        self.assertIn("N = 3: 0.371x", ratio)
        self.assertIn("N = 1,000: 32.4x", ratio)
        self.assertIn("Crossover: the cheaper of the two changes between N = 10 and N = 30 "
                      "(measured there; no N between was).", self.lines)

    def test_each_over_fastest(self):
        # N = 1,000 has the most schemes; mod-N (1.10 ns) is the fastest there,
        # hrw 502 ns: 502 / 1.10 = 456x, a point (this run has no rounds).
        text = " ".join(line for line in self.lines
                        if not line.startswith(("scheme", "Rendezvous", "Crossover", "Noise")))
        self.assertIn("Each scheme ÷ the fastest (modn) at N = 1,000: ", text)
        self.assertIn("hrw 456x;", text)
        self.assertNotIn("modn 1", text.split("N = 1,000: ", 1)[1])

    def test_noise_and_links(self):
        self.assertTrue(any(line.startswith("Noise: 2 of 317 configurations flagged")
                            for line in self.lines))
        self.assertEqual(self.lines[-1], "Full report: report.md")

    def test_fits_a_screen(self):
        self.assertLess(len(self.lines), 40)


class RoundsRun(unittest.TestCase):
    def test_intervals_and_tie(self):
        lines = screen(load_groups(rf.SLOWED))
        jump = next(line for line in lines if line.startswith("jump ")).split()
        # jump's fastest at N = 1,000 is jump/simd at 2.5 ns, with its interval.
        self.assertTrue(jump[-2].startswith("2.5"), jump)
        self.assertTrue(jump[-1].startswith("[") and jump[-1].rstrip("*~").endswith("]"), jump)
        # hrw at N = 100 is far slower than jump: jump is the fastest there, alone.
        self.assertTrue(next(line for line in lines if line.startswith("hrw ")).split()[1]
                        .startswith("50"))
        # Each scheme over jump, from the per-round ratios of one group: with an interval.
        over = next(line for line in lines if line.startswith("Each scheme ÷ the fastest"))
        self.assertIn("(jump) at N = ", over)
        self.assertRegex(over, r"hrw [0-9.,]+x \[[0-9.,]+-[0-9.,]+\]")
        # No ring in this run: no ratio to divide, no crossover claimed.
        self.assertFalse(any(line.startswith(("Rendezvous ÷ ring", "Crossover"))
                             for line in lines))


if __name__ == "__main__":
    unittest.main()
