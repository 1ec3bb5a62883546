"""Tests of chbench_plots/nodes_best.py and the line breaks of style.broken:
the fastest kernel of each scheme at each N, one-thread results only, and no
line drawn across a gap in N wider than the factor given."""

from __future__ import annotations

import math
import unittest
from types import SimpleNamespace

import support  # noqa: F401  (puts scripts/ on sys.path)

from chbench_plots import nodes_best
from chbench_plots.style import broken


def result(scheme: str, kernel: str, nodes: int, ns: float, threads: int = 1):
    return SimpleNamespace(scheme=scheme, kernel=kernel, nodes=nodes, ns=ns, threads=threads,
                           ns_lo=None, ns_hi=None, noisy=False, scheme_rank=0)


class BestByScheme(unittest.TestCase):
    def test_fastest_kernel_at_each_n(self):
        results = [result("ring", "eytzinger", 10, 3.0), result("ring", "bucketed", 10, 2.0),
                   result("ring", "eytzinger", 100, 4.0), result("ring", "bucketed", 100, 5.0),
                   result("hrw", "simd_keys", 10, 1.5),
                   result("ring", "bucketed", 10, 0.1, threads=2)]
        best = nodes_best.best_by_scheme(results)
        self.assertEqual(sorted(best), ["hrw", "ring"])
        self.assertEqual([(n, r.kernel, r.ns) for n, r in best["ring"]],
                         [(10, "bucketed", 2.0), (100, "eytzinger", 4.0)])
        self.assertEqual([(n, r.ns) for n, r in best["hrw"]], [(10, 1.5)])


class Broken(unittest.TestCase):
    def test_breaks_only_wide_gaps(self):
        xs, ys = broken([10, 100, 1000, 10**6], [1.0, 2.0, 3.0, 4.0], 30.0)
        self.assertEqual(xs[:3], [10, 100, 1000])
        self.assertTrue(math.isnan(xs[3]) and math.isnan(ys[3]))
        self.assertEqual((xs[4], ys[4]), (10**6, 4.0))

    def test_no_gap_given(self):
        self.assertEqual(broken([1, 1000], [1, 2], None), ([1, 1000], [1, 2]))


if __name__ == "__main__":
    unittest.main()
