"""Family "dense" (jump hash and its successors) in plot.py: jump_family.png,
the report's section, and the goals at node counts (goals.toml's node kinds),
met, not met and not measured, with the threshold of the SIMD target that
ran."""

from __future__ import annotations

import dataclasses
import struct
import tempfile
import unittest
from pathlib import Path

from support import FIXTURE, PYTHON, run
from plot_support import (PLOT, OnTheFixture, bench_json, check_rejected, entry, section,
                       table_rows)

# support puts scripts/ on sys.path.
from chbench_plots import dense, goal_specs, goals, load  # noqa: E402

# make_fixture.DENSE_NS at N = 1,000 and 10^6, and each kernel's worst and
# best N over the fixture's 12 N.
KERNEL_ROWS = [
    ["`jump/scalar`", "24.0", "48.0", "2,147,483,647 (2^31 - 1)", "80.0", "7 (2^3 - 1)", "8.00"],
    ["`jump/simd`", "4.00", "8.00", "2,147,483,647 (2^31 - 1)", "12.0", "7 (2^3 - 1)", "1.50"],
    ["`jumpback/scalar`", "7.00", "7.50", "1,048,577 (2^20 + 1)", "12.5", "7 (2^3 - 1)",
     "6.00"],
    ["`jumpback/simd`", "0.700", "0.750", "1,048,577 (2^20 + 1)", "1.20", "7 (2^3 - 1)",
     "0.600"],
    ["`flip/scalar`", "5.60", "5.60", "1,048,577 (2^20 + 1)", "6.40", "7 (2^3 - 1)", "5.00"],
    # 1.60 at N = 1,000 and at 2^20 + 1: of equal medians, the smallest N.
    ["`flip/simd`", "1.60", "1.40", "1,000", "1.60", "7 (2^3 - 1)", "1.25"],
]
DENSE = "dense/{}/N:{}/V:1/K:1000/threads:1"


