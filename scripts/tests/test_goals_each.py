"""The goal kinds that judge each of several kernels at node counts:
worst_over_best_n (a kernel at its slowest N ÷ at its fastest, two
comparison groups, the wider margin) and each_vs_floor_at_nodes (a kernel ÷
the stream floor of its group), on a run timed in rounds
(make_rounds_fixture), their records read from a goals file, and their
table in the report."""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

import make_rounds_fixture as rf
from support import PYTHON, run
from plot_support import PLOT, goals_text, section, table_rows
from test_rounds import load_groups

from chbench_plots import goal_specs, goals  # noqa: E402
from chbench_plots.errors import InputError  # noqa: E402


def dense(label: str, n: int, v: int = 2) -> str:
    return rf.name("dense", label, n, v=v)


# flip/simd: 0.30 ns/key at N = 1,024, 0.33 at 1,023, 0.90 at 1,025 (3×);
# power/simd: 0.25, 0.24 (its fastest) and 0.45 (1.875×); the stream floor
# beside them at 1,024 and 1,025. Another group at N = 1,025 and the same K,
# first, with a stream floor of its own (1.0 ns/key), as family dram has in
# the full sweep.
GROUPS = [
    [(dense("jumpback/simd", 1025, v=1), rf.steady(0.5)),
     (dense("ring/stream", 1025, v=1), rf.steady(1.0, phase=2))],
    [(dense("flip/simd", 1023), rf.steady(0.33, phase=6)),
     (dense("power/simd", 1023), rf.steady(0.24, phase=1))],
    [(dense("flip/simd", 1024), rf.steady(0.30)),
     (dense("power/simd", 1024), rf.steady(0.25, phase=1)),
     (dense("ring/stream", 1024), rf.steady(0.20, phase=2))],
    [(dense("flip/simd", 1025), rf.steady(0.90, phase=3)),
     (dense("power/simd", 1025), rf.steady(0.45, phase=4)),
     (dense("ring/stream", 1025), rf.steady(0.21, phase=5))],
]
WORST = {"title": "slowest ÷ fastest N", "family": "dense", "kind": "worst_over_best_n",
         "numerator": ("flip/simd", "power/simd"), "table": "worst"}
FLOOR = {"title": "÷ the stream floor", "family": "dense", "kind": "each_vs_floor_at_nodes",
         "numerator": ("flip/simd", "power/simd"), "nodes": (1024, 1025), "table": "floor"}


class OnGroups(unittest.TestCase):
    """Goals judged on the run of GROUPS."""

    @classmethod
    def setUpClass(cls):
        cls.bench = load_groups(GROUPS)

    def verdict(self, fields: dict, **threshold) -> goals.Verdict:
        return goals.evaluate(goal_specs.GoalSpec(**fields, **threshold), self.bench)


class WorstOverBest(OnGroups):

    def test_each_kernel_at_its_slowest_and_fastest_n(self):
        v = self.verdict(WORST, at_most=2.5)
        self.assertEqual(v.verdict, "goal not met")
        flip, power = v.judged
        self.assertEqual((flip.point.nodes, flip.denominator.nodes), (1025, 1024))
        self.assertEqual((power.point.nodes, power.denominator.nodes), (1025, 1023))
        self.assertAlmostEqual(flip.ratio, 3.0, delta=0.05)
        self.assertAlmostEqual(power.ratio, 1.875, delta=0.03)
        self.assertEqual(flip.estimate.basis, "unpaired")
        self.assertRegex(v.measured, r"^worst 2\.9\d× \(95 % interval ")
        self.assertIn("(`flip/simd` at N = 1,025 ÷ at N = 1,024) over 2 kernels", v.measured)

    def test_two_groups_take_the_wider_margin(self):
        # power/simd 1.875× against at most 2: met with 2.5 % (1.92),
        # inconclusive with the 10 % of a ratio across groups (2.06).
        power = {**WORST, "numerator": ("power/simd",)}
        self.assertEqual(self.verdict(power, at_most=2.0).verdict, "inconclusive")
        self.assertEqual(self.verdict(power, at_most=2.2).verdict, "goal met")
        self.assertTrue(self.verdict(power, at_most=2.0).judged[0].wide)

    def test_a_kernel_at_one_n_is_not_measured(self):
        v = self.verdict({**WORST, "numerator": ("flip/simd",), "nodes": (1024,)}, at_most=2.0)
        self.assertEqual(v.verdict, "not measured")
        self.assertEqual(v.measured, "no `flip/simd` at two N or more in family `dense`")


