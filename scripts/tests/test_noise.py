"""Tests of interference as the report and run.sh see it: the noise record
of the fixture (two configurations flagged, see make_fixture.NOISY) in the
report's first lines, its Noise section, the family tables and the plots;
the SIMD target the goals name; each thread's CPU time in family threads;
retry_noisy.py's filters, baseline and merge; run.sh --retry-noisy with the
stand-in bench."""

from __future__ import annotations

import json
import re
import tempfile
import unittest
from pathlib import Path

import make_rounds_fixture as rf
from make_fixture import NOISY
from support import FAKE_BENCH, FIXTURE, PYTHON, SCRIPTS, machine_name, run
from plot_support import bench_json, entry, section, table_rows

# support puts scripts/ on sys.path.
import retry_noisy  # noqa: E402
from chbench_plots import goal_specs, goals, load, main, noise, style  # noqa: E402

PLOT = str(SCRIPTS / "plot.py")
RETRY = str(SCRIPTS / "retry_noisy.py")
RUN_SH = str(SCRIPTS / "run.sh")
FLAGGED = sorted(name + "/real_time" for name in NOISY)


def noise_line(report: str) -> str:
    """The report's opening line on noise (after the first screen)."""
    return next(line for line in report.splitlines() if line.startswith("**Noise"))


def quiet_retry(path: Path, still_noisy: bool = False) -> Path:
    """A retry's JSON for the fixture's flagged configurations: quiet (noisy
    0, canary at its best) and 10 % faster, or, with still_noisy, flagged
    with a worse canary."""
    data = json.loads(FIXTURE.read_text())
    entries = [e for e in data["benchmarks"] if e["run_name"] in FLAGGED]
    for e in entries:
        e["ns_per_key"] = round(e["ns_per_key"] * 0.9, 6)
        if still_noisy:
            e["noisy"], e["canary_ratio"] = 1.0, 3.0
        else:
            e["noisy"], e["canary_ratio"], e["steal_ms"] = 0.0, 1.0, 0.0
    data["benchmarks"] = entries
    path.write_text(json.dumps(data))
    return path


