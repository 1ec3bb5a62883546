"""A run timed in comparison groups (make_rounds_fixture.py) read by
chbench_plots.load: rounds, groups, intervals and ratios; and the committed
format without them still read as before."""

from __future__ import annotations

import json
import statistics
import tempfile
import unittest
from pathlib import Path

import make_rounds_fixture as rf
from support import FIXTURE

from chbench_plots import caches, fastest_rounds, load  # noqa: E402
from chbench_plots import rounds as rounds_mod  # noqa: E402


def load_groups(groups: list) -> load.Run:
    """load() of the JSON that make_rounds_fixture.build(groups) gives."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.json"
        path.write_text(json.dumps(rf.build(groups)))
        return load.load(path)


class Slowed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bench = load_groups(rf.SLOWED)
        cls.by_name = {r.run_name: r for r in cls.bench.results}

    def result(self, label: str, n: int) -> load.Result:
        return self.by_name[rf.name("nodes", label, n)]

    def test_rounds_and_groups_attach(self):
        a = self.result("jump/scalar", 1000)
        self.assertEqual(self.bench.rounds_count(), rf.ROUNDS)
        self.assertEqual((a.group, len(a.rounds), a.repetitions), (0, rf.ROUNDS, rf.ROUNDS))
        self.assertEqual(self.result("jump/scalar", 100).group, 1)
        self.assertTrue(self.bench.has_rounds)

    def test_spread_is_the_interval(self):
        a = self.result("jump/scalar", 1000)
        # 21 rounds: ranks 6 and 16 of the drift 0.96, 0.98, 1.0, 1.02, 1.04 × 10.
        self.assertTrue(a.interval)
        self.assertAlmostEqual(a.ns, 10.0)
        self.assertAlmostEqual(a.ns_lo, 9.8)
        self.assertAlmostEqual(a.ns_hi, 10.2)

    def test_paired_ratio_shrugs_off_the_slowed_rounds(self):
        a, b = self.result("jump/scalar", 1000), self.result("jump/interleaved", 1000)
        paired = self.bench.ratio(b, a)
        self.assertEqual(paired.basis, "paired")
        self.assertAlmostEqual(paired.value, 2.0)
        self.assertLessEqual(paired.lo, 2.0)
        self.assertGreaterEqual(paired.hi, 2.0)
        naive = statistics.fmean(b.rounds) / statistics.fmean(a.rounds)
        self.assertGreater(naive, 3.0)

    def test_reference_ratio_from_the_bench(self):
        simd = self.result("jump/simd", 1000)
        ref, ratio = self.bench.reference_ratio(simd)
        self.assertEqual(ref.label, "jump/scalar")
        self.assertAlmostEqual(ratio.value, 0.25, places=2)
        self.assertLess(ratio.lo, ratio.hi)
        self.assertIsNone(self.bench.reference_ratio(self.result("jump/scalar", 1000)))

    def test_unpaired_across_groups(self):
        x, y = self.result("jump/scalar", 1000), self.result("jump/scalar", 100)
        unpaired = self.bench.ratio(x, y)
        self.assertEqual(unpaired.basis, "unpaired")
        self.assertAlmostEqual(unpaired.value, 10.0 / 8.0, places=2)
        self.assertLess(unpaired.lo, unpaired.value)

    def test_failed_member(self):
        failed = self.result("maglev/scalar", 100)
        self.assertIsNotNone(failed.error)
        self.assertIsNone(failed.rounds)


class RoundsText(unittest.TestCase):
    """How the report names the rounds its figures are medians over."""

    def test_one_count_and_a_range(self):
        bench = load_groups(rf.SLOWED)
        self.assertEqual(bench.rounds_text(), f"{rf.ROUNDS} interleaved rounds")
        bench.results[0].rounds = bench.results[0].rounds[:10]  # a group of long batches
        self.assertEqual(bench.rounds_text(), f"10 to {rf.ROUNDS} interleaved rounds")
        for r in bench.results:
            if r.rounds:
                r.rounds = r.rounds[:1]
        self.assertEqual(bench.rounds_text(), "1 interleaved round")


class ConfigNames(unittest.TestCase):
    """Google Benchmark's appended segments are no part of a configuration."""

    def test_appended_segments_stripped(self):
        bare = "clustered/ring/branchless/N:655/V:100/K:300000/threads:1/window:36"
        for tail in ("/iterations:1/repeats:10/manual_time", "/real_time", "/process_time",
                     "/min_time:0.5s/min_warmup_time:1", "/repeats:3/real_time", ""):
            self.assertEqual(load.config_name(bare + tail), bare)
        # The bench's own segments stay, threads:1 among them.
        self.assertEqual(load.config_name("nodes/jump/scalar/N:10/V:1/K:5/threads:2"),
                         "nodes/jump/scalar/N:10/V:1/K:5/threads:2")

    def test_bare_members_match_full_run_names(self):
        bench = load_groups(rf.SLOWED)
        self.assertFalse([w for w in bench.warnings if "match no benchmark" in w],
                         bench.warnings)
        r = next(r for r in bench.results if r.label == "jump/simd")
        self.assertTrue(r.run_name.endswith("/manual_time"))
        self.assertEqual(r.config_name, "nodes/jump/simd/N:1000/V:100/K:100000/threads:1")
        self.assertEqual(r.group, 0)


