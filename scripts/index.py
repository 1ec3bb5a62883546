#!/usr/bin/python3
"""Regenerates the index of benchmark runs: RESULTS_DIR/README.md.

Lists one line per run folder RESULTS_DIR/<machine>/<run>/ across all
machines, newest first, with the date, machine, build, commit, sweep and a
link to the run's report.md. Run folders are named
`<UTC YYYYmmdd-HHMMSS>-<commit>[-<preset>]`, with `-2`, `-3`, ... when a name
was taken; hidden folders (runs still in progress, `.partial-*`) are skipped.
The sweep and the build come from the run's bench JSON context
(`chbench_sweep`, `chbench_preset`); see build_of().

Above the table, one line per machine folder and CPU identity (see
cpu_identity.py: the CPU as it describes itself, never its marketing name
alone), with the first paragraph of the folder's notes.md if it has one; a
warning when a folder holds runs of two different CPUs (the table then tells
them apart as `<machine> #1`, `#2`, and compare.py never merges them), or when
a run's recorded folder name is not its folder's (it was renamed or copied).
Warnings also go to stderr, one line each.

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
from chbench_plots import bench_file
from chbench_plots.errors import InputError
from cpu_identity import Identity, group, identity_of

RUN_NAME = re.compile(r"^(?P<date>\d{8})-(?P<time>\d{6})-(?P<commit>[A-Za-z0-9]+)"
                      r"(?:-(?P<preset>[a-z][a-z0-9-]*?))?(?:-(?P<n>\d+))?$")
HEADER = """# Results

Benchmark runs of chbench, one folder per run, grouped by machine:
`<machine>/<UTC date>-<time>-<commit>[-<preset>]/` holds `report.md`
(context, ratios, tables), the plots as PNG, `medians.csv` in runs made since
run.sh writes it (a row per configuration: median ns/key, its interval, ratio
to its rival, noisy flag; `/usr/bin/python3 scripts/export_csv.py RUN` makes
it for any run) and `bench.json.gz`, the bench's
Google Benchmark JSON in its committed form: every configuration's median row
and repetitions (the mean, stddev and cv rows, statistics of the repetitions
or of the rounds the context keeps, are left out), no absolute local path.
`scripts/run.sh` also leaves the full `bench.json`, `console.txt` and the SVG
plots in the folder; `.gitignore` keeps them out of a commit, and
`/usr/bin/python3 scripts/compact_run.py FOLDER` makes the committed form of a folder again.
A committed run is at most 1.5 MB (scripts/tests/test_compact.py checks each): its
report counts the comparison groups, whose members and rounds stay in `bench.json.gz`.
Every script reads `bench.json.gz` or `bench.json`. Google Benchmark's own
`compare.py` reads plain JSON: `gunzip -k <run>/bench.json.gz` first, then
`/usr/bin/python3 /usr/share/benchmark/compare.py -a benchmarks A/bench.json
B/bench.json` compares the median rows of two runs.

`<machine>` is the name `scripts/machine-name.sh`
makes from what the CPU says about itself, not from its model name (which on
cloud VMs is often a generic "AMD EPYC" for CPUs of different generations):
vendor, product line, microarchitecture (from the x86 family and model, or the
Arm implementer and part), the SIMD level that decides the kernels' target and
the CPU count, e.g. `amd-epyc-zen5-avx512-2c`. The build is the CMake preset
(release: GCC with run-time SIMD dispatch). Runs are never overwritten;
`scripts/run.sh` adds one and regenerates this index (by hand:
`/usr/bin/python3 scripts/index.py results`). `scripts/compare.py` compares
the machines and builds (`comparison/compare.md`), or the runs it is given
against one of them (`--baseline RUN`).

Each run's bench JSON records what identifies its CPU: the model name, the
CPU flags, the cache sizes and the CPU count in every run, and in runs made by
run.sh since it records them also the full identity (context key
`chbench_cpu`: vendor, family, model and stepping, or Arm implementer, part and
revision). Runs from before hold no family or model: their identity, and so
their folder, was assigned from the CPU flags and cache sizes their JSON holds
(the list below says "family and model not recorded" for them, and a folder's
`notes.md` how its runs were filed). Runs of one folder whose identities differ
are listed and compared apart, never as one machine. Cache sizes count only
as sysfs shows them: a VM that shows none there leaves them unknown, since the
sizes its hypervisor reports through CPUID need not be the CPU's.
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
    identity: Identity = Identity()
    label: str = ""  # the machine as the table shows it: `<machine>` or `<machine> #2`

    @property
    def date(self) -> str:
        """'2026-11-30 10:20:00 UTC' from the folder name."""
        d, t = self.stamp.split("-")
        return f"{d[:4]}-{d[4:6]}-{d[6:]} {t[:2]}:{t[2:4]}:{t[4:]} UTC"


