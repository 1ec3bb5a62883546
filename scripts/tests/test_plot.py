"""Tests of scripts/plot.py (the chbench_plots package): outputs, report
numbers, the run's kernel registry, the goals file, tolerance, bad input."""

from __future__ import annotations

import json
import re
import statistics
import struct
import tempfile
import unittest
from pathlib import Path

from make_fixture import KERNELS, SCHEMES, registry_text
from support import FIXTURE, PYTHON, SCRIPTS, TESTS, run, snapshot

# support puts scripts/ on sys.path.
from chbench_plots import load, numeric, registry, rings, targets  # noqa: E402
from chbench_plots import style as plotstyle  # noqa: E402

PLOT = str(SCRIPTS / "plot.py")
PNGS = ("ring_tokens.png", "latency.png", "inflight.png", "clustered.png", "schemes_nodes.png",
        "schemes_best_nodes.png", "jump_family.png", "removals.png", "removals_memory.png", "threads.png", "batch.png",
        "hashed.png", "targets.png")
SVGS = tuple(name.replace(".png", ".svg") for name in PNGS)  # the default --format png,svg


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


def bench_json(entries: list, context: dict | None = None, kernels: tuple = KERNELS) -> str:
    """A minimal report around the given entries, its context holding the
    fixture's kernel registry (of `kernels`) unless `context` says otherwise."""
    context = {"chbench_registry": registry_text(kernels)} if context is None else context
    return json.dumps({"context": context, "benchmarks": entries})


def fixture_cv(run_name: str) -> str:
    """The CV in percent, as the report prints it, of one fixture configuration's
    repetitions (its name without Google Benchmark's /real_time suffix)."""
    fixture = json.loads(FIXTURE.read_text())
    samples = [e["ns_per_key"] for e in fixture["benchmarks"]
               if e["run_name"] == run_name + "/real_time" and e["run_type"] == "iteration"]
    return numeric.sig3(statistics.stdev(samples) / statistics.fmean(samples) * 100)


def entry(name: str, ns: float, **fields) -> dict:
    """One iteration entry of the contract, counters included."""
    e = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": 1,
         "repetition_index": 0, "threads": 1, "iterations": 10, "real_time": ns * 1000,
         "cpu_time": ns * 1000, "time_unit": "ns", "keys": 1000.0, "ns_per_key": ns,
         "keys_per_second": 1e9 / ns}
    e.update(fields)
    return e


