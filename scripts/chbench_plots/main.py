"""The command line of scripts/plot.py: read the run, compute, draw, and
write every file or none."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import cli  # scripts/cli.py

from . import (dense, first_screen, inflight, nodes, output, removals, subset as subset_mod,
               targets)
from .errors import EXIT_BAD_INPUT, EXIT_WRITE_FAILED, InputError
from .goal_names import check_kernels
from .goal_specs import GOALS_FILE, Goals, load_goals
from .goals import evaluate
from .load import Run, load
from .plot_text import filled
from .plots import PER_KERNEL, PLOTS, Canvas, clustered_reference, in_run_order
from .report import Analyses, PlotSection, report
from .style import DPI, Style, import_matplotlib

PROG = "plot.py"


def analyse(run: Run, goals: Goals) -> Analyses:
    """Every goal's verdict and the analyses plots and report share."""
    return Analyses(goals, [evaluate(g, run) for g in goals.goals], nodes.analyse(run),
                    targets.analyse(run), inflight.lines_of(run), dense.analyse(run),
                    removals.analyse(run))


def drawn_analyses(run: Run, analyses: Analyses) -> Analyses:
    """The analyses the drawings read, of a run cut to a subset (the goals'
    verdicts stay those of the whole run)."""
    return Analyses(analyses.goals, analyses.verdicts, nodes.analyse(run), targets.analyse(run),
                    inflight.lines_of(run), dense.analyse(run), removals.analyse(run))


def figures(run: Run, analyses: Analyses, subset: Optional[subset_mod.Subset] = None) -> tuple:
    """({plot stem: matplotlib Figure or None}, the Style used), for every
    plot of the table (plots.py); the per-kernel plots (PER_KERNEL) draw
    only the subset's kernels, when one is given."""
    # Family "targets" adds kernels forced to one target; they would shift
    # every other kernel's colour between runs with and without it. The
    # colours are the whole run's, so a kernel keeps its colour in a subset.
    style = Style(r for r in run.results if r.family != "targets")
    figure_cls = import_matplotlib(PROG)
    canvas = Canvas(run, figure_cls, style, analyses)
    chosen = canvas
    if subset is not None:
        cut = subset.apply(run)
        chosen = Canvas(cut, figure_cls, style, drawn_analyses(cut, analyses))
    return {p.stem: p.draw(chosen if p.stem in PER_KERNEL else canvas) for p in PLOTS}, style


def knobs_text(run: Run, analyses: Analyses) -> str:
    """'`a`: lockstep group, `b`: prefetch distance' for the kernels of
    family "inflight"."""
    labels = dict.fromkeys(line.label for line in analyses.inflight)
    return ", ".join(f"`{label}`: " + next(line.knob for line in analyses.inflight
                                           if line.label == label) for label in labels)


def subset_note(stem: str, subset: Optional[subset_mod.Subset]) -> str:
    """' Drawn for the schemes `jump` only (...).' for a per-kernel plot
    drawn for a subset, else ''."""
    if subset is None or stem not in PER_KERNEL:
        return ""
    return (f" Drawn for the {subset.text()} only (plot.py --schemes, --kernels); the tables "
            "have every kernel.")


def plot_sections(run: Run, analyses: Analyses, figs: dict, style: Style, formats: tuple,
                  theme: str, subset: Optional[subset_mod.Subset] = None) -> list:
    """The report's plots in the run's family order: each its title, family,
    text with the run's parts (and the subset it drew), and the file the
    page shows (None: not drawn)."""
    titles = run.registry.scheme_title if run.registry else str
    floors = run.registry.floors() if run.registry else []
    parts = (knobs_text(run, analyses), clustered_reference(analyses.goals),
             style.line_key(titles), floors[0] if floors else None)
    out = []
    for p in in_run_order(run):
        drawn = figs.get(p.stem) is not None
        text = filled(p.text, *parts) + (p.note(run) if p.note and drawn else "")
        text += subset_note(p.stem, subset)
        shown = output.embed_name(p.stem, formats, theme) if drawn else None
        missing = "among the kernels chosen" if subset_note(p.stem, subset) else "in this run"
        out.append(PlotSection(p.title, p.family, text, shown, missing))
    return out


# The plots the first screen points to, where the run drew them.
SUMMARY_PLOTS = ("schemes_best_nodes", "schemes_nodes", "removals", "threads")


