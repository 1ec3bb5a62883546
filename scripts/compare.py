#!/usr/bin/python3
"""Compares the same benchmarks across machines and builds: every result set
under RESULTS_DIR (one per machine folder and build), side by side.

A result set is the newest run of one CPU (the runs of a machine folder
RESULTS_DIR/<machine>/ whose CPU identities agree: see cpu_identity.py) with
one build (the CMake preset recorded in its bench.json; see index.build_of),
or, with --all-runs, every run on its own. Runs of two different CPUs are never
merged into one set, even in one folder: such a folder's CPUs are compared
apart as `<machine> #1`, `#2`, ..., and a warning (stderr and compare.md) says
so, as it does for a run recorded under another folder name. For each family that two or more sets
measured, compare.py keeps the configurations (scheme/kernel, N, V, K,
threads) that every one of those sets measured and writes to --out:

    compare.md             per family: the geometric mean of each kernel's
                           median ns/key over those configurations, per set,
                           and every configuration's median ns/key (CV) per
                           set with its ratio to the first set (for two sets
                           timed in rounds, with its 95 % interval: the
                           ratio of medians, bootstrap over the rounds)
    compare_<family>.png   that geometric mean per kernel, one bar per set
                           (and .svg; --format png,svg,pdf picks the formats,
                           --theme dark writes compare_<family>-dark.<format>)

Runs marked as emulated (chbench_emulated) are left out unless
--include-emulated: their timings mean nothing. Timings of different runs on
one machine also differ with what else ran then: read a ratio near 1 as "no
difference measured".

Usage: /usr/bin/python3 scripts/compare.py [RESULTS_DIR] [--out DIR] ...
       (see --help)
Exit status: 0 on success; 2 on unusable input (no results folder, a corrupt
bench.json, fewer than two sets, nothing measured in common), and then nothing
is written; 1 when matplotlib is missing.
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import cli
import index
from cpu_identity import Identity
from chbench_plots import bench_file, intervals
from chbench_plots.errors import InputError
from chbench_plots.load import Result, load
from chbench_plots.numeric import sig3
from chbench_plots.report import context_value, md_cell
from chbench_plots import output
from chbench_plots.style import DPI, import_matplotlib

PROG = "compare.py"
EXIT_BAD_INPUT = 2
REPORT = "compare.md"


@dataclass
class ResultSet:
    """The runs of one machine and build that are compared as one column."""

    machine: str  # the folder, with ` #n` when it holds runs of several CPUs
    build: str
    run_dir: Path
    context: dict
    identity: Identity = Identity()
    results: dict = field(default_factory=dict)  # config key -> Result
    family_order: list = field(default_factory=list)  # the families as its runs order them

    @property
    def label(self) -> str:
        """`machine · build` (with --all-runs the build names the run too)."""
        return f"{self.machine} · {self.build}"

    def families(self) -> set:
        """The families this set measured."""
        return {key[0] for key in self.results}


def config_key(r: Result) -> tuple:
    """What makes two results the same benchmark: family, scheme, kernel and
    every parameter the name carries, as ((key, value text), ...) in name order."""
    segments = tuple(tuple(part.partition(":")[::2]) for part in r.config_name.split("/")[3:])
    return (r.family, r.scheme, r.kernel, segments)


def config_text(key: tuple) -> str:
    """`ring/lower_bound N=1000 V=100 K=300000 T=1` of a config key (threads as T)."""
    _, scheme, kernel, segments = key
    params = [f"{'T' if name == 'threads' else name}={value}" for name, value in segments]
    return " ".join([f"{scheme}/{kernel}", *params])


def find_sets(root: Path, all_runs: bool, include_emulated: bool, notes: list,
              warnings: list) -> list:
    """Loads every run under root (index.find_runs: hidden and unnamed folders
    are skipped) and groups them into result sets: per machine folder, CPU
    identity and build, each configuration from the newest run that measured
    it. Adds index.identity_warnings() to `warnings`. Raises InputError for a
    run folder whose bench.json is missing or corrupt."""
    sets: dict = {}
    runs = index.find_runs(root)  # newest first; run.label tells a folder's CPUs apart
    warnings += index.identity_warnings(index.machine_cpus(runs))
    for run in runs:
        run_dir = root / run.machine / run.name
        # The comparison needs no kernel registry: runs from before the bench
        # wrote one compare too (their schemes in the order the JSON shows them).
        loaded = load(bench_file.in_folder(run_dir), need_registry=False)
        if str(loaded.context.get("chbench_emulated", "no")) != "no" and not include_emulated:
            notes.append(f"left out {run.machine}/{run.name}: an emulated run "
                         "(--include-emulated shows it)")
            continue
        key = (run.label, run.build, run.name if all_runs else "")
        if key in sets:
            # An older run of the same machine and build fills in only the
            # configurations the newer ones did not measure (other families).
            added = 0
            for r in loaded.results:
                if r.ns is not None and config_key(r) not in sets[key].results:
                    sets[key].results[config_key(r)] = r
                    added += 1
            order = sets[key].family_order
            order += [f for f in loaded.families() if f not in order]
            notes.append(f"{run.machine}/{run.name}: an older run of the same machine and build; "
                         f"{added} configurations newer runs did not measure are taken from it "
                         "(--all-runs compares every run apart)")
            continue
        result_set = ResultSet(run.label, run.build if not all_runs
                               else f"{run.build} · {run.name}", run_dir, loaded.context,
                               run.identity)
        for r in loaded.results:
            if r.ns is not None:
                result_set.results[config_key(r)] = r
        result_set.family_order = loaded.families()
        sets[key] = result_set
    return sorted(sets.values(), key=lambda s: (s.machine, s.build))


@dataclass
class FamilyComparison:
    """One family measured by two or more sets, on the configurations they share."""

    family: str
    sets: list  # of ResultSet
    keys: list  # config keys every set measured, in bench order

    def kernels(self) -> list:
        """scheme/kernel labels in order of first appearance."""
        seen: dict = {}
        for key in self.keys:
            seen.setdefault(f"{key[1]}/{key[2]}", None)
        return list(seen)

    def geomean(self, result_set: ResultSet, kernel: str) -> Optional[float]:
        """Geometric mean of the kernel's median ns/key over the shared configurations."""
        values = [result_set.results[k].ns for k in self.keys if f"{k[1]}/{k[2]}" == kernel]
        values = [v for v in values if v and v > 0]
        if not values:
            return None
        return math.exp(sum(math.log(v) for v in values) / len(values))

    def configs_of(self, kernel: str) -> int:
        """How many shared configurations the kernel has."""
        return sum(1 for k in self.keys if f"{k[1]}/{k[2]}" == kernel)


