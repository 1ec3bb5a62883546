"""Google Benchmark's own compare.py (Debian's libbenchmark-tools) on two
committed runs: the command of docs/comparing.md, run as the page shows it.

The command is the page's line that starts with COMMAND and runs its
`benchmarks` mode (two files), so the page and
this test cannot drift apart. Checks that compare.py exits 0, names both
files, and prints for the first configuration both runs measured the change
of its mean real time that this script computes from the two bench.json
files: (new - old) / old, to compare.py's four decimals.

Usage: gbench_compare_test.py REPO_DIR
Exit status: 0 passed, 1 failed, 2 usage error, 77 (ctest: skipped) when
compare.py is not installed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

COMPARE = Path("/usr/share/benchmark/compare.py")
COMMAND = f"/usr/bin/python3 {COMPARE} "
PAGE = Path("docs/comparing.md")


def fail(message: str) -> None:
    print(f"gbench_compare_test.py: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def page_command(repo: Path) -> list[str]:
    """The page's compare.py command, split into its words."""
    lines = [line for line in (repo / PAGE).read_text().splitlines()
             if line.startswith(COMMAND) and " benchmarks " in line]
    if len(lines) != 1:
        fail(f"{PAGE} has {len(lines)} lines '{COMMAND}... benchmarks OLD NEW', expected 1")
    return lines[0].split()


def means(path: Path) -> dict[str, float]:
    """Each configuration's mean real time in a bench.json, by aggregate name."""
    runs = json.loads(path.read_text())["benchmarks"]
    return {run["name"]: run["real_time"] for run in runs
            if run.get("run_type") == "aggregate" and run.get("aggregate_name") == "mean"}


def main() -> None:
    if len(sys.argv) != 2:
        print("usage: gbench_compare_test.py REPO_DIR", file=sys.stderr)
        sys.exit(2)
    repo = Path(sys.argv[1])
    if not COMPARE.exists():
        print(f"gbench_compare_test.py: skipped: {COMPARE} is not installed "
              "(Debian's libbenchmark-tools; scripts/install-deps.sh installs it)")
        sys.exit(77)
    command = page_command(repo)
    old, new = (repo / word for word in command[-2:])
    result = subprocess.run(command, cwd=repo, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        fail(f"compare.py exited with {result.returncode}: {result.stderr.strip()}")
    lines = result.stdout.splitlines()
    if not lines or lines[0] != f"Comparing {command[-2]} to {command[-1]}":
        fail(f"compare.py's first line: {lines[:1]}")
    old_means, new_means = means(old), means(new)
    name = next((n for n in old_means if n in new_means), None)
    if name is None:
        fail(f"{old} and {new} share no configuration")
    change = (new_means[name] - old_means[name]) / old_means[name]
    row = re.compile(rf"^{re.escape(name)}\s+([+-]\d+\.\d{{4}})\s")
    printed = [m.group(1) for m in map(row.match, lines) if m]
    if printed != [f"{change:+.4f}"]:
        fail(f"{name}: compare.py printed {printed}, expected [{change:+.4f}]")
    print(f"gbench_compare_test.py: passed ({name}: {change:+.4f})")


if __name__ == "__main__":
    main()