class ReferenceAmongSeveralN(unittest.TestCase):
    """One group holding a family's kernels at two N: each member's
    reference is of its own N (it differs in the kernel alone)."""

    @classmethod
    def setUpClass(cls):
        group = [(rf.name("nodes", label, n), rf.steady(ns * (2 if n == 1000 else 1), phase=i))
                 for i, (label, ns) in enumerate((("ring/lower_bound", 40.0),
                                                  ("ring/eytzinger", 20.0),
                                                  ("ring/simd_eytzinger", 10.0)))
                 for n in (1000, 100)]
        cls.bench = load_groups([group])
        cls.by = {(r.label, r.nodes): r for r in cls.bench.results}

    def reference(self, label: str, n: int):
        got = self.bench.reference_ratio(self.by[(label, n)])
        return (got[0].label, got[0].nodes, round(got[1].value, 1)) if got else None

    def test_rival_of_the_same_n(self):
        self.assertEqual(self.reference("ring/simd_eytzinger", 100), ("ring/eytzinger", 100, 0.5))
        self.assertEqual(self.reference("ring/simd_eytzinger", 1000),
                         ("ring/eytzinger", 1000, 0.5))

    def test_baseline_of_the_same_n(self):
        self.assertEqual(self.reference("ring/eytzinger", 100), ("ring/lower_bound", 100, 0.5))
        self.assertEqual(self.reference("ring/eytzinger", 1000),
                         ("ring/lower_bound", 1000, 0.5))

    def test_a_baseline_has_none(self):
        # Not even the baseline at the other N.
        self.assertIsNone(self.reference("ring/lower_bound", 100))
        self.assertIsNone(self.reference("ring/lower_bound", 1000))


class NoiseInRounds(unittest.TestCase):
    """Every member of a group carries the group's steal over all its
    rounds: the run's steal counts it once per group; the text says rounds."""

    def test_steal_once_per_group(self):
        from chbench_plots import noise
        data = rf.build(rf.SLOWED)
        for row in data["benchmarks"]:
            if "group" in row:
                row["steal_ms"] = 30.0 if row["group"] == 0 else 50.0
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "bench.json"
            path.write_text(json.dumps(data))
            bench = load.load(path)
        self.assertEqual({r.steal_ms for r in bench.results if r.group == 0}, {30.0})
        summary = noise.summarise(bench)
        self.assertEqual(summary.steal_ms, 80.0)
        first = noise.first_lines(bench)[0]
        self.assertIn("host steal 80.0 ms in all, at most 50.0 ms in one comparison group",
                      first)
        self.assertIn("share of a comparison group's rounds", first)


