"""The guide (chbench_plots/guide.py) on a run timed in rounds: "the fastest"
kernel of a scheme and the fastest scheme are named only when the rounds
separate them, as on the first screen."""

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
        cls.bench = load_groups(GROUPS)

    def test_fastest_kernel_of_a_scheme_ties(self):
        g = guide.build(self.bench, 1000)
        jump = g.row("jump")
        self.assertEqual(guide_page.kernel_cell(jump, 1000, self.bench.registry),
                         "`jump/interleaved` (scalar) (tie: `jump/scalar`)")
        self.assertEqual(guide_page.kernel_cell(g.row("ring"), 1000, self.bench.registry),
                         "`ring/eytzinger` (scalar)")

    def test_fastest_scheme_ties_or_is_named(self):
        g = guide.build(self.bench, 100)
        # The rounds' phases put the slightly slower kernel's median lower.
        self.assertEqual([(r.scheme, round(r.ns, 2)) for r in g.fastest[100]],
                         [("jump", 4.98), ("ring", 5.02)])
        self.assertEqual([r.scheme for r in g.fastest[1000]], ["jump"])
        self.assertEqual((g.advice_n, g.row("hrw").fastest_at), (100, {100: False}))


if __name__ == "__main__":
    unittest.main()
