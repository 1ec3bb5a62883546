"""Tests of scripts/guide.py (chbench_plots/guide.py, guide_page.py) on a
small synthetic results folder and a stand-in lab: the exact table rows, the
crossovers, the decisions, which run is read, and bad input."""

from __future__ import annotations

import json
import os
import tempfile
import unittest
from pathlib import Path

from make_fixture import KERNELS, registry_text
from support import PYTHON, SCRIPTS, run, snapshot
from plot_support import entry, table_rows

from chbench_plots import guide, load  # noqa: E402  (support puts scripts/ on sys.path)

GUIDE = str(SCRIPTS / "guide.py")
NODES = "nodes/{}/N:{}/V:100/K:300000/threads:1"
# Median ns/key per kernel and N. ring: eytzinger is its fastest at N = 1,000
# (lower_bound at N = 10); hrw grows tenfold per decade and crosses ring and
# jump between 10 and 100; jump ties ring at N = 10 and leads it above.
TIMES = {"ring/eytzinger": {10: 5.0, 100: 6.0, 1000: 8.0},
         "ring/lower_bound": {10: 4.0, 100: 9.0, 1000: 12.0},
         "hrw/scalar": {10: 2.0, 100: 20.0, 1000: 200.0},
         "jump/simd": {10: 4.0, 100: 5.0, 1000: 6.0, 1_000_000: 7.0}}
MEMORY = {"ring/eytzinger": 2048.0, "hrw/scalar": 8000.0, "jump/simd": 0.0,
          "ring/lower_bound": 4096.0}
# What the stand-in lab prints: the fraction moved per scheme and command.
FAKE_LAB = r'''#!/usr/bin/python3
import json, sys
args = sys.argv[1:]
scheme = args[args.index("--scheme") + 1]
moved = {"ring": 0.0011, "hrw": 0.001, "jump": 0.0009}[scheme]
if args[0] == "balance":
    print(json.dumps({"summary": {"keys": {"busiest_over_mean": {"mean":
          {"ring": 1.5, "hrw": 1.25, "jump": 1.3}[scheme]}}}}))
elif "--remove" in args and scheme == "jump" and args[args.index("--remove") + 1] != "node-999":
    sys.exit(2)
else:
    between = 0.002 if scheme == "ring" and "--remove" in args else 0.0
    print(json.dumps({"moved_fraction": moved * (2 if "--remove" in args else 1),
                      "between_old_fraction": between}))
'''


def write_results(root: Path) -> None:
    """results/cpu-a-2c/: the run the guide must read (nodes family) and a
    newer one without it."""
    kernels = tuple(k for k in KERNELS if k[0].split("/")[0] in ("ring", "hrw", "jump"))
    ctx = {"chbench_registry": registry_text(kernels), "chbench_cpu_model": "Test CPU",
           "num_cpus": 2, "chbench_hwy_target": "AVX2", "chbench_commit": "aaaaaaa",
           "chbench_sweep": "quick", "date": "2026-01-01T00:00:00+00:00"}
    entries = [entry(NODES.format(k, n), ns, memory_bytes=MEMORY[k], build_ms=0.5)
               for k, per in TIMES.items() for n, ns in per.items()]
    for name, bench in (("20260101-000000-aaaaaaa", entries),
                        ("20260102-000000-bbbbbbb",
                         [entry("tokens/ring/eytzinger/N:10/V:1/K:1000/threads:1", 3.0)])):
        (root / "cpu-a-2c" / name).mkdir(parents=True)
        (root / "cpu-a-2c" / name / "bench.json").write_text(
            json.dumps({"context": ctx, "benchmarks": bench}))


