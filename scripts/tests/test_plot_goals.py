"""The goals file (chbench_plots/goals.toml, or plot.py --goals FILE): goals
evaluated from their records, met and not met, and malformed files refused."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from support import FIXTURE, PYTHON, run
from plot_support import PLOT, check_rejected, section, table_rows

# support puts scripts/ on sys.path.
from chbench_plots import goal_specs, goals, load  # noqa: E402

# Against the fixture (make_fixture.py): family tokens has lower_bound 140 and
# eytzinger 30 ns/key at 10^6 tokens, 360 and 60 at 1.6·10^7; family latency
# the best kernel (bucketed) 10 and 50 ns/key beside the stream's 3 at 10 and
# 65,500 tokens; family clustered lower_bound 110, 150, 480 and stree 8, 16,
# 40 ns/key.
GOALS = '''
[[goal]]
title = "speed-up of `ring/eytzinger` over `ring/lower_bound` at ~1M tokens"
family = "tokens"
kind = "ratio_at_ring"
numerator = "ring/lower_bound"
denominator = "ring/eytzinger"
tokens = 1_000_000
at_least = 4
table = "Eytzinger ÷ lower_bound"

[[goal]]
title = "speed-up of `ring/eytzinger` over `ring/lower_bound` at ~16M tokens"
family = "tokens"
kind = "ratio_at_ring"
numerator = "ring/lower_bound"
denominator = "ring/eytzinger"
tokens = 16_000_000
at_least = 10
table = "Eytzinger ÷ lower_bound"

[[goal]]
title = "latency of the best ring kernel ÷ the stream floor's, up to ~64k tokens"
family = "latency"
kind = "ratio_up_to"
numerator = "best"
denominator = "floor"
tokens = 65_536
at_most = 10
table = "Latency ÷ stream"

[[goal]]
title = "time of `ring/lower_bound` ÷ the S-tree's on clustered tokens"
family = "clustered"
kind = "each_vs_reference"
numerator = ["ring/lower_bound"]
denominator = "ring/stree"
at_least = 10
table = "Clustered: lower_bound vs S-tree"
reference_name = "the S-tree"
'''


class FromTheFile(unittest.TestCase):
    """plot.py --goals FILE on the fixture: every goal of the file, computed
    by the one evaluator, and nothing of the package's own goals file."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        tmp = Path(cls.tmp.name)
        (tmp / "goals.toml").write_text(GOALS)
        cls.result = run([PYTHON, PLOT, str(FIXTURE), "--out", str(tmp), "--goals",
                          str(tmp / "goals.toml")])
        cls.report = (tmp / "report.md").read_text() if cls.result.returncode == 0 else ""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_verdicts(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        rows = table_rows(section(self.report, "## Goals"))
        self.assertEqual([r[1:] for r in rows], [
            ["4.67× (at 1,000,000 tokens)", "**goal met**"],  # 140 / 30 ≥ 4
            ["6.00× (at 16,000,000 tokens)", "**goal not met**"],  # 360 / 60 < 10
            ["worst 16.7× (`ring/bucketed` at 65,500 tokens) over 2 rings",  # 50 / 3 > 10
             "**goal not met**"],
            ["`ring/lower_bound` 9.38× to 13.8× of the S-tree's time; faster: "
             "`ring/lower_bound` at 1,000,000 tokens (9.38×)", "**goal not met**"]])
        self.assertEqual(rows[0][0], "speed-up of `ring/eytzinger` over `ring/lower_bound` at "
                                     "~1M tokens, at least 4×")

    def test_tables(self):
        rows = table_rows(section(self.report, "### Eytzinger ÷ lower_bound (family `tokens`)"))
        marked = {r[0]: r[-1] for r in rows}
        self.assertEqual(marked["1,000,000"], "~1M: ≥ 4×, goal met")
        self.assertEqual(marked["16,000,000"], "~16M: ≥ 10×, goal not met")
        self.assertEqual(marked["4,000,000"], "–")
        text = section(self.report, "### Latency ÷ stream (family `latency`)")
        self.assertIn("at every ring up to 65,500 tokens", text)
        self.assertEqual([r[0] for r in table_rows(text)], ["10", "65,500"])
        text = section(self.report, "### Clustered: lower_bound vs S-tree")
        self.assertIn("- Slower than the S-tree: `ring/lower_bound` at 65,500, 1,000,000, "
                      "16,000,000 tokens; `ring/eytzinger` at 65,500, 1,000,000, 16,000,000 "
                      "tokens; `ring/bucketed` at 65,500, 1,000,000, 16,000,000 tokens.", text)

    def test_only_the_files_goals(self):
        self.assertNotIn("stream baseline (family", self.report)
        # No [[ratio]] record: Ratios holds only what every run gets.
        ratios = self.report[self.report.index("## Ratios"):self.report.index("## Goals")]
        self.assertEqual([line for line in ratios.splitlines() if line.startswith("###")],
                         ["### 2 threads ÷ 1 thread (family `threads`)",
                          "### Ring vs rendezvous crossover (family `nodes`)"])


class Evaluator(unittest.TestCase):
    """goals.evaluate on records built in the test."""

    @classmethod
    def setUpClass(cls):
        cls.run_ = load.load(FIXTURE)

    def spec(self, **fields) -> goal_specs.GoalSpec:
        base = {"title": "t", "family": "tokens", "kind": "ratio_at_ring",
                "numerator": ("ring/lower_bound",), "denominator": "best",
                "table": "x", "tokens": 65_536}
        base.update(fields)
        return goal_specs.GoalSpec(**base)

    def test_met_and_not_met(self):
        # Best ring kernel at 65,500 tokens: bucketed, 3 ns/key; lower_bound 100.
        met = goals.evaluate(self.spec(at_least=33.0), self.run_)
        self.assertEqual((met.verdict, met.measured),
                         ("goal met", "33.3× (`ring/bucketed` at 65,500 tokens)"))
        missed = goals.evaluate(self.spec(at_least=34.0), self.run_)
        self.assertEqual(missed.verdict, "goal not met")
        self.assertEqual(missed.judged[0].point.tokens, 65_500)

    def test_not_measured(self):
        v = goals.evaluate(self.spec(numerator=("ring/nosuchkernel",), at_most=1.0), self.run_)
        self.assertEqual(v.verdict, "not measured")
        self.assertEqual(v.measured, "no ring of family `tokens` within 2× of 65,536 tokens "
                                     "with `ring/nosuchkernel`")

    def test_the_shipped_file(self):
        shipped = goal_specs.load_goals()
        self.assertEqual([g.kind for g in shipped.goals], [
            "ratio_at_ring", "ratio_at_ring", "ratio_up_to", "ratio_at_ring",
            "each_vs_reference", "simd_vs_rival_at_nodes", "best_at_most_every_n",
            "worst_over_best_n", "each_vs_floor_at_nodes", "pair_at_nodes", "pair_at_nodes",
            "pair_at_nodes", "pair_at_nodes", "replicas_ratio", "replicas_ratio",
            "replicas_ratio"])
        self.assertEqual([r.kind for r in shipped.ratios], ["pair", "simd", "simd"])
        for g in shipped.goals:
            self.assertNotRegex(g.title.lower(), r"issue|#\d")


class Malformed(unittest.TestCase):
    """A goals file that cannot be used: exit 2, one line, nothing written."""

    def check(self, text: str | None, expect: str):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "goals.toml"
            if text is not None:
                path.write_text(text)
            check_rejected(self, FIXTURE.read_bytes(), expect, ("--goals", str(path)))

    def test_missing_file(self):
        self.check(None, "cannot read goals file")

    def test_not_toml(self):
        self.check("[[goal]\ntitle = ", "is not valid TOML")

    def test_unknown_kind(self):
        self.check(GOALS.replace('"ratio_up_to"', '"ratio_sideways"', 1),
                   "goal 3: kind 'ratio_sideways' is not one of")

    def test_two_thresholds(self):
        self.check(GOALS.replace("at_least = 4\n", "at_least = 4\nat_most = 9\n", 1),
                   "goal 1: give exactly one of 'at_least' and 'at_most'")

    def test_unknown_field(self):
        self.check(GOALS.replace("tokens = 1_000_000", "tokenz = 1_000_000", 1),
                   "goal 1: unknown field 'tokenz'")

    def test_bad_operand(self):
        self.check(GOALS.replace('denominator = "ring/eytzinger"', 'denominator = "fastest"', 1),
                   "operand 'fastest' is neither scheme/kernel nor one of best, floor")

    def test_one_table_two_comparisons(self):
        self.check(GOALS.replace('table = "Latency ÷ stream"',
                                 'table = "Eytzinger ÷ lower_bound"'),
                   "goals of table 'Eytzinger ÷ lower_bound' differ")


if __name__ == "__main__":
    unittest.main()
