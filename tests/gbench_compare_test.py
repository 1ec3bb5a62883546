"""Google Benchmark's own compare.py (Debian's libbenchmark-tools) on two
committed runs, the way results/README.md says: gunzip their committed
bench.json.gz (`gunzip -k`), then compare.py's `benchmarks` mode.

Checks that results/README.md gives both steps, that compare.py exits 0,
names both files, and prints for the first configuration both runs measured
the change of its median real time that this script computes from the two
files: (new - old) / old, to compare.py's four decimals.

Usage: gbench_compare_test.py REPO_DIR
Exit status: 0 passed, 1 failed, 2 usage error, 77 (ctest: skipped) when
compare.py is not installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

COMPARE = Path("/usr/share/benchmark/compare.py")
COMMAND = ["/usr/bin/python3", str(COMPARE), "-a", "--no-color", "benchmarks"]
DOCUMENTED = ("gunzip -k", f"{COMPARE} -a benchmarks")
RUNS = ("results/amd-epyc-zen5-avx512-2c/20261201-104256-5414f1b",
        "results/amd-epyc-zen5-avx512-2c/20261201-132709-8afd5b0")


def fail(message: str) -> None:
    print(f"gbench_compare_test.py: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def medians(path: Path) -> dict[str, float]:
    """Each configuration's median real time in a bench.json, by aggregate name."""
    runs = json.loads(path.read_text())["benchmarks"]
    return {run["name"]: run["real_time"] for run in runs
            if run.get("run_type") == "aggregate" and run.get("aggregate_name") == "median"}


def gunzipped(repo: Path, tmp: Path) -> list[Path]:
    """Each run's bench.json, made by `gunzip -k` from a copy of its bench.json.gz."""
    out = []
    for index, run in enumerate(RUNS):
        folder = tmp / str(index)
        folder.mkdir()
        shutil.copy(repo / run / "bench.json.gz", folder)
        subprocess.run(["gunzip", "-k", str(folder / "bench.json.gz")], check=True)
        out.append(folder / "bench.json")
    return out


def main() -> None:
    if len(sys.argv) != 2:
        print("usage: gbench_compare_test.py REPO_DIR", file=sys.stderr)
        sys.exit(2)
    repo = Path(sys.argv[1])
    if not COMPARE.exists():
        print(f"gbench_compare_test.py: skipped: {COMPARE} is not installed "
              "(Debian's libbenchmark-tools; scripts/install-deps.sh installs it)")
        sys.exit(77)
    index = (repo / "results" / "README.md").read_text()
    missing = [step for step in DOCUMENTED if step not in index]
    if missing:
        fail(f"results/README.md does not say {missing}")
    with tempfile.TemporaryDirectory() as tmp:
        old, new = gunzipped(repo, Path(tmp))
        result = subprocess.run(COMMAND + [str(old), str(new)], capture_output=True, text=True,
                                check=False)
        old_medians, new_medians = medians(old), medians(new)
    if result.returncode != 0:
        fail(f"compare.py exited with {result.returncode}: {result.stderr.strip()}")
    lines = result.stdout.splitlines()
    if not lines or lines[0] != f"Comparing {old} to {new}":
        fail(f"compare.py's first line: {lines[:1]}")
    name = next((n for n in old_medians if n in new_medians), None)
    if name is None:
        fail(f"{RUNS[0]} and {RUNS[1]} share no configuration")
    change = (new_medians[name] - old_medians[name]) / old_medians[name]
    row = re.compile(rf"^{re.escape(name)}\s+([+-]\d+\.\d{{4}})\s")
    printed = [m.group(1) for m in map(row.match, lines) if m]
    if printed != [f"{change:+.4f}"]:
        fail(f"{name}: compare.py printed {printed}, expected [{change:+.4f}]")
    print(f"gbench_compare_test.py: passed ({name}: {change:+.4f})")


if __name__ == "__main__":
    main()
