"""The guide (chbench_plots/guide.py, guide_page.py) on a run timed in
rounds: "the fastest" is named only when the rounds separate it."""

from __future__ import annotations

import unittest

import make_rounds_fixture as rf
from test_rounds import load_groups

from chbench_plots import guide, guide_page  # noqa: E402

# N = 1,000: jump/scalar and jump/interleaved swap places round by round,
# ring/eytzinger is clearly slower; N = 100: ring/eytzinger and jump/scalar
# tie, hrw/scalar is far behind.
GROUPS = [
    [(rf.name("nodes", "jump/scalar", 1000), rf.steady(6.0)),
     (rf.name("nodes", "jump/interleaved", 1000), rf.steady(6.01, phase=3)),
     (rf.name("nodes", "ring/eytzinger", 1000), rf.steady(12.0))],
    [(rf.name("nodes", "ring/eytzinger", 100), rf.steady(5.0)),
     (rf.name("nodes", "jump/scalar", 100), rf.steady(5.01, phase=3)),
     (rf.name("nodes", "hrw/scalar", 100), rf.steady(20.0))],
]


class Ties(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.guide = guide.build(load_groups(GROUPS), {})
        cls.titles = {r.scheme: r.title for r in cls.guide.rows}

    def test_fastest_kernel_of_a_scheme_ties(self):
        jump = next(r for r in self.guide.rows if r.scheme == "jump")
        cells = guide_page.row_cells(jump, [1000], "AVX3")
        self.assertEqual(cells[1], "`jump/interleaved` (tie: `jump/scalar`)")
        ring = next(r for r in self.guide.rows if r.scheme == "ring")
        self.assertEqual(guide_page.row_cells(ring, [1000], "AVX3")[1], "`ring/eytzinger`")

    def test_fastest_scheme_ties_or_is_named(self):
        lines = guide_page.decisions(self.guide, self.titles)
        # The rounds' phases put the slightly slower kernel's median lower.
        self.assertIn("- Fastest lookup at N = 100: a tie of jump hash (4.98 ns/key) and ring "
                      "(consistent hashing) (5.02 ns/key), which the rounds do not separate "
                      "(of the 3 schemes measured there).", lines)
        self.assertIn("- Fastest lookup at N = 1,000: jump hash (5.97 ns/key; of the 2 "
                      "schemes measured there).", lines)


if __name__ == "__main__":
    unittest.main()
