"""Tests of scripts/plot.py on unusable input (exit 2, one line on stderr,
nothing written) and on thin or odd input it must tolerate."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from support import FIXTURE, PYTHON, run
from plot_support import PLOT, bench_json, check_rejected, entry, section, table_rows


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
            ("no ring of family `tokens` within 2× of 16,777,216 tokens with "
             "`ring/random_read`", "**not measured**"),
            ("no ring of family `clustered` with `ring/eytzinger` beside `ring/stree` or "
             "`ring/bucketed`", "**not measured**"),
            # No family "dense": the jump family's goals are not measured.
            ("no SIMD kernel of family `dense` beside its scalar rival at N = 1,000 or "
             "1,000,000", "**not measured**"),
            ("no `jumpback` kernel in family `dense`", "**not measured**"),
            ("no `jumpback/simd` or `jumpback_xorshift/simd` or `flip/simd` or `power/simd` or "
             "`binomial/simd` at two N or more in family `dense`", "**not measured**"),
            ("no N = 1,000,000 in family `dram` with the stream floor beside `jumpback/simd` or "
             "`jumpback_xorshift/simd` or `flip/simd` or `power/simd` or `binomial/simd`",
             "**not measured**"),
            ("no N = 1,000,000 in family `dense` with `jump/scalar` and `jumpback/simd`",
             "**not measured**"),
            ("no N = 1,000 or 100,000 in family `targets` with `multiprobe/scalar` and "
             "`multiprobe/simd`", "**not measured**"),
            ("no N = 64 in family `targets` with `hrw/scalar` and `hrw/simd_keys`",
             "**not measured**"),
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


if __name__ == "__main__":
    unittest.main()