class Report(unittest.TestCase):
    """plot.py on the fixture: what it says about noise, targets, threads."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        out = Path(cls.tmp.name)
        cls.result = run([PYTHON, PLOT, str(FIXTURE), "--out", str(out)])
        cls.report = (out / "report.md").read_text() if cls.result.returncode == 0 else ""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_first_lines(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        first = noise_line(self.report)
        self.assertTrue(first.startswith("**Noise: 2 of 317 configurations flagged noisy**"),
                        first)
        self.assertIn("more than 15 % slower than the run's best", first)
        # make_fixture: 0.10 + 0.05 × (index mod 7), over the configurations.
        self.assertIn("Load average (1 min) during the run: 0.10 / 0.25 / 0.40 (min / median / "
                      "max over 317 configurations)", first)
        self.assertIn("host steal 40.0 ms in all, at most 40.0 ms in one configuration", first)

    def test_noise_section(self):
        text = section(self.report, "## Appendix: noise")
        self.assertIn("calibrated at the start at 265 µs and 470 µs", text)
        self.assertIn("4.00 MiB buffer", text)
        rows = table_rows(text)
        self.assertEqual(sorted(r[0] for r in rows), sorted(f"`{n}`" for n in NOISY))
        got = {r[0]: r[1:] for r in rows}
        self.assertEqual(got["`tokens/ring/stree/N:10000/V:100/K:300000/threads:1`"],
                         ["1.42×", "0", "0.10", "–"])
        self.assertEqual(got["`nodes/hrw/scalar/N:300/V:100/K:300000/threads:1`"][:2],
                         ["1.02×", "40.0"])

    def test_tables_mark_flagged_rows(self):
        text = section(self.report, "### Family `tokens`")
        self.assertIn("| noise |", text)
        rows = table_rows(text)
        marked = [r for r in rows if r[8] != ""]
        self.assertEqual(len(marked), 1)
        self.assertEqual((marked[0][0], marked[0][3], marked[0][8]),
                         ("`ring/stree`", "1,000,000", "**noisy** 1.42×"))
        nodes = table_rows(section(self.report, "### Family `nodes`"))
        self.assertEqual([(r[0], r[1], r[-2]) for r in nodes if any("noisy" in c for c in r)],
                         [("`hrw/scalar`", "300", "**noisy** 1.02×")])
        # A family without a flagged configuration has no noise column.
        self.assertNotIn("| noise |", section(self.report, "### Family `latency`"))

    def test_goals_name_their_target(self):
        text = section(self.report, "## Goals")
        self.assertIn("Measured on SIMD target `AVX3` (Highway; this run's dispatch picked "
                      "`AVX3`)", text)
        self.assertIn("not comparable with one measured on another", text)
        lines = [line for line in self.report.splitlines() if line.startswith("- ")
                 and "goal" in line and "**" in line]
        self.assertTrue(lines)
        self.assertTrue(all("Measured on AVX3." in line for line in lines), lines)

    def test_goal_on_a_noisy_configuration_says_so(self):
        # ring/stree at 10^6 tokens is noisy, but no goal judges that ring;
        # the clustered goal's line names no noisy configuration.
        text = section(self.report, "### Clustered tokens vs Eytzinger")
        self.assertNotIn("flagged noisy", text)

    def test_threads_cpu_time(self):
        text = section(self.report, "### Family `threads`")
        self.assertIn("Threads that ran and the CPU time each got", text)
        rows = {(r[0], r[1]): r for r in table_rows(text) if len(r) == 6}
        self.assertEqual(rows[("`ring/lower_bound`", "2")][2:], ["2", "186", "180, 102",
                                                                 "97%, 55%"])
        self.assertEqual(rows[("`jump/scalar`", "1")][5], "99%")
        self.assertIn("1 configuration with a thread below 90% of the wall time", text)

    def test_wall_of_a_run_timed_in_rounds(self):
        # A round's repetition is one batch, one iteration; the median row of
        # ten rounds counts the ten in `iterations`.
        median = {"real_time": 0.6, "time_unit": "ms", "iterations": 10,
                  "run_type": "aggregate", "rounds": 10}
        self.assertAlmostEqual(load.wall_ms(median), 0.6)
        # Google Benchmark's own timing: real_time per iteration, many iterations.
        self.assertAlmostEqual(load.wall_ms({"real_time": 100, "time_unit": "ns",
                                             "iterations": 1000}), 0.1)

    def test_context_rows_leave_the_json_strings_out(self):
        machine = section(self.report, "## Machine and build")
        self.assertNotIn("chbench_noise", machine)


class Plots(unittest.TestCase):
    """Flagged points are hollow, and the legend says what hollow means."""

    @classmethod
    def setUpClass(cls):
        cls.run_data = load.load(FIXTURE)
        cls.figs, _ = main.figures(cls.run_data, main.analyse(cls.run_data,
                                                                  goal_specs.load_goals()))

    def hollow(self, fig) -> list:
        return [(list(line.get_xdata()), list(line.get_ydata())) for ax in fig.axes
                for line in ax.get_lines()
                if line.get_markerfacecolor() == "white" and len(line.get_xdata())]

    def legend(self, fig) -> list:
        return [t.get_text() for ax in fig.axes if ax.get_legend()
                for t in ax.get_legend().get_texts()]

    def test_ring_tokens(self):
        fig = self.figs["ring_tokens"]
        self.assertEqual(self.hollow(fig), [([1000000], [12.0])])  # ring/stree, 10^6 tokens
        self.assertEqual(self.legend(fig)[-1], style.NOISY_LABEL)

    def test_nodes(self):
        fig = self.figs["schemes_nodes"]
        self.assertEqual(self.hollow(fig), [([300], [151.0])])  # hrw/scalar, N = 300
        self.assertIn(style.NOISY_LABEL, self.legend(fig))

    def test_latency_shows_the_throughput_panel_marked(self):
        self.assertEqual(self.hollow(self.figs["latency"]), [([1000000], [12.0])])

    def test_quiet_plots_have_no_hollow_marks(self):
        for name in ("inflight", "batch", "threads", "hashed", "clustered", "targets"):
            fig = self.figs[name]
            self.assertEqual(self.hollow(fig), [], name)
            self.assertNotIn(style.NOISY_LABEL, self.legend(fig), name)


class Loading(unittest.TestCase):
    """What load.py reads of the noise record, and runs without one."""

    def test_steal_summed_and_any_repetition_flags(self):
        run_data = load.load(FIXTURE)
        r = next(x for x in run_data.results
                 if x.run_name == "nodes/hrw/scalar/N:300/V:100/K:300000/threads:1/real_time")
        self.assertTrue(r.noisy)
        self.assertEqual(r.steal_ms, 40.0)
        quiet = next(x for x in run_data.results if x.label == "ring/eytzinger"
                     and x.family == "tokens" and x.tokens == 1_000_000)
        self.assertFalse(quiet.noisy)

    def test_run_without_a_noise_record(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "old.json"
            path.write_text(bench_json([entry("tokens/ring/lower_bound/N:10/V:1/K:1000/threads:1",
                                              5.0)]))
            run_data = load.load(path)
            self.assertIsNone(run_data.results[0].noisy)
            self.assertTrue(noise.first_lines(run_data)[0].startswith("**Noise: not recorded.**"))
            self.assertEqual(noise.section(run_data), [])
            out = Path(tmp) / "out"
            out.mkdir()
            result = run([PYTHON, PLOT, str(path), "--out", str(out)])
            self.assertEqual(result.returncode, 0, result.stderr)
            report = (out / "report.md").read_text()
            self.assertNotIn("## Noise", report)
            self.assertNotIn("| noise |", report)

    def test_target_of_a_scalar_goal_is_the_dispatched_one(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "avx2.json"
            context = {"chbench_registry": json.loads(bench_json([]))["context"][
                "chbench_registry"], "chbench_hwy_target": "AVX2"}
            entries = [entry(f"tokens/ring/{k}/N:655/V:100/K:1000/threads:1", ns)
                       for k, ns in (("lower_bound", 100.0), ("eytzinger", 10.0))]
            path.write_text(bench_json(entries, context))
            run_data = load.load(path)
            verdicts = [goals.evaluate(g, run_data) for g in goal_specs.load_goals().goals]
            self.assertEqual({v.target for v in verdicts}, {"AVX2"})


class RetryNoisy(unittest.TestCase):
    """retry_noisy.py: the filters run.sh passes, the baseline, the merge."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = Path(self._tmp.name)
        self.bench = self.tmp / "bench.json"
        self.bench.write_bytes(FIXTURE.read_bytes())
        self.record = self.tmp / "retries.json"

    def tearDown(self):
        self._tmp.cleanup()

    def script(self, *args) -> str:
        result = run([PYTHON, RETRY, *map(str, args)])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, "")
        return result.stdout

    def test_filters_name_exactly_the_flagged(self):
        lines = self.script("filters", self.bench).splitlines()
        self.assertEqual(len(lines), 1)
        pattern = re.compile(lines[0])
        # Bare names: the bench matches its filter against those.
        names = {load.config_name(e["run_name"])
                 for e in json.loads(FIXTURE.read_text())["benchmarks"]}
        self.assertEqual(sorted(n for n in names if pattern.search(n)), sorted(NOISY))
        self.assertTrue(lines[0].startswith("^(") and lines[0].endswith(")$"))
        self.assertEqual(len(self.script("filters", self.bench, "--per-filter", "1")
                             .splitlines()), 2)

    def test_ere_escape(self):
        name = "custom/a.b/c+d/K:1(2)|[x]{3}*?^$\\/real_time"
        escaped = retry_noisy.ere_escape(name)
        self.assertRegex(name, "^(" + escaped + ")$")
        self.assertIsNone(re.search("^(" + escaped + ")$", name.replace(".", "x")))

    def test_baseline(self):
        self.assertEqual(self.script("baseline", self.bench).strip(), "265000.0,470000.0")

    def test_merge_a_quiet_retry(self):
        before = self.bench.read_text()
        retry = quiet_retry(self.tmp / "retry.json")
        line = self.script("merge", self.bench, retry, "--round", 1, "--record", self.record)
        self.assertEqual(line.strip(), "round 1: 2 re-timed, 2 replaced by a quieter "
                                       "measurement, 0 still flagged")
        merged = json.loads(self.bench.read_text())
        old = json.loads(before)
        self.assertEqual(len(merged["benchmarks"]), len(old["benchmarks"]))
        for e, o in zip(merged["benchmarks"], old["benchmarks"]):
            self.assertEqual(e["name"], o["name"])  # in place, in order
            if e["run_name"] in FLAGGED:
                self.assertEqual((e["noisy"], e["retry_round"]), (0.0, 1))
                self.assertAlmostEqual(e["ns_per_key"], round(o["ns_per_key"] * 0.9, 6))
            else:
                self.assertEqual(e, o)
        # Google Benchmark's repeated "threads" key survives in the others.
        self.assertEqual(self.bench.read_text().count('"threads"'),
                         before.count('"threads"') - len(
                             [e for e in old["benchmarks"] if e["run_name"] in FLAGGED]))
        record = json.loads(self.record.read_text())
        self.assertEqual(sorted(record["rounds"][0]["retried"]), FLAGGED)
        self.assertEqual(record["rounds"][0]["still_noisy"], [])
        self.assertTrue(all(c["replaced"] and c["before"]["noisy"] and not c["after"]["noisy"]
                            for c in record["configurations"]))
        line = self.script("finish", self.bench, "--record", self.record, "--max-rounds", 2)
        self.assertEqual(line.strip(), "2 configurations re-timed in 1 rounds, 2 replaced, "
                                       "0 still flagged")
        summary = json.loads(json.loads(self.bench.read_text())["context"]["chbench_retries"])
        self.assertEqual(summary, {"max_rounds": 2, "rounds_run": 1, "retried": 2,
                                   "replaced": 2, "still_noisy": 0, "record": "retries.json"})
        out = self.tmp / "out"
        out.mkdir()
        result = run([PYTHON, PLOT, str(self.bench), "--out", str(out)])
        self.assertEqual(result.returncode, 0, result.stderr)
        first = noise_line((out / "report.md").read_text())
        self.assertTrue(first.startswith("**Noise: none of 317 configurations flagged**"), first)
        self.assertIn("`--retry-noisy 2` re-timed 2 configurations in 1 round, 2 replaced by a "
                      "quieter measurement; 0 still flagged", first)

    def test_a_noisier_retry_is_not_kept(self):
        retry = quiet_retry(self.tmp / "retry.json", still_noisy=True)
        before = self.bench.read_text()
        line = self.script("merge", self.bench, retry, "--round", 1, "--record", self.record)
        self.assertIn("2 re-timed, 0 replaced by a quieter measurement, 2 still flagged", line)
        self.assertEqual(json.loads(self.bench.read_text()), json.loads(before))