def compare(sets: list, families: Optional[list]) -> list:
    """The families to compare, each with the sets that measured it and the
    configurations all of them share."""
    present = set().union(*(s.families() for s in sets)) if sets else set()
    # The families as the runs order them (the bench's order), then any left.
    order = list(dict.fromkeys(f for s in sets for f in s.family_order if f in present))
    order += sorted(present - set(order))
    if families:
        unknown = [f for f in families if f not in present]
        if unknown:
            raise InputError(f"no result set measured the family {', '.join(unknown)} "
                             f"(measured: {', '.join(order) or 'none'})")
        order = [f for f in order if f in families]
    out = []
    for family in order:
        members = [s for s in sets if family in s.families()]
        if len(members) < 2:
            continue
        shared = set.intersection(*({k for k in s.results if k[0] == family} for s in members))
        if not shared:
            continue
        first = members[0].results
        keys = sorted(shared, key=lambda k: first[k].sort_key())
        out.append(FamilyComparison(family, members, keys))
    return out


def ratio_text(value: Optional[float], base: Optional[float]) -> str:
    """`1.23×` of value / base."""
    if not value or not base:
        return "–"
    return f"{value / base:.2f}×"


def config_ratio_text(r: Result, base: Result) -> str:
    """One configuration's ratio to the first set's: `1.23×`, and for two
    runs timed in rounds its interval, `1.23× (95 % interval 1.18–1.29)`
    (intervals.unpaired_ratio: two runs never pair their rounds)."""
    if r.rounds and base.rounds:
        estimate = intervals.unpaired_ratio(r.rounds, base.rounds)
        if estimate is not None and estimate.has_interval:
            return (f"{estimate.value:.2f}× ({intervals.LEVEL} interval "
                    f"{estimate.lo:.2f}–{estimate.hi:.2f})")
    return ratio_text(r.ns, base.ns)


def run_notes(run_dir: Path) -> str:
    """The first paragraph of the run folder's notes.md (written by whoever
    ran it, e.g. what else ran on the machine), on one line; "" if none."""
    try:
        text = (run_dir / "notes.md").read_text(errors="replace")
    except OSError:
        return ""
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    paragraph = body.strip().split("\n\n")[0]
    return " ".join(line.strip() for line in paragraph.splitlines())