def summary_links(figs: dict) -> list:
    """(what, file) pairs for the end of summary.txt: the report and the plots
    of SUMMARY_PLOTS the run drew (their PNGs). The guide is not among them:
    scripts/run.sh makes it after this and adds its own line, the guide's
    file or why there is none."""
    plots = [f"{stem}.png" for stem in SUMMARY_PLOTS if figs.get(stem) is not None]
    links = [("Full report (tables, goals, noise appendix)", "report.md")]
    if plots:
        links.append(("Plots", ", ".join(plots)))
    return links


def render(run: Run, goals: Goals, formats: tuple = output.DEFAULT_FORMATS,
           theme: str = "light", subset: Optional[subset_mod.Subset] = None) -> dict:
    """Every output file's name -> bytes, built in memory: each plot in every
    format of `formats`, in the theme named (the per-kernel ones of the
    subset's kernels, when given), and the report, which shows each plot's
    PNG (else its SVG)."""
    analyses = analyse(run, goals)
    files = {}
    with output.theme(theme):
        figs, style = figures(run, analyses, subset)
        files.update(output.encode_figures(figs, formats, DPI, theme))
    sections = plot_sections(run, analyses, figs, style, formats, theme, subset)
    files["report.md"] = report(run, analyses, sections).encode()
    files["summary.txt"] = ("\n".join(first_screen.lines(run, summary_links(figs))) + "\n").encode()
    return files


def main(argv: Optional[list] = None) -> int:
    """Command line entry point; returns the exit status."""
    parser = cli.Parser(
        prog=PROG,
        description="Plots and report.md from a chbench Google Benchmark JSON file.",
        epilog="Writes " + ", ".join(p.stem for p in PLOTS) + " (each as "
               "<plot>.<format>, <plot>-dark.<format> with --theme dark) and report.md into "
               "--out (a family missing from the JSON gets no plot). Exit status 2 on unusable "
               "input; then nothing is written.")
    parser.add_argument("json", type=Path, help="bench output (--benchmark_out_format=json)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="existing folder for the plots and report.md")
    parser.add_argument("--goals", type=Path, default=GOALS_FILE, metavar="FILE",
                        help="the goals and ratios to compute (default: the package's "
                             "goals.toml)")
    parser.add_argument("--registry", type=Path, metavar="BENCH_JSON",
                        help="for a run from before the bench recorded its kernel registry: "
                             "take the registry of this later bench.json (it must list every "
                             "kernel the run measured); the report says so")
    parser.add_argument("--schemes", metavar="LIST",
                        help="the per-kernel plots draw only these schemes' kernels (comma list "
                             "of scheme names; the stream floor stays)")
    parser.add_argument("--kernels", metavar="LIST",
                        help="the per-kernel plots draw only these kernels (comma list of full "
                             "names, scheme/kernel; with --schemes: either names it)")
    output.add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        problem = cli.folder_problem(args.out)
        if problem:
            raise InputError(problem)
        goals = load_goals(args.goals)
        run = load(args.json, registry_from=args.registry)
        check_kernels(goals, run, args.goals)
        subset = subset_mod.parse(run, args.schemes, args.kernels)
    except InputError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    files = render(run, goals, args.formats, args.theme, subset)
    status = write_all(args.out, files, args.theme)
    if status:
        return status
    for warning in run.warnings:
        print(f"{PROG}: warning: {warning}", file=sys.stderr)
    return 0


def write_all(out: Path, files: dict, theme: str = "light") -> int:
    """Writes every file beside its final name first; only when all are
    written do they replace the old ones, so a failure changes nothing.
    Removes stale plots of an earlier call in the same theme (a plot no longer
    drawn, or a format no longer asked for). Returns the exit status."""
    staged = []
    try:
        for name, data in files.items():
            tmp = out / f".{name}.tmp"
            staged.append(tmp)
            tmp.write_bytes(data)
    except OSError as err:
        for tmp in staged:
            tmp.unlink(missing_ok=True)
        print(f"{PROG}: error: cannot write into {out}: {err.strerror or err}", file=sys.stderr)
        return EXIT_WRITE_FAILED
    for name in files:
        os.replace(out / f".{name}.tmp", out / name)
    for name in (n for plot in PLOTS for n in output.all_names(plot.stem, theme)):
        if name not in files and (out / name).exists():
            (out / name).unlink()  # a stale plot from an earlier call
    return 0
