"""Tests of scripts/guide.py (chbench_plots/guide.py, guide_page.py) on a
small synthetic results folder and a stand-in lab: the exact table rows, the
crossovers, the decisions, which run is read, and bad input."""

from __future__ import annotations

import json
import math
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
                          str(cls.out)])
        cls.page = (cls.out / "guide.md").read_text() if cls.result.returncode == 0 else ""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_files(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertEqual({p.name for p in self.out.iterdir()},
                         {"guide.md", "guide_nodes.png", "guide_nodes.svg"})

    def test_rows(self):
        table = self.page.split("## Every scheme")[1].split("## Crossovers")[0]
        self.assertEqual(table_rows(table), [
            ["ring (consistent hashing)", "`ring/eytzinger`", "5.00", "6.00", "8.00", "–", "–",
             "2.00 KiB", "500 µs", "0.110 %", "0.220 %", "0 % / 0.200 %", "1.50", "any node",
             "no", "scalar"],
            ["rendezvous (HRW)", "`hrw/scalar`", "2.00", "20.0", "200", "–", "–", "7.81 KiB",
             "500 µs", "0.100 %", "0.200 %", "0 % / 0 %", "1.25", "any node", "no", "scalar"],
            ["jump hash", "`jump/simd`", "4.00", "5.00", "6.00", "–", "7.00", "0 B", "500 µs",
             "0.0900 %", "0.180 %", "0 % / 0 %", "1.30", "last bucket only", "no", "AVX2"]])
        self.assertIn("This run measured no scheme at N = 10,000", table)

    def test_crossovers(self):
        part = self.page.split("## Crossovers")[1].split("## Decisions")[0]
        # The best of each scheme at each N: ring 4 (lower_bound), 6, 8; hrw 2,
        # 20, 200; jump 4, 5, 6 (ring and jump tie at N = 10: no crossing). hrw
        # vs jump: log(2/4) and log(20/5) meet a third of the way from N = 10 to
        # 100, at 10^(4/3) = 21.5; hrw vs ring: 10^(1 + log 2 / log(20/3)) = 23.2.
        self.assertEqual(table_rows(part), [
            ["rendezvous (HRW)", "jump hash", "22", "N = 10: 2.00 ÷ 4.00; N = 100: 20.0 ÷ 5.00"],
            ["rendezvous (HRW)", "ring (consistent hashing)", "23",
             "N = 10: 2.00 ÷ 4.00; N = 100: 20.0 ÷ 6.00"]])
        self.assertIn("from results/cpu-a-2c/20260101-000000-aaaaaaa", part)

    def test_decisions(self):
        part = self.page.split("## Decisions")[1].split("## Provenance")[0]
        self.assertIn("- Fastest lookup at N = 10: rendezvous (HRW) (2.00 ns/key", part)
        self.assertIn("- Fastest lookup at N = 1,000: jump hash (6.00 ns/key", part)
        self.assertIn("- Any node may fail or leave: ring (consistent hashing) is the fastest", part)
        self.assertIn("- Most even load: rendezvous (HRW) (busiest ÷ mean 1.25", part)
        self.assertIn("- Keys also move between surviving nodes on a leave: ring", part)

    def test_lab_commands(self):
        self.assertIn("chbench-lab move --scheme jump --nodes 1000 --remove node-999", self.page)
        self.assertIn("chbench-lab move --scheme hrw --nodes 1000 --remove node-500", self.page)


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
            rows = guide.rows_of(load.load(path))
        self.assertEqual([(r.title, r.kernel, r.ns, r.memory_bytes, r.weights, r.simd)
                          for r in rows], [("Zeta hash", "zeta/fast", {1000: 3.0}, 100.0, True,
                                            True)])


class Crossing(unittest.TestCase):
    def test_crossing_point(self):
        self.assertAlmostEqual(guide.crossing(10, 100, 2.0, 20.0, 4.0, 5.0), 10 ** (4 / 3))
        expect = 10 ** (1 + math.log(5 / 2) / math.log(25 / 3))  # log(5/2) + log(20/6)
        self.assertAlmostEqual(guide.crossing(10, 100, 2.0, 20.0, 5.0, 6.0), expect)

    def test_ties_are_not_crossings(self):
        best = {10: {"a": 1.0, "b": 1.03}, 100: {"a": 2.0, "b": 1.0}}
        self.assertEqual(guide.crossovers(best, ["a", "b"]), [])
        best[10]["b"] = 1.2
        self.assertEqual([(c.cheaper_below, c.n_low, c.n_high)
                          for c in guide.crossovers(best, ["a", "b"])], [("a", 10, 100)])


class BadInput(unittest.TestCase):
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
