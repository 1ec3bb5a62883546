"""The floors beside the kernels (chbench_plots.floors): a run timed in
comparison groups (make_rounds_fixture) whose registry (make_fixture's) marks
the compute and random-read floors by "floor" and the stream floor by
"stream" alone, as a run from before the kinds did; each kernel's ratio to
each floor of its group in the report's tables and the dense section, the
floors in the plots, and a goal over the random-read floor."""

from __future__ import annotations

import dataclasses
import json
import tempfile
import unittest
from pathlib import Path

import make_rounds_fixture as rf
from plot_support import table_rows

from chbench_plots import (  # noqa: E402
    dense, dram, floors, goal_specs, goals, load, report, rings, style, tokens)


def floor_groups() -> list:
    """tokens: two ring kernels beside the stream (1 ns) and random-read (8 ns)
    floors at 10^5 tokens; dense: jump/simd (4 ns) and jump/scalar (20 ns)
    beside the compute floor (0.5 ns) at N = 1,000; dram: jump/simd (5 ns)
    beside the stream (1.25 ns) and compute (0.5 ns) floors at K = 10^7."""
    return [
        [(rf.name("tokens", "ring/eytzinger", 1000), rf.steady(40.0)),
         (rf.name("tokens", "ring/bucketed", 1000), rf.steady(20.0)),
         (rf.name("tokens", "ring/stream", 1000), rf.steady(1.0)),
         (rf.name("tokens", "ring/random_read", 1000), rf.steady(8.0))],
        [(rf.name("dense", "jump/scalar", 1000, v=1), rf.steady(20.0)),
         (rf.name("dense", "jump/simd", 1000, v=1), rf.steady(4.0)),
         (rf.name("dense", "modn/compute", 1000, v=1), rf.steady(0.5))],
        [(rf.name("dram", "jump/simd", 1000000, v=1, k=10000000), rf.steady(5.0)),
         (rf.name("dram", "ring/stream", 1000000, v=1, k=10000000), rf.steady(1.25)),
         (rf.name("dram", "modn/compute", 1000000, v=1, k=10000000), rf.steady(0.5))],
    ]


