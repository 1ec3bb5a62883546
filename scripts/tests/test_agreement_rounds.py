"""agreement.py on two runs timed in rounds (make_rounds_fixture.py): the
within-group ratios and the goals' verdicts, beside the medians."""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

import make_rounds_fixture as rf
from support import PYTHON, SCRIPTS, run

GOALS = '''
[[goal]]
title = "interleaved at least 1.5x scalar"
family = "nodes"
kind = "pair_at_nodes"
numerator = "jump/interleaved"
denominator = "jump/scalar"
nodes = [1000]
at_least = 1.5
table = "Interleaved ÷ scalar"

[[goal]]
title = "interleaved at least 3x scalar"
family = "nodes"
kind = "pair_at_nodes"
numerator = "jump/interleaved"
denominator = "jump/scalar"
nodes = [1000]
at_least = 3
table = "Interleaved ÷ scalar"

[[goal]]
title = "best jump kernel"
family = "nodes"
kind = "best_at_most_every_n"
scheme = "jump"
nodes = [100]
at_most = 20
table = "best"
'''


def hrw_group(simd_ns: float) -> list:
    """Family targets at N = 64: hrw/simd_keys (reference hrw/scalar, 100 ns/key)."""
    return [(rf.name("targets", "hrw/scalar", 64), rf.steady(100.0)),
            (rf.name("targets", "hrw/simd_keys", 64), rf.steady(simd_ns, phase=2))]


def second_run() -> list:
    """SLOWED with jump/simd 8 % slower (its ratio to jump/scalar moves by 8 %),
    jump/interleaved 1.2 × jump/scalar in every round (the first goal flips,
    the second, inconclusive in the first run, is not met), hrw/simd_keys as
    in the first."""
    (a, _, _), second = rf.SLOWED
    scalar = a[1]
    return [[a, (rf.name("nodes", "jump/interleaved", 1000), [1.2 * x for x in scalar]),
             (rf.name("nodes", "jump/simd", 1000), rf.steady(2.7))],
            second, hrw_group(10.0)]


