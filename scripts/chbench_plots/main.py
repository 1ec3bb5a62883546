"""The command line of scripts/plot.py: read the run, compute, draw, and
write every file or none."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import cli  # scripts/cli.py

from . import (batch, clustered, dense, hashed, inflight, latency, nodes, output, removals,
               replicas, targets, targets_plot, threads, tokens, weighted)
from .errors import EXIT_BAD_INPUT, EXIT_WRITE_FAILED, InputError
from .goal_specs import GOALS_FILE, Goals, load_goals
from .goals import evaluate
from .load import Run, load
from .plot_text import texts
from .report import Analyses, report
from .rings import ring_points
from .style import DPI, Style, import_matplotlib

PROG = "plot.py"
# The plots (each written as <stem>.<format>, <stem>-dark.<format> in the dark
# theme: chbench_plots/output.py) and the report. The plots' keys keep ".png",
# the name the plot texts and the report's sections use.
OUTPUT_FILES = (
    "ring_tokens.png",
    "latency.png",
    "inflight.png",
    "clustered.png",
    "schemes_nodes.png",
    "jump_family.png",
    "removals.png",
    "removals_memory.png",
    "threads.png",
    "batch.png",
    "hashed.png",
    "weighted.png",
    "replicas.png",
    "targets.png",
    "report.md",
)


def analyse(run: Run, goals: Goals) -> Analyses:
    """Every goal's verdict and the analyses plots and report share."""
    return Analyses(goals, [evaluate(g, run) for g in goals.goals], nodes.analyse(run),
                    targets.analyse(run), inflight.lines_of(run), dense.analyse(run),
                    removals.analyse(run))


def clustered_reference(goals: Goals) -> Optional[str]:
    """The kernel the clustered plot is drawn against: the reference of the
    first goal that compares family "clustered" with one."""
    return next((g.denominator for g in goals.goals
                 if g.family == "clustered" and g.kind == "each_vs_reference"), None)


def figures(run: Run, analyses: Analyses) -> tuple:
    """({plot file: matplotlib Figure or None}, batch_log_y, the Style used)."""
    figure_cls = import_matplotlib(PROG)
    # Family "targets" adds kernels forced to one target; they would shift
    # every other kernel's colour between runs with and without it.
    style = Style(r for r in run.results if r.family != "targets")
    out = {
        "ring_tokens.png": tokens.figure(run, figure_cls, style),
        "latency.png": latency.figure(run, figure_cls, style),
        "inflight.png": inflight.figure(figure_cls, analyses.inflight),
        "clustered.png": clustered.figure(figure_cls, style, ring_points(run, "clustered"),
                                          clustered_reference(analyses.goals)),
        "schemes_nodes.png": nodes.figure(run, figure_cls, style, analyses.crossover),
        "jump_family.png": dense.figure(run, figure_cls, style),
        "removals.png": removals.figure(run, figure_cls, style),
        "removals_memory.png": removals.memory_figure(run, figure_cls, style),
        "threads.png": threads.figure(run, figure_cls, style),
    }
    out["batch.png"], batch_log_y = batch.figure(run, figure_cls, style)
    out["hashed.png"] = hashed.figure(run, figure_cls, style)
    out["targets.png"] = targets_plot.figure(run, figure_cls, analyses.targets)
    out["weighted.png"] = weighted.figure(run, figure_cls, style)
    out["replicas.png"] = replicas.figure(run, figure_cls, style)
    return out, batch_log_y, style


def knobs_text(run: Run, analyses: Analyses) -> str:
    """'`a`: lockstep group, `b`: prefetch distance' for the kernels of
    family "inflight"."""
    labels = dict.fromkeys(line.label for line in analyses.inflight)
    return ", ".join(f"`{label}`: " + next(line.knob for line in analyses.inflight
                                           if line.label == label) for label in labels)


def stem(plot: str) -> str:
    """'schemes_nodes.png' -> 'schemes_nodes'."""
    return plot.rsplit(".", 1)[0]


def render(run: Run, goals: Goals, formats: tuple = output.DEFAULT_FORMATS,
           theme: str = "light") -> dict:
    """Every output file's name -> bytes, built in memory: each plot in every
    format of `formats`, in the theme named, and the report, which shows each
    plot's PNG (else its SVG)."""
    analyses = analyse(run, goals)
    files = {}
    with output.theme(theme):
        figs, batch_log_y, style = figures(run, analyses)
        for name, fig in figs.items():
            if fig is not None:
                files.update(output.encode_all(fig, stem(name), formats, DPI, theme))
    shown = {name: output.embed_name(stem(name), formats, theme)
             for name, fig in figs.items() if fig is not None}
    titles = run.registry.scheme_title if run.registry else str
    floors = run.registry.floors() if run.registry else []
    plot_texts = texts(knobs_text(run, analyses), clustered_reference(goals),
                       style.line_key(titles), floors[0] if floors else None)
    files["report.md"] = report(run, analyses, plot_texts, shown, batch_log_y).encode()
    return files


def main(argv: Optional[list] = None) -> int:
    """Command line entry point; returns the exit status."""
    parser = cli.Parser(
        prog=PROG,
        description="Plots and report.md from a chbench Google Benchmark JSON file.",
        epilog="Writes " + ", ".join(stem(f) for f in OUTPUT_FILES[:-1]) + " (each as "
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
    output.add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        problem = cli.folder_problem(args.out)
        if problem:
            raise InputError(problem)
        goals = load_goals(args.goals)
        run = load(args.json, registry_from=args.registry)
    except InputError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    files = render(run, goals, args.formats, args.theme)
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
    for name in (n for plot in OUTPUT_FILES[:-1] for n in output.all_names(stem(plot), theme)):
        if name not in files and (out / name).exists():
            (out / name).unlink()  # a stale plot from an earlier call
    return 0
