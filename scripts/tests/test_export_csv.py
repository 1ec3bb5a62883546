"""Tests of scripts/export_csv.py (a run's medians as CSV) and of how
compact_run.py treats the file: the fixture's and a run timed in rounds'
rows, bad input, and the size rule."""

from __future__ import annotations

import csv
import gzip
import json
import shutil
import tempfile
import unittest
from pathlib import Path

import make_rounds_fixture as rounds_fixture
from support import FIXTURE, PYTHON, SCRIPTS, assert_refused, run

from chbench_plots import intervals  # noqa: E402  (support puts scripts/ on sys.path)

EXPORT = str(SCRIPTS / "export_csv.py")
COMPACT_RUN = str(SCRIPTS / "compact_run.py")


def export(*args) -> tuple:
    """(process, {(family, scheme, kernel, N, ...): row dict}) of export_csv.py ARGS --out -."""
    result = run([PYTHON, EXPORT, *map(str, args), "--out", "-"])
    rows = list(csv.DictReader(result.stdout.splitlines())) if result.returncode == 0 else []
    return result, rows


def find(rows: list, family: str, label: str, n: str) -> dict:
    """The one row of family, scheme/kernel and N."""
    scheme, kernel = label.split("/")
    found = [r for r in rows if (r["family"], r["scheme"], r["kernel"], r["N"])
             == (family, scheme, kernel, n)]
    assert len(found) == 1, (family, label, n, found)
    return found[0]


class Fixture(unittest.TestCase):
    """The fixture: 3 repetitions a configuration, no rounds, 2 flagged noisy."""

    @classmethod
    def setUpClass(cls):
        cls.result, cls.rows = export(FIXTURE)

    def test_header_and_one_row_a_configuration(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        header = self.result.stdout.splitlines()[0].split(",")
        self.assertEqual(header[:7], ["family", "scheme", "kernel", "N", "V", "K", "threads"])
        self.assertEqual(header[-8:], ["ns_per_key", "ns_per_key_lo", "ns_per_key_hi",
                                       "ratio_to", "ratio", "ratio_lo", "ratio_hi", "noisy"])
        self.assertIn("removed", header)  # a segment of family removals
        self.assertEqual(len(self.rows), 317)

    def test_noisy_flags(self):
        self.assertEqual([(r["family"], r["scheme"], r["kernel"], r["N"]) for r in self.rows
                          if r["noisy"] == "yes"],
                         [("tokens", "ring", "stree", "10000"), ("nodes", "hrw", "scalar", "300")])
        self.assertEqual({r["noisy"] for r in self.rows}, {"yes", "no"})

    def test_point_ratio_to_the_rival_without_interval(self):
        row = find(self.rows, "targets", "hrw/simd_keys", "64")
        self.assertEqual((row["ns_per_key"], row["ratio_to"], row["ratio"]), ("8", "hrw/scalar",
                                                                               "0.08"))
        self.assertEqual((row["ns_per_key_lo"], row["ratio_lo"], row["ratio_hi"]), ("", "", ""))
        forced = find(self.rows, "targets", "hrw/simd_keys@AVX3", "64")
        self.assertEqual(forced["ratio_to"], "")


class Rounds(unittest.TestCase):
    """A run timed in rounds (make_rounds_fixture.SLOWED), from a run folder."""

    def test_intervals(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = rounds_fixture.build(rounds_fixture.SLOWED)
            (Path(tmp) / "bench.json.gz").write_bytes(gzip.compress(json.dumps(data).encode()))
            result = run([PYTHON, EXPORT, tmp])
            self.assertEqual(result.returncode, 0, result.stderr)
            rows = list(csv.DictReader((Path(tmp) / "medians.csv").read_text().splitlines()))
        groups = rounds_fixture.SLOWED
        simd, scalar = groups[0][2][1], groups[0][0][1]
        row = find(rows, "nodes", "jump/simd", "1000")
        ns = intervals.median_estimate(simd)
        self.assertEqual([row["ns_per_key"], row["ns_per_key_lo"], row["ns_per_key_hi"]],
                         [f"{v:.6g}" for v in (ns.value, ns.lo, ns.hi)])
        ratio = intervals.paired_ratio(simd, scalar)
        self.assertEqual([row["ratio_to"], row["ratio"], row["ratio_lo"], row["ratio_hi"]],
                         ["jump/scalar", *(f"{v:.6g}" for v in (ratio.value, ratio.lo, ratio.hi))])
        self.assertNotIn("maglev", {r["scheme"] for r in rows})  # failed: no median


class BadInput(unittest.TestCase):
    """One message, exit status 2, nothing written."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.folder = Path(self.tmp.name) / "run"
        self.folder.mkdir()

    def tearDown(self):
        self.tmp.cleanup()

    def expect_error(self, message: str, *args) -> None:
        assert_refused(self, [PYTHON, EXPORT, *map(str, args)], "export_csv.py", message,
                       Path(self.tmp.name))

    def test_folder_without_bench_json(self):
        self.expect_error("holds no bench.json or bench.json.gz: not a run folder", self.folder)

    def test_corrupt_json(self):
        (self.folder / "bench.json").write_text('{"benchmarks": [')
        self.expect_error("is not valid JSON", self.folder)

    def test_missing(self):
        self.expect_error("does not exist", self.folder / "nothing")

    def test_output_folder_missing(self):
        shutil.copy(FIXTURE, self.folder / "bench.json")
        self.expect_error("does not exist", self.folder, "--out", self.folder / "no" / "x.csv")


class CommittedForm(unittest.TestCase):
    """compact_run.py keeps a small medians.csv, moves a large one aside."""

    def compact(self, size: int) -> set:
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(FIXTURE, Path(tmp) / "bench.json")
            (Path(tmp) / "medians.csv").write_text("x" * size)
            result = run([PYTHON, COMPACT_RUN, tmp])
            self.assertEqual(result.returncode, 0, result.stderr)
            again = run([PYTHON, COMPACT_RUN, tmp])
            self.assertIn("already compact", again.stdout)
            return {p.name for p in Path(tmp).iterdir() if p.suffix == ".csv"}

    def test_small_is_kept(self):
        self.assertEqual(self.compact(200_000), {"medians.csv"})

    def test_large_is_moved(self):
        self.assertEqual(self.compact(200_001), {"medians-full.csv"})

    def test_ignored_by_git(self):
        result = run(["git", "-C", str(SCRIPTS.parent), "check-ignore", "-q",
                      "results/m/20260101-000000-aaaaaaa/medians-full.csv"])
        self.assertEqual(result.returncode, 0)
        result = run(["git", "-C", str(SCRIPTS.parent), "check-ignore", "-q",
                      "results/m/20260101-000000-aaaaaaa/medians.csv"])
        self.assertEqual(result.returncode, 1)


if __name__ == "__main__":
    unittest.main()
