"""The run describes itself: its families (order, titles, parameters) and
name segments (context chbench_families) as the scripts read them, the
fallback for a run from before, family "bounded" in the report and its plot,
and the goals checked against the run's registry."""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from make_fixture import families_text, registry_text
from support import PYTHON, run
from plot_support import PLOT, bench_json, entry, load_text, section, table_rows

# support puts scripts/ on sys.path.
from chbench_plots import bounded, families, goal_names, goal_specs  # noqa: E402
from chbench_plots.errors import InputError  # noqa: E402
from chbench_plots.style import Style, import_matplotlib  # noqa: E402

BOUNDED = "bounded/ring/bucketed/N:100/V:100/K:1000/threads:{}{}"
# threads -> ns/key without a bound, then at c = 1.05, 1.25, 2.
BOUNDED_NS = {1: (1.0, 4.5, 2.5, 2.0), 2: (1.2, 9.0, 6.0, 4.8)}


def bounded_entries() -> list:
    """The family's configurations: the plain lookup and three c per thread count."""
    out = []
    for threads, times in BOUNDED_NS.items():
        for c, ns in zip(("", "/c:1.05", "/c:1.25", "/c:2"), times):
            out.append(entry(BOUNDED.format(threads, c), ns, nodes=100.0, vnodes=100.0))
    return out


def described() -> dict:
    """A context as the bench writes it now: registry and families."""
    return {"chbench_registry": registry_text(), "chbench_families": families_text()}


class Description(unittest.TestCase):
    """families.from_context and the run's order, titles and parameters."""

    def test_order_titles_and_params_from_the_run(self):
        entries = bounded_entries() + [
            entry("tokens/ring/eytzinger/N:10/V:1/K:1000/threads:1", 3.0),
            entry("custom/ring/eytzinger/N:10/V:1/K:1000/threads:1", 3.0)]
        run_ = load_text(bench_json(entries, described()))
        # The bench's order (tokens before bounded), then a family it does not list.
        self.assertEqual(run_.families(), ["tokens", "bounded", "custom"])
        self.assertEqual(run_.family_title("bounded"), "bounded (fixture)")
        self.assertEqual(run_.family_title("custom"), "custom")
        self.assertEqual([s.key for s in run_.family_params("bounded")],
                         ["N", "V", "K", "threads", "c"])
        self.assertEqual([s.key for s in run_.family_params("custom")],
                         ["N", "V", "K", "threads"])
        self.assertTrue(run_.described.described)

    def test_parameters_come_from_the_name_by_its_segments(self):
        # A segment the description defines is read; the counters never are.
        text = json.loads(families_text())
        text["segments"].append({"key": "z", "field": "zeta", "kind": "number", "title": "ζ"})
        ctx = described() | {"chbench_families": json.dumps(text)}
        name = "bounded/ring/bucketed/N:100/V:100/K:1000/threads:2/c:1.25/z:0.5"
        run_ = load_text(bench_json([entry(name, 2.0, nodes=7.0, balance_factor=9.0)], ctx))
        r = run_.results[0]
        self.assertEqual((r.nodes, r.threads, r.balance_factor), (100, 2, 1.25))
        self.assertEqual(r.params["zeta"], 0.5)
        self.assertEqual(run_.warnings, [])

    def test_fallback_for_a_run_from_before(self):
        # No chbench_families: the segments the bench wrote then, the
        # families in the order the names first show them.
        entries = bounded_entries() + [entry("tokens/ring/eytzinger/N:10/V:1/K:1000/threads:1",
                                             3.0)]
        run_ = load_text(bench_json(entries))
        self.assertFalse(run_.described.described)
        self.assertEqual(run_.families(), ["bounded", "tokens"])
        self.assertEqual([s.key for s in run_.family_params("bounded")],
                         ["N", "V", "K", "threads", "c"])
        self.assertEqual(sorted({r.balance_factor for r in run_.results if r.balance_factor}),
                         [1.05, 1.25, 2.0])

    def test_corrupt_descriptions_are_one_clear_error(self):
        for text, expect in (("{oops", "is not valid JSON"),
                             ('{"segments": [], "families": 1}', 'has no "families" list'),
                             ('{"segments": [{"key": "N", "field": "nodes", "kind": "float", '
                              '"title": "N"}], "families": []}', 'kind "float", not one of'),
                             ('{"segments": [], "families": [{"name": "tokens"}]}',
                              'family 0 has no "title" string')):
            with self.subTest(text):
                with self.assertRaises(InputError) as caught:
                    families.from_context({"chbench_families": text}, "run.json")
                self.assertIn(expect, str(caught.exception))
                self.assertTrue(str(caught.exception).startswith("run.json: context "))


