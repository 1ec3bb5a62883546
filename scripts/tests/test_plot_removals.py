"""Family "removals" in plot.py: removals.png, removals_memory.png, the
report's section (ns/key at every removed share; at the largest share the
bytes, build and rebuild times) and the names' `/removed:<pct>/order:<o>`."""

from __future__ import annotations

import struct
import tempfile
import unittest
from pathlib import Path

from support import FIXTURE, PYTHON, run
from plot_support import PLOT, OnTheFixture, bench_json, entry, section, table_rows

# support puts scripts/ on sys.path.
from chbench_plots import load, removals  # noqa: E402

# make_fixture.REMOVALS_NS: kernel, N, then ns/key at 0, 10, 50 and 90 % removed.
LOOKUP_ROWS = [
    ["`ring/eytzinger`", "1,000", "20.0", "19.0", "16.0", "12.0"],
    ["`ring/eytzinger`", "1,000,000", "60.0", "58.0", "50.0", "36.0"],
    ["`hrw/scalar`", "1,000", "500", "450", "250", "50.0"],
    ["`jump/simd (LIFO)`", "1,000", "4.00", "4.00", "3.60", "3.20"],
    ["`jump/simd (LIFO)`", "1,000,000", "8.00", "8.00", "7.20", "6.40"],
    ["`maglev/simd`", "1,000", "2.00", "2.10", "2.20", "2.40"],
]
# At 90 % removed: survivors 100 (N = 1,000) and 100,000 (10^6); the ring
# 10,000 and 10^6 tokens of 12 B (+ 12) at 40 ns a token; rendezvous 8 B and
# 10 ns a survivor; Maglev 65,537 four-byte slots, 3 ms; jump 0 B, 1 µs;
# remove 0.9 ×, re-add 1.1 × the build.
COST_ROWS = [
    ["`ring/eytzinger`", "1,000", "12.0", "117 KiB", "0.400", "360", "440"],
    ["`ring/eytzinger`", "1,000,000", "36.0", "11.4 MiB", "40.0", "36,000", "44,000"],
    ["`hrw/scalar`", "1,000", "50.0", "800 B", "0.00100", "0.900", "1.10"],
    ["`jump/simd (LIFO)`", "1,000", "3.20", "0 B", "0.00100", "0.900", "1.10"],
    ["`jump/simd (LIFO)`", "1,000,000", "6.40", "0 B", "0.00100", "0.900", "1.10"],
    ["`maglev/simd`", "1,000", "2.40", "256 KiB", "3.00", "2,700", "3,300"],
]
REMOVED = "removals/{}/N:{}/V:1/K:1000/threads:1/removed:{}/order:{}"


class FixtureRemovals(OnTheFixture):
    """plot.py on the fixture: the plots and the section of family removals."""

    def test_plots_are_real_pngs(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        for name, title in (("removals.png", "Lookup cost after removals"),
                            ("removals_memory.png", "Memory after removals vs node count")):
            data = (self.out / name).read_bytes()
            self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
            width, height = struct.unpack(">II", data[16:24])
            self.assertGreaterEqual((width, height), (1000, 600))
            self.assertIn(f"![{title}]({name})", self.report)

    def test_lookup_table(self):
        text = section(self.report, "## Removals (family `removals`)")
        self.assertIn("K = 20,000, 100,000", text)
        head = text.splitlines()[4]
        self.assertEqual(head, "| kernel | N | 0 % removed ns/key | 10 % removed ns/key | "
                               "50 % removed ns/key | 90 % removed ns/key |")
        self.assertEqual(table_rows(text), LOOKUP_ROWS)

    def test_cost_table(self):
        rows = table_rows(section(self.report, "### At 90 % removed: memory, build and rebuild"))
        self.assertEqual(rows, COST_ROWS)

    def test_family_table_has_share_and_order(self):
        rows = table_rows(section(self.report, "### Family `removals`"))
        self.assertEqual(len(rows), 24)
        # kernel, N, V, tokens, K, removed %, order, ns/key, ...
        self.assertEqual(rows[3][:8], ["`ring/eytzinger`", "1,000", "100", "10,000", "100,000",
                                       "90", "random", "12.0"])
        self.assertEqual(rows[12][5:8], ["0", "lifo", "4.00"])

    def test_names_parsed(self):
        run_ = load.load(FIXTURE)
        results = removals.family_results(run_)
        self.assertEqual(len(results), 24)
        jump = [r for r in results if r.label == "jump/simd"]
        self.assertEqual({r.removal_order for r in jump}, {"lifo"})
        self.assertEqual(jump[0].order_label, "jump/simd (LIFO)")
        ring = next(r for r in results if r.label == "ring/eytzinger" and r.removed_pct == 50
                    and r.nodes == 1_000_000)
        self.assertEqual((ring.survivors, ring.tokens, ring.remove_us, ring.readd_us),
                         (500_000, 5_000_000, 180_000.0, 220_000.0))
        self.assertEqual(removals.memory_percent(run_), 90.0)  # ties: the largest


class SmallRuns(unittest.TestCase):
    """Runs made here: a share that is not whole, no family, no table."""

    def render(self, entries: list) -> tuple:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "bench.json"
            src.write_text(bench_json(entries))
            result = run([PYTHON, PLOT, str(src), "--out", tmp])
            self.assertEqual(result.returncode, 0, result.stderr)
            files = sorted(p.name for p in Path(tmp).iterdir())
            return (Path(tmp) / "report.md").read_text(), files, result.stderr

    def test_fractional_share_and_fifo(self):
        entries = [entry(REMOVED.format("ring/eytzinger", 8, pct, "fifo"), ns,
                         memory_bytes=1000.0 - pct, build_ms=0.5, remove_us=400.0,
                         readd_us=450.0)
                   for pct, ns in ((0, 10.0), (12.5, 9.0))]
        report, files, stderr = self.render(entries)
        self.assertEqual(stderr, "")
        self.assertIn("removals.png", files)
        self.assertIn("removals_memory.png", files)
        text = section(report, "## Removals (family `removals`)")
        self.assertEqual(table_rows(text), [["`ring/eytzinger (FIFO)`", "8", "10.0", "9.00"]])
        self.assertEqual(table_rows(section(report, "### At 12.5 % removed")),
                         [["`ring/eytzinger (FIFO)`", "8", "9.00", "987 B", "0.500", "400",
                           "450"]])

    def test_no_table_no_memory_plot(self):
        entries = [entry(REMOVED.format("jump/scalar", 1000, pct, "lifo"), 10.0,
                         memory_bytes=0.0) for pct in (0, 50)]
        report, files, _ = self.render(entries)
        self.assertIn("removals.png", files)
        self.assertNotIn("removals_memory.png", files)
        self.assertIn("Not drawn: no usable `removals` results in this run.", report)

    def test_no_family_no_plot(self):
        report, files, _ = self.render([entry("nodes/jump/scalar/N:1000/V:100/K:1000/threads:1",
                                              8.0)])
        self.assertNotIn("removals.png", files)
        self.assertIn("No `removals` results in this run.", report)


if __name__ == "__main__":
    unittest.main()
