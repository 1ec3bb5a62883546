"""Checks that the plot scripts, choosing each figure's rounds from a bench
JSON's chbench_groups as the bench does (chbench_plots/fastest_rounds.py),
get the bench's own medians and ratios, to 1e-4 (chbench_groups holds the
rounds to five significant digits). Used by bench_cli_test.sh.
Usage: rounds_agree.py BENCH_JSON SCRIPTS_DIR; exit status 1 and the first
configuration that differs on stderr when they do not agree."""
import statistics
import sys
from pathlib import Path

sys.path.insert(0, sys.argv[2])
from chbench_plots import load, rounds  # noqa: E402

run = load.load(Path(sys.argv[1]))
for r in run.results:
    own = statistics.median(rounds.own_rounds(r))
    if abs(own - r.ns) > 1e-4 * r.ns:
        sys.exit(f"{r.run_name}: median {own} from the rounds, {r.ns} from the bench")
    ref = run.reference_ratio(r)
    mine = rounds.ratio(r, ref[0]).value if ref is not None else None
    if ref is not None and abs(mine - ref[1].value) > 1e-4 * mine:
        sys.exit(f"{r.run_name}: ratio {mine} from the rounds, {ref[1].value} from the bench")
