"""Family "dram" in plot.py: dram.png (one group of bars per fleet, the
stream floor across it, each bar's time ÷ the floor above it) from a small
run made here, and the report showing it."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from make_fixture import KERNELS, STREAM
from support import PYTHON, run
from plot_support import PLOT, bench_json, entry, load_text

# support puts scripts/ on sys.path.
from chbench_plots import dram  # noqa: E402
from chbench_plots.style import Style, import_matplotlib  # noqa: E402

NAME = "dram/{}/N:{}/V:1/K:10000000/threads:1"
# kernel, N, ns/key: the floor 1.25 ns, the kernels 2x and 8x it at 10^6,
# 3x at 1,000 (the ratios exact in binary).
NS = ((STREAM, 1_000_000, 1.25), ("jumpback/simd", 1_000_000, 2.5), ("jump/simd", 1_000_000, 10.0),
      (STREAM, 1000, 1.25), ("jumpback/simd", 1000, 3.75))


def dram_json(without_floor: bool = False) -> str:
    """The run of NS, or of NS without the stream floor."""
    entries = [entry(NAME.format(kernel, n), ns, nodes=float(n), vnodes=1.0, keys=1e7)
               for kernel, n, ns in NS if not (without_floor and kernel == STREAM)]
    return bench_json(entries, kernels=KERNELS)


class Points(unittest.TestCase):
    """dram.dram_points(): one point per fleet, N ascending, the floor in each."""

    def test_fleets_and_floors(self):
        points = dram.dram_points(load_text(dram_json()))
        self.assertEqual([p.nodes for p in points], [1000, 1_000_000])
        self.assertEqual([p.floor().ns for p in points], [1.25, 1.25])
        self.assertEqual(sorted(points[1].kernels), sorted([STREAM, "jumpback/simd", "jump/simd"]))
        self.assertEqual(points[0].caption(), "N = 1,000")


class Figure(unittest.TestCase):
    """dram.figure() in process: the ratios to the floor above the bars."""

    def draw(self, without_floor: bool = False):
        run_ = load_text(dram_json(without_floor))
        return dram.figure(import_matplotlib(), Style(run_.results), dram.dram_points(run_))

    def test_ratios_to_the_floor(self):
        ax = self.draw().get_axes()[0]
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()],
                         ["N = 1,000", "N = 1,000,000"])
        self.assertEqual(sorted(t.get_text() for t in ax.texts),
                         sorted(["3.00×", "2.00×", "8.00×"]))

    def test_nothing_without_a_floor(self):
        self.assertIsNone(self.draw(without_floor=True))


class Report(unittest.TestCase):
    """plot.py writes dram.png and the report shows it."""

    def test_report_shows_plot(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "bench.json"
            src.write_text(dram_json())
            result = run([PYTHON, PLOT, str(src), "--out", tmp, "--format", "png"])
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertTrue((Path(tmp) / "dram.png").is_file())
            report = (Path(tmp) / "report.md").read_text()
        self.assertIn("![Batches from memory, beside the stream floor](dram.png)", report)


if __name__ == "__main__":
    unittest.main()