def set_line(s: ResultSet) -> str:
    """One line describing a set: the run, CPU, toolchain, baseline, load,
    and the run's notes."""
    ctx = s.context
    parts = [f"run `{s.run_dir.parent.name}/{s.run_dir.name}`",
             f"CPU {s.identity.text()}",
             f"toolchain {ctx.get('chbench_toolchain', '?')}",
             f"baseline {ctx.get('chbench_baseline', '?')}",
             f"Highway targets {ctx.get('chbench_hwy_targets_supported', '?')}",
             f"commit `{ctx.get('chbench_commit', '?')}`",
             f"load average at start {context_value('load_avg', ctx.get('load_avg', '?'))}"]
    notes = run_notes(s.run_dir)
    if notes:
        parts.append(f"notes: {notes}")
    return "; ".join(md_cell(p) for p in parts)


def report(comparisons: list, sets: list, notes: list, plots: dict,
           warnings: Optional[list] = None) -> str:
    """compare.md; plots: family -> the plot file the page shows."""
    lines = ["# chbench: results across machines and builds", "",
             "Median ns/key per configuration (lower is faster) for every benchmark that two or "
             "more result sets measured; a result set is the newest run of one CPU and build "
             "(the runs of one machine folder whose CPU identities agree: runs of different "
             "CPUs are never merged). "
             "Regenerate with `/usr/bin/python3 scripts/compare.py results`.", "",
             "## Result sets", ""]
    lines += [f"- **Warning:** {w}" for w in warnings or []]
    for s in sets:
        lines.append(f"- **{md_cell(s.label)}**: {set_line(s)}")
    lines += [""] + [f"- {md_cell(n)}" for n in notes] + ([""] if notes else [])
    for c in comparisons:
        base = c.sets[0]
        lines += [f"## Family `{c.family}`", "",
                  f"{len(c.keys)} configurations measured by all of: "
                  + ", ".join(md_cell(s.label) for s in c.sets)
                  + f". Ratios are to {md_cell(base.label)}.", ""]
        if c.family in plots:
            lines += [f"![{c.family}]({plots[c.family]})", ""]
        header = ["Kernel", "configs"] + [f"{s.label} ns/key" for s in c.sets] + \
                 [f"{s.label} ÷ {base.label}" for s in c.sets[1:]]
        lines += ["Geometric mean of the median ns/key over the shared configurations:", "",
                  "| " + " | ".join(md_cell(h) for h in header) + " |",
                  "|" + "---|" * len(header)]
        for kernel in c.kernels():
            means = [c.geomean(s, kernel) for s in c.sets]
            row = [f"`{kernel}`", str(c.configs_of(kernel))] + [sig3(m) for m in means] + \
                  [ratio_text(m, means[0]) for m in means[1:]]
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
        header = ["Configuration"] + [f"{s.label} ns/key (CV)" for s in c.sets] + \
                 [f"{s.label} ÷ {base.label}" for s in c.sets[1:]]
        lines += ["<details><summary>Every configuration</summary>", "",
                  "| " + " | ".join(md_cell(h) for h in header) + " |",
                  "|" + "---|" * len(header)]
        for key in c.keys:
            results = [s.results[key] for s in c.sets]
            cells = [f"{sig3(r.ns)} ({sig3(100 * r.cv) + ' %' if r.cv is not None else '–'})"
                     for r in results]
            ratios = [config_ratio_text(r, results[0]) for r in results[1:]]
            lines.append("| " + " | ".join([f"`{config_text(key)}`", *cells, *ratios]) + " |")
        lines += ["", "</details>", ""]
    return "\n".join(lines).rstrip() + "\n"


