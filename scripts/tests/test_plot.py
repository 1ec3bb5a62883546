"""Tests of scripts/plot.py: outputs, report numbers, tolerance, bad input."""

from __future__ import annotations

import json
import re
import statistics
import struct
import tempfile
import unittest
from pathlib import Path

from support import FIXTURE, PYTHON, SCRIPTS, TESTS, run, snapshot

import plot  # noqa: E402  (support puts scripts/ on sys.path)

PLOT = str(SCRIPTS / "plot.py")
PNGS = ("ring_tokens.png", "schemes_nodes.png", "threads.png", "batch.png", "hashed.png")


def section(text: str, heading: str) -> str:
    """The text of a Markdown section, from its heading to the next of any level."""
    start = text.index(heading)
    rest = text[start + len(heading):]
    nxt = re.search(r"^#{1,6} ", rest, flags=re.M)
    return rest[:nxt.start()] if nxt else rest


def table_rows(text: str) -> list:
    """Cells of each Markdown table row (header and separator excluded)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows[1:] if rows else rows


def bench_json(entries: list, context: dict | None = None) -> str:
    """A minimal report around the given entries."""
    return json.dumps({"context": context or {}, "benchmarks": entries})


def entry(name: str, ns: float, **fields) -> dict:
    """One iteration entry of the contract, counters included."""
    e = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": 1,
         "repetition_index": 0, "threads": 1, "iterations": 10, "real_time": ns * 1000,
         "cpu_time": ns * 1000, "time_unit": "ns", "keys": 1000.0, "ns_per_key": ns,
         "keys_per_second": 1e9 / ns}
    e.update(fields)
    return e


class FixtureReport(unittest.TestCase):
    """plot.py on the fixture: files, and the numbers the fixture was made for."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = Path(cls.tmp.name)
        cls.result = run([PYTHON, PLOT, str(FIXTURE), "--out", str(cls.out)])
        cls.report = (cls.out / "report.md").read_text() if cls.result.returncode == 0 else ""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_exit_status_and_quiet(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertEqual(self.result.stderr, "")

    def test_pngs_are_real_images(self):
        for name in PNGS:
            data = (self.out / name).read_bytes()
            self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n", name)
            width, height = struct.unpack(">II", data[16:24])
            self.assertGreaterEqual(width, 1000, name)
            self.assertGreaterEqual(height, 600, name)
            self.assertGreater(len(data), 20_000, name)

    def test_only_expected_files(self):
        self.assertEqual(sorted(p.name for p in self.out.iterdir()),
                         sorted(PNGS + ("report.md",)))

    def test_report_links_every_plot(self):
        for name in PNGS:
            self.assertIn(f"]({name})", self.report)

    def test_eytzinger_over_lower_bound(self):
        # Fixture: lower_bound 90 and 140 ns/key, eytzinger 30 and 40 ns/key at
        # 1,000,000 and 4,000,000 tokens; smaller rings are not compared.
        rows = table_rows(section(self.report, "### Eytzinger ÷ lower_bound"))
        self.assertEqual([(r[0], r[4], r[5], r[6]) for r in rows],
                         [("1,000,000", "90.0", "30.0", "3.00×"),
                          ("4,000,000", "140", "40.0", "3.50×")])

    def test_two_threads_over_one(self):
        rows = table_rows(section(self.report, "### 2 threads ÷ 1 thread"))
        got = {r[0]: tuple(r[1:]) for r in rows}
        self.assertEqual(got, {
            "`ring/lower_bound`": ("1,000", "3,000,000", "60.0", "31.0", "1.94×", "2"),
            "`ring/eytzinger`": ("1,000", "3,000,000", "30.0", "16.5", "1.82×", "2"),
            "`hrw/scalar`": ("1,000", "3,000,000", "500", "252", "1.98×", "2"),
            "`jump/scalar`": ("1,000", "3,000,000", "14.0", "8.00", "1.75×", "2"),
            "`modn/scalar`": ("1,000", "3,000,000", "1.20", "0.900", "1.33×", "2"),
        })  # 60/31, 30/16.5, 500/252, 14/8, 1.2/0.9

    def test_crossover(self):
        # hrw/best ring: 6/9.6 at N = 10 and 16/10 at N = 30, symmetric in log
        # space, so the curves cross at sqrt(10 * 30) = 17.32.
        text = section(self.report, "### Ring vs rendezvous crossover")
        self.assertIn("**N ≈ 17.3**", text)
        self.assertIn("below it rendezvous is faster", text)
        self.assertIn("`ring/eytzinger`", text)

    def test_table_row_matches_fixture(self):
        fixture = json.loads(FIXTURE.read_text())
        name = "tokens/ring/eytzinger/N:1000/V:4000/K:300000/threads:1/real_time"
        samples = [e["ns_per_key"] for e in fixture["benchmarks"]
                   if e["run_name"] == name and e["run_type"] == "iteration"]
        cv = statistics.stdev(samples) / statistics.fmean(samples) * 100
        rows = table_rows(section(self.report, "### Family `tokens`"))
        row = next(r for r in rows if r[0] == "`ring/eytzinger`" and r[1] == "4,000")
        self.assertEqual(row[2:7], ["4,000,000", "40.0", "25.0 M", plot.sig3(cv), "3"])

    def test_every_family_has_a_table(self):
        for family in ("tokens", "nodes", "batch", "threads", "hashed"):
            self.assertIn(f"### Family `{family}`", self.report)

    def test_hashing_cost_column(self):
        rows = table_rows(section(self.report, "### Family `hashed`"))
        row = next(r for r in rows if r[0] == "`modn/scalar`")
        self.assertEqual(row[-3:-1], ["1.10", "6.20"])  # lookup only, hashing

    def test_context(self):
        ctx = section(self.report, "## Machine and build")
        for text in ("AMD EPYC", "AVX3", "GNU 12.2.0", "2021.8.0", "0123abc", "quick",
                     "L2 1.00 MiB"):
            self.assertIn(text, ctx)
        self.assertNotIn("library_build_type", self.report)

    def test_checks_clean(self):
        self.assertIn("Nothing to report", section(self.report, "## Checks"))


class BadInput(unittest.TestCase):
    """Unusable input: exit 2, one line on stderr, nothing written."""

    def check_rejected(self, content: bytes | None, expect: str):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            src = tmp / "bench.json"
            if content is not None:
                src.write_bytes(content)
            out = tmp / "out"
            out.mkdir()
            (out / "keep.txt").write_text("earlier")
            before = snapshot(out)
            result = run([PYTHON, PLOT, str(src), "--out", str(out)])
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertEqual(result.stdout, "")
            lines = result.stderr.splitlines()
            self.assertEqual(len(lines), 1, result.stderr)
            self.assertTrue(lines[0].startswith("plot.py: error: "), lines[0])
            self.assertIn(expect, lines[0])
            self.assertEqual(snapshot(out), before)

    def test_corrupt(self):
        self.check_rejected(b'{"context": {}, "benchmarks": [ {"name": oops', "not valid JSON")

    def test_truncated(self):
        data = FIXTURE.read_bytes()
        self.check_rejected(data[: len(data) // 2], "not valid JSON")

    def test_empty_benchmarks(self):
        self.check_rejected(b'{"context": {"date": "x"}, "benchmarks": []}', "no benchmarks")

    def test_missing_benchmarks(self):
        self.check_rejected(b'{"context": {}}', "no benchmarks")

    def test_not_an_object(self):
        self.check_rejected(b"[1, 2, 3]", "not a Google Benchmark report")

    def test_no_chbench_names(self):
        self.check_rejected(bench_json([entry("BM_Other/64", 5.0)]).encode(),
                            "no chbench benchmarks")

    def test_empty_file(self):
        self.check_rejected(b"", "is empty")

    def test_binary_garbage(self):
        self.check_rejected(b"\xff\xfe\x00\x81garbage", "not valid JSON")

    def test_missing_file(self):
        self.check_rejected(None, "cannot read")

    def test_missing_out_dir(self):
        with tempfile.TemporaryDirectory() as tmp:
            result = run([PYTHON, PLOT, str(FIXTURE), "--out", str(Path(tmp) / "nope")])
            self.assertEqual(result.returncode, 2)
            self.assertIn("does not exist", result.stderr)
            self.assertEqual(list(Path(tmp).iterdir()), [])

    def test_help(self):
        result = run([PYTHON, PLOT, "--help"])
        self.assertEqual(result.returncode, 0)
        self.assertIn("--out", result.stdout)


class Tolerance(unittest.TestCase):
    """Inputs that differ from the fixture but are still usable."""

    def render(self, text: str) -> tuple:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "bench.json"
            src.write_text(text)
            result = run([PYTHON, PLOT, str(src), "--out", tmp])
            self.assertEqual(result.returncode, 0, result.stderr)
            report = (Path(tmp) / "report.md").read_text()
            files = sorted(p.name for p in Path(tmp).iterdir())
        return report, files, result.stderr

    def test_single_repetition_minimal_counters(self):
        # No aggregates, no tokens/memory/threads_ran counters, a time unit of us,
        # no ns_per_key: ns/key comes from real_time / keys.
        entries = []
        for v, ns in ((10, 20.0), (1000, 90.0)):
            e = entry(f"tokens/ring/lower_bound/N:1000/V:{v}/K:1000/threads:1", ns)
            del e["ns_per_key"]
            e["real_time"], e["time_unit"] = ns, "us"  # 1000 keys: ns/key = real_time in us
            entries.append(e)
        report, files, _ = self.render(bench_json(entries))
        self.assertIn("ring_tokens.png", files)
        self.assertNotIn("threads.png", files)
        self.assertIn("Not drawn: no usable `threads` results", report)
        rows = table_rows(section(report, "### Family `tokens`"))
        self.assertEqual([r[2] for r in rows], ["10,000", "1,000,000"])  # tokens = N * V
        self.assertEqual([r[3] for r in rows], ["20.0", "90.0"])
        self.assertIn("single repetition", section(report, "## Checks"))
        self.assertIn("No tokens point of at least 1,000,000 with both kernels", report)

    def test_errors_and_warnings_reported(self):
        entries = [
            entry("nodes/ring/eytzinger/N:10/V:100/K:1000/threads:1/real_time", 10.0),
            {"name": "nodes/hrw/scalar/N:10/V:100/K:1000/threads:1/real_time",
             "run_name": "nodes/hrw/scalar/N:10/V:100/K:1000/threads:1/real_time",
             "run_type": "iteration", "error_occurred": True,
             "error_message": "owner mismatch at key 17"},
            # ns_per_key in seconds by mistake: disagrees with real_time / keys.
            entry("nodes/jump/scalar/N:10/V:100/K:1000/threads:1/real_time", 8e-9,
                  real_time=8000.0),
            entry("threads/jump/scalar/N:10/V:100/K:1000/threads:1", 8.0, threads_ran=1.0),
            entry("threads/jump/scalar/N:10/V:100/K:1000/threads:2", 5.0, threads_ran=1.0),
        ]
        report, _, stderr = self.render(bench_json(entries))
        checks = section(report, "## Checks")
        self.assertIn("owner mismatch at key 17", checks)
        self.assertIn("disagrees with real_time / keys", checks)
        self.assertIn("asked for 2 threads, 1 ran", checks)
        self.assertIn("warning", stderr)
        rows = table_rows(section(report, "### 2 threads ÷ 1 thread"))
        self.assertEqual(rows, [["`jump/scalar`", "10", "1,000", "8.00", "5.00", "1.60×", "1"]])

    def test_unknown_family_gets_a_table(self):
        report, _, _ = self.render(bench_json(
            [entry("latency/ring/eytzinger/N:10/V:100/K:1000/threads:1", 30.0)]))
        self.assertIn("### Family `latency`", report)


class Units(unittest.TestCase):
    """Pure functions of plot.py."""

    def test_parse_name_ignores_google_benchmark_suffixes(self):
        name = plot.parse_name(
            "threads/ring/eytzinger/N:1000/V:100/K:300000/threads:2/repeats:3/real_time/threads:1")
        self.assertEqual((name.family, name.scheme, name.kernel), ("threads", "ring", "eytzinger"))
        self.assertEqual(name.params, {"nodes": 1000, "vnodes": 100, "keys": 300000, "threads": 2})

    def test_parse_name_rejects_foreign_names(self):
        self.assertIsNone(plot.parse_name("BM_Sort/1024"))
        self.assertIsNone(plot.parse_name("a/b:1/c"))

    def test_sig3(self):
        cases = {1.875: "1.88", 9.996: "10.0", 12345.0: "12,300", 0.9: "0.900", 140.0: "140",
                 3.0: "3.00", 0.000123: "1.23e-04", 0.0: "0", 17.3205: "17.3"}
        for x, want in cases.items():
            self.assertEqual(plot.sig3(x), want, x)
        self.assertEqual(plot.si(3.75e9, "keys/s"), "3.75 Gkeys/s")
        self.assertEqual(plot.si(999.9), "1.00 k")

    def test_crossovers(self):
        (x, a_below), = plot.crossovers([10, 30], [6.0, 16.0], [9.6, 10.0])
        self.assertAlmostEqual(x, 300 ** 0.5, places=9)
        self.assertTrue(a_below)
        self.assertEqual(plot.crossovers([1, 10, 100], [1, 2, 3], [5, 6, 7]), [])
        # Touching at a measured point counts once.
        self.assertEqual(plot.crossovers([1, 10, 100], [1, 5, 9], [2, 5, 8]), [(10, True)])


class FixtureUpToDate(unittest.TestCase):
    """The fixture is what make_fixture.py writes, so it can be regenerated."""

    def test_regenerates_identically(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "f.json"
            result = run([PYTHON, str(TESTS / "make_fixture.py"), str(out)])
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(out.read_bytes(), FIXTURE.read_bytes())


if __name__ == "__main__":
    unittest.main()