class OnTheFixture(unittest.TestCase):
    """A test class that runs plot.py once on the fixture: cls.out holds the
    files, cls.result the process, cls.report the report's text."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = Path(cls.tmp.name)
        cls.result = run([PYTHON, PLOT, str(FIXTURE), "--out", str(cls.out)])
        cls.report = (cls.out / "report.md").read_text() if cls.result.returncode == 0 else ""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()


class FixtureReport(OnTheFixture):
    """plot.py on the fixture: files, and the numbers the fixture was made for."""

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
                         sorted(PNGS + SVGS + ("report.md", "summary.txt")))

    def test_report_links_every_plot(self):
        for name in PNGS:
            self.assertIn(f"]({name})", self.report)

    def test_eytzinger_over_lower_bound(self):
        # Fixture: lower_bound 140, 200 and 360 ns/key, eytzinger 30, 40 and 60
        # ns/key at 10^6, 4·10^6 and 1.6·10^7 tokens; smaller rings are not compared.
        rows = table_rows(section(self.report, "### Eytzinger ÷ lower_bound"))
        self.assertEqual([(r[0], r[4], r[5], r[6]) for r in rows],
                         [("1,000,000", "140", "30.0", "4.67×"),
                          ("4,000,000", "200", "40.0", "5.00×"),
                          ("16,000,000", "360", "60.0", "6.00×")])

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
        rows = table_rows(section(self.report, "### Family `tokens`"))
        row = next(r for r in rows if r[0] == "`ring/eytzinger`" and r[3] == "4,000,000")
        cv = fixture_cv("tokens/ring/eytzinger/N:40000/V:100/K:300000/threads:1")
        self.assertEqual(row[1:8], ["40,000", "100", "4,000,000", "40.0", "25.0 M", cv, "3"])

    def test_every_family_has_a_table(self):
        for family in ("tokens", "latency", "inflight", "clustered", "nodes", "batch", "threads",
                       "hashed", "targets"):
            self.assertIn(f"### Family `{family}`", self.report)

    def test_inflight_and_window_columns(self):
        text = section(self.report, "### Family `inflight`")
        self.assertIn("Fixed: V = 100, K = 300,000, threads = 1.", text)
        rows = table_rows(text)
        self.assertEqual(len(rows), 2 * 9 + 2 * 10)  # two rings, 9 groups and 10 distances
        row = next(r for r in rows if r[0] == "`ring/bucketed`" and r[2] == "16,000,000"
                   and r[3] == "128")
        self.assertEqual(row[4], "11.5")
        self.assertIn("window bits = 36", section(self.report, "### Family `clustered`"))

    def test_speed_limit_goals(self):
        # make_fixture: best ring kernel (bucketed) 3 vs lower_bound 100 ns/key at
        # 65,500 tokens, 15 vs 360 at 1.6·10^7; vs stream 1.5/0.3, 2/0.4, 3/0.5 up
        # to 65,500 tokens (8/0.6 at 10^6 would fail, but that ring is not judged);
        # clustered bucketed 80 vs Eytzinger 64 ns/key at 1.6·10^7 tokens.
        rows = table_rows(section(self.report, "## Goals"))[:4]  # the ring goals
        self.assertEqual([r[2] for r in rows], ["**goal met**", "**goal not met**",
                                                "**goal met**", "**goal not met**"])
        self.assertEqual(rows[0][1], "33.3× (`ring/bucketed` at 65,500 tokens)")
        self.assertEqual(rows[1][1], "24.0× (`ring/bucketed` at 16,000,000 tokens)")
        self.assertEqual(rows[2][1], "worst 6.00× (`ring/bucketed` at 65,500 tokens) over 3 rings")
        self.assertEqual(rows[3][1], "`ring/stree` 0.500× to 0.625×; `ring/bucketed` 0.750× to "
                                     "1.25× of Eytzinger's time; slower: `ring/bucketed` at "
                                     "16,000,000 tokens (1.25×)")

    def test_best_over_lower_bound(self):
        rows = table_rows(section(self.report, "### Best ring kernel ÷ lower_bound"))
        self.assertEqual([(r[0], r[3], r[5], r[6], r[8], r[9]) for r in rows], [
            ("10", "12.0", "`ring/bucketed`", "1.50", "8.00×", "–"),
            ("1,000", "32.0", "`ring/bucketed`", "2.00", "16.0×", "–"),
            ("65,500", "100", "`ring/bucketed`", "3.00", "33.3×", "~64k: ≥ 20×, goal met"),
            ("1,000,000", "140", "`ring/bucketed`", "8.00", "17.5×", "–"),
            ("4,000,000", "200", "`ring/bucketed`", "10.0", "20.0×", "–"),
            ("16,000,000", "360", "`ring/bucketed`", "15.0", "24.0×",
             "~16M: ≥ 30×, goal not met")])
        row = rows[2]
        self.assertEqual((row[4], row[7]), (
            fixture_cv("tokens/ring/lower_bound/N:655/V:100/K:300000/threads:1"),
            fixture_cv("tokens/ring/bucketed/N:655/V:100/K:300000/threads:1")))

    def test_best_over_stream(self):
        text = section(self.report, "### Best ring kernel ÷ stream baseline")
        self.assertIn("at every ring up to 65,500 tokens", text)
        rows = table_rows(text)
        self.assertEqual([(r[0], r[3], r[4], r[6], r[8]) for r in rows], [
            ("10", "`ring/bucketed`", "1.50", "0.300", "5.00×"),
            ("1,000", "`ring/bucketed`", "2.00", "0.400", "5.00×"),
            ("65,500", "`ring/bucketed`", "3.00", "0.500", "6.00×")])
        self.assertEqual(rows[2][7],
                         fixture_cv("tokens/ring/stream/N:655/V:100/K:300000/threads:1"))
        self.assertIn("over 3 rings — **goal met**.", text)

    def test_clustered_vs_eytzinger(self):
        text = section(self.report, "### Clustered tokens vs Eytzinger")
        got = {(r[0], r[2]): r[5] for r in table_rows(text)}
        self.assertEqual(got, {
            ("65,500", "`ring/lower_bound`"): "**6.88×** slower",  # 110 / 16
            ("65,500", "`ring/eytzinger`"): "1.00×",
            ("65,500", "`ring/stree`"): "0.500×",  # 8 / 16
            ("65,500", "`ring/bucketed`"): "0.750×",  # 12 / 16
            ("1,000,000", "`ring/lower_bound`"): "**4.69×** slower",  # 150 / 32
            ("1,000,000", "`ring/eytzinger`"): "1.00×",
            ("1,000,000", "`ring/stree`"): "0.500×",  # 16 / 32
            ("1,000,000", "`ring/bucketed`"): "0.750×",  # 24 / 32
            ("16,000,000", "`ring/lower_bound`"): "**7.50×** slower",  # 480 / 64
            ("16,000,000", "`ring/eytzinger`"): "1.00×",
            ("16,000,000", "`ring/stree`"): "0.625×",  # 40 / 64
            ("16,000,000", "`ring/bucketed`"): "**1.25×** slower",  # 80 / 64
        })
        self.assertIn("- Slower than Eytzinger: `ring/lower_bound` at 65,500, 1,000,000, "
                      "16,000,000 tokens; `ring/bucketed` at 16,000,000 tokens.", text)
        self.assertIn("— **goal not met**.", text)

    def test_best_inflight(self):
        rows = table_rows(section(self.report, "### Best keys in flight"))
        self.assertEqual([r[:5] + r[6:9] for r in rows], [
            # kernel, knob, tokens, best setting, ns/key; 1 in flight, gain, family tokens
            ["`ring/stree`", "lockstep group", "65,500", "32", "8.00", "40.0", "5.00×", "8.00"],
            ["`ring/stree`", "lockstep group", "16,000,000", "64", "27.0", "200", "7.41×",
             "30.0"],
            ["`ring/bucketed`", "prefetch distance", "65,500", "32", "3.50", "6.00", "1.71×",
             "3.00"],
            ["`ring/bucketed`", "prefetch distance", "16,000,000", "128", "11.5", "60.0",
             "5.22×", "15.0"]])
        self.assertEqual(rows[3][5], fixture_cv(
            "inflight/ring/bucketed/N:160000/V:100/K:300000/threads:1/inflight:128"))

    def test_memory_and_build_time(self):
        text = section(self.report, "### Memory and build time per kernel")
        tables = text.split("Build time [ms]:")
        self.assertIn("| tokens | `ring/lower_bound` | `ring/branchless` | `ring/eytzinger` | "
                      "`ring/stree` | `ring/bucketed` |", tables[0])
        self.assertNotIn("ring/stream", text)
        memory = {r[0]: r[1:] for r in table_rows(tables[0])}
        # make_fixture.memory_bytes: 12 B per token plus 4 (one more owner) or
        # 12 (one more Eytzinger slot); 16 for the S-tree, 48 for the buckets.
        self.assertEqual(memory["10"], ["12.4", "12.4", "13.2", "16.0", "48.0"])
        self.assertEqual(memory["16,000,000"], ["12.0", "12.0", "12.0", "16.0", "48.0"])
        build = {r[0]: r[1:] for r in table_rows(tables[1])}
        # make_fixture.BUILD_NS_PER_TOKEN: 20, 20, 40, 50 and 80 ns per token.
        self.assertEqual(build["1,000,000"], ["20.0", "20.0", "40.0", "50.0", "80.0"])
        self.assertEqual(build["16,000,000"], ["320", "320", "640", "800", "1,280"])

    def test_new_plots_described(self):
        for title, name in (("Throughput beside latency", "latency.png"),
                            ("Keys in flight", "inflight.png"),
                            ("Clustered tokens", "clustered.png")):
            self.assertIn(f"![{title}]({name})", self.report)
        # The fixture has no family "bounded", "replicas" nor "weighted"
        # (test_families.py, test_plot_replicas.py and test_plot_weighted.py draw
        # them): they come in the run's family order.
        not_drawn = [line for line in self.report.splitlines() if "Not drawn" in line]
        self.assertEqual(not_drawn, ["Not drawn: no usable `bounded` results in this run.",
                                     "Not drawn: no usable `replicas` results in this run.",
                                     "Not drawn: no usable `weighted` results in this run."])

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

    def test_targets_speedups(self):
        # make_fixture.TARGETS_NS: scalar ns/key ÷ SIMD ns/key per target, and
        # forced AVX2 ns/key ÷ forced AVX3 ns/key.
        rows = table_rows(section(self.report, "### Speed-up over the scalar counterpart"))
        got = {(r[0], r[1]): r[2:] for r in rows}
        self.assertEqual(got, {
            # kernel, N: K, counterpart, its ns/key, dispatched, AVX3, AVX2, SCALAR, AVX2 : AVX3
            ("`ring/simd_eytzinger`", "655"): [
                "100,000", "`ring/eytzinger`", "7.00", "0.700× (AVX3)", "0.700×", "0.500×",
                "1.00×", "1.40"],  # 7/10, 7/10, 7/14, 7/7; 14/10
            ("`hrw/simd_nodes`", "64"): [
                "100,000", "`hrw/scalar`", "100", "10.0× (AVX3)", "10.0×", "4.00×", "1.25×",
                "2.50"],  # 100/10, 100/25, 100/80; 25/10
            ("`hrw/simd_keys`", "64"): [
                "100,000", "`hrw/scalar`", "100", "12.5× (AVX3)", "12.2×", "2.50×", "0.800×",
                "4.88"],  # 100/8, 100/8.2, 100/40, 100/125; 40/8.2
            ("`hrw/simd_keys`", "1,000"): [
                "20,000", "`hrw/scalar`", "1,500", "15.0× (AVX3)", "15.0×", "5.00×", "1.25×",
                "3.00"],  # 1500/100, 1500/300, 1500/1200; 300/100
            ("`jump/simd`", "1,000"): [
                "100,000", "`jump/scalar`", "50.0", "20.0× (AVX3)", "20.0×", "6.25×", "1.25×",
                "3.20"],  # 50/2.5, 50/8, 50/40; 8/2.5
            ("`jump/simd`", "1,000,000"): [
                "100,000", "`jump/scalar`", "80.0", "20.0× (AVX3)", "20.0×", "8.00×", "1.25×",
                "2.50"],  # 80/4, 80/10, 80/64; 10/4
            ("`modn/simd`", "1,000"): [
                "100,000", "`modn/scalar`", "2.40", "4.00× (AVX3)", "4.00×", "2.00×", "0.500×",
                "2.00"],  # 2.4/0.6, 2.4/1.2, 2.4/4.8; 1.2/0.6
            # The SIMD kernels a table of rivals in the script once lacked: their
            # rivals come from the run's registry now.
            ("`ring/stree`", "655"): [
                "100,000", "`ring/eytzinger`", "7.00", "2.00× (AVX3)", "2.00×", "1.25×",
                "0.500×", "1.60"],  # 7/3.5, 7/3.5, 7/5.6, 7/14; 5.6/3.5
            ("`ring/bucketed`", "655"): [
                "100,000", "`ring/eytzinger`", "7.00", "4.00× (AVX3)", "4.00×", "3.50×",
                "2.00×", "1.14"],  # 7/1.75, 7/1.75, 7/2, 7/3.5; 2/1.75
            ("`maglev/simd`", "1,000"): [
                "100,000", "`maglev/scalar`", "3.00", "2.00× (AVX3)", "2.00×", "1.50×",
                "0.500×", "1.33"],  # 3/1.5, 3/1.5, 3/2, 3/6; 2/1.5
            # Jump hash's successors, with no edit to the scripts.
            ("`jumpback/simd`", "1,000"): [
                "100,000", "`jumpback/scalar`", "7.00", "10.0× (AVX3)", "10.0×", "4.00×",
                "1.00×", "2.50"],  # 7/0.7, 7/0.7, 7/1.75, 7/7; 1.75/0.7
            ("`flip/simd`", "1,000"): [
                "100,000", "`flip/scalar`", "5.60", "3.50× (AVX3)", "3.50×", "2.00×",
                "0.700×", "1.75"],  # 5.6/1.6, 5.6/1.6, 5.6/2.8, 5.6/8; 2.8/1.6
        })
        schemes = [s[0] for s in SCHEMES]  # the fixture registry's order
        self.assertEqual(list(got), sorted(got, key=lambda k: schemes.index(
            k[0].strip("`").split("/")[0])))

    def test_targets_header_and_times(self):
        text = section(self.report, "### Speed-up over the scalar counterpart")
        self.assertIn("| dispatched | AVX3 | AVX2 | SCALAR | AVX2 : AVX3 |", text)
        rows = table_rows(section(self.report, "### Median ns/key per target"))
        got = [(r[3], r[4], r[5], r[7]) for r in rows
               if r[0] == "`hrw/simd_keys`" and r[1] == "64"]
        self.assertEqual(got, [("`hrw/scalar` (scalar counterpart)", "100", "1.00×", "3"),
                               ("dispatched (AVX3)", "8.00", "12.5×", "3"),
                               ("AVX3", "8.20", "12.2×", "3"),
                               ("AVX2", "40.0", "2.50×", "3"),
                               ("SCALAR", "125", "0.800×", "3")])
        fixture = json.loads(FIXTURE.read_text())
        name = "targets/hrw/simd_keys@AVX2/N:64/V:100/K:100000/threads:1/real_time"
        samples = [e["ns_per_key"] for e in fixture["benchmarks"]
                   if e["run_name"] == name and e["run_type"] == "iteration"]
        cv = statistics.stdev(samples) / statistics.fmean(samples) * 100
        row = next(r for r in rows if r[0] == "`hrw/simd_keys`" and r[1] == "64"
                   and r[3] == "AVX2")
        self.assertEqual(row[6], numeric.sig3(cv))

    def test_simd_rendezvous_check(self):
        # Best of simd_keys (8) and simd_nodes (10) at N = 64; only simd_keys at
        # 1,000; the nodes family has no SIMD rendezvous kernel.
        text = section(self.report, "### SIMD rendezvous ÷ scalar rendezvous")
        self.assertEqual(table_rows(text), [
            ["`targets`", "64", "100,000", "100", "`hrw/simd_keys`", "8.00", "12.5×"],
            ["`targets`", "1,000", "20,000", "1,500", "`hrw/simd_keys`", "100", "15.0×"]])
        self.assertIn("Range: 12.5× to 15.0× over 2 configurations.", text)

    def test_simd_jump_check(self):
        text = section(self.report, "### Batched SIMD jump ÷ scalar jump")
        self.assertEqual(table_rows(text), [
            ["`targets`", "1,000", "100,000", "50.0", "`jump/simd`", "2.50", "20.0×"],
            ["`targets`", "1,000,000", "100,000", "80.0", "`jump/simd`", "4.00", "20.0×"]])

    def test_targets_plot_described(self):
        self.assertIn("![SIMD speed-up per Highway target](targets.png)", self.report)


def check_rejected(test: unittest.TestCase, content: bytes | None, expect: str,
                   extra: tuple = ()) -> None:
    """plot.py on `content` (None: no file), with `extra` arguments, exits 2
    with one line on stderr holding `expect`, and writes nothing."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        src = tmp / "bench.json"
        if content is not None:
            src.write_bytes(content)
        out = tmp / "out"
        out.mkdir()
        (out / "keep.txt").write_text("earlier")
        before = snapshot(tmp)
        result = run([PYTHON, PLOT, str(src), "--out", str(out), *extra])
        test.assertEqual(result.returncode, 2, result.stderr)
        test.assertEqual(result.stdout, "")
        lines = result.stderr.splitlines()
        test.assertEqual(len(lines), 1, result.stderr)
        test.assertTrue(lines[0].startswith("plot.py: error: "), lines[0])
        test.assertIn(expect, lines[0])
        test.assertEqual(snapshot(tmp), before)