class FixtureDense(OnTheFixture):
    """plot.py on the fixture: the plot, the section and the goals of family dense."""

    def test_plot_is_a_real_png(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        data = (self.out / "jump_family.png").read_bytes()
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
        width, height = struct.unpack(">II", data[16:24])
        self.assertGreaterEqual((width, height), (1000, 600))
        self.assertIn("![Jump hash and its successors vs bucket count](jump_family.png)",
                      self.report)

    def test_kernel_table(self):
        text = section(self.report, "## Jump family (family `dense`)")
        self.assertIn("12 N from 7 to 2,147,483,647", text)
        self.assertIn("Not measured: `jumpback_xorshift`, `power`, `binomial` (in the run's "
                      "registry, no `dense` results).", text)
        rows = table_rows(text)
        # kernel, N = 1,000, CV, N = 10^6, CV, worst N, ns/key, best N, ns/key, N measured
        self.assertEqual([[r[0], r[1], r[3]] + r[5:9] for r in rows], KERNEL_ROWS)
        self.assertEqual({r[9] for r in rows}, {"12"})

    def test_simd_table(self):
        rows = table_rows(section(self.report, "### SIMD ÷ scalar rival (family `dense`"))
        self.assertEqual(rows, [
            ["`jump/simd`", "`jump/scalar`", "AVX3", "6.00×", "6.00×"],  # 24/4, 48/8
            ["`jumpback/simd`", "`jumpback/scalar`", "AVX3", "10.0×", "10.0×"],  # 7/.7, 7.5/.75
            ["`flip/simd`", "`flip/scalar`", "AVX3", "3.50×", "4.00×"]])  # 5.6/1.6, 5.6/1.4

    def test_goal_verdicts(self):
        rows = table_rows(section(self.report, "## Goals"))[5:11]
        self.assertEqual([r[1:] for r in rows], [
            ["worst 3.50× (`flip/simd` over `flip/scalar` at N = 1,000) over 6 pairs; below "
             "the threshold: `flip/simd` over `flip/scalar` at N = 1,000 (3.50×)",
             "**goal not met**"],
            ["worst 1.20 ns/key (`jumpback/simd` at N = 1,048,577) over 12 node counts; above "
             "the threshold: `jumpback/simd` at N = 1,048,577 (1.20 ns/key)",
             "**goal not met**"],
            # jumpback/simd 1.20 ÷ 0.60 ns/key; flip/simd within 2× (no interval:
            # the fixture has no rounds).
            ["worst 2.00× (`jumpback/simd` at N = 1,048,577 ÷ at N = 7) over 2 kernels",
             "**goal met**"],
            ["no N = 1,000,000 in family `dram` with the stream floor beside `jumpback/simd` "
             "or `jumpback_xorshift/simd` or `flip/simd` or `power/simd` or `binomial/simd`",
             "**not measured**"],
            ["64.0× (at N = 1,000,000)", "**goal met**"],  # 48 / 0.75
            ["no N = 1,000 or 100,000 in family `targets` with `multiprobe/scalar` and "
             "`multiprobe/simd`", "**not measured**"]])
        self.assertTrue(rows[0][0].endswith("at least 4× (the AVX3 threshold; AVX2: 2×)"))
        self.assertTrue(rows[1][0].endswith("at most 1 ns/key (the AVX3 threshold; AVX2: "
                                            "2.5 ns/key)"))
        self.assertTrue(rows[2][0].endswith("at most 2×"))
        self.assertTrue(rows[4][0].endswith("at least 10×"))
        # targets: hrw/scalar 100 ÷ hrw/simd_keys 8 ns/key at N = 64.
        goal = table_rows(section(self.report, "## Goals"))[11]
        self.assertEqual(goal[1:], ["12.5× (at N = 64)", "**goal met**"])
        self.assertTrue(goal[0].endswith("at least 8× (the AVX3 threshold)"))

    def test_goal_tables(self):
        rows = table_rows(section(self.report, "### Jump family: SIMD ÷ scalar rival"))
        self.assertEqual([(r[0], r[1], r[4], r[7], r[8]) for r in rows], [
            ("1,000", "`jump/simd`", "`jump/scalar`", "6.00×", "≥ 4×: met"),
            ("1,000", "`jumpback/simd`", "`jumpback/scalar`", "10.0×", "≥ 4×: met"),
            ("1,000", "`flip/simd`", "`flip/scalar`", "3.50×", "≥ 4×: **not met**"),
            ("1,000,000", "`jump/simd`", "`jump/scalar`", "6.00×", "≥ 4×: met"),
            ("1,000,000", "`jumpback/simd`", "`jumpback/scalar`", "10.0×", "≥ 4×: met"),
            ("1,000,000", "`flip/simd`", "`flip/scalar`", "4.00×", "≥ 4×: met")])
        rows = table_rows(section(self.report, "### JumpBackHash's best kernel"))
        self.assertEqual(len(rows), 12)
        self.assertEqual([r[0] for r in rows if "not met" in r[4]], ["1,048,577"])
        self.assertEqual(rows[10][1:3], ["`jumpback/simd`", "1.20"])
        rows = table_rows(section(self.report, "### JumpBackHash SIMD ÷ scalar jump"))
        self.assertEqual([(r[0], r[2], r[5], r[7], r[8]) for r in rows],
                         [("1,000,000", "48.0", "0.750", "64.0×", "≥ 10×: met")])

    def test_family_table(self):
        rows = table_rows(section(self.report, "### Family `dense`"))
        self.assertEqual(len(rows), 6 * 12)


class Evaluator(unittest.TestCase):
    """The shipped goals of family dense on the fixture, their thresholds
    changed or the SIMD target relabelled."""

    @classmethod
    def setUpClass(cls):
        cls.goals = {g.kind: g for g in goal_specs.load_goals().goals if g.family == "dense"}

    def fixture(self, label: str = "AVX3") -> load.Run:
        """The fixture, its SIMD runs labelled as having run `label`."""
        run_ = load.load(FIXTURE)
        for r in run_.results:
            if r.hwy_label:
                r.hwy_label = label
        return run_

    def test_met_and_not_met(self):
        run_ = self.fixture()
        simd = dataclasses.replace(self.goals["simd_vs_rival_at_nodes"],
                                   by_target=(("AVX3", 3.5),))
        self.assertEqual(goals.evaluate(simd, run_).verdict, "goal met")
        best = dataclasses.replace(self.goals["best_at_most_every_n"], by_target=(),
                                   at_most=1.2)
        verdict = goals.evaluate(best, run_)
        self.assertEqual((verdict.verdict, verdict.target), ("goal met", "AVX3"))
        pair = dataclasses.replace(self.goals["pair_at_nodes"], at_least=65.0)
        self.assertEqual(goals.evaluate(pair, run_).verdict, "goal not met")

    def test_avx2_threshold(self):
        run_ = self.fixture("AVX2")
        simd = goals.evaluate(self.goals["simd_vs_rival_at_nodes"], run_)
        self.assertEqual((simd.verdict, simd.target), ("goal met", "AVX2"))  # 3.5 ≥ 2
        self.assertEqual(simd.spec.bound(), "at least 2× (the AVX2 threshold; AVX3: 4×)")
        best = goals.evaluate(self.goals["best_at_most_every_n"], run_)
        self.assertEqual(best.verdict, "goal met")  # 1.2 ≤ 2.5

    def test_avx3_variants_take_the_avx3_threshold(self):
        verdict = goals.evaluate(self.goals["simd_vs_rival_at_nodes"], self.fixture("AVX3_ZEN4"))
        self.assertEqual((verdict.verdict, verdict.spec.threshold, verdict.target),
                         ("goal not met", 4.0, "AVX3_ZEN4"))

    def test_target_without_threshold(self):
        verdict = goals.evaluate(self.goals["simd_vs_rival_at_nodes"], self.fixture("SSE4"))
        self.assertEqual((verdict.verdict, verdict.measured), (
            "not measured", "no threshold for SIMD target SSE4 (the goal gives AVX3, AVX2)"))
        self.assertEqual(verdict.spec.bound(), "at least 4× on AVX3, 2× on AVX2")

    def test_absent_scheme_not_measured(self):
        run_ = self.fixture()
        best = dataclasses.replace(self.goals["best_at_most_every_n"], scheme="power")
        verdict = goals.evaluate(best, run_)
        self.assertEqual((verdict.verdict, verdict.measured),
                         ("not measured", "no `power` kernel in family `dense`"))
        pair = dataclasses.replace(self.goals["pair_at_nodes"], denominator="binomial/simd")
        verdict = goals.evaluate(pair, run_)
        self.assertEqual((verdict.verdict, verdict.measured), (
            "not measured", "no N = 1,000,000 in family `dense` with `jump/scalar` and "
                            "`binomial/simd`"))

    def test_analysis(self):
        analysis = dense.analyse(self.fixture())
        self.assertEqual([k.label for k in analysis.kernels],
                         ["jump/scalar", "jump/simd", "jumpback/scalar", "jumpback/simd",
                          "flip/scalar", "flip/simd"])
        self.assertAlmostEqual(analysis.simd[2].speedup(1_000), 3.5)
        self.assertEqual([dense.power_name(n) for n in (7, 8, 9, 1000, 2 ** 31 - 1)],
                         ["2^3 - 1", "2^3", "2^3 + 1", "", "2^31 - 1"])


class SmallRuns(unittest.TestCase):
    """Runs made here: noisy points, a family without SIMD, no family at all."""

    def render(self, entries: list) -> tuple:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "bench.json"
            src.write_text(bench_json(entries))
            result = run([PYTHON, PLOT, str(src), "--out", tmp])
            self.assertEqual(result.returncode, 0, result.stderr)
            files = sorted(p.name for p in Path(tmp).iterdir())
            data = (Path(tmp) / "jump_family.png").read_bytes() if "jump_family.png" in files \
                else b""
            return (Path(tmp) / "report.md").read_text(), files, data

    def test_noisy_points_marked(self):
        entries = [entry(DENSE.format("jump/scalar", n), ns, noisy=0.0)
                   for n, ns in ((1000, 20.0), (1000000, 40.0))]
        entries += [entry(DENSE.format("jump/simd", n), ns, label="AVX2", noisy=float(n == 1000))
                    for n, ns in ((1000, 5.0), (1000000, 8.0))]
        report, files, data = self.render(entries)
        self.assertIn("jump_family.png", files)
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
        rows = table_rows(section(report, "## Jump family (family `dense`)"))
        self.assertEqual(rows[1][:4], ["`jump/simd`", "5.00 **noisy**", rows[1][2], "8.00"])
        self.assertEqual(table_rows(section(report, "### SIMD ÷ scalar rival")),
                         [["`jump/simd`", "`jump/scalar`", "AVX2", "4.00× **noisy**", "5.00×"]])
        goal = table_rows(section(report, "## Goals"))[5]
        # On AVX2 the threshold is 2×: 20 / 5 and 40 / 8 meet it.
        self.assertEqual(goal[1:], ["worst 4.00× (`jump/simd` over `jump/scalar` at N = 1,000) "
                                    "over 2 pairs", "**goal met**"])
        self.assertIn("(the AVX2 threshold; AVX3: 4×)", goal[0])
        text = section(report, "### Jump family: SIMD ÷ scalar rival")
        self.assertIn("**noisy**", table_rows(text)[0][-1])
        self.assertIn("1 of the configurations behind it flagged noisy", text)

    def test_one_noise_mark_for_one_group(self):
        # A kernel and its rival ran in one group at each N: one canary, so
        # the row names it once; where only one member was flagged, its mark.
        entries = [entry(DENSE.format(k, n), ns, noisy=1.0, canary_ratio=2.5, label="AVX3")
                   for k, n, ns in (("jump/scalar", 1000, 20.0), ("jump/simd", 1000, 5.0))]
        entries += [entry(DENSE.format("jump/scalar", 1000000), 40.0, noisy=0.0),
                    entry(DENSE.format("jump/simd", 1000000), 8.0, noisy=1.0, canary_ratio=1.5,
                          label="AVX3")]
        report, _, _ = self.render(entries)
        rows = table_rows(section(report, "### Jump family: SIMD ÷ scalar rival"))
        self.assertEqual([r[-1] for r in rows], ["**noisy** 2.50×", "**noisy** 1.50×"])

    def test_scalar_only(self):
        report, files, _ = self.render([entry(DENSE.format("jump/scalar", n), 10.0 + n / 1e8)
                                        for n in (7, 8, 9, 2 ** 31 - 1)])
        self.assertIn("jump_family.png", files)
        self.assertIn("No SIMD kernel with a scalar rival at these N in this run.", report)
        rows = table_rows(section(report, "## Jump family (family `dense`)"))
        self.assertEqual(rows, [["`jump/scalar`", "–", "–", "–", "–",
                                 "2,147,483,647 (2^31 - 1)", "31.5", "7 (2^3 - 1)", "10.0",
                                 "4"]])

    def test_no_family_no_plot(self):
        report, files, _ = self.render([entry("nodes/jump/scalar/N:1000/V:100/K:1000/threads:1",
                                              8.0)])
        self.assertNotIn("jump_family.png", files)
        self.assertIn("Not drawn: no usable `dense` results in this run.", report)
        self.assertNotIn("### Family `dense`", report)


NODE_GOAL = '''
[[goal]]
title = "t"
family = "dense"
kind = "simd_vs_rival_at_nodes"
nodes = [1_000]
at_least = { AVX3 = 4.0, AVX2 = 2.0 }
table = "x"
'''


class Malformed(unittest.TestCase):
    """Node-kind records that cannot be used: exit 2, one line, nothing written."""

    def check(self, text: str, expect: str):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "goals.toml"
            path.write_text(text)
            check_rejected(self, FIXTURE.read_bytes(), expect, ("--goals", str(path)))

    def test_field_of_another_kind(self):
        self.check(NODE_GOAL.replace("nodes =", 'numerator = "jump/scalar"\nnodes ='),
                   "goal 1: 'numerator' means nothing to kind simd_vs_rival_at_nodes")

    def test_bad_nodes(self):
        self.check(NODE_GOAL.replace("[1_000]", '["1000"]'), "'nodes' must list positive integers")

    def test_bad_threshold_table(self):
        self.check(NODE_GOAL.replace("AVX2 = 2.0", 'AVX2 = "two"'),
                   "'at_least' as a table must map Highway targets to numbers")

    def test_roles_refused(self):
        self.check(NODE_GOAL.replace('"simd_vs_rival_at_nodes"', '"pair_at_nodes"').replace(
            "nodes =", 'numerator = "best"\ndenominator = "jump/simd"\nnodes ='),
            "pair_at_nodes compares kernels named in full")

    def test_missing_scheme(self):
        self.check(NODE_GOAL.replace('"simd_vs_rival_at_nodes"', '"best_at_most_every_n"'),
                   "goal 1: missing field 'scheme'")


if __name__ == "__main__":
    unittest.main()