def load_floors() -> load.Run:
    """The run of floor_groups()."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.json"
        path.write_text(json.dumps(rf.build(floor_groups())))
        return load.load(path)


class Floors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bench = load_floors()
        cls.by_label = {(r.family, r.label): r for r in cls.bench.results}

    def result(self, family: str, label: str) -> load.Result:
        return self.by_label[(family, label)]

    def test_registry_kinds(self):
        registry = self.bench.registry
        self.assertEqual(registry.floor_kind("ring/stream"), "stream")  # "stream": true alone
        self.assertEqual(registry.floor_kind("modn/compute"), "compute")
        self.assertEqual(registry.floor_kind("ring/random_read"), "random_read")
        self.assertIsNone(registry.floor_kind("ring/bucketed"))
        self.assertEqual(registry.floors(), ["ring/stream"])
        self.assertEqual(registry.floors("compute"), ["modn/compute"])
        self.assertTrue(self.result("dense", "modn/compute").is_floor)
        self.assertFalse(self.result("dense", "jump/simd").is_floor)

    def test_ratios_to_each_floor_of_the_group(self):
        index = floors.by_point(self.bench.results)
        bucketed = self.result("tokens", "ring/bucketed")
        self.assertAlmostEqual(floors.ratio(bucketed, "random_read", index), 2.5, places=6)
        self.assertAlmostEqual(floors.ratio(bucketed, "stream", index), 20.0, places=6)
        self.assertIsNone(floors.ratio(bucketed, "compute", index))
        jump = self.result("dram", "jump/simd")
        self.assertAlmostEqual(floors.ratio(jump, "stream", index), 4.0, places=6)
        self.assertAlmostEqual(floors.ratio(jump, "compute", index), 10.0, places=6)
        floor = self.result("tokens", "ring/random_read")
        self.assertIsNone(floors.ratio(floor, "random_read", index))
        self.assertEqual(floors.ratio_cell(floor, "stream", index), "8.00×")

    def test_report_tables(self):
        text = "\n".join(report.tables_section(self.bench))
        start = text.index("### Family `tokens`")
        table = text[start:text.index("### Family", start + 1)]
        self.assertIn("| × stream floor | × random-read floor |", table)
        cells = {row[0]: row[-2:] for row in table_rows(table)}
        self.assertEqual(cells["`ring/bucketed`"], ["20.0×", "2.50×"])
        self.assertEqual(cells["`ring/eytzinger`"], ["40.0×", "5.00×"])
        self.assertEqual(cells["`ring/random_read`"], ["8.00×", "–"])
        start = text.index("### Family `dram`")
        self.assertIn("| × stream floor | × compute floor |", text[start:])
        cells = {row[0]: row[-2:] for row in table_rows(text[start:])}
        self.assertEqual(cells["`jump/simd`"], ["4.00×", "10.0×"])

    def test_dense_section_divides_by_the_compute_floor(self):
        analysis = dense.analyse(self.bench)
        self.assertEqual([row.label for row in analysis.kernels], ["jump/scalar", "jump/simd"])
        by_label = {row.label: row for row in analysis.kernels}
        self.assertAlmostEqual(by_label["jump/simd"].over_floor[1000], 8.0, places=6)
        self.assertAlmostEqual(by_label["jump/scalar"].over_floor[1000], 40.0, places=6)
        text = "\n".join(dense.section(analysis))
        self.assertIn("× compute floor", text)
        self.assertIn("| CV % | × compute floor | N = 1,000,000 ns/key |", text)
        cells = {row[0]: row[1:7] for row in table_rows(text[:text.index("### SIMD")])}
        self.assertEqual(cells["`jump/simd`"][2:], ["8.00×", "–", "–", "–"])

    def test_goals_floor_is_the_stream_floor(self):
        point, = rings.ring_points(self.bench, "tokens")
        self.assertEqual(goals.resolve("floor", point).label, "ring/stream")
        self.assertEqual(point.best().label, "ring/bucketed")

    def test_goal_over_the_random_read_floor(self):
        # The shipped goal's form at this run's ring: bucketed 20 ÷ random-read 8 ns/key.
        shipped = next(g for g in goal_specs.load_goals().goals
                       if g.denominator == "ring/random_read")
        self.assertEqual((shipped.numerator, shipped.kind), (("best",), "ratio_at_ring"))
        spec = dataclasses.replace(shipped, tokens=100_000, at_most=3.0)
        met = goals.evaluate(spec, self.bench)
        self.assertEqual((met.verdict, met.measured),
                         ("goal met", "2.50× (95 % interval 2.50–2.50) (`ring/bucketed` at "
                                      "100,000 tokens)"))
        missed = goals.evaluate(dataclasses.replace(spec, at_most=2.0), self.bench)
        self.assertEqual(missed.verdict, "goal not met")
        self.assertEqual(goals.evaluate(shipped, self.bench).verdict, "not measured")

    def test_styles_tell_the_floors_apart(self):
        plot_style = style.Style(self.bench.results)
        kws = [plot_style.kw(label, "x")
               for label in ("ring/stream", "modn/compute", "ring/random_read")]
        self.assertEqual({kw["color"] for kw in kws}, {"0.3"})
        self.assertEqual(len({str(kw["linestyle"]) for kw in kws}), 3)
        self.assertEqual(plot_style.legend("ring/random_read"),
                         "random-read floor (ring/random_read: no lookup)")
        self.assertNotIn("modn/compute", plot_style.index)

    def test_plots_draw_the_floors(self):
        from matplotlib.figure import Figure

        plot_style = style.Style(self.bench.results)
        fig = tokens.figure(self.bench, Figure, plot_style)
        self.assertIn("random-read floor (dash-dot)", fig.axes[0].get_title())
        fig = dram.figure(Figure, plot_style, dram.dram_points(self.bench))
        ax = fig.axes[0]
        self.assertIn("grey short dashes: compute floor", ax.get_title())
        labels = ax.get_legend_handles_labels()[1]
        self.assertIn("compute floor (modn/compute)", labels)
        fig = dense.figure(self.bench, Figure, plot_style)
        self.assertIn("compute floor (short dashes)", fig.axes[0].get_title())


if __name__ == "__main__":
    unittest.main()