class BeyondL2(unittest.TestCase):
    """A configuration whose lookup structure is larger than the core's L2
    (the noise rule's private_cache_bytes, else Google Benchmark's L2) is
    marked, so that its verdicts take the wider run-to-run margin."""

    def marked(self, context: dict) -> dict:
        data = rf.build(rf.SLOWED)
        data["context"].update(context)
        for row in data["benchmarks"]:
            row["memory_bytes"] = 4 << 20 if "jump/scalar" in row["name"] else 64 << 10
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "bench.json"
            path.write_text(json.dumps(data))
            return {r.label: r.beyond_l2 for r in load.load(path).results}

    def test_from_the_noise_rule(self):
        rule = json.dumps({"private_cache_bytes": 1 << 20, "margin": 0.15})
        flags = self.marked({"chbench_noise": rule, "caches": []})
        self.assertIs(flags["jump/scalar"], True)
        self.assertIs(flags["jump/interleaved"], False)

    def test_from_google_benchmarks_caches(self):
        listed = [{"type": "Data", "level": 1, "size": 48 << 10},
                  {"type": "Instruction", "level": 2, "size": 64 << 20},
                  {"type": "Unified", "level": 2, "size": 1 << 20}]
        flags = self.marked({"caches": listed})
        self.assertIs(flags["jump/scalar"], True)  # 4 MiB past the 1 MiB L2
        self.assertIs(flags["jump/interleaved"], False)
        listed[2]["size"] = 8 << 20
        self.assertIs(self.marked({"caches": listed})["jump/scalar"], False)
        self.assertEqual(caches.l2_bytes({"chbench_noise": "{", "caches": listed}), 8 << 20)

    def test_unknown_without_either(self):
        self.assertIsNone(self.marked({"caches": []})["jump/scalar"])
        self.assertIsNone(caches.l2_bytes({"chbench_noise": "[1]"}))


class Notes(unittest.TestCase):
    """The plots' subtitles say what the spread is."""

    def test_interval_or_min_max(self):
        from chbench_plots.style import spread_note
        bench = load_groups(rf.SLOWED)
        measured = [r for r in bench.results if r.ns]
        self.assertEqual(spread_note(measured, "band"),
                         "median and its 95 % interval over 21 rounds (band)")
        old = [r for r in load.load(FIXTURE).results if r.ns]
        self.assertEqual(spread_note(old, "band"), "median of 3 repetitions, band = min–max")
        self.assertEqual(spread_note(old), "median of 3 repetitions")


class OldRuns(unittest.TestCase):
    def test_committed_format_has_no_rounds(self):
        run = load.load(FIXTURE)
        r = next(r for r in run.results if r.ns is not None)
        self.assertFalse(run.has_rounds)
        self.assertIsNone(run.timing)
        self.assertFalse(r.interval)
        self.assertIsNone(r.group)
        self.assertLess(r.ns_lo, r.ns_hi)  # min and max of its repetitions
        other = next(o for o in run.results if o.ns and o is not r)
        point = run.ratio(r, other)
        self.assertEqual((point.basis, point.lo), ("point", None))
        self.assertAlmostEqual(point.value, r.ns / other.ns)


class CompareRatio(unittest.TestCase):
    """compare.py's ratio of one configuration in two runs."""

    def test_interval_only_with_rounds(self):
        import compare  # scripts/, on sys.path through support
        base = load.Result("x", "nodes", "jump", "scalar", ns=10.0,
                           rounds=[10.0 + 0.1 * k for k in range(10)])
        other = load.Result("x", "nodes", "jump", "scalar", ns=12.0,
                            rounds=[12.0 + 0.1 * k for k in range(10)])
        text = compare.config_ratio_text(other, base)
        # Medians 12.45 and 10.45: 1.19×; the bootstrap's interval around it.
        self.assertRegex(text, r"^1\.19× \(95 % interval 1\.1\d–1\.2\d\)$")
        other.rounds = None
        self.assertEqual(compare.config_ratio_text(other, base),
                         "1.20× (no interval: one run not timed in rounds)")


