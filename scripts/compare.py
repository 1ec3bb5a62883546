#!/usr/bin/python3
"""Compares the same benchmarks across runs: machines, builds, commits.

The arguments name what is compared (compare_inputs.py): run folders (that
run is a set) and results folders (the newest run of each CPU and build is a
set, the runs of a machine folder whose CPU identities agree: see
cpu_identity.py; with --all-runs every run is a set); default: results.
--baseline RUN makes that run folder the first set: every ratio is to it,
and only the families it measured are compared; without it, ratios are to
the first set. A set is one run: an older run of the same CPU and build never
fills in what a newer one lacks (it is left out, with a note). Runs of two
different CPUs are never one set, even in one folder: such a folder's CPUs
are compared apart as `<machine> #1`, `#2`, ..., and a warning (stderr and
compare.md) says so, as it does for a run recorded under another folder name
and for sets whose rounds ran in different orders (chbench_timing's "order").
For each family that two or more sets measured, compare.py keeps the
configurations (scheme/kernel, N, V, K, threads, ...) that every one of those
sets measured and writes to --out:

    compare.md             the sets (run, CPU, build, how many of its
                           configurations the noise canary flagged, the
                           run's notes); per family the flagged counts among
                           the shared configurations, the geometric mean of
                           each kernel's median ns/key per set with its ratio
                           to the base set (no interval: a mean over
                           configurations), and every configuration's median
                           ns/key (CV, **noisy** where flagged) per set with
                           its ratio: for two sets timed in rounds with its
                           95 % interval (the ratio of medians, bootstrap
                           over the rounds), else marked "no interval" and why
    compare_<family>.png   that geometric mean per kernel, one bar per set
                           (and .svg; --format png,svg,pdf picks the formats,
                           --theme dark writes compare_<family>-dark.<format>)

Runs marked as emulated (chbench_emulated) are left out unless
--include-emulated: their timings mean nothing. Timings of different runs on
one machine also differ with what else ran then: read a ratio near 1 as "no
difference measured".

Usage: /usr/bin/python3 scripts/compare.py [RUN_OR_RESULTS ...] [--baseline RUN]
       [--out DIR] ...   (see --help)
Exit status: 0 on success; 2 on unusable input (a path that is neither a run
folder nor a results folder, a run folder without bench.json or
bench.json.gz, a corrupt one, fewer than two sets, nothing measured in
common, a baseline that shares no configuration with another set), and then
nothing is written; 1 when matplotlib is missing.
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import cli
from compare_inputs import ResultSet, find_sets, is_run_folder
from chbench_plots import intervals
from chbench_plots import rounds as rounds_mod
from chbench_plots.errors import InputError
from chbench_plots.load import Result
from chbench_plots.numeric import sig3
from chbench_plots.report import context_value, md_cell
from chbench_plots import output
from chbench_plots.style import DPI, import_matplotlib

PROG = "compare.py"
EXIT_BAD_INPUT = 2
REPORT = "compare.md"


def config_text(key: tuple) -> str:
    """`ring/lower_bound N=1000 V=100 K=300000 T=1` of a config key (threads as T)."""
    _, scheme, kernel, segments = key
    params = [f"{'T' if name == 'threads' else name}={value}" for name, value in segments]
    return " ".join([f"{scheme}/{kernel}", *params])


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


def compare(sets: list, families: Optional[list], baseline: bool = False) -> list:
    """The families to compare, each with the sets that measured it and the
    configurations all of them share. With `baseline`, sets[0] is the
    baseline: a family it did not measure is not compared (every ratio is
    to it)."""
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
        if len(members) < 2 or (baseline and members[0] is not sets[0]):
            continue
        shared = set.intersection(*({k for k in s.results if k[0] == family} for s in members))
        if not shared:
            continue
        first = members[0].results
        keys = sorted(shared, key=lambda k: first[k].sort_key())
        out.append(FamilyComparison(family, members, keys))
    return out


NO_INTERVAL_MEAN = "no interval"


def ratio_text(value: Optional[float], base: Optional[float], why: str = NO_INTERVAL_MEAN) -> str:
    """`1.23× (no interval: why)` of value / base; `–` when either is missing."""
    if not value or not base:
        return "–"
    return f"{value / base:.2f}× ({why})"


def no_interval_reason(r: Result, base: Result) -> str:
    """Why a configuration's ratio has no interval: which side has no rounds,
    or too few."""
    if r.rounds and base.rounds:
        return f"no interval: fewer than {intervals.MIN_VALUES} rounds"
    if not r.rounds and not base.rounds:
        return "no interval: neither run timed in rounds"
    return "no interval: one run not timed in rounds"


def config_ratio_text(r: Result, base: Result) -> str:
    """One configuration's ratio to the base set's: for two runs timed in
    rounds `1.23× (95 % interval 1.18–1.29)`, the ratio of medians with a
    bootstrap over the rounds (intervals.unpaired_ratio: two runs never pair
    their rounds); else `1.23× (no interval: ...)` saying why."""
    if r.rounds and base.rounds:
        estimate = intervals.unpaired_ratio(r.rounds, base.rounds)
        if estimate is not None and estimate.has_interval:
            return (f"{estimate.value:.2f}× ({intervals.LEVEL} interval "
                    f"{estimate.lo:.2f}–{estimate.hi:.2f})")
    return ratio_text(r.ns, base.ns, no_interval_reason(r, base))


def config_cell(r: Result) -> str:
    """`12.3 (1.2 %)`: a set's median ns/key with its CV, `noisy` when the
    canary flagged the configuration."""
    cv = sig3(100 * r.cv) + " %" if r.cv is not None else "–"
    return f"{sig3(r.ns)} ({cv})" + (" **noisy**" if r.noisy else "")


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
    """One line describing a set: the run, CPU, toolchain, x86-64 baseline,
    load, noise (the configurations the canary flagged), and the run's notes."""
    ctx = s.context
    parts = [f"run `{s.run_dir.parent.name}/{s.run_dir.name}`",
             f"CPU {s.identity.text()}",
             f"toolchain {ctx.get('chbench_toolchain', '?')}",
             f"baseline {ctx.get('chbench_baseline', '?')}",
             f"Highway targets {ctx.get('chbench_hwy_targets_supported', '?')}",
             f"commit `{ctx.get('chbench_commit', '?')}`",
             f"load average at start {context_value('load_avg', ctx.get('load_avg', '?'))}",
             f"noise: {s.noise_text}"]
    notes = run_notes(s.run_dir)
    if notes:
        parts.append(f"notes: {notes}")
    return "; ".join(md_cell(p) for p in parts)