class RetryGroups(unittest.TestCase):
    """retry_noisy.py on a run timed in comparison groups: a flagged member
    is re-timed with its whole group, which replaces the group's rows and its
    chbench_groups entry."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = Path(self._tmp.name)
        self.bench, self.retry = self.tmp / "bench.json", self.tmp / "retry.json"
        self.record = self.tmp / "retries.json"
        self.data = rf.build(rf.SLOWED)
        self.noisy = rf.name("nodes", "hrw/scalar", 100)  # a member of group 1
        for row in self.data["benchmarks"]:
            if row["run_name"] == self.noisy:
                row["noisy"], row["canary_ratio"] = 1.0, 1.4
        self.bench.write_text(json.dumps(self.data))
        # The retry holds group 1 alone (its index 0 there), hrw/scalar faster.
        group = [(m, rf.steady(45.0) if m == self.noisy else t) for m, t in rf.SLOWED[1]]
        self.retry.write_text(json.dumps(rf.build([group])))

    def tearDown(self):
        self._tmp.cleanup()

    def script(self, *args) -> str:
        result = run([PYTHON, RETRY, *map(str, args)])
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout

    def test_filter_names_the_whole_group(self):
        lines = self.script("filters", self.bench).splitlines()
        self.assertEqual(len(lines), 1)
        pattern = re.compile(lines[0])
        bare = [load.config_name(m) for group in rf.SLOWED for m, _ in group]
        self.assertEqual([n for n in bare if pattern.search(n)], bare[3:])  # group 1, whole
        # A filter never splits a group, even past --per-filter.
        self.assertEqual(len(self.script("filters", self.bench, "--per-filter", "1")
                             .splitlines()), 1)

    def test_merge_replaces_the_group(self):
        line = self.script("merge", self.bench, self.retry, "--round", 1,
                           "--record", self.record)
        self.assertEqual(line.strip(), "round 1: 4 re-timed, 4 replaced by a quieter "
                                       "measurement, 0 still flagged")
        merged = json.loads(self.bench.read_text())
        groups = json.loads(merged["context"]["chbench_groups"])["groups"]
        old = json.loads(self.data["context"]["chbench_groups"])["groups"]
        new = json.loads(json.loads(self.retry.read_text())["context"]["chbench_groups"])
        self.assertEqual(groups, [old[0], new["groups"][0]])
        self.assertEqual(len(merged["benchmarks"]), len(self.data["benchmarks"]))
        group1 = {load.config_name(m) for m, _ in rf.SLOWED[1]}
        for row, before in zip(merged["benchmarks"], self.data["benchmarks"]):
            if load.config_name(row["run_name"]) in group1:
                self.assertEqual(row["retry_round"], 1)
                if "group" in row:
                    self.assertEqual(row["group"], 1.0)  # the retry's 0, rewritten
            else:
                self.assertEqual(row, before)
        run_data = load.load(self.bench)
        self.assertFalse([w for w in run_data.warnings if "match no benchmark" in w])
        hrw = next(r for r in run_data.results if r.run_name == self.noisy)
        self.assertEqual((hrw.group, hrw.noisy), (1, False))
        self.assertAlmostEqual(hrw.ns, 45.0, delta=1.0)
        self.assertEqual(len(hrw.rounds), rf.ROUNDS)

    def test_a_noisier_group_is_not_kept(self):
        data = json.loads(self.retry.read_text())
        for row in data["benchmarks"]:
            if "noisy" in row:
                row["noisy"], row["canary_ratio"] = 1.0, 3.0
        self.retry.write_text(json.dumps(data))
        before = self.bench.read_text()
        line = self.script("merge", self.bench, self.retry, "--round", 1,
                           "--record", self.record)
        self.assertIn("4 re-timed, 0 replaced by a quieter measurement, 1 still flagged", line)
        self.assertEqual(json.loads(self.bench.read_text()), json.loads(before))


class Agreement(unittest.TestCase):
    """agreement.py: the share of configurations two runs agree on."""

    def test_shares_and_worst(self):
        names = [f"tokens/ring/eytzinger/N:{n}/V:100/K:1000/threads:1" for n in (1, 10, 655, 10000)]
        a = [entry(n + "/real_time", 10.0, tokens=float(int(n.split(":")[1].split("/")[0]) * 100),
                   noisy=0.0) for n in names]
        b = [dict(e) for e in a]
        b[1]["ns_per_key"] = 10.4  # 4 %: agrees
        b[2]["ns_per_key"] = 13.0  # 30 %: does not
        b[3]["ns_per_key"] = 8.0   # 25 % faster, flagged noisy in the second run
        b[3]["noisy"] = 1.0
        with tempfile.TemporaryDirectory() as tmp:
            paths = [Path(tmp) / "a.json", Path(tmp) / "b.json"]
            for path, entries in zip(paths, (a, b)):
                path.write_text(bench_json(entries))
            result = run([PYTHON, str(SCRIPTS / "agreement.py"), *map(str, paths)])
        self.assertEqual(result.returncode, 0, result.stderr)
        out = result.stdout.splitlines()
        self.assertEqual(out[0], "4 configurations in both runs; agreeing within 5%:")
        self.assertEqual(out[1], "  all: 2 of 4 (50.0%)")
        self.assertEqual(out[2], "  rings of at most 65,536 tokens: 2 of 3 (66.7%)")
        self.assertEqual(out[4], "  worst: tokens/ring/eytzinger/N:655/V:100/K:1000/threads:1: "
                                 "10.0 against 13.0 ns/key (1.30×)")
        self.assertEqual(out[5], "without the 1 flagged noisy in either run:")
        self.assertEqual(out[6], "  all: 2 of 3 (66.7%)")


class RunRetry(unittest.TestCase):
    """run.sh --retry-noisy with the stand-in bench."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = Path(self._tmp.name)
        self.results = self.tmp / "results"
        self.calls = self.tmp / "retry-calls.txt"

    def tearDown(self):
        self._tmp.cleanup()

    def run_sh(self, rounds: int, retry: Path, *bench_flags) -> Path:
        result = run(["bash", RUN_SH, "--out", str(self.results), "--retry-noisy", str(rounds),
                      "--", *bench_flags],
                     env={"CHBENCH_BENCH": str(FAKE_BENCH), "FAKE_BENCH_RETRY_JSON": str(retry),
                          "FAKE_BENCH_RETRY_ARGS": str(self.calls)})
        self.assertEqual(result.returncode, 0, result.stderr)
        (folder,) = (self.results / machine_name()).iterdir()
        self.result = result
        return folder

    def test_quiet_after_one_round(self):
        folder = self.run_sh(3, quiet_retry(self.tmp / "retry.json"), "--families", "tokens")
        calls = self.calls.read_text().splitlines()
        self.assertEqual(len(calls), 1)  # nothing flagged after the first round
        self.assertIn("--families tokens", calls[0])
        self.assertIn("--canary-baseline=265000.0,470000.0", calls[0])
        self.assertRegex(calls[0], r"--benchmark_filter=\^\(.*\)\$")
        self.assertIn(f"--benchmark_out={folder}/retries/round-1-0.json".replace(
            str(folder), str(folder.parent / (".partial-" + folder.name))), calls[0])
        self.assertTrue((folder / "retries" / "round-1-0.json").is_file())
        self.assertTrue((folder / "retries" / "round-1-0.txt").is_file())
        record = json.loads((folder / "retries.json").read_text())
        self.assertEqual(record["summary"]["still_noisy"], 0)
        report = (folder / "report.md").read_text()
        self.assertIn("`--retry-noisy 3` re-timed 2 configurations in 1 round", report)
        self.assertIn("run.sh: --retry-noisy 3: 2 configurations re-timed in 1 rounds, "
                      "2 replaced, 0 still flagged", self.result.stderr)

    def test_still_noisy_uses_every_round(self):
        folder = self.run_sh(2, quiet_retry(self.tmp / "retry.json", still_noisy=True))
        self.assertEqual(len(self.calls.read_text().splitlines()), 2)
        record = json.loads((folder / "retries.json").read_text())
        self.assertEqual(record["summary"], {"max_rounds": 2, "rounds_run": 2, "retried": 2,
                                             "replaced": 0, "still_noisy": 2,
                                             "record": "retries.json"})
        first = noise_line((folder / "report.md").read_text())
        self.assertIn("**Noise: 2 of 317 configurations flagged noisy**", first)
        self.assertIn("2 still flagged", first)

    def test_off_by_default(self):
        result = run(["bash", RUN_SH, "--out", str(self.results)],
                     env={"CHBENCH_BENCH": str(FAKE_BENCH),
                          "FAKE_BENCH_RETRY_ARGS": str(self.calls)})
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertFalse(self.calls.exists())
        (folder,) = (self.results / machine_name()).iterdir()
        self.assertFalse((folder / "retries.json").exists())
        self.assertFalse((folder / "retries").exists())


if __name__ == "__main__":
    unittest.main()