def context_of(run_dir: Path) -> dict:
    """The context of the run's bench JSON (bench.json, else bench.json.gz),
    or {} when it cannot be read."""
    try:
        context = json.loads(bench_file.read_bytes(bench_file.in_folder(run_dir)))
        context = context.get("context", {})
    except (InputError, ValueError, AttributeError, RecursionError):
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
                                  (run_dir / "report.md").is_file(), identity_of(context),
                                  machine.name))
    runs.sort(key=lambda r: (r.stamp, int(RUN_NAME.match(r.name)["n"] or 1), r.machine),
              reverse=True)
    for cpu in machine_cpus(runs):
        for r in cpu.runs:
            r.label = cpu.label
    return runs


@dataclass
class MachineCpu:
    """The runs of one machine folder whose CPU identities agree."""

    machine: str
    number: int  # 1, 2, ... within a folder holding several identities; 0 if it holds one
    identity: Identity
    runs: list  # of RunFolder, newest first

    @property
    def label(self) -> str:
        """`<machine>`, or `<machine> #<n>` in a folder of several CPUs."""
        return f"{self.machine} #{self.number}" if self.number else self.machine


def machine_cpus(runs: list) -> list:
    """The runs (newest first) grouped per machine folder and agreeing CPU
    identity (cpu_identity.group), in folder order."""
    out = []
    for machine in sorted({r.machine for r in runs}):
        groups = group([(r, r.identity) for r in runs if r.machine == machine])
        for number, (identity, members) in enumerate(groups, 1):
            out.append(MachineCpu(machine, number if len(groups) > 1 else 0, identity, members))
    return out


def identity_warnings(cpus: list) -> list:
    """What a reader must know about the identities: a folder holding runs of
    several CPUs, a run recorded under another folder name, one identity
    (with family and model recorded) in two folders."""
    warnings = []
    for machine in sorted({c.machine for c in cpus}):
        mine = [c for c in cpus if c.machine == machine]
        if len(mine) > 1:
            first = mine[0].identity
            warnings.append(
                f"`{machine}/` holds runs of {len(mine)} different CPUs ("
                + "; ".join(f"#{c.number}: {len(c.runs)} run{'s' if len(c.runs) > 1 else ''}, "
                            f"newest {c.runs[0].name}" for c in mine)
                + "), never compared as one; "
                + "; ".join(f"#1 and #{c.number} differ in "
                            + ", ".join(first.differences(c.identity)) for c in mine[1:])
                + ". File each run under the name machine-name.sh gives its CPU.")
        for c in mine:
            for r in c.runs:
                if r.identity.name and r.identity.name != machine:
                    warnings.append(f"`{machine}/{r.name}` was filed as `{r.identity.name}` when "
                                    "it ran: its folder was renamed or copied")
    recorded = [c for c in cpus if c.identity.recorded]
    for i, a in enumerate(recorded):
        for b in recorded[i + 1:]:
            if a.machine != b.machine and a.identity.agrees(b.identity):
                warnings.append(f"`{a.machine}/` and `{b.machine}/` hold the same CPU identity "
                                "under two names; they are listed and compared apart")
    return warnings


def first_paragraph(path: Path) -> str:
    """The first paragraph of a markdown file (headings left out), on one
    line; "" if there is none or it cannot be read."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    paragraph = body.strip().split("\n\n")[0]
    return " ".join(line.strip() for line in paragraph.splitlines())


def render(runs: list, notes: Optional[dict] = None) -> str:
    """The index text; `notes` maps a machine folder to the first paragraph of
    its notes.md."""
    lines = [HEADER]
    if not runs:
        lines.append("No runs yet: `scripts/run.sh` adds the first.")
        return "\n".join(lines) + "\n"
    cpus = machine_cpus(runs)
    lines += ["## Machines", ""]
    for c in cpus:
        count = f"{len(c.runs)} run{'s' if len(c.runs) > 1 else ''}"
        lines.append(f"- `{c.label}` ({count}): {c.identity.text(flags=True)}")
        if (notes or {}).get(c.machine) and c.number <= 1:
            lines.append(f"  {notes[c.machine]}")
    lines += [f"- **Warning:** {w}" for w in identity_warnings(cpus)]
    lines += ["", "## Runs", "",
              "| Date | Machine | Build | Commit | Sweep | Report |", "|---|---|---|---|---|---|"]
    for r in runs:
        link = f"[{r.name}]({r.machine}/{r.name}/report.md)" if r.has_report \
            else f"{r.name} (no report.md)"
        lines.append(f"| {r.date} | {r.label or r.machine} | {r.build} | `{r.commit}` | {r.sweep} "
                     f"| {link} |")
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
        runs = find_runs(args.results)
        notes = {m: first_paragraph(args.results / m / "notes.md")
                 for m in {r.machine for r in runs}}
        text = render(runs, notes)
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
    for warning in identity_warnings(machine_cpus(runs)):
        print(f"index.py: warning: {warning.replace('`', '')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(cli.exit_status(main))