class KeptVisits(unittest.TestCase):
    """A group whose figures left out a visit the host slowed: its members'
    rounds are the kept visits' alone, and its median the bench's of them."""

    @staticmethod
    def context(extra: dict) -> dict:
        group = {"members": ["a", "b"], "ns_per_key": [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]}
        group.update(extra)
        return {rounds_mod.GROUPS_KEY: json.dumps({"groups": [group]})}

    def test_left_out_visit_rounds_dropped(self):
        got = rounds_mod.groups(self.context({"visit_rounds": [2, 3], "kept_visits": [2]}), [])
        self.assertEqual(got[0][1], [[3.0, 4.0, 5.0], [8.0, 9.0, 10.0]])
        got = rounds_mod.groups(self.context({"visit_rounds": [2, 3], "kept_visits": [1]}), [])
        self.assertEqual(got[0][1], [[1.0, 2.0], [6.0, 7.0]])

    def test_malformed_or_mismatched_keys_keep_every_round(self):
        for extra in ({"visit_rounds": [2, 2], "kept_visits": [1]},  # 4 rounds, not 5
                      {"visit_rounds": [2, 3], "kept_visits": [3]},  # no visit 3
                      {"visit_rounds": "2,3", "kept_visits": [1]}, {}):
            got = rounds_mod.groups(self.context(extra), [])
            self.assertEqual(got[0][1][0], [1.0, 2.0, 3.0, 4.0, 5.0], extra)

    def test_kept_median_preferred_to_every_rounds(self):
        median = {"ns_per_key": 5.0, "ns_per_key_kept": 4.0, "keys": 100.0}
        result = load.Result("f/s/k/N:1", "f", "s", "k")
        load.read_timings(result, [], {"median": median}, median, [])
        self.assertEqual(result.ns, 4.0)
        self.assertEqual(result.keys_per_second, 2.5e8)  # of the kept median, 1e9 / 4
        older = {"ns_per_key": 5.0, "keys": 100.0}  # a run from before the counter
        result = load.Result("f/s/k/N:1", "f", "s", "k")
        load.read_timings(result, [], {"median": older}, older, [])
        self.assertEqual(result.ns, 5.0)


class FastestState(unittest.TestCase):
    """Each figure keeps the rounds the host ran in its fastest state by the
    pace of the members it is not of (fastest_rounds.py), as the bench does."""

    @staticmethod
    def group(margin):
        """Member 0 ran fast by its own noise in rounds 0-9; members 1 to 3
        ran alike, slowed by the host in rounds 20-29."""
        noisy = [0.8 if r < 10 else 1.2 for r in range(30)]
        steady = [1.0 + 0.001 * (r % 3) if r < 20 else 1.3 for r in range(30)]
        times = [noisy, steady, list(steady), list(steady)]
        results = [load.Result(f"f/s/k{m}/N:1", "f", "s", f"k{m}") for m in range(4)]
        for m, r in enumerate(results):
            r.ns = statistics.median(times[m])
        rounds_mod.attach(results, [([f"f/s/k{m}/N:1" for m in range(4)], times)], [], margin)
        return results

    def test_places_by_the_other_members(self):
        steady = [1.0 + 0.001 * (r % 3) if r < 20 else 1.3 for r in range(30)]
        noisy = [0.8 if r < 10 else 1.2 for r in range(30)]
        times = [noisy, steady, list(steady)]
        self.assertEqual(len(fastest_rounds.places(times, 0.03, set())), 10)
        self.assertEqual(fastest_rounds.places(times, 0.03, {0}), list(range(20)))
        # One member counting, a margin of 0 or None, or 6 rounds: every round.
        self.assertIsNone(fastest_rounds.places(times, 0.03, {0, 1}))
        self.assertIsNone(fastest_rounds.places(times, 0, {0}))
        self.assertIsNone(fastest_rounds.places(times, None, {0}))
        self.assertIsNone(fastest_rounds.places([x[:6] for x in times], 0.03, {0}))

    def test_own_median_and_ratio_use_the_others_pace(self):
        noisy, first, _, _ = self.group(0.03)
        # Its own rounds, by members 1-3's pace: 0-19, 0.8 in half of them.
        self.assertEqual(rounds_mod.own_rounds(noisy), noisy.rounds[:20])
        estimate = rounds_mod.ns_estimate(noisy)
        self.assertEqual((estimate.lo, estimate.hi), (0.8, 1.2))
        ratio = rounds_mod.ratio(noisy, first)
        self.assertAlmostEqual(ratio.value, statistics.median(
            a / b for a, b in zip(noisy.rounds[:20], first.rounds[:20])))
        # Without a state margin (a run from before): every round.
        noisy, _, _, _ = self.group(None)
        self.assertEqual(rounds_mod.own_rounds(noisy), noisy.rounds)

    def test_rounds_text_names_the_rounds_kept(self):
        results = self.group(0.03)
        self.assertEqual(rounds_mod.rounds_text(results, {"state_margin": 0.03}, None),
                         "the rounds kept of 30 interleaved rounds")
        self.assertEqual(rounds_mod.rounds_text(results, {"state_margin": 0}, None),
                         "30 interleaved rounds")
        self.assertEqual(rounds_mod.rounds_text([], {}, 10), "10 interleaved rounds")

if __name__ == "__main__":
    unittest.main()
