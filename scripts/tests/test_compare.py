"""Tests of scripts/compare.py: result sets, shared configurations, the
numbers of its table, the plots, and bad input."""

from __future__ import annotations

import json
import math
import tempfile
import unittest
from pathlib import Path

from support import PYTHON, SCRIPTS, cpu_context, run, snapshot
from plot_support import entry, table_rows

from chbench_plots.numeric import sig3  # noqa: E402  (support puts scripts/ on sys.path)

COMPARE = str(SCRIPTS / "compare.py")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def context(preset: str | None, emulated: str = "no", **extra) -> dict:
    """A bench context as the bench records it (preset None: an older run)."""
    ctx = {"chbench_cpu_model": "Test CPU", "num_cpus": 2, "chbench_sweep": "quick",
           "chbench_cxx_flags": "-O3 -DNDEBUG", "chbench_emulated": emulated,
           "load_avg": [0.5, 0.25, 0.1]}
    if preset is not None:
        ctx["chbench_preset"] = preset
    ctx.update(extra)
    return ctx


def write_run(root: Path, machine: str, name: str, ctx: dict, times: dict) -> Path:
    """results/<machine>/<name>/bench.json with one repetition per benchmark
    name of `times` (name -> ns/key)."""
    run_dir = root / machine / name
    run_dir.mkdir(parents=True)
    entries = [entry(bench, ns) for bench, ns in times.items()]
    (run_dir / "bench.json").write_text(json.dumps({"context": ctx, "benchmarks": entries}))
    return run_dir


NODES = "nodes/{}/N:{}/V:100/K:300000/threads:1"


