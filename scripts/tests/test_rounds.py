"""A run timed in comparison groups (make_rounds_fixture.py) read by
chbench_plots.load: rounds, groups, intervals and ratios; and the committed
format without them still read as before."""

from __future__ import annotations

import json
import statistics
import tempfile
import unittest
from pathlib import Path

import make_rounds_fixture as rf
from support import FIXTURE

from chbench_plots import load  # noqa: E402


def load_groups(groups: list) -> load.Run:
    """load() of the JSON that make_rounds_fixture.build(groups) gives."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.json"
        path.write_text(json.dumps(rf.build(groups)))
        return load.load(path)


class Slowed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bench = load_groups(rf.SLOWED)
        cls.by_name = {r.run_name: r for r in cls.bench.results}

    def result(self, label: str, n: int) -> load.Result:
        return self.by_name[rf.name("nodes", label, n)]

    def test_rounds_and_groups_attach(self):
        a = self.result("jump/scalar", 1000)
        self.assertEqual(self.bench.rounds_count(), rf.ROUNDS)
        self.assertEqual((a.group, len(a.rounds), a.repetitions), (0, rf.ROUNDS, rf.ROUNDS))
        self.assertEqual(self.result("jump/scalar", 100).group, 1)
        self.assertTrue(self.bench.has_rounds)

    def test_spread_is_the_interval(self):
        a = self.result("jump/scalar", 1000)
        # 21 rounds: ranks 6 and 16 of the drift 0.96, 0.98, 1.0, 1.02, 1.04 × 10.
        self.assertTrue(a.interval)
        self.assertAlmostEqual(a.ns, 10.0)
        self.assertAlmostEqual(a.ns_lo, 9.8)
        self.assertAlmostEqual(a.ns_hi, 10.2)

    def test_paired_ratio_shrugs_off_the_slowed_rounds(self):
        a, b = self.result("jump/scalar", 1000), self.result("jump/interleaved", 1000)
        paired = self.bench.ratio(b, a)
        self.assertEqual(paired.basis, "paired")
        self.assertAlmostEqual(paired.value, 2.0)
        self.assertLessEqual(paired.lo, 2.0)
        self.assertGreaterEqual(paired.hi, 2.0)
        naive = statistics.fmean(b.rounds) / statistics.fmean(a.rounds)
        self.assertGreater(naive, 3.0)

    def test_reference_ratio_from_the_bench(self):
        simd = self.result("jump/simd", 1000)
        ref, ratio = self.bench.reference_ratio(simd)
        self.assertEqual(ref.label, "jump/scalar")
        self.assertAlmostEqual(ratio.value, 0.25, places=2)
        self.assertLess(ratio.lo, ratio.hi)
        self.assertIsNone(self.bench.reference_ratio(self.result("jump/scalar", 1000)))

    def test_unpaired_across_groups(self):
        x, y = self.result("jump/scalar", 1000), self.result("jump/scalar", 100)
        unpaired = self.bench.ratio(x, y)
        self.assertEqual(unpaired.basis, "unpaired")
        self.assertAlmostEqual(unpaired.value, 10.0 / 8.0, places=2)
        self.assertLess(unpaired.lo, unpaired.value)

    def test_failed_member(self):
        failed = self.result("maglev/scalar", 100)
        self.assertIsNotNone(failed.error)
        self.assertIsNone(failed.rounds)


class Notes(unittest.TestCase):
    """The plots' subtitles say what the spread is."""

    def test_interval_or_min_max(self):
        from chbench_plots.style import spread_note
        bench = load_groups(rf.SLOWED)
        measured = [r for r in bench.results if r.ns]
        self.assertEqual(spread_note(measured, "band"),
                         "median and its 95 % interval over 21 rounds (band)")
        old = [r for r in load.load(FIXTURE).results if r.ns]
        self.assertEqual(spread_note(old, "band"), "median of 3 repetitions, band = min–max")
        self.assertEqual(spread_note(old), "median of 3 repetitions")


class OldRuns(unittest.TestCase):
    def test_committed_format_has_no_rounds(self):
        run = load.load(FIXTURE)
        r = next(r for r in run.results if r.ns is not None)
        self.assertFalse(run.has_rounds)
        self.assertIsNone(run.timing)
        self.assertFalse(r.interval)
        self.assertIsNone(r.group)
        self.assertLess(r.ns_lo, r.ns_hi)  # min and max of its repetitions
        other = next(o for o in run.results if o.ns and o is not r)
        point = run.ratio(r, other)
        self.assertEqual((point.basis, point.lo), ("point", None))
        self.assertAlmostEqual(point.value, r.ns / other.ns)


class CompareRatio(unittest.TestCase):
    """compare.py's ratio of one configuration in two runs."""

    def test_interval_only_with_rounds(self):
        import compare  # scripts/, on sys.path through support
        base = load.Result("x", "nodes", "jump", "scalar", ns=10.0,
                           rounds=[10.0 + 0.1 * k for k in range(10)])
        other = load.Result("x", "nodes", "jump", "scalar", ns=12.0,
                            rounds=[12.0 + 0.1 * k for k in range(10)])
        text = compare.config_ratio_text(other, base)
        # Medians 12.45 and 10.45: 1.19×; the bootstrap's interval around it.
        self.assertRegex(text, r"^1\.19× \(95 % interval 1\.1\d–1\.2\d\)$")
        other.rounds = None
        self.assertEqual(compare.config_ratio_text(other, base), "1.20×")


if __name__ == "__main__":
    unittest.main()