class EachVsFloor(OnGroups):

    def test_each_kernel_against_the_floor_of_its_group(self):
        v = self.verdict(FLOOR, at_most=2.5)
        self.assertEqual(v.verdict, "goal not met")
        got = {(j.numerator.label, j.point.nodes): j for j in v.judged}
        self.assertEqual(sorted(got), [("flip/simd", 1024), ("flip/simd", 1025),
                                       ("power/simd", 1024), ("power/simd", 1025)])
        # The floor of flip/simd's own group, not the other group's at 1,025.
        self.assertAlmostEqual(got[("flip/simd", 1025)].ratio, 0.90 / 0.21, delta=0.05)
        self.assertEqual(got[("power/simd", 1025)].estimate.basis, "paired")
        self.assertIn("(`flip/simd` at N = 1,025) over 4 figures", v.measured)
        self.assertEqual(self.verdict({**FLOOR, "nodes": (1024,)}, at_most=2.5).verdict,
                         "goal met")

    def test_no_floor_is_not_measured(self):
        v = self.verdict({**FLOOR, "nodes": (1023,)}, at_most=2.5)
        self.assertEqual(v.verdict, "not measured")
        self.assertIn("with the stream floor beside `flip/simd` or `power/simd`", v.measured)


RECORDS = '''
[[goal]]
title = "slowest ÷ fastest N"
family = "dense"
kind = "worst_over_best_n"
numerator = ["flip/simd", "power/simd"]
at_most = 2.5
table = "Slowest N ÷ fastest N"
'''


class Records(unittest.TestCase):
    def load(self, text: str) -> goal_specs.Goals:
        return goals_text(text)

    def test_read(self):
        spec = self.load(RECORDS).goals[0]
        self.assertEqual((spec.kind, spec.numerator, spec.denominator, spec.at_most),
                         ("worst_over_best_n", ("flip/simd", "power/simd"), "", 2.5))

    def test_a_denominator_means_nothing(self):
        with self.assertRaisesRegex(InputError, "'denominator' means nothing to kind "
                                                "worst_over_best_n"):
            self.load(RECORDS + 'denominator = "flip/scalar"\n')

    def test_roles_are_refused(self):
        with self.assertRaisesRegex(InputError, "compares kernels named in full"):
            self.load(RECORDS.replace('"power/simd"]', '"floor"]'))

    def test_the_floor_kind_needs_nodes(self):
        text = RECORDS.replace("worst_over_best_n", "each_vs_floor_at_nodes")
        with self.assertRaisesRegex(InputError, "missing field 'nodes'"):
            self.load(text)


class Report(unittest.TestCase):
    def test_the_table_names_both_n(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            (tmp / "bench.json").write_text(json.dumps(rf.build(GROUPS)))
            (tmp / "goals.toml").write_text(RECORDS)
            out = run([PYTHON, PLOT, str(tmp / "bench.json"), "--out", str(tmp),
                       "--goals", str(tmp / "goals.toml"), "--format", "png"])
            self.assertEqual(out.returncode, 0, out.stderr)
            report = (tmp / "report.md").read_text()
        rows = table_rows(section(report, "### Slowest N ÷ fastest N"))
        self.assertEqual([r[:2] for r in rows], [["1,025", "`flip/simd`"],
                                                 ["1,025", "`power/simd`"]])
        self.assertEqual(rows[0][4], "`flip/simd` at N = 1,024")
        self.assertEqual(rows[1][4], "`power/simd` at N = 1,023")
        self.assertEqual(rows[0][-1], "≤ 2.5×: **not met**")


if __name__ == "__main__":
    unittest.main()