class Comparison(unittest.TestCase):
    """Two machines, one of them with two builds, and an older run."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        root = cls.root = Path(cls.tmp.name) / "results"
        # Machine A, release (an older run, without chbench_preset), and the
        # same machine's x86-64-v2 build: twice as slow on ring, equal on jump.
        write_run(root, "cpu-a-2c", "20260101-000000-aaaaaaa", context(None), {
            NODES.format("ring/eytzinger", 10): 10.0, NODES.format("ring/eytzinger", 1000): 40.0,
            NODES.format("jump/scalar", 10): 5.0, NODES.format("jump/scalar", 1000): 20.0,
            "tokens/ring/eytzinger/N:10/V:1/K:1000/threads:1": 3.0})
        v2 = write_run(root, "cpu-a-2c", "20260102-000000-bbbbbbb-x86-64-v2", context("x86-64-v2"), {
            NODES.format("ring/eytzinger", 10): 20.0, NODES.format("ring/eytzinger", 1000): 80.0,
            NODES.format("jump/scalar", 10): 5.0, NODES.format("jump/scalar", 1000): 20.0,
            NODES.format("modn/scalar", 10): 1.0})
        (v2 / "notes.md").write_text("# Notes\n\nBusy machine:\nthree other builds ran.\n\nMore.\n")
        # An older x86-64-v2 run of the same machine: not compared by default.
        write_run(root, "cpu-a-2c", "20251231-000000-ccccccc-x86-64-v2", context("x86-64-v2"), {
            NODES.format("ring/eytzinger", 10): 99.0, NODES.format("jump/scalar", 10): 99.0})
        # Machine B measured only N = 10 of ring: the shared configurations.
        write_run(root, "cpu-b-4c", "20260103-000000-ddddddd", context("release"), {
            NODES.format("ring/eytzinger", 10): 5.0, NODES.format("jump/scalar", 10): 2.5,
            NODES.format("jump/scalar", 1000): 10.0})
        # An emulated run: left out.
        write_run(root, "cpu-a-2c", "20260104-000000-eeeeeee-aarch64",
                  context("aarch64", emulated="yes: /proc/cpuinfo describes an x86 CPU"),
                  {NODES.format("ring/eytzinger", 10): 500.0})
        cls.result = run([PYTHON, COMPARE, str(root)])
        cls.report = (root / "comparison" / "compare.md").read_text() \
            if cls.result.returncode == 0 else ""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_success(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertIn("nodes: 3 configurations x 3 sets", self.result.stderr)

    def test_sets_and_notes(self):
        sets = self.report.split("## Result sets")[1].split("## Family")[0]
        self.assertIn("**cpu-a-2c · release**", sets)  # the run without a recorded preset
        self.assertIn("**cpu-a-2c · x86-64-v2**", sets)
        self.assertIn("notes: Busy machine: three other builds ran.\n", sets)  # first paragraph
        self.assertIn("**cpu-b-4c · release**", sets)
        self.assertIn("left out cpu-a-2c/20251231-000000-ccccccc-x86-64-v2: an older run of the "
                      "same machine and build (a set is one run, never filled in", sets)
        self.assertIn("left out cpu-a-2c/20260104-000000-eeeeeee-aarch64: an emulated run", sets)
        self.assertNotIn("500", self.report)

    def test_shared_configurations_and_geometric_means(self):
        family = self.report.split("## Family `nodes`")[1]
        self.assertIn("3 configurations measured by all of: cpu-a-2c · release, "
                      "cpu-a-2c · x86-64-v2, cpu-b-4c · release.", family)
        summary = family.split("<details>")[0]
        rows = {r[0]: r[1:] for r in table_rows(summary)}
        # ring: N = 10 only (B lacks N = 1000); jump: N = 10 and 1000.
        self.assertEqual(rows["`ring/eytzinger`"], ["1", "10.0", "20.0", "5.00", "2.00× (no interval)",
                                                   "0.50× (no interval)"])
        self.assertEqual(rows["`jump/scalar`"],
                         ["2", sig3(math.sqrt(5.0 * 20.0)), sig3(math.sqrt(5.0 * 20.0)),
                          sig3(math.sqrt(2.5 * 10.0)), "1.00× (no interval)",
                          "0.50× (no interval)"])
        self.assertNotIn("modn/scalar", family)  # measured by one set only
        details = family.split("<details>")[1]
        rows = {r[0]: r[1:] for r in table_rows(details)}
        self.assertEqual(rows["`jump/scalar N=1000 V=100 K=300000 T=1`"],
                         ["20.0 (–)", "20.0 (–)", "10.0 (–)",
                          "1.00× (no interval: neither run timed in rounds)",
                          "0.50× (no interval: neither run timed in rounds)"])

    def test_family_measured_by_one_set_is_left_out(self):
        self.assertNotIn("## Family `tokens`", self.report)

    def test_plot(self):
        data = (self.root / "comparison" / "compare_nodes.png").read_bytes()
        self.assertTrue(data.startswith(PNG_MAGIC))
        self.assertFalse((self.root / "comparison" / "compare_tokens.png").exists())
        self.assertIn("![nodes](compare_nodes.png)", self.report)

    def test_all_runs_and_emulated(self):
        with tempfile.TemporaryDirectory() as tmp:
            result = run([PYTHON, COMPARE, str(self.root), "--out", tmp, "--all-runs",
                          "--include-emulated", "--families", "nodes"])
            self.assertEqual(result.returncode, 0, result.stderr)
            text = (Path(tmp) / "compare.md").read_text()
        self.assertIn("**cpu-a-2c · x86-64-v2 · 20251231-000000-ccccccc-x86-64-v2**", text)
        self.assertIn("aarch64 (emulated)", text)
        self.assertIn("nodes: 1 configurations x 5 sets", result.stderr)


class Identities(unittest.TestCase):
    """Runs of two CPUs that share a folder name are never one result set."""

    ZEN5_TIMES = {NODES.format("hrw/simd_keys", 64): 1.0, NODES.format("hrw/scalar", 64): 14.0}
    ZEN3_TIMES = {NODES.format("hrw/simd_keys", 64): 3.7, NODES.format("hrw/scalar", 64): 14.0,
                  NODES.format("jump/scalar", 64): 9.0}

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name) / "results"

    def tearDown(self):
        self.tmp.cleanup()

    def compare(self, *args: str):
        result = run([PYTHON, COMPARE, str(self.root), *args])
        report = (self.root / "comparison" / "compare.md").read_text() \
            if result.returncode == 0 else ""
        return result, report

    def two_cpus_in_one_folder(self, recorded: bool):
        # The committed runs' CPU (Zen 5) and a Zen 3 under the old name, one
        # build: before identities, one set (and "holds 1 result set(s)").
        write_run(self.root, "amd-epyc-2c", "20260101-000000-aaaaaaa",
                  context("release", **cpu_context("amd-epyc-zen5-2c", recorded=False)),
                  self.ZEN5_TIMES)
        write_run(self.root, "amd-epyc-2c", "20260102-000000-bbbbbbb",
                  context("release", **cpu_context("amd-epyc-zen3-2c", recorded=recorded)),
                  self.ZEN3_TIMES)
        result, report = self.compare()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("nodes: 2 configurations x 2 sets", result.stderr)
        warnings = [line for line in result.stderr.splitlines() if "holds runs" in line]
        self.assertEqual(len(warnings), 1, result.stderr)
        self.assertTrue(warnings[0].startswith(
            "compare.py: warning: amd-epyc-2c/ holds runs of 2 different CPUs (#1: 1 run, newest "
            "20260102-000000-bbbbbbb; #2: 1 run, newest 20260101-000000-aaaaaaa), never compared "
            "as one; #1 and #2 differ in isa avx2 ≠ avx512, "), warnings[0])
        self.assertIn("isa avx2 ≠ avx512", warnings[0])
        self.assertIn("l2 512 KiB ≠ 1 MiB", warnings[0])
        self.assertIn("flags – ≠ avx512f avx512dq", warnings[0])
        sets = report.split("## Result sets")[1].split("## Family")[0]
        self.assertIn("- **Warning:** `amd-epyc-2c/` holds runs of 2 different CPUs", sets)
        self.assertIn("**amd-epyc-2c #1 · release**", sets)
        self.assertIn("**amd-epyc-2c #2 · release**", sets)
        self.assertNotIn("an older run of the same machine", report)  # nothing merged
        rows = {r[0]: r[1:] for r in table_rows(report.split("## Family `nodes`")[1]
                                                 .split("<details>")[0])}
        self.assertEqual(rows["`hrw/simd_keys`"], ["1", "3.70", "1.00", "0.27× (no interval)"])
        self.assertNotIn("`jump/scalar`", rows)  # the Zen 3 run's alone
        return sets

    def test_recorded_identities(self):
        sets = self.two_cpus_in_one_folder(recorded=True)
        self.assertIn('AuthenticAMD family 25 model 1 stepping 1 (zen3); "AMD EPYC"; avx2; '
                      "L1d 32 KiB, L1i 32 KiB, L2 512 KiB, L3 32 MiB; 2 CPUs", sets)
        self.assertIn("`amd-epyc-2c/20260102-000000-bbbbbbb` was filed as `amd-epyc-zen3-avx2-2c`"
                      " when it ran", self.compare()[1])

    def test_older_runs_by_flags_and_caches(self):
        sets = self.two_cpus_in_one_folder(recorded=False)
        self.assertNotIn("was filed as", sets)
        self.assertIn('"AMD EPYC"; avx512; L1d 48 KiB, L1i 32 KiB, L2 1 MiB, L3 32 MiB; 2 CPUs; '
                      "family and model not recorded", sets)

    def test_same_cpu_recorded_or_not_is_one(self):
        # An older run without chbench_cpu and a newer one with it, of the same
        # CPU, are one set; another build of it is the second.
        write_run(self.root, "amd-epyc-zen5-avx512-2c", "20260101-000000-aaaaaaa",
                  context("release", **cpu_context("amd-epyc-zen5-2c", recorded=False)),
                  {**self.ZEN5_TIMES, NODES.format("jump/scalar", 64): 2.0})
        write_run(self.root, "amd-epyc-zen5-avx512-2c", "20260102-000000-bbbbbbb",
                  context("release", **cpu_context("amd-epyc-zen5-2c")), self.ZEN5_TIMES)
        write_run(self.root, "amd-epyc-zen5-avx512-2c", "20260103-000000-ccccccc-x86-64-v2",
                  context("x86-64-v2", **cpu_context("amd-epyc-zen5-2c")), self.ZEN5_TIMES)
        result, report = self.compare()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn("warning", result.stderr)
        self.assertIn("nodes: 2 configurations x 2 sets", result.stderr)
        self.assertIn("left out amd-epyc-zen5-avx512-2c/20260101-000000-aaaaaaa: an older run of "
                      "the same machine and build", report)
        self.assertNotIn("jump/scalar", report)  # never taken from the older run
        self.assertIn("**amd-epyc-zen5-avx512-2c · release**: run "
                      "`amd-epyc-zen5-avx512-2c/20260102-000000-bbbbbbb`; CPU AuthenticAMD family "
                      "26 model 2 stepping 1 (zen5);", report)

    def test_vm_without_sysfs_caches(self):
        # A VM that shows no cache in sysfs: Google Benchmark lists none and
        # machine-name.sh falls back to the hypervisor's CPUID sizes, which
        # need not be the CPU's. Such a run is the same CPU as one with sysfs.
        hidden = cpu_context("amd-epyc-zen5-2c")
        cpu = json.loads(hidden["chbench_cpu"])
        cpu["caches"] = {"l1d": 48 << 10, "l1i": 32 << 10, "l2": 1 << 20, "l3": 508 << 20}
        hidden.update(caches=[], chbench_cpu=json.dumps(cpu))
        write_run(self.root, "amd-epyc-zen5-avx512-2c", "20260101-000000-aaaaaaa",
                  context("release", **cpu_context("amd-epyc-zen5-2c")), self.ZEN5_TIMES)
        write_run(self.root, "amd-epyc-zen5-avx512-2c", "20260102-000000-bbbbbbb",
                  context("release", **hidden), self.ZEN5_TIMES)
        write_run(self.root, "amd-epyc-zen5-avx512-2c", "20260103-000000-ccccccc-x86-64-v2",
                  context("x86-64-v2", **cpu_context("amd-epyc-zen5-2c")), self.ZEN5_TIMES)
        result, report = self.compare()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn("holds runs of 2 different CPUs", result.stderr + report)
        self.assertIn("left out amd-epyc-zen5-avx512-2c/20260101-000000-aaaaaaa: an older run of "
                      "the same machine and build", report)
        # Sizes sysfs shows are compared: an L3 of 508 MiB there is another CPU.
        hidden.update(caches=[{"type": "Unified", "level": 3, "size": 508 << 20}])
        write_run(self.root, "amd-epyc-zen5-avx512-2c", "20260104-000000-ddddddd",
                  context("release", **hidden), self.ZEN5_TIMES)
        result, report = self.compare()
        self.assertIn("holds runs of 2 different CPUs", result.stderr + report)

    def test_bench_identity_keys(self):
        # The keys the bench records itself (bench/context.cc reading
        # /proc/cpuinfo) identify the CPU like run.sh's chbench_cpu.
        bench_keys = {"chbench_cpu_vendor": "AuthenticAMD", "chbench_cpu_family": "26",
                      "chbench_cpu_model_number": "2", "chbench_cpu_stepping": "1",
                      "chbench_cpu_implementer": "unknown", "chbench_cpu_part": "unknown"}
        write_run(self.root, "amd-epyc-zen5-avx512-2c", "20260101-000000-aaaaaaa",
                  context("release", **cpu_context("amd-epyc-zen5-2c")), self.ZEN5_TIMES)
        write_run(self.root, "amd-epyc-zen5-avx512-2c", "20260102-000000-bbbbbbb",
                  context("x86-64-v2", **cpu_context("amd-epyc-zen5-2c", recorded=False),
                          **bench_keys), self.ZEN5_TIMES)
        bench_keys.update(chbench_cpu_family="25", chbench_cpu_model_number="1")
        write_run(self.root, "amd-epyc-zen5-avx512-2c", "20260103-000000-ccccccc",
                  context("x86-64-v2", **cpu_context("amd-epyc-zen5-2c", recorded=False),
                          **bench_keys), self.ZEN5_TIMES)  # same flags, another family
        result, report = self.compare()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("nodes: 2 configurations x 3 sets", result.stderr)
        self.assertIn("#1 and #2 differ in family 25 ≠ 26, model 1 ≠ 2.", result.stderr)
        self.assertIn("**amd-epyc-zen5-avx512-2c #2 · x86-64-v2**: run "
                      "`amd-epyc-zen5-avx512-2c/20260102-000000-bbbbbbb`; CPU AuthenticAMD "
                      'family 26 model 2 stepping 1; "AMD EPYC"', report)

    def test_same_identity_in_two_folders(self):
        for machine in ("amd-epyc-zen5-avx512-2c", "zen5-copy"):
            write_run(self.root, machine, "20260101-000000-aaaaaaa",
                      context("release", **cpu_context("amd-epyc-zen5-2c")), self.ZEN5_TIMES)
        result, report = self.compare()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("compare.py: warning: amd-epyc-zen5-avx512-2c/ and zen5-copy/ hold the same "
                      "CPU identity under two names", result.stderr)

    def test_sets_of_two_round_orders_are_named(self):
        # Two builds of one CPU timed in rounds, one in the older plain order.
        for name, preset, timing in (
                ("20260101-000000-aaaaaaa", "release", {"method": "interleaved rounds"}),
                ("20260102-000000-bbbbbbb-x86-64-v2", "x86-64-v2",
                 {"method": "interleaved rounds", "order": "schemes as blocks"})):
            write_run(self.root, "amd-epyc-zen5-avx512-2c", name,
                      context(preset, chbench_timing=json.dumps(timing),
                              **cpu_context("amd-epyc-zen5-2c")), self.ZEN5_TIMES)
        result, report = self.compare()
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("compare.py: warning: the sets ordered their rounds differently "
                      "(amd-epyc-zen5-avx512-2c · release: every member shuffled alike; "
                      "amd-epyc-zen5-avx512-2c · x86-64-v2: schemes as blocks): what runs "
                      "before a slice can change a ratio", result.stderr)
        self.assertIn("- **Warning:** the sets ordered their rounds differently", report)


class BadInput(unittest.TestCase):
    """One clear message, exit status 2, nothing written."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name) / "results"
        write_run(self.root, "cpu-a-2c", "20260101-000000-aaaaaaa", context("release"),
                  {NODES.format("jump/scalar", 10): 5.0})
        write_run(self.root, "cpu-a-2c", "20260102-000000-aaaaaaa-x86-64-v3",
                  context("x86-64-v3"), {NODES.format("jump/scalar", 10): 4.0})

    def tearDown(self):
        self.tmp.cleanup()

    def expect_error(self, message: str, *args: str) -> None:
        before = snapshot(self.root)
        result = run([PYTHON, COMPARE, str(self.root), *args])
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(result.stdout, "")
        lines = result.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertTrue(lines[0].startswith("compare.py: error: "), lines[0])
        self.assertIn(message, lines[0])
        self.assertEqual(snapshot(self.root), before)

    def test_corrupt_json(self):
        bad = self.root / "cpu-a-2c" / "20260101-000000-aaaaaaa" / "bench.json"
        bad.write_text('{"context": {}, "benchmarks": [')
        self.expect_error("20260101-000000-aaaaaaa/bench.json is not valid JSON")

    def test_empty_json(self):
        (self.root / "cpu-a-2c" / "20260101-000000-aaaaaaa" / "bench.json").write_text("")
        self.expect_error("bench.json is empty")

    def test_missing_bench_json(self):
        (self.root / "cpu-a-2c" / "20260101-000000-aaaaaaa" / "bench.json").unlink()
        self.expect_error("cannot read")

    def test_one_set(self):
        (self.root / "cpu-a-2c" / "20260102-000000-aaaaaaa-x86-64-v3" / "bench.json").write_text(
            json.dumps({"context": context("release"),
                        "benchmarks": [entry(NODES.format("jump/scalar", 10), 4.0)]}))
        self.expect_error("holds 1 result set(s); a comparison needs two")

    def test_nothing_in_common(self):
        (self.root / "cpu-a-2c" / "20260102-000000-aaaaaaa-x86-64-v3" / "bench.json").write_text(
            json.dumps({"context": context("x86-64-v3"),
                        "benchmarks": [entry(NODES.format("jump/scalar", 20), 4.0)]}))
        self.expect_error("no two result sets measured the same configuration")

    def test_unknown_family(self):
        self.expect_error("no result set measured the family batch", "--families", "batch")

    def test_output_not_a_folder(self):
        (self.root / "taken").write_text("a file")
        self.expect_error("output folder", "--out", str(self.root / "taken"))

    def test_no_results_folder(self):
        result = run([PYTHON, COMPARE, str(self.root / "missing")])
        self.assertEqual(result.returncode, 2)
        self.assertIn("missing is not a folder", result.stderr)

    def test_help(self):
        result = run([PYTHON, COMPARE, "--help"])
        self.assertEqual(result.returncode, 0)
        self.assertIn("--all-runs", result.stdout)
        self.assertIn("Exit status 2", result.stdout)


if __name__ == "__main__":
    unittest.main()
