"""Tests of compare.py aimed at runs: run folders as arguments, --baseline,
the interval (or its absence) on every ratio, the noise counts per set, and
bad input naming runs."""

from __future__ import annotations

import gzip
import json
import shutil
import statistics
import tempfile
import unittest
from pathlib import Path

import make_rounds_fixture as rounds_fixture
from support import FIXTURE, PYTHON, assert_refused, run
from test_compare import COMPARE, NODES, context, write_run
from plot_support import section, table_rows

from chbench_plots import intervals  # noqa: E402  (support puts scripts/ on sys.path)

MACHINE = "cpu-a-2c"


def rounds_run(root: Path, name: str, scale: float) -> Path:
    """A run folder timed in rounds (make_rounds_fixture.SLOWED), jump/simd's
    rounds multiplied by `scale`, as bench.json.gz."""
    groups = [[(member, [x * scale for x in times] if times and "jump/simd" in member
                else times) for member, times in group] for group in rounds_fixture.SLOWED]
    run_dir = root / MACHINE / name
    run_dir.mkdir(parents=True)
    data = rounds_fixture.build(groups)
    (run_dir / "bench.json.gz").write_bytes(gzip.compress(json.dumps(data).encode()))
    return run_dir


def simd_rounds(scale: float) -> list:
    """jump/simd's rounds at N = 1,000 in rounds_run(scale)."""
    return [x * scale for x in rounds_fixture.SLOWED[0][2][1]]


def compare(*args) -> tuple:
    """(process, compare.md or '') of compare.py ARGS --out OUT."""
    out = Path(args[-1])
    result = run([PYTHON, COMPARE, *map(str, args[:-1]), "--out", str(out)])
    report = (out / "compare.md").read_text() if result.returncode == 0 else ""
    return result, report