class BadInput(unittest.TestCase):
    """Unusable input: exit 2, one line on stderr, nothing written."""

    def check_rejected(self, content: bytes | None, expect: str):
        check_rejected(self, content, expect)

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

    def test_zero_time_is_an_error_not_a_crash(self):
        zero = entry("tokens/ring/lower_bound/N:10/V:1/K:1000/threads:1", 1.0, real_time=0.0)
        del zero["ns_per_key"], zero["keys_per_second"]
        report, files, _ = self.render(bench_json(
            [zero, entry("tokens/ring/stree/N:10/V:1/K:1000/threads:1", 0.5)]))
        self.assertIn("ring_tokens.png", files)
        self.assertIn("`tokens/ring/lower_bound/N:10/V:1/K:1000/threads:1` failed: no positive "
                      "ns_per_key, real_time or keys in the JSON", section(report, "## Checks"))

    def test_targets_missing_pieces(self):
        # A SIMD kernel without its scalar counterpart, one without AVX2, and
        # a nodes family whose SIMD rendezvous is compared at N >= 64 only.
        name = "targets/{}/N:{}/V:100/K:1000/threads:1/real_time"
        entries = [
            entry(name.format("ring/simd_eytzinger", 655), 10.0, label="AVX3"),
            entry(name.format("ring/simd_eytzinger@AVX3", 655), 9.0, label="AVX3"),
            entry(name.format("modn/scalar", 1000), 2.0),
            entry(name.format("modn/simd", 1000), 0.5, label="AVX3"),
            entry(name.format("modn/simd@AVX3", 1000), 0.4, label="AVX3"),
            entry("nodes/hrw/scalar/N:32/V:100/K:1000/threads:1", 40.0),
            entry("nodes/hrw/simd_keys/N:32/V:100/K:1000/threads:1", 4.0),
            entry("nodes/hrw/scalar/N:128/V:100/K:1000/threads:1", 160.0),
            entry("nodes/hrw/simd_keys/N:128/V:100/K:1000/threads:1", 20.0),
            entry("nodes/hrw/simd_nodes/N:128/V:100/K:1000/threads:1", 10.0),
        ]
        report, files, _ = self.render(bench_json(entries))
        self.assertIn("targets.png", files)
        text = report[report.index("## SIMD targets"):report.index("## Plots")]
        self.assertIn("no `ring/eytzinger` with the same N, V, K and threads", text)
        rows = table_rows(section(report, "### Speed-up over the scalar counterpart"))
        self.assertEqual([r[:6] + r[-2:] for r in rows], [  # schemes in registry order
            ["`modn/simd`", "1,000", "1,000", "`modn/scalar`", "2.00", "4.00× (AVX3)",
             "5.00×", "–"],
            ["`ring/simd_eytzinger`", "655", "1,000", "`ring/eytzinger`", "–", "–", "–",
             "–"]])
        self.assertIn("no AVX2 : AVX3 ratio", report)
        self.assertEqual(table_rows(section(report, "### SIMD rendezvous ÷ scalar")), [
            ["`nodes`", "128", "1,000", "160", "`hrw/simd_nodes`", "10.0", "16.0×"]])
        self.assertIn("No `jump/scalar` beside `jump/simd`", report)

    def test_no_targets_family(self):
        report, files, _ = self.render(bench_json(
            [entry("nodes/jump/scalar/N:1000/V:100/K:1000/threads:1", 8.0)]))
        self.assertNotIn("targets.png", files)
        self.assertIn("No SIMD kernels in family `targets` in this run.", report)
        self.assertIn("Not drawn: no usable `targets` results", report)
        self.assertIn("No `hrw/scalar` beside `hrw/simd_nodes` or `hrw/simd_keys` at N ≥ 64",
                      report)

    def test_unknown_family_gets_a_table(self):
        report, _, _ = self.render(bench_json(
            [entry("fanout/ring/eytzinger/N:10/V:100/K:1000/threads:1", 30.0)]))
        self.assertIn("### Family `fanout`", report)

    def test_goal_families_missing(self):
        # Family "tokens" alone, on rings of 1,000 and 64,000 tokens: no latency,
        # in-flight or clustered plot, and goals that need them not measured.
        name = "tokens/ring/{}/N:{}/V:100/K:1000/threads:1/real_time"
        entries = [entry(name.format(kernel, n), ns) for kernel, n, ns in (
            ("lower_bound", 10, 30.0), ("stree", 10, 5.0), ("stream", 10, 1.0),
            ("lower_bound", 640, 90.0), ("stree", 640, 9.0), ("stream", 640, 1.0))]
        report, files, _ = self.render(bench_json(entries))
        self.assertIn("ring_tokens.png", files)
        for name, family in (("latency.png", "latency"), ("inflight.png", "inflight"),
                             ("clustered.png", "clustered")):
            self.assertNotIn(name, files)
            self.assertIn(f"Not drawn: no usable `{family}` results in this run.", report)
        rows = table_rows(section(report, "## Goals"))
        self.assertEqual([(r[1], r[2]) for r in rows], [
            ("10.0× (`ring/stree` at 64,000 tokens)", "**goal not met**"),  # 90 / 9 < 20
            ("no ring of family `tokens` within 2× of 16,777,216 tokens with "
             "`ring/lower_bound`", "**not measured**"),
            ("worst 9.00× (`ring/stree` at 64,000 tokens) over 2 rings", "**goal not met**"),
            ("no ring of family `clustered` with `ring/eytzinger` beside `ring/stree` or "
             "`ring/bucketed`", "**not measured**"),
            # No family "dense": the jump family's goals are not measured.
            ("no SIMD kernel of family `dense` beside its scalar rival at N = 1,000 or "
             "1,000,000", "**not measured**"),
            ("no `jumpback` kernel in family `dense`", "**not measured**"),
            ("no N = 1,000,000 in family `dense` with `jump/scalar` and `jumpback/simd`",
             "**not measured**"),
            ("no N = 1,000 or 100,000 in family `targets` with `multiprobe/scalar` and "
             "`multiprobe/simd`", "**not measured**"),
            ("no N = 64 or 1,000 in family `weighted` with `hrw_weighted/scalar` and "
             "`hrw_weighted/simd`", "**not measured**"),
            # No family "replicas": the replica goals are not measured.
            ("no N = 1,000 in family `replicas` with `hrw/simd_keys` at R = 3 and R = 1",
             "**not measured**"),
            ("no N = 1,000 in family `replicas` with `hrw/scalar` at R = 3 and R = 1",
             "**not measured**"),
            ("no N = 1,000 with 100,000 tokens in family `replicas` with `ring/branchless` "
             "at R = 3 and R = 1", "**not measured**")])
        self.assertNotIn("jump_family.png", files)
        self.assertIn("Not drawn: no usable `dense` results in this run.", report)
        self.assertIn("No `dense` results in this run. Not measured: `jump`, `jumpback`",
                      report)
        self.assertIn("No `inflight` results in this run.", report)
        self.assertIn("No ring with `ring/eytzinger` in family `clustered` in this run.", report)

    def test_latency_alone_and_clustered_ties(self):
        # A latency family without "tokens" still gets its plot (one panel);
        # on clustered tokens, as fast as Eytzinger is no slower.
        entries = [entry(f"latency/ring/{kernel}/N:10/V:100/K:1000/threads:1", ns)
                   for kernel, ns in (("eytzinger", 40.0), ("stream", 3.0))]
        name = "clustered/ring/{}/N:655/V:100/K:1000/threads:1/window:36/real_time"
        entries += [entry(name.format(kernel), ns) for kernel, ns in (
            ("eytzinger", 20.0), ("stree", 20.0), ("branchless", 25.0))]
        report, files, _ = self.render(bench_json(entries))
        self.assertIn("latency.png", files)
        self.assertIn("clustered.png", files)
        text = section(report, "### Clustered tokens vs Eytzinger")
        self.assertIn("- Slower than Eytzinger: `ring/branchless` at 65,500 tokens.", text)
        self.assertIn("`ring/stree` 1.00× of Eytzinger's time — **goal met**.", text)
        self.assertIn("No ring with `ring/lower_bound` in family `tokens`", report)


