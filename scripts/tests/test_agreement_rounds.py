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


if __name__ == "__main__":
    unittest.main()
