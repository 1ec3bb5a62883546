#!/usr/bin/python3
"""Do two runs agree? Compares the median ns/key of every configuration two
bench JSON files both measured (two runs of the same sweep, back to back on
one machine; a configuration is matched by its bare name, names.config_name):
the share that agree within a tolerance, overall, per family and on the
rings of at most --max-tokens tokens; the worst; and the same without the
configurations either run flagged noisy (bench/canary.h). Then the hosts:
each run's median time of the noise canary's two loops, with a warning
where the compute loop differs by more than 5 %. Then, for runs
timed in rounds, the within-group ratios (each member of a comparison group
÷ its reference: the bench's ratio counter, or computed from the rounds)
both runs have, within the tolerance and within 10 %, and within the
tolerance per family and by table (within the core's L2 or larger, as the
first run records it); and the goals' verdicts (--goals, default the
package's goals.toml): how many agree, how many flip between met and not
met (each named), how many are inconclusive in one run only.

Usage: /usr/bin/python3 scripts/agreement.py A.json B.json [--tolerance F]
                                             [--max-tokens N] [--goals FILE]
Two figures agree when the larger ÷ the smaller is at most 1 + F (default
0.05). Exit status: 0; 2 on unusable input (one line on stderr).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import cli
from chbench_plots import agreeing
from chbench_plots.errors import InputError
from chbench_plots.goal_specs import GOALS_FILE, load_goals
from chbench_plots.load import load
from chbench_plots.numeric import integer, sig3

PROG = "agreement.py"


def ratio(a, b) -> float:
    """The larger median ÷ the smaller."""
    return max(a.ns, b.ns) / min(a.ns, b.ns)


def share(pairs: list, tolerance: float) -> str:
    """'34 of 35 (97.1 %)' agreeing within the tolerance."""
    if not pairs:
        return "none measured"
    agree = sum(ratio(a, b) <= 1 + tolerance for a, b in pairs)
    return f"{integer(agree)} of {integer(len(pairs))} ({agree / len(pairs):.1%})"


def lines(pairs: list, tolerance: float, max_tokens: int) -> list:
    """The summary of a list of (result in A, result in B) pairs."""
    out = [f"  all: {share(pairs, tolerance)}"]
    small = [(a, b) for a, b in pairs if a.tokens and a.tokens <= max_tokens]
    out.append(f"  rings of at most {integer(max_tokens)} tokens: {share(small, tolerance)}")
    for family in dict.fromkeys(a.family for a, _ in pairs):
        mine = [(a, b) for a, b in pairs if a.family == family]
        out.append(f"  family {family}: {share(mine, tolerance)}")
    if pairs:
        a, b = max(pairs, key=lambda p: ratio(*p))
        out.append(f"  worst: {a.config_name}: {sig3(a.ns)} against "
                   f"{sig3(b.ns)} ns/key ({sig3(b.ns / a.ns)}×)")
    return out


def main(argv: Optional[list] = None) -> int:
    """Command line entry point; returns the exit status."""
    parser = cli.Parser(prog=PROG, description="How many configurations two bench runs "
                        "agree on, within a tolerance.")
    parser.add_argument("a", type=Path, help="a bench JSON file")
    parser.add_argument("b", type=Path, help="another, of the same sweep")
    parser.add_argument("--tolerance", type=float, default=0.05, metavar="F",
                        help="agreement: larger ÷ smaller median at most 1 + F (default 0.05)")
    parser.add_argument("--max-tokens", type=int, default=65_536, metavar="N",
                        help="the small rings' bound (default 65,536 tokens)")
    parser.add_argument("--goals", type=Path, default=GOALS_FILE, metavar="FILE",
                        help="the goals whose verdicts are compared (default: the package's)")
    args = parser.parse_args(argv)
    try:
        if not 0 < args.tolerance <= 10:
            raise InputError(f"--tolerance takes 0 to 10 (a fraction), not {args.tolerance:g}")
        if args.max_tokens < 1:
            raise InputError("--max-tokens takes a positive count")
        runs = [load(args.a, need_registry=False), load(args.b, need_registry=False)]
        goals = load_goals(args.goals)
    except InputError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2
    # Paired by configuration name: Google Benchmark's segments (repeats:N) may differ.
    measured = [{r.config_name: r for r in run.results if r.ns} for run in runs]
    pairs = [(a, measured[1][name]) for name, a in measured[0].items() if name in measured[1]]
    if not pairs:
        print(f"{PROG}: error: {args.a} and {args.b} measured no configuration in common",
              file=sys.stderr)
        return 2
    quiet = [(a, b) for a, b in pairs if not a.noisy and not b.noisy]
    print(f"{integer(len(pairs))} configurations in both runs; agreeing within "
          f"{args.tolerance:.0%}:")
    print("\n".join(lines(pairs, args.tolerance, args.max_tokens)))
    print(f"without the {integer(len(pairs) - len(quiet))} flagged noisy in either run:")
    print("\n".join(lines(quiet, args.tolerance, args.max_tokens)))
    for run, path in zip(runs, (args.a, args.b)):
        agreeing.attach_registry(run, path)
    print("\n".join(agreeing.summary(*runs, goals, args.tolerance)))
    return 0


if __name__ == "__main__":
    sys.exit(cli.exit_status(main))