class Agreement(unittest.TestCase):
    def test_ratios_and_verdicts(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            paths = [tmp / "a.json", tmp / "b.json"]
            paths[0].write_text(json.dumps(rf.build(rf.SLOWED + [hrw_group(10.0)])))
            paths[1].write_text(json.dumps(rf.build(second_run())))
            (tmp / "goals.toml").write_text(GOALS)
            out = run([PYTHON, str(SCRIPTS / "agreement.py"), *map(str, paths),
                       "--goals", str(tmp / "goals.toml")])
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        start = lines.index("2 within-group ratios (member ÷ its reference) in both runs:")
        self.assertEqual(lines[start + 1:start + 3], ["  within 5%: 1 of 2 (50.0%)",
                                                      "  within 10%: 2 of 2 (100.0%)"])
        self.assertEqual(lines[start + 3], "  within 5% by family: nodes 0 of 1, targets 1 of 1")
        self.assertEqual(lines[start + 4],
                         "  worst: nodes/jump/simd/N:1000/V:100/K:100000/threads:1 ÷ "
                         "nodes/jump/scalar/N:1000/V:100/K:100000/threads:1: 0.250× against "
                         "0.270×")
        self.assertEqual(lines[start + 5:], [
            "3 goal verdicts in both runs: 1 agree, 1 flip between met and not met, "
            "1 inconclusive in one run only",
            "  flipped: interleaved at least 1.5x scalar: goal met in the first run, "
            "goal not met in the second"])


class ByTable(unittest.TestCase):
    def test_ratios_split_by_the_tables_size(self):
        # The jump kernels' tables are 4 MiB, past the 1 MiB L2 the first
        # run's noise rule records; hrw's 64 KiB.
        runs = [rf.build(rf.SLOWED + [hrw_group(10.0)]), rf.build(second_run())]
        runs[0]["context"]["chbench_noise"] = json.dumps({"private_cache_bytes": 1 << 20})
        for row in runs[0]["benchmarks"]:
            row["memory_bytes"] = 4 << 20 if "/jump/" in row["name"] else 64 << 10
        with tempfile.TemporaryDirectory() as tmp:
            paths = [Path(tmp) / "a.json", Path(tmp) / "b.json"]
            for path, bench in zip(paths, runs):
                path.write_text(json.dumps(bench))
            out = run([PYTHON, str(SCRIPTS / "agreement.py"), *map(str, paths)])
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("  within 5% by table: within the L2 1 of 1 (100.0%), larger than the L2 "
                      "0 of 1 (0.0%)", out.stdout.splitlines())


def with_canary(bench: dict, compute_ns: float, memory_ns: float) -> dict:
    """The bench JSON object with every row's canary loops at these times."""
    for row in bench["benchmarks"]:
        row.update(canary_compute_ns=compute_ns, canary_memory_ns=memory_ns)
    return bench


class Hosts(unittest.TestCase):
    def hosts(self, second_compute_ns: float) -> list:
        """agreement.py's lines from the hosts' on, for a first run whose
        canary loops took 100 µs and 1 ms and a second whose memory loop took
        2 ms."""
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            paths = [tmp / "a.json", tmp / "b.json"]
            groups = rf.SLOWED + [hrw_group(10.0)]
            paths[0].write_text(json.dumps(with_canary(rf.build(groups), 100e3, 1e6)))
            paths[1].write_text(json.dumps(with_canary(rf.build(groups), second_compute_ns, 2e6)))
            out = run([PYTHON, str(SCRIPTS / "agreement.py"), *map(str, paths)])
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        return lines[next(i for i, x in enumerate(lines) if x.startswith("the hosts")):]

    def test_a_slower_compute_loop_is_named(self):
        lines = self.hosts(112e3)
        self.assertEqual(lines[:2], [
            "the hosts, by the noise canary before each group (medians): compute loop 100 and "
            "112 µs (1.12×), memory loop 1.00 and 2.00 ms (2.00×)",
            "  the compute loop ran 12% slower in one run: the host's cores differed, and "
            "ratios of kernels that use the core differently (a scalar reference against "
            "vector kernels) move with it"])
        self.assertTrue(lines[2].endswith("within-group ratios (member ÷ its reference) in both "
                                          "runs:"), lines[2])

    def test_the_memory_loop_alone_is_not_judged(self):
        lines = self.hosts(102e3)
        self.assertEqual(lines[0], "the hosts, by the noise canary before each group (medians): "
                         "compute loop 100 and 102 µs (1.02×), memory loop 1.00 and 2.00 ms "
                         "(2.00×)")
        self.assertTrue(lines[1].endswith("in both runs:"), lines[1])

    def test_no_line_without_a_canary(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            paths = [tmp / "a.json", tmp / "b.json"]
            groups = rf.SLOWED + [hrw_group(10.0)]
            paths[0].write_text(json.dumps(with_canary(rf.build(groups), 100e3, 1e6)))
            paths[1].write_text(json.dumps(rf.build(groups)))
            out = run([PYTHON, str(SCRIPTS / "agreement.py"), *map(str, paths)])
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertNotIn("the hosts", out.stdout)

    def test_runs_of_two_orders_are_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            paths = [tmp / "a.json", tmp / "b.json"]
            runs = [rf.build(rf.SLOWED), rf.build(rf.SLOWED)]
            timing = json.loads(runs[1]["context"]["chbench_timing"])
            runs[1]["context"]["chbench_timing"] = json.dumps(dict(timing,
                                                                   order="schemes as blocks"))
            for path, data in zip(paths, runs):
                path.write_text(json.dumps(data))
            out = run([PYTHON, str(SCRIPTS / "agreement.py"), *map(str, paths)])
            same = run([PYTHON, str(SCRIPTS / "agreement.py"), str(paths[1]), str(paths[1])])
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("the runs ordered their rounds differently (every member shuffled alike; "
                      "schemes as blocks): what runs before a slice can change a ratio, so "
                      "compare runs of one order", out.stdout)
        self.assertNotIn("ordered their rounds differently", same.stdout)


if __name__ == "__main__":
    unittest.main()
