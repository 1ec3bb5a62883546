"""Family "replicas" in plot.py: replicas.png (one panel per scheme and
ring, ns/key against R, each point's ratio to R = 1) from a small run made
here, the report showing it, and the goal kind replicas_ratio (judged on
that run, its records checked)."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from support import PYTHON, run
from plot_support import PLOT, bench_json, entry, goals_text, section, table_rows

# support puts scripts/ on sys.path.
from chbench_plots import goal_specs, goals, load, replicas  # noqa: E402
from chbench_plots.errors import InputError  # noqa: E402
from chbench_plots.style import Style, import_matplotlib  # noqa: E402

NAME = "replicas/{}/N:{}/V:{}/K:1000/threads:1/R:{}"
# kernel, N, V, then ns/key at R = 1, 2, 3, 5 (chosen so the ratios are exact).
NS = (("ring/branchless", 1000, 100, (20.0, 22.0, 25.0, 30.0)),
      ("hrw/scalar", 1000, 1, (400.0, 440.0, 500.0, 600.0)),
      ("hrw/simd_keys", 1000, 1, (100.0, 120.0, 160.0, 250.0)),
      ("hrw/simd_keys", 100, 1, (10.0, 15.0, 20.0, 30.0)))
RS = (1, 2, 3, 5)


def replica_entries(noisy: str = "") -> list:
    """One iteration entry per kernel, N and R of NS; the one named `noisy`
    flagged noisy."""
    out = []
    for label, n, v, times in NS:
        for r, ns in zip(RS, times):
            name = NAME.format(label, n, v, r)
            out.append(entry(name, ns, nodes=float(n), vnodes=float(v),
                             noisy=1.0 if name == noisy else 0.0))
    return out


def load_run(entries: list) -> load.Run:
    """The run of `entries`, read as plot.py reads it."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "bench.json"
        src.write_text(bench_json(entries))
        return load.load(src)


class Figure(unittest.TestCase):
    """replicas.figure() on the run, in process."""

    def draw(self, entries: list):
        run_ = load_run(entries)
        return replicas.figure(run_, import_matplotlib(), Style(run_.results))

    def test_panels_and_ratio_labels(self):
        fig = self.draw(replica_entries())
        axes = fig.get_axes()
        self.assertEqual([ax.get_title() for ax in axes],
                         ["ring, N = 1,000, V = 100 (100,000 tokens)", "hrw, N = 100",
                          "hrw, N = 1,000"])
        self.assertEqual([t.get_text() for t in axes[0].texts],
                         ["20.0 ns", "1.10×", "1.25×", "1.50×"])
        self.assertEqual([t.get_text() for t in axes[1].texts],
                         ["10.0 ns", "1.50×", "2.00×", "3.00×"])
        self.assertEqual([t.get_text() for t in axes[2].texts],
                         ["400 ns", "1.10×", "1.25×", "1.50×",
                          "100 ns", "1.20×", "1.60×", "2.50×"])
        self.assertEqual(list(axes[0].get_xticks()), [1, 2, 3, 5])

    def test_noisy_point_marked(self):
        fig = self.draw(replica_entries(noisy=NAME.format("hrw/scalar", 1000, 1, 3)))
        legends = [[t.get_text() for t in ax.get_legend().get_texts()] for ax in fig.get_axes()]
        self.assertFalse(any("noisy" in t for t in legends[0] + legends[1]))
        self.assertTrue(any("noisy" in t for t in legends[2]))

    def test_without_r_one_no_ratio(self):
        entries = [e for e in replica_entries() if not e["name"].endswith("/R:1")]
        texts = [t.get_text() for t in self.draw(entries).get_axes()[0].texts]
        self.assertEqual(texts, [])

    def test_no_family_no_figure(self):
        self.assertIsNone(self.draw([entry("nodes/jump/scalar/N:1000/V:100/K:1000/threads:1",
                                           8.0)]))


GOAL = """
[[goal]]
title = "top-3 ÷ top-1"
family = "replicas"
kind = "replicas_ratio"
kernel = "hrw/simd_keys"
r_num = 3
r_den = 1
nodes = [1_000]
at_most = 1.5
table = "Replica sets"
"""


