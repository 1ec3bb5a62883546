"""Family "replicas" in plot.py: replicas.png (one panel per scheme and
ring, ns/key against R, each point's ratio to R = 1) from a small run made
here, and the report showing it."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from support import PYTHON, run
from test_plot import PLOT, bench_json, entry

# support puts scripts/ on sys.path.
from chbench_plots import load, replicas  # noqa: E402
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


class Figure(unittest.TestCase):
    """replicas.figure() on the run, in process."""

    def draw(self, entries: list):
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "bench.json"
            src.write_text(bench_json(entries))
            run_ = load.load(src)
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


if __name__ == "__main__":
    unittest.main()