class Generated(unittest.TestCase):
    """guide.py on the synthetic results with the stand-in lab."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        tmp = Path(cls.tmp.name)
        cls.results, cls.out, cls.lab = tmp / "results", tmp / "docs", tmp / "lab"
        write_results(cls.results)
        cls.out.mkdir()
        cls.lab.write_text(FAKE_LAB)
        os.chmod(cls.lab, 0o755)
        cls.result = run([PYTHON, GUIDE, str(cls.results), "--lab", str(cls.lab), "--out",
                          str(cls.out), "--keys", "100000"])
        cls.page = (cls.out / "guide.md").read_text() if cls.result.returncode == 0 else ""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_files(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertEqual({p.name for p in self.out.iterdir()},
                         {"guide.md", "guide_nodes.png", "guide_nodes.svg"})

    def test_reads_the_newest_run_with_family_nodes(self):
        self.assertIn("`results/cpu-a-2c/20260101-000000-aaaaaaa`", self.page)

    def test_cost_table(self):
        table = self.page.split("## Lookup cost")[1].split("## When nodes leave")[0]
        # Columns: the N family nodes measured (10, 100, 1,000 and 10^6), no other.
        self.assertIn("| batch N = 10 | batch N = 100 | batch N = 1,000 | batch N = 10^6 | one key "
                      "at a time |", table)
        rows = {r[0]: r for r in table_rows(table)}
        self.assertEqual(rows["ring (consistent hashing)"][1:],
                         ["`ring/eytzinger` (scalar)", "V = 100", "4.00", "6.00", "8.00", "–",
                          "–"])
        self.assertEqual(rows["jump hash"][1:],
                         ["`jump/simd`", "–", "4.00", "5.00*", "6.00*", "7.00*", "–"])
        self.assertEqual(rows["rendezvous (HRW)"][3:5], ["2.00*", "20.0"])

    def test_changes_table(self):
        table = self.page.split("## Fleet changes")[1].split("## Caveats")[0]
        rows = {r[0]: r for r in table_rows(table)}
        self.assertEqual(rows["ring (consistent hashing)"][1:7],
                         ["2.00 KiB", "500 µs", "0.110 %", "0.220 %", "0 % / 0.200 %", "1.500"])
        self.assertEqual(rows["jump hash"][4], "0.180 %")  # the last bucket may leave

    def test_crossovers_are_measured_brackets(self):
        part = self.page.split("## Crossovers")[1].split("## Provenance")[0]
        # A run without rounds: each order decided by the medians alone (the
        # best of ring: 4, 6, 8; hrw: 2, 20, 200; jump: 4, 5, 6). Ring and
        # jump tie at N = 10 (4.00 each): decided only from N = 100 on.
        self.assertEqual(table_rows(part.split("![")[0]), [
            ["rendezvous (HRW)", "jump hash", "N = 10 and N = 100", "2.00x", "0.250x"],
            ["rendezvous (HRW)", "ring (consistent hashing)", "N = 10 and N = 100", "2.00x",
             "0.300x"]])
        self.assertIn("from results/cpu-a-2c/20260101-000000-aaaaaaa", part)

    def test_decisions(self):
        part = self.page.split("## Decisions")[1].split("## Lookup cost")[0]
        self.assertIn("- Fastest batch lookup at N = 1,000, nothing removed: jump hash (6.00 "
                      "ns/key, `nodes/jump/simd/N:1000`).", part)
        self.assertIn("- Keys also move between surviving nodes on a leave: ring", part)
        self.assertNotIn("Any node may leave", part)  # no family removals in this run

    def test_lab_commands(self):
        self.assertIn("chbench-lab move --scheme jump --nodes 1000 --keys 100000 --remove "
                      "node-999", self.page)
        self.assertIn("chbench-lab move --scheme hrw --nodes 1000 --keys 100000 --remove "
                      "node-500", self.page)


class NewScheme(unittest.TestCase):
    def test_a_scheme_the_generator_never_saw_gets_a_row(self):
        registry = {"schemes": [{"name": "zeta", "title": "Zeta hash", "removal": "any",
                                 "params": ["weights"]}],
                    "kernels": [{"name": "zeta/fast", "simd": True}, {"name": "zeta/slow"}]}
        entries = [entry(NODES.format("zeta/fast", 1000), 3.0, memory_bytes=100.0),
                   entry(NODES.format("zeta/slow", 1000), 9.0, memory_bytes=50.0)]
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "bench.json"
            path.write_text(json.dumps({"context": {"chbench_registry": json.dumps(registry)},
                                        "benchmarks": entries}))
            g = guide.build(load.load(path))
        row = g.rows[0]
        self.assertEqual((row.title, row.best[1000].label, row.best[1000].ns, row.weights),
                         ("Zeta hash", "zeta/fast", 3.0, True))
        self.assertEqual((g.columns, g.advice_n), ([1000], 1000))


class BadInput(unittest.TestCase):
    def test_a_run_folder_without_family_nodes(self):
        with tempfile.TemporaryDirectory() as tmp:
            write_results(Path(tmp))
            folder = Path(tmp) / "cpu-a-2c" / "20260102-000000-bbbbbbb"
            result = run([PYTHON, GUIDE, str(folder), "--lab", "/bin/true", "--out", tmp])
            self.assertEqual(result.returncode, 2)
            self.assertEqual(result.stderr.strip(), "guide.py: error: 20260102-000000-bbbbbbb "
                             "lacks what the guide reads: family \"nodes\" and the kernel "
                             "registry")

    def test_nodes_out_of_range(self):
        result = run([PYTHON, GUIDE, "--lab", "/bin/true", "--nodes", "1"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("--nodes takes 2 to 1,000,000, not 1", result.stderr)

    def test_no_nodes_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "results").mkdir()
            before = snapshot(Path(tmp))
            result = run([PYTHON, GUIDE, str(Path(tmp) / "results"), "--lab", "/bin/true",
                          "--out", tmp])
            self.assertEqual(result.returncode, 2)
            self.assertEqual(result.stderr.strip(), f"guide.py: error: {tmp}/results holds no "
                             "run with family \"nodes\" and a kernel registry")
            self.assertEqual(snapshot(Path(tmp)), before)

    def test_no_lab(self):
        result = run([PYTHON, GUIDE, "--lab", "/nonexistent/lab"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("no chbench-lab at /nonexistent/lab", result.stderr)


if __name__ == "__main__":
    unittest.main()