class Bounded(unittest.TestCase):
    """Family "bounded": its plot and its tables in the report."""

    def test_figure_bars_and_ratio_labels(self):
        run_ = load_text(bench_json(bounded_entries(), described()))
        fig = bounded.figure(run_, import_matplotlib(), Style(run_.results))
        ax = fig.get_axes()[0]
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()],
                         ["ring/bucketed\n1 thread", "ring/bucketed\n2 threads"])
        labels = [t.get_text() for t in ax.texts]
        self.assertEqual(labels, ["1.00", "4.50\n4.50×", "2.50\n2.50×", "2.00\n2.00×",
                                  "1.20", "9.00\n7.50×", "6.00\n5.00×", "4.80\n4.00×"])
        self.assertEqual([t.get_text() for t in ax.get_legend().get_texts()],
                         ["no bound", "c = 1.05", "c = 1.25", "c = 2"])

    def test_report_tables_and_plot(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "bench.json"
            src.write_text(bench_json(bounded_entries(), described()))
            result = run([PYTHON, PLOT, str(src), "--out", tmp, "--format", "png"])
            self.assertEqual(result.returncode, 0, result.stderr)
            report = (Path(tmp) / "report.md").read_text()
            self.assertGreater((Path(tmp) / "bounded.png").stat().st_size, 10_000)
        self.assertIn("![Bounded loads](bounded.png)", report)
        rows = table_rows(section(report, "## Bounded loads"))
        self.assertEqual(rows, [["`ring/bucketed`", "1", "1.00", "4.50 (4.50×)",
                                 "2.50 (2.50×)", "2.00 (2.00×)"],
                                ["`ring/bucketed`", "2", "1.20", "9.00 (7.50×)",
                                 "6.00 (5.00×)", "4.80 (4.00×)"]])
        family = section(report, "### Family `bounded`")
        self.assertIn("Fixed: N = 100, V = 100, tokens = 10,000, K = 1,000.", family)
        # The c column tells the rows apart.
        self.assertEqual([row[1:3] for row in table_rows(family)],
                         [["1", "–"], ["1", "1.05"], ["1", "1.25"], ["1", "2"],
                          ["2", "–"], ["2", "1.05"], ["2", "1.25"], ["2", "2"]])


TYPO = """[[goal]]
title = "eytzinger over lower_bound"
family = "nodes"
kind = "pair_at_nodes"
numerator = "ring/lower_bound"
denominator = "ring/eytzinger"
nodes = [1000]
at_least = 2
table = "Eytzinger"

[[goal]]
title = "the fastest jumpbak kernel"
family = "dense"
kind = "best_at_most_every_n"
scheme = "jumpbak"
at_most = 1
table = "JumpBack"
"""


class GoalNames(unittest.TestCase):
    """goal_names.check_kernels: the goals' names against the run's registry."""

    def goals(self) -> goal_specs.Goals:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "goals.toml"
            path.write_text(TYPO)
            return goal_specs.load_goals(path)

    def test_unknown_scheme_is_an_error(self):
        run_ = load_text(bench_json(bounded_entries(), described()))
        with self.assertRaises(InputError) as caught:
            goal_names.check_kernels(self.goals(), run_, "goals.toml")
        self.assertEqual(str(caught.exception),
                         'goals file goals.toml: goal "the fastest jumpbak kernel" names scheme '
                         '"jumpbak", which is no scheme of the run\'s registry; did you mean '
                         '"jumpback"?')

    def test_the_package_goals_name_only_registry_kernels(self):
        run_ = load_text(bench_json(bounded_entries(), described()))
        goal_names.check_kernels(goal_specs.load_goals(), run_, "goals.toml")

    def test_a_run_from_before_is_not_checked(self):
        # Its registry may predate a scheme the goals name.
        run_ = load_text(bench_json(bounded_entries()))
        goal_names.check_kernels(self.goals(), run_, "goals.toml")

    def test_a_run_from_before_the_floors_is_not_checked(self):
        # Described, but its registry marks the stream floor alone: the goal
        # over the random-read floor is "not measured" there, not an error.
        registry = json.loads(registry_text())
        registry["kernels"] = [k for k in registry["kernels"] if k.get("floor") is None]
        run_ = load_text(bench_json(bounded_entries(),
                                    {**described(), "chbench_registry": json.dumps(registry)}))
        self.assertTrue(goal_names.predates_floors(run_.registry))
        goal_names.check_kernels(goal_specs.load_goals(), run_, "goals.toml")
        self.assertFalse(goal_names.predates_floors(
            load_text(bench_json(bounded_entries(), described())).registry))


if __name__ == "__main__":
    unittest.main()