def noisy_text(c: FamilyComparison) -> str:
    """'Flagged noisy among them: A 2, B 0.' (the canary's flags per set;
    a set without a canary says `not recorded`)."""
    counts = []
    for s in c.sets:
        flags = [s.results[k].noisy for k in c.keys]
        count = "not recorded" if all(f is None for f in flags) else str(sum(bool(f) for f in flags))
        counts.append(f"{md_cell(s.label)} {count}")
    return "Flagged noisy among them: " + ", ".join(counts) + "."


def report(comparisons: list, sets: list, notes: list, plots: dict,
           warnings: Optional[list] = None, command: str = "scripts/compare.py results") -> str:
    """compare.md; plots: family -> the plot file the page shows; command:
    the arguments that regenerate it."""
    lines = ["# chbench: results across machines and builds", "",
             "Median ns/key per configuration (lower is faster) for every benchmark that two or "
             "more result sets measured; a result set is one run: the newest of one CPU and "
             "build in a results folder, or a run named on the command line (runs of different "
             "CPUs are never merged, nor is a set filled in from another run). "
             f"Regenerate with `/usr/bin/python3 {command}`.", "",
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
                  + f". Ratios are to {md_cell(base.label)}. " + noisy_text(c), ""]
        if c.family in plots:
            lines += [f"![{c.family}]({plots[c.family]})", ""]
        header = ["Kernel", "configs"] + [f"{s.label} ns/key" for s in c.sets] + \
                 [f"{s.label} ÷ {base.label}" for s in c.sets[1:]]
        lines += ["Geometric mean of the median ns/key over the shared configurations (a mean "
                  "over configurations has no interval; each configuration's ratio below has "
                  "one where both runs were timed in rounds):", "",
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
            cells = [config_cell(r) for r in results]
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


def parse_args(argv: Optional[list]):
    """The command line: runs and results folders, --baseline, --out, ..."""
    parser = cli.Parser(
        prog=PROG,
        description="Compare the same chbench benchmarks across runs: every machine and build "
                    "of a results folder, or the run folders named, or both; a markdown table "
                    "and one bar chart per family.",
        epilog=f"Writes {REPORT} and compare_<family>.<format> into --out. A set is one run, "
               "never filled in from another. Exit status 2 on unusable input (then nothing "
               "is written), 1 when matplotlib is missing.")
    parser.add_argument("runs", nargs="*", type=Path, metavar="RUN_OR_RESULTS",
                        help="run folders (holding bench.json or bench.json.gz: that run is a "
                             "set) or results folders (<machine>/<run>/: the newest run of each "
                             "CPU and build is a set); default: results")
    parser.add_argument("--baseline", type=Path, metavar="RUN",
                        help="a run folder: the first set, every ratio is to it, and only the "
                             "families it measured are compared (default: ratios to the first "
                             "set)")
    parser.add_argument("--out", type=Path, metavar="DIR",
                        help="output folder, created if missing (default: comparison/ in the "
                             "first results folder named, else in the one holding the first "
                             "run folder)")
    parser.add_argument("--families", metavar="LIST",
                        help="comma list of families to compare (default: every family that two "
                             "or more sets measured)")
    parser.add_argument("--all-runs", action="store_true",
                        help="in a results folder, every run is a set, not only the newest per "
                             "machine and build")
    parser.add_argument("--include-emulated", action="store_true",
                        help="also compare runs marked as emulated (their timings mean nothing)")
    output.add_arguments(parser)
    args = parser.parse_args(argv)
    if not args.runs and args.baseline is None:
        args.runs = [Path("results")]
    return args


def default_out(args) -> Path:
    """comparison/ in the first results folder named, else beside the first
    run folder's machine folder (its results folder)."""
    paths = args.runs + ([args.baseline] if args.baseline else [])
    for path in paths:
        if path.is_dir() and not is_run_folder(path):
            return path / "comparison"
    return paths[0].parent.parent / "comparison"


def command_text(argv: Optional[list]) -> str:
    """`scripts/compare.py ARGS` as the user gave them."""
    args = sys.argv[1:] if argv is None else argv
    return " ".join(["scripts/compare.py", *(str(a) for a in args)]) if args \
        else "scripts/compare.py results"


def check_out(out: Path) -> None:
    """Raises InputError unless `out` is, or can be created as, a writable folder."""
    if out.exists() and not out.is_dir():
        raise InputError(f"output folder {out} is not a folder")
    existing = out if out.exists() else next(p for p in out.parents if p.exists())
    reason = cli.unwritable(existing)
    if reason is not None:
        raise InputError(f"output folder {out} is not writable ({reason})")


def order_warning(sets: list) -> Optional[str]:
    """A warning when the sets timed in rounds ordered their rounds
    differently (rounds.round_order): what runs before a slice can change a ratio
    (docs/measurement.md), so a ratio between such sets carries that too;
    None when they agree or at most one was timed in rounds."""
    orders: dict = {}
    for s in sets:
        timing = rounds_mod.timing(s.context, [])
        if timing is not None:
            orders.setdefault(rounds_mod.round_order(timing), []).append(s.label)
    if len(orders) < 2:
        return None
    parts = "; ".join(f"{', '.join(labels)}: {order}" for order, labels in orders.items())
    return (f"the sets ordered their rounds differently ({parts}): what runs before a slice "
            "can change a ratio, so the ratios between them carry that too")


def comparisons_of(args, notes: list, warnings: list) -> tuple:
    """(sets, comparisons) of the command line. Raises InputError."""
    families = [f for f in args.families.split(",") if f] if args.families is not None else None
    if families is not None and not families:
        raise InputError("--families was given an empty list")
    sets = find_sets(args.runs, args.baseline, args.all_runs, args.include_emulated, notes,
                     warnings)
    if len(sets) < 2:
        where = ", ".join(str(p) for p in ([args.baseline] if args.baseline else []) + args.runs)
        raise InputError(f"{where} holds {len(sets)} result set(s); a comparison needs two "
                         "(another machine, or another build: scripts/run.sh --preset x86-64-v2)")
    if warning := order_warning(sets):
        warnings.append(warning)
    comparisons = compare(sets, families, baseline=args.baseline is not None)
    if not comparisons and args.baseline is not None:
        raise InputError(f"the baseline {args.baseline} measured no configuration of a family "
                         "that another set measured too")
    if not comparisons:
        raise InputError("no two result sets measured the same configuration of one family")
    return sets, comparisons


def main(argv: Optional[list] = None) -> int:
    """Command line entry point; returns the exit status."""
    args = parse_args(argv)
    notes: list = []
    warnings: list = []
    try:
        sets, comparisons = comparisons_of(args, notes, warnings)
        out = args.out if args.out is not None else default_out(args)
        check_out(out)
    except InputError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    files = plot_files(comparisons, args.formats, args.theme)
    plots = {c.family: output.embed_name(f"compare_{c.family}", args.formats, args.theme)
             for c in comparisons}
    files[REPORT] = report(comparisons, sets, notes, plots, warnings,
                           command_text(argv)).encode()
    write_files(out, files, args.theme)
    for warning in warnings:
        print(f"{PROG}: warning: {warning.replace('`', '')}", file=sys.stderr)
    for c in comparisons:
        print(f"{PROG}: {c.family}: {len(c.keys)} configurations x {len(c.sets)} sets",
              file=sys.stderr)
    print(f"{PROG}: wrote {out / REPORT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(cli.exit_status(main))
