"""Family "weighted" in plot.py: weighted.png (one group of bars per N, each
bar its ns/key, the SIMD bar also its speed-up over the scalar rival) from a
small run made here, and the report showing it."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from make_fixture import KERNELS
from support import PYTHON, run
from plot_support import PLOT, bench_json, entry

# support puts scripts/ on sys.path.
from chbench_plots import load, weighted  # noqa: E402
from chbench_plots.style import Style, import_matplotlib  # noqa: E402

NAME = "weighted/hrw_weighted/{}/N:{}/V:1/K:1000/threads:1/weights:1-4"
# kernel, N, ns/key (chosen so the speed-ups are exact: 5x and 8x).
NS = (("scalar", 64, 100.0), ("simd", 64, 20.0), ("scalar", 1000, 1600.0), ("simd", 1000, 200.0))


def weighted_json(noisy: str = "", target: str = "") -> str:
    """The run of NS, the configuration named `noisy` flagged noisy, the SIMD
    kernel's entries labelled with Highway target `target` (none if empty)."""
    entries = []
    for kernel, n, ns in NS:
        name = NAME.format(kernel, n)
        label = {"label": target} if target and kernel == "simd" else {}
        entries.append(entry(name, ns, nodes=float(n), vnodes=1.0,
                             noisy=1.0 if name == noisy else 0.0, **label))
    return bench_json(entries, kernels=KERNELS)


class Figure(unittest.TestCase):
    """weighted.figure() on the run, in process."""

    def draw(self, noisy: str = ""):
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "bench.json"
            src.write_text(weighted_json(noisy))
            run_ = load.load(src)
        return weighted.figure(run_, import_matplotlib(), Style(run_.results))

    def test_bars_and_speedups(self):
        ax = self.draw().get_axes()[0]
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()],
                         ["N = 64", "N = 1,000"])
        self.assertEqual(sorted(t.get_text() for t in ax.texts),
                         sorted(["100 ns", "1,600 ns", "20.0 ns\n5.00×", "200 ns\n8.00×"]))

    def test_noisy_bar_marked(self):
        ax = self.draw(noisy=NAME.format("simd", 1000)).get_axes()[0]
        self.assertTrue(any("noisy" in t.get_text() for t in ax.get_legend().get_texts()))
        quiet = self.draw().get_axes()[0]
        self.assertFalse(any("noisy" in t.get_text() for t in quiet.get_legend().get_texts()))


class Report(unittest.TestCase):
    """plot.py writes weighted.png and the report shows it."""

    def report(self, target: str = "") -> str:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "bench.json"
            src.write_text(weighted_json(target=target))
            result = run([PYTHON, PLOT, str(src), "--out", tmp])
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertTrue((Path(tmp) / "weighted.png").is_file())
            return (Path(tmp) / "report.md").read_text()

    @staticmethod
    def goal(report: str) -> str:
        return next(line for line in report.splitlines()
                    if line.startswith("| speed-up of `hrw_weighted/simd`"))

    def test_report_shows_plot(self):
        report = self.report()
        self.assertIn("![Weighted rendezvous](weighted.png)", report)
        self.assertNotIn("no usable `weighted`", report)

    def test_goal_per_target(self):
        # 5x and 8x: met at AVX3's 4x and AVX2's 1.5x; with no target known,
        # no threshold applies.
        self.assertRegex(self.goal(self.report("AVX3")),
                         r"at least 4× \(the AVX3 threshold; AVX2: 1.5×\) \| worst 5(\.00)?× "
                         r"\(at N = 64\).*\*\*goal met\*\*")
        self.assertRegex(self.goal(self.report("AVX2")), r"the AVX2 threshold.*\*\*goal met\*\*")
        self.assertIn("not measured", self.goal(self.report()))


if __name__ == "__main__":
    unittest.main()