def plot_family(c: FamilyComparison, figure_cls):
    """Grouped bars: per kernel, one bar per set, geometric mean ns/key (log y)."""
    kernels = c.kernels()
    width = min(16.0, max(8.5, 0.28 * len(kernels) * len(c.sets) + 3.0))
    fig = figure_cls(figsize=(width, 5.8), dpi=DPI, constrained_layout=True)
    ax = fig.add_subplot()
    width = 0.8 / len(c.sets)
    for i, s in enumerate(c.sets):
        xs, ys = [], []
        for j, kernel in enumerate(kernels):
            mean = c.geomean(s, kernel)
            if mean:
                xs.append(j - 0.4 + width * (i + 0.5))
                ys.append(mean)
        ax.bar(xs, ys, width=width, label=s.label, color=f"C{i % 10}")
    ax.set_yscale("log")
    ax.set_xticks(range(len(kernels)))
    ax.set_xticklabels(kernels, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel("ns per key (geometric mean over shared configurations, log)")
    ax.set_title(f"Family {c.family}: the same {len(c.keys)} configurations on every result set"
                 "\nlower is faster", fontsize=11)
    ax.grid(True, axis="y", which="major", alpha=0.45)
    ax.grid(True, axis="y", which="minor", alpha=0.15)
    ax.legend(title="machine · build", fontsize=9)
    return fig


def plot_files(comparisons: list, formats: tuple, theme: str) -> dict:
    """{compare_<family>.<format>: bytes} of every comparison (chbench_plots/output.py)."""
    figure_cls = import_matplotlib(PROG)
    files: dict = {}
    with output.theme(theme):
        for c in comparisons:
            files.update(output.encode_all(plot_family(c, figure_cls), f"compare_{c.family}",
                                           formats, DPI, theme))
    return files


def write_files(out: Path, files: dict, theme: str) -> None:
    """Writes every file (each beside its name first), then removes the plots
    of this theme an earlier call wrote that this one did not: a family no
    longer compared, a format no longer asked for."""
    out.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        tmp = out / f".{name}.tmp"
        tmp.write_bytes(data)
        os.replace(tmp, out / name)
    for stale in out.glob("compare_*"):
        dark = stale.stem.endswith("-dark")
        if (stale.suffix[1:] in output.FORMATS and dark == (theme == "dark")
                and stale.name not in files):
            stale.unlink()


def main(argv: Optional[list] = None) -> int:
    """Command line entry point; returns the exit status."""
    parser = cli.Parser(
        prog=PROG,
        description="Compare the same chbench benchmarks across every machine and build in a "
                    "results folder: a markdown table and one bar chart per family.",
        epilog=f"Writes {REPORT} and compare_<family>.<format> into --out. Exit status 2 on "
               "unusable input (then nothing is written), 1 when matplotlib is missing.")
    parser.add_argument("results", nargs="?", type=Path, default=Path("results"),
                        help="results folder with <machine>/<run>/bench.json (default: results)")
    parser.add_argument("--out", type=Path, metavar="DIR",
                        help="output folder, created if missing (default: RESULTS/comparison)")
    parser.add_argument("--families", metavar="LIST",
                        help="comma list of families to compare (default: every family that two "
                             "or more sets measured)")
    parser.add_argument("--all-runs", action="store_true",
                        help="compare every run, not only the newest per machine and build")
    parser.add_argument("--include-emulated", action="store_true",
                        help="also compare runs marked as emulated (their timings mean nothing)")
    output.add_arguments(parser)
    args = parser.parse_args(argv)
    out = args.out if args.out is not None else args.results / "comparison"
    families = [f for f in args.families.split(",") if f] if args.families is not None else None
    notes: list = []
    warnings: list = []
    try:
        if families is not None and not families:
            raise InputError("--families was given an empty list")
        if not args.results.is_dir():
            raise InputError(f"{args.results} is not a folder")
        sets = find_sets(args.results, args.all_runs, args.include_emulated, notes, warnings)
        if len(sets) < 2:
            raise InputError(f"{args.results} holds {len(sets)} result set(s); a comparison "
                             "needs two (another machine, or another build: "
                             "scripts/run.sh --preset x86-64-v2)")
        comparisons = compare(sets, families)
        if not comparisons:
            raise InputError("no two result sets measured the same configuration of one family")
        if out.exists() and not out.is_dir():
            raise InputError(f"output folder {out} is not a folder")
        existing = out if out.exists() else next(p for p in out.parents if p.exists())
        reason = cli.unwritable(existing)
        if reason is not None:
            raise InputError(f"output folder {out} is not writable ({reason})")
    except InputError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    files = plot_files(comparisons, args.formats, args.theme)
    plots = {c.family: output.embed_name(f"compare_{c.family}", args.formats, args.theme)
             for c in comparisons}
    files[REPORT] = report(comparisons, sets, notes, plots, warnings).encode()
    write_files(out, files, args.theme)
    for warning in warnings:
        print(f"{PROG}: warning: {warning.replace('`', '')}", file=sys.stderr)
    for c in comparisons:
        print(f"{PROG}: {c.family}: {len(c.keys)} configurations x {len(c.sets)} sets",
              file=sys.stderr)
    print(f"{PROG}: wrote {out / REPORT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