class Aimed(unittest.TestCase):
    """Runs of one machine and build named one by one, with a baseline."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name) / "results"
        self.base = rounds_run(self.root, "20260101-000000-aaaaaaa", 1.0)
        self.slow = rounds_run(self.root, "20260102-000000-bbbbbbb", 2.0)
        self.out = Path(self.tmp.name) / "out"

    def tearDown(self):
        self.tmp.cleanup()

    def test_rounds_interval_on_every_ratio(self):
        result, report = compare("--baseline", self.base, self.slow, self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("nodes: 6 configurations x 2 sets", result.stderr)
        base_label = f"{MACHINE} · release · {self.base.name}"
        self.assertIn(f"Ratios are to {base_label}.", report)
        rows = {r[0]: r[1:] for r in table_rows(report.split("<details>")[1])}
        estimate = intervals.unpaired_ratio(simd_rounds(2.0), simd_rounds(1.0))
        self.assertEqual(rows["`jump/simd N=1000 V=100 K=100000 T=1`"][2],
                         f"{estimate.value:.2f}× (95 % interval "
                         f"{estimate.lo:.2f}–{estimate.hi:.2f})")
        self.assertEqual(f"{estimate.value:.2f}", "2.00")
        for cells in rows.values():
            self.assertIn("(95 % interval", cells[2])
        self.assertNotIn("maglev/scalar", report)  # the failed member

    def test_baseline_is_first_whatever_the_order(self):
        result, report = compare(self.slow, "--baseline", self.base, self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        sets = section(report, "## Result sets")
        self.assertLess(sets.index(self.base.name), sets.index(self.slow.name))
        summary = report.split("## Family `nodes`")[1].split("<details>")[0]
        rows = {r[0]: r[1:] for r in table_rows(summary)}
        self.assertEqual(rows["`jump/simd`"][3], "2.00× (no interval)")

    def test_baseline_beside_a_results_folder(self):
        # The folder's newest run is the slow one; the baseline is not repeated.
        result, report = compare("--baseline", self.base, self.root, self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("nodes: 6 configurations x 2 sets", result.stderr)
        self.assertIn(f"**{MACHINE} · release**: run `{MACHINE}/{self.slow.name}`", report)
        self.assertIn("/usr/bin/python3 scripts/compare.py --baseline", report)

    def test_two_runs_without_baseline_are_two_sets(self):
        result, report = compare(self.base, self.slow, self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn(f"**{MACHINE} · release · {self.slow.name}**", report)
        self.assertNotIn("left out", report)

    def test_default_out_is_beside_the_runs(self):
        result = run([PYTHON, COMPARE, str(self.base), str(self.slow)])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue((self.root / "comparison" / "compare.md").is_file())

    def test_family_the_baseline_lacks_is_not_compared(self):
        extra = write_run(self.root, MACHINE, "20260103-000000-ccccccc", context("release"),
                          {"nodes/jump/simd/N:1000/V:100/K:100000/threads:1":
                           2 * statistics.median(simd_rounds(1.0)),
                           "tokens/ring/eytzinger/N:10/V:1/K:1000/threads:1": 3.0})
        other = write_run(self.root, "cpu-b-2c", "20260104-000000-ddddddd", context("release"),
                          {"tokens/ring/eytzinger/N:10/V:1/K:1000/threads:1": 6.0})
        result, report = compare("--baseline", self.base, extra, other, self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn("## Family `tokens`", report)
        rows = {r[0]: r[1:] for r in table_rows(report.split("<details>")[1])}
        self.assertEqual(rows["`jump/simd N=1000 V=100 K=100000 T=1`"][2],
                         "2.00× (no interval: one run not timed in rounds)")


class NoiseCounts(unittest.TestCase):
    """The fixture's canary flagged 2 of its 317 configurations."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name) / "results"
        for machine in ("cpu-a-2c", "cpu-b-2c"):
            run_dir = root / machine / "20260101-000000-aaaaaaa"
            run_dir.mkdir(parents=True)
            shutil.copy(FIXTURE, run_dir / "bench.json")
        cls.result, cls.report = compare(root, Path(cls.tmp.name) / "out")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_per_set(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        sets = section(self.report, "## Result sets")
        self.assertEqual(sets.count("noise: 2 of 317 configurations flagged noisy"), 2)

    def test_per_family_and_configuration(self):
        nodes = self.report.split("## Family `nodes`")[1].split("## Family")[0]
        self.assertIn("Flagged noisy among them: cpu-a-2c · release 1, cpu-b-2c · release 1.",
                      nodes)
        rows = {r[0]: r[1:] for r in table_rows(nodes.split("<details>")[1])}
        self.assertTrue(rows["`hrw/scalar N=300 V=100 K=300000 T=1`"][0].endswith("**noisy**"))
        self.assertNotIn("noisy", rows["`hrw/scalar N=100 V=100 K=300000 T=1`"][0])


class BadRuns(unittest.TestCase):
    """One clear message, exit status 2, nothing written."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name) / "results"
        self.a = write_run(self.root, MACHINE, "20260101-000000-aaaaaaa", context("release"),
                           {NODES.format("jump/scalar", 10): 5.0})
        self.b = write_run(self.root, MACHINE, "20260102-000000-bbbbbbb", context("release"),
                           {NODES.format("jump/scalar", 10): 4.0})

    def tearDown(self):
        self.tmp.cleanup()

    def expect_error(self, message: str, *args) -> None:
        assert_refused(self, [PYTHON, COMPARE, *map(str, args)], "compare.py", message,
                       Path(self.tmp.name))

    def test_run_folder_without_bench_json(self):
        (self.b / "bench.json").unlink()
        self.expect_error(f"{self.b} holds no bench.json or bench.json.gz: not a run folder",
                          "--baseline", self.b, self.a)

    def test_neither_run_nor_results_folder(self):
        empty = Path(self.tmp.name) / "empty"
        empty.mkdir()
        self.expect_error(f"{empty} is neither a run folder", self.a, empty)

    def test_corrupt_gzip(self):
        (self.b / "bench.json").unlink()
        (self.b / "bench.json.gz").write_bytes(gzip.compress(b'{"context": {}')[:-6])
        self.expect_error("bench.json.gz is cut short", self.a, self.b)

    def test_baseline_with_nothing_in_common(self):
        (self.a / "bench.json").write_text(json.dumps(
            {"context": context("release"),
             "benchmarks": [json.loads(json.dumps(rounds_fixture.build(
                 rounds_fixture.SLOWED)["benchmarks"][0]))]}))
        self.expect_error(f"the baseline {self.a} measured no configuration of a family that "
                          "another set measured too", "--baseline", self.a, self.b)

    def test_emulated_baseline(self):
        write_run(self.root, MACHINE, "20260103-000000-ccccccc-aarch64",
                  context("aarch64", emulated="yes"), {NODES.format("jump/scalar", 10): 50.0})
        self.expect_error("is an emulated run", "--baseline",
                          self.root / MACHINE / "20260103-000000-ccccccc-aarch64", self.a)

    def test_missing_baseline(self):
        self.expect_error("missing is not a folder", "--baseline", self.root / "missing", self.a)


if __name__ == "__main__":
    unittest.main()
