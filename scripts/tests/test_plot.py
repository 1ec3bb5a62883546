"""Tests of scripts/plot.py (the chbench_plots package) on the fixture: its
outputs and the report's numbers. Bad input and tolerance are
test_plot_input.py's, the package's units test_plot_units.py's."""

from __future__ import annotations

import json
import statistics
import struct
import unittest

from make_fixture import SCHEMES
from support import FIXTURE
from plot_support import PNGS, SVGS, OnTheFixture, fixture_cv, section, table_rows

# support puts scripts/ on sys.path.
from chbench_plots import numeric  # noqa: E402


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
        self.assertIn("below it rendezvous is faster, above it the ring", text)
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
        # clustered bucketed 80 vs Eytzinger 64 ns/key at 1.6·10^7 tokens; no
        # random-read floor.
        rows = table_rows(section(self.report, "## Goals"))[:5]  # the ring goals
        self.assertEqual([r[2] for r in rows], ["**goal met**", "**goal not met**",
                                                "**goal met**", "**not measured**",
                                                "**goal not met**"])
        self.assertEqual(rows[0][1], "33.3× (`ring/bucketed` at 65,500 tokens)")
        self.assertEqual(rows[1][1], "24.0× (`ring/bucketed` at 16,000,000 tokens)")
        self.assertEqual(rows[2][1], "worst 6.00× (`ring/bucketed` at 65,500 tokens) over 3 rings")
        self.assertEqual(rows[3][1], "no ring of family `tokens` within 2× of 16,777,216 tokens "
                                     "with `ring/random_read`")
        self.assertEqual(rows[4][1], "`ring/stree` 0.500× to 0.625×; `ring/bucketed` 0.750× to "
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
        # The fixture has no family "bounded", "replicas", "weighted" nor "dram"
        # (test_families.py, test_plot_replicas.py, test_plot_weighted.py and
        # test_plot_dram.py draw them): they come in the run's family order,
        # and "dram", which the fixture's family list lacks, last.
        not_drawn = [line for line in self.report.splitlines() if "Not drawn" in line]
        self.assertEqual(not_drawn, ["Not drawn: no usable `bounded` results in this run.",
                                     "Not drawn: no usable `replicas` results in this run.",
                                     "Not drawn: no usable `weighted` results in this run.",
                                     "Not drawn: no usable `dram` results in this run."])

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


if __name__ == "__main__":
    unittest.main()