class ReplicaGoals(unittest.TestCase):
    """goals.evaluate of kind replicas_ratio on the run of NS, and the
    records load_goals refuses."""

    @classmethod
    def setUpClass(cls):
        cls.run_ = load_run(replica_entries())

    def spec(self, **fields) -> goal_specs.GoalSpec:
        base = {"title": "t", "family": "replicas", "kind": "replicas_ratio", "table": "x",
                "kernel": "hrw/simd_keys", "r_num": 3, "r_den": 1, "nodes": (1000,),
                "at_most": 1.5}
        base.update(fields)
        return goal_specs.GoalSpec(**base)

    def test_not_met(self):
        # hrw/simd_keys at N = 1,000: 160 ÷ 100 ns/key.
        v = goals.evaluate(self.spec(), self.run_)
        self.assertEqual(v.verdict, "goal not met")
        self.assertAlmostEqual(v.judged[0].ratio, 1.6)
        self.assertTrue(v.measured.startswith(
            "1.60× (`hrw/simd_keys` R = 3 ÷ R = 1 at N = 1,000)"), v.measured)

    def test_met(self):
        # hrw/scalar at N = 1,000: 500 ÷ 400; the ring 25 ÷ 20 at 10^5 tokens.
        v = goals.evaluate(self.spec(kernel="hrw/scalar"), self.run_)
        self.assertEqual((v.verdict, v.measured),
                         ("goal met", "1.25× (`hrw/scalar` R = 3 ÷ R = 1 at N = 1,000)"))
        ring = goals.evaluate(self.spec(kernel="ring/branchless", at_most=2.0,
                                        tokens=100_000), self.run_)
        self.assertEqual(ring.verdict, "goal met")
        self.assertAlmostEqual(ring.judged[0].ratio, 1.25)

    def test_worst_n_decides(self):
        # hrw/simd_keys R = 5 ÷ R = 1: 3.00× at N = 100, 2.50× at N = 1,000.
        v = goals.evaluate(self.spec(r_num=5, nodes=(100, 1000), at_most=2.8), self.run_)
        self.assertEqual(v.verdict, "goal not met")
        self.assertEqual([round(j.ratio, 9) for j in v.judged], [3.0, 2.5])
        self.assertIn("worst 3.00× (`hrw/simd_keys` R = 5 ÷ R = 1 at N = 100) over 2 "
                      "node counts", v.measured)

    def test_not_measured(self):
        for spec, why in (
                (self.spec(nodes=(64,)), "no N = 64 in family `replicas` with "
                                         "`hrw/simd_keys` at R = 3 and R = 1"),
                (self.spec(r_num=4), "no N = 1,000 in family `replicas` with `hrw/simd_keys` "
                                     "at R = 4 and R = 1"),
                (self.spec(kernel="ring/branchless", tokens=65_536),
                 "no N = 1,000 with 65,536 tokens in family `replicas` with `ring/branchless` "
                 "at R = 3 and R = 1")):
            v = goals.evaluate(spec, self.run_)
            self.assertEqual((v.verdict, v.measured), ("not measured", why))

    def test_record_read(self):
        (spec,) = goals_text(GOAL).goals
        self.assertEqual((spec.kernel, spec.r_num, spec.r_den, spec.nodes, spec.at_most),
                         ("hrw/simd_keys", 3, 1, (1000,), 1.5))

    def test_records_refused(self):
        for text, why in (
                (GOAL.replace("r_den = 1\n", ""), "goal 1: missing field 'r_den'"),
                (GOAL.replace("nodes = [1_000]\n", ""), "goal 1: missing field 'nodes'"),
                (GOAL + 'r_sum = 4\n', "goal 1: unknown field 'r_sum'"),
                (GOAL + 'scheme = "hrw"\n', "goal 1: 'scheme' means nothing to kind "
                                            "replicas_ratio"),
                (GOAL.replace("r_num = 3", "r_num = 1"), "goal 1: 'r_num' and 'r_den' must be "
                                                         "two different positive"),
                (GOAL.replace("r_num = 3", "r_num = 0"), "'r_num' and 'r_den' must be"),
                (GOAL.replace('"hrw/simd_keys"', '"simd_keys"'), "goal 1: 'kernel' must be "
                                                                 "scheme/kernel"),
                (GOAL.replace("r_num = 3", 'r_num = "3"'), "goal 1: 'r_num' has the wrong type"),
                (GOAL + GOAL.replace("r_num = 3", "r_num = 5"),
                 "goals of table 'Replica sets' differ")):
            with self.assertRaises(InputError) as caught:
                goals_text(text)
            self.assertIn(why, str(caught.exception))


class InTheReport(unittest.TestCase):
    """plot.py writes replicas.png and the report shows it."""

    def test_written_and_shown(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "bench.json"
            src.write_text(bench_json(replica_entries()))
            result = run([PYTHON, PLOT, str(src), "--out", tmp])
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertGreater((Path(tmp) / "replicas.png").stat().st_size, 10_000)
            report = (Path(tmp) / "report.md").read_text()
        self.assertIn("![Replica sets](replicas.png)", report)
        # The shipped goals: R = 3 ÷ R = 1 of each kernel at N = 1,000.
        rows = table_rows(section(report, "### Replica sets: R = 3 ÷ R = 1"))
        self.assertEqual([[r[0], r[1], r[2], r[3], r[5], r[7], r[8]] for r in rows], [
            ["`hrw/simd_keys`", "1,000", "–", "100", "160", "1.60×", "≤ 1.5×: **not met**"],
            ["`hrw/scalar`", "1,000", "–", "400", "500", "1.25×", "≤ 1.5×: met"],
            ["`ring/branchless`", "1,000", "100", "20.0", "25.0", "1.25×", "≤ 2×: met"]])


if __name__ == "__main__":
    unittest.main()