class Units(unittest.TestCase):
    """Pure functions of plot.py."""

    def test_parse_name_ignores_google_benchmark_suffixes(self):
        name = load.parse_name(
            "threads/ring/eytzinger/N:1000/V:100/K:300000/threads:2/repeats:3/real_time/threads:1")
        self.assertEqual((name.family, name.scheme, name.kernel), ("threads", "ring", "eytzinger"))
        self.assertEqual(name.params, {"nodes": 1000, "vnodes": 100, "keys": 300000, "threads": 2})

    def test_parse_name_rejects_foreign_names(self):
        self.assertIsNone(load.parse_name("BM_Sort/1024"))
        self.assertIsNone(load.parse_name("a/b:1/c"))

    def test_sig3(self):
        cases = {1.875: "1.88", 9.996: "10.0", 12345.0: "12,300", 0.9: "0.900", 140.0: "140",
                 3.0: "3.00", 0.000123: "1.23e-04", 0.0: "0", 17.3205: "17.3"}
        for x, want in cases.items():
            self.assertEqual(numeric.sig3(x), want, x)
        self.assertEqual(numeric.si(3.75e9, "keys/s"), "3.75 Gkeys/s")
        self.assertEqual(numeric.si(999.9), "1.00 k")

    def test_rivals_from_the_registry(self):
        # The fixture's registry: what the bench writes from the registry (kernels/chbench/kernels.def).
        reg = registry.from_context({"chbench_registry": registry_text()}, "x")
        cases = {"hrw/simd_keys": "hrw/scalar", "hrw/simd_nodes": "hrw/scalar",
                 "jump/simd": "jump/scalar", "modn/simd": "modn/scalar",
                 "maglev/simd": "maglev/scalar", "ring/simd_branchless": "ring/branchless",
                 "ring/simd_eytzinger": "ring/eytzinger", "ring/stree": "ring/eytzinger",
                 "ring/bucketed": "ring/eytzinger", "ring/stree@AVX2": "ring/eytzinger",
                 "ring/eytzinger": None, "jump/interleaved": None, "hrw/scalar": None,
                 "hrw/simd_wide": None, "ring/stream": None}
        for label, want in cases.items():
            self.assertEqual(reg.rival(label), want, label)
        self.assertEqual([s.name for s in reg.schemes], ["modn", "ring", "hrw", "jump", "maglev",
                                                         "jumpback", "jumpback_xorshift",
                                                         "flip", "power", "binomial",
                                                         "hrw_weighted", "multiprobe"])
        self.assertEqual([s.name for s in reg.jump_family()],
                         ["jump", "jumpback", "jumpback_xorshift", "flip", "power", "binomial"])
        self.assertEqual(reg.floors(), ["ring/stream"])
        self.assertEqual(reg.knob_name("ring/bucketed"), "prefetch distance")
        self.assertIsNone(reg.knob_name("ring/eytzinger"))
        self.assertTrue(reg.takes("ring", "vnodes"))
        self.assertFalse(reg.takes("hrw", "vnodes"))
        self.assertEqual(sorted(["SCALAR", "AVX2", "NEON", "AVX3", "EMU128", "SSE4"],
                                key=targets.target_rank),
                         ["AVX3", "AVX2", "SSE4", "SCALAR", "EMU128", "NEON"])

    def test_forced_target_in_name(self):
        name = load.parse_name("targets/hrw/simd_keys@AVX2/N:64/V:100/K:1000/threads:1/real_time")
        self.assertEqual((name.scheme, name.kernel, name.params["nodes"]),
                         ("hrw", "simd_keys@AVX2", 64))
        r = load.Result("x", "targets", "hrw", "simd_keys@AVX2")
        self.assertEqual((r.base_kernel, r.forced_target), ("simd_keys", "AVX2"))
        r = load.Result("x", "targets", "hrw", "simd_keys")
        self.assertEqual((r.base_kernel, r.forced_target), ("simd_keys", None))

    def test_parse_name_inflight_and_window_segments(self):
        name = load.parse_name("inflight/ring/stree/N:655/V:100/K:300000/threads:1/inflight:32"
                               "/real_time")
        self.assertEqual(name.params, {"nodes": 655, "vnodes": 100, "keys": 300000,
                                       "threads": 1, "in_flight": 32})
        name = load.parse_name("clustered/ring/bucketed/N:655/V:100/K:300000/threads:1/window:36")
        self.assertEqual(name.params["window_bits"], 36)

    def test_nearest_ring(self):
        def points(*tokens):
            return [rings.RingPoint(t, None, None, None, {}) for t in tokens]
        self.assertEqual(rings.nearest_ring(points(30_000, 100_000), 65_536).tokens, 100_000)
        # Equally far in ratio: the larger ring.
        self.assertEqual(rings.nearest_ring(points(32_768, 131_072), 65_536).tokens, 131_072)
        self.assertIsNone(rings.nearest_ring(points(10, 32_000, 140_000), 65_536))
        self.assertEqual(rings.nearest_ring(points(16_000_000, 40_000_000), 16_777_216).tokens,
                         16_000_000)

    def test_stream_is_a_floor_not_a_kernel(self):
        stream = load.Result("x", "tokens", "ring", "stream", order=0, is_floor=True)
        lower = load.Result("y", "tokens", "ring", "lower_bound", order=1, ns=9.0)
        style = plotstyle.Style([stream, lower])
        self.assertEqual(style.index, {"ring/lower_bound": 0})
        kw = style.kw("ring/stream", "ring")
        self.assertEqual((kw["color"], kw["marker"]), ("0.3", None))
        self.assertNotEqual(kw["linestyle"], "-")
        stream.ns = 1.0
        point = rings.RingPoint(10, 10, 1, 1000, {"ring/stream": stream,
                                                 "ring/lower_bound": lower})
        self.assertIs(point.best(), lower)
        self.assertEqual(style.legend("ring/stream"), "stream floor (ring/stream: no lookup)")

    def test_crossovers(self):
        (x, a_below), = numeric.crossovers([10, 30], [6.0, 16.0], [9.6, 10.0])
        self.assertAlmostEqual(x, 300 ** 0.5, places=9)
        self.assertTrue(a_below)
        self.assertEqual(numeric.crossovers([1, 10, 100], [1, 2, 3], [5, 6, 7]), [])
        # Touching at a measured point counts once.
        self.assertEqual(numeric.crossovers([1, 10, 100], [1, 5, 9], [2, 5, 8]), [(10, True)])


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
