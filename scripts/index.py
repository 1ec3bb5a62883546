#!/usr/bin/python3
"""Regenerates the index of benchmark runs: RESULTS_DIR/README.md.

Lists one line per run folder RESULTS_DIR/<machine>/<run>/ across all
machines, newest first, with the date, machine, build, commit, sweep and a
link to the run's report.md. Run folders are named
`<UTC YYYYmmdd-HHMMSS>-<commit>[-<preset>]`, with `-2`, `-3`, ... when a name
was taken; hidden folders (runs still in progress, `.partial-*`) are skipped.
The sweep and the build come from the run's bench.json context
(`chbench_sweep`, `chbench_preset`); see build_of().

Usage: /usr/bin/python3 scripts/index.py [RESULTS_DIR]   (default: results)

scripts/run.sh calls this after every run; call it by hand after deleting or
copying run folders.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import cli

RUN_NAME = re.compile(r"^(?P<date>\d{8})-(?P<time>\d{6})-(?P<commit>[A-Za-z0-9]+)"
                      r"(?:-(?P<preset>[a-z][a-z0-9-]*?))?(?:-(?P<n>\d+))?$")
HEADER = """# Results

Benchmark runs of chbench, one folder per run, grouped by machine:
`<machine>/<UTC date>-<time>-<commit>[-<preset>]/` holds `report.md`
(context, ratios, tables), the plots, `bench.json` (Google Benchmark's full
output) and `console.txt`. `<machine>` is the CPU model and CPU count; the
build is the CMake preset (release: GCC with run-time SIMD dispatch). Runs are
never overwritten; `scripts/run.sh` adds one and regenerates this index (by
hand: `/usr/bin/python3 scripts/index.py results`). `scripts/compare.py`
compares the machines and builds (`comparison/compare.md`).
"""


@dataclass
class RunFolder:
    """One run folder and what the index shows of it."""

    machine: str
    name: str
    stamp: str  # YYYYmmdd-HHMMSS, sorts chronologically
    commit: str
    sweep: str
    build: str
    has_report: bool

    @property
    def date(self) -> str:
        """'2026-11-30 10:20:00 UTC' from the folder name."""
        d, t = self.stamp.split("-")
        return f"{d[:4]}-{d[4:6]}-{d[6:]} {t[:2]}:{t[2:4]}:{t[4:]} UTC"


def context_of(run_dir: Path) -> dict:
    """bench.json's context, or {} when it cannot be read."""
    try:
        with open(run_dir / "bench.json", "rb") as f:
            context = json.load(f).get("context", {})
    except (OSError, ValueError, AttributeError, RecursionError):
        return {}
    return context if isinstance(context, dict) else {}


def sweep_of(context: dict) -> str:
    """The sweep recorded in the context, or '?'."""
    sweep = context.get("chbench_sweep")
    return str(sweep) if sweep else "?"


def build_of(context: dict) -> str:
    """The CMake preset that built the bench (chbench_preset), '(emulated)'
    added for an emulated run. Runs from before the preset was recorded were
    all made by run.sh with the release preset: without -march in their flags
    they count as 'release'; '?' otherwise."""
    preset = context.get("chbench_preset")
    if not preset or preset == "none":
        flags = context.get("chbench_cxx_flags")
        preset = "release" if isinstance(flags, str) and "-march" not in flags and not preset \
            else "?"
    emulated = str(context.get("chbench_emulated", "no")) != "no"
    return f"{preset} (emulated)" if emulated else str(preset)


def find_runs(root: Path) -> list:
    """Every run folder under root, newest first."""
    runs = []
    for machine in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        for run_dir in sorted(p for p in machine.iterdir() if p.is_dir()):
            m = RUN_NAME.match(run_dir.name)
            if m is None:
                continue
            context = context_of(run_dir)
            runs.append(RunFolder(machine.name, run_dir.name, f"{m['date']}-{m['time']}",
                                  m["commit"], sweep_of(context), build_of(context),
                                  (run_dir / "report.md").is_file()))
    runs.sort(key=lambda r: (r.stamp, int(RUN_NAME.match(r.name)["n"] or 1), r.machine),
              reverse=True)
    return runs


def render(runs: list) -> str:
    """The index text."""
    lines = [HEADER]
    if not runs:
        lines.append("No runs yet: `scripts/run.sh` adds the first.")
        return "\n".join(lines) + "\n"
    lines += ["| Date | Machine | Build | Commit | Sweep | Report |", "|---|---|---|---|---|---|"]
    for r in runs:
        link = f"[{r.name}]({r.machine}/{r.name}/report.md)" if r.has_report \
            else f"{r.name} (no report.md)"
        lines.append(f"| {r.date} | {r.machine} | {r.build} | `{r.commit}` | {r.sweep} | {link} |")
    return "\n".join(lines) + "\n"


def main(argv: Optional[list] = None) -> int:
    """Writes RESULTS_DIR/README.md; exit status 2, with one line on stderr and
    nothing written, if RESULTS_DIR is not a folder or cannot be read or written."""
    parser = cli.Parser(prog="index.py", description="Regenerate the results index README.md.")
    parser.add_argument("results", nargs="?", type=Path, default=Path("results"),
                        help="results folder (default: results)")
    args = parser.parse_args(argv)
    def error(message: str) -> int:
        print(f"index.py: error: {message}", file=sys.stderr)
        return 2

    if not args.results.is_dir():
        return error(f"{args.results} is not a folder")
    reason = cli.unwritable(args.results)
    if reason:
        return error(f"{args.results} is not writable ({reason})")
    try:
        text = render(find_runs(args.results))
    except OSError as err:
        return error(f"cannot read {err.filename or args.results}: {err.strerror or err}")
    target = args.results / "README.md"
    tmp = args.results / ".README.md.tmp"
    try:
        tmp.write_text(text)
        os.replace(tmp, target)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        return error(f"cannot write {target}: {err.strerror or err}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
