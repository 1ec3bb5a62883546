#!/usr/bin/python3
"""Generates docs/guide.md, "which scheme for my fleet on this CPU", and its
plot from one bench run and runs of the built chbench-lab.

RUN is a run folder (holding bench.json or bench.json.gz), or a results
folder RESULTS/<machine>/<run>/, of which the newest run of one CPU identity
with family "nodes" and the kernel registry is read (--machine names the
machine folder). The advice is for a fleet of --nodes N nodes (default
1,000): the figures of the measured N nearest N on a log scale (the page
says which), and the lab runs at N itself. Per scheme of the registry: its
fastest kernel and batch ns/key at every N family "nodes" measured, the
one-key cost from family "latency", the cost and memory with 10 % and 50 %
of the nodes removed from family "removals" (schemes that let any node
leave), its set-up and caveats (docs/schemes/), memory and build time; from
the lab: keys moved on a join and a leave, and busiest ÷ mean beside the
noise floor of a uniform random placement of the same keys
(chbench_plots/guide*.py). One progress line a stage on stderr. Writes into
--out:

  guide.md           the page
  guide_nodes.png    the best kernel of each scheme, ns/key vs N (and .svg;
                     --format, --theme as plot.py)

Usage: /usr/bin/python3 scripts/guide.py [RUN] [--nodes N] [--machine NAME]
                                         [--lab PATH] [--out DIR] [--keys K]
Exit status: 0 ok; 2 bad input (no run with family "nodes", no lab binary, an
output folder missing, N out of range), and then nothing is written; 1 a lab
run failed or matplotlib is missing.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Optional

import cli
import guide_lab
import index
from chbench_plots import bench_file
from chbench_plots import guide as guide_data
from chbench_plots import (guide_balance, guide_latency, guide_page, guide_removals,
                           guide_schemes, guide_text, output)
from chbench_plots.errors import InputError
from chbench_plots.load import Run, load
from chbench_plots.style import DPI, import_matplotlib
from cpu_identity import identity_of

PROG = "guide.py"
REPO = Path(__file__).resolve().parent.parent
PLOT = "guide_nodes"
MAX_NODES = 1_000_000


def is_run_folder(path: Path) -> bool:
    return (path / bench_file.FULL_NAME).is_file() or (path / bench_file.COMPACT_NAME).is_file()


def source_name(run_dir: Path) -> str:
    """`results/<machine>/<run>` when the run lies in a folder named results,
    else the run folder's name: never a local path."""
    run_dir = run_dir.resolve()
    if run_dir.parent.parent.name == "results":
        return f"results/{run_dir.parent.name}/{run_dir.name}"
    return run_dir.name


def newest_run(root: Path, machine: Optional[str]) -> tuple:
    """(run folder, Run) of the newest run with family "nodes" and a registry,
    of `machine` (a folder label, `name #2` for its second CPU) or of the
    newest such run's identity. Raises InputError if there is none."""
    for folder in index.find_runs(root):
        if machine is not None and machine not in (folder.label, folder.machine):
            continue
        run_dir = root / folder.machine / folder.name
        try:
            run = load(bench_file.in_folder(run_dir))
        except InputError:
            continue  # an older run without a registry: the guide needs one
        if run.family("nodes"):
            return run_dir, run
    where = f" of machine {machine}" if machine else ""
    raise InputError(f"{root} holds no run{where} with family \"nodes\" and a kernel registry")


def the_run(path: Path, machine: Optional[str]) -> tuple:
    """(run folder, Run) of RUN: a run folder itself, or the newest of a results folder."""
    if not is_run_folder(path):
        return newest_run(path, machine)
    run = load(bench_file.in_folder(path))
    if run.registry is None or not run.family("nodes"):
        raise InputError(f"{source_name(path)} lacks what the guide reads: family \"nodes\" "
                         "and the kernel registry")
    return path, run


def profiles_run(run_dir: Path, run: Run) -> tuple:
    """(source, Run) for the profiles section: of the runs in the same machine
    folder of the same CPU, the newest that measured the most profiles."""
    best, count = (source_name(run_dir), run), len({r.scheme for r in run.family("profiles")})
    root = run_dir.resolve().parent.parent
    if root.name != "results":
        return best
    mine = identity_of(run.context)
    for other in index.find_runs(root):
        if other.machine != run_dir.resolve().parent.name or not other.identity.agrees(mine):
            continue
        try:
            loaded = load(bench_file.in_folder(root / other.machine / other.name))
        except InputError:
            continue
        found = len({r.scheme for r in loaded.family("profiles")})
        if found > count:
            best, count = (f"results/{other.machine}/{other.name}", loaded), found
    return best


def plot(g: guide_data.Guide, source: str, formats: tuple, theme: str) -> dict:
    """guide_nodes.<format>: each scheme's best ns/key against N, log-log,
    measured points only (no line across an N not measured)."""
    figure_cls = import_matplotlib(PROG)
    with output.theme(theme):
        fig = figure_cls(figsize=(8.5, 5.4), dpi=DPI, constrained_layout=True)
        ax = fig.add_subplot()
        for i, row in enumerate(r for r in g.rows if r.best):
            pts = sorted((n, res.ns) for n, res in row.best.items())
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="osD^v<>ph*Pd8H+x"[i % 16],
                    linestyle=("-", "--", "-.", ":")[i // 10 % 4], color=f"C{i % 10}",
                    label=row.title, markersize=4)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("nodes N")
        ax.set_ylabel("ns per key, batch, the scheme's fastest kernel at each N (median)")
        ax.set_title(f"Each scheme's fastest kernel: cost per key vs N\nfrom {source}",
                     fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        return output.encode_all(fig, PLOT, formats, DPI, theme)


def parse_args(argv: Optional[list]):
    ap = cli.Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("run", nargs="?", type=Path, default=REPO / "results", metavar="RUN",
                    help="a run folder (bench.json or bench.json.gz), or a results folder of "
                         "<machine>/<run>/ whose newest run with family nodes is read "
                         "(default: results)")
    ap.add_argument("--nodes", type=int, default=guide_data.DEFAULT_NODES, metavar="N",
                    help="the fleet size to advise for (default 1000): the figures of the "
                         "measured N nearest it, the lab at N")
    ap.add_argument("--machine", metavar="NAME",
                    help="with a results folder: the machine folder (default: that of the "
                         "newest run with family nodes)")
    ap.add_argument("--lab", type=Path, default=REPO / "build/release/lab/chbench-lab",
                    metavar="PATH", help="the chbench-lab binary (default: the release build's)")
    ap.add_argument("--out", type=Path, default=REPO / "docs", metavar="DIR",
                    help="folder to write guide.md and its plot into (default: docs)")
    ap.add_argument("--keys", type=int, metavar="K",
                    help="keys of each lab balance run (default: per scheme, the most of "
                         "10^7, 10^6, 10^5 the lab places in about 2.5 s, timed)")
    output.add_arguments(ap)
    return ap.parse_args(argv)


def check(a) -> None:
    """Raises InputError for unusable arguments, before any lab run."""
    if not a.run.is_dir():
        raise InputError(f"{a.run} is not a folder")
    if not (a.lab.is_file() and os.access(a.lab, os.X_OK)):
        raise InputError(f"no chbench-lab at {a.lab} (build it, or pass --lab PATH)")
    problem = cli.folder_problem(a.out)
    if problem:
        raise InputError(problem)
    if a.keys is not None and not 1 <= a.keys <= 10_000_000:
        raise InputError(f"--keys takes 1 to 10,000,000, not {a.keys:,}")
    if not 2 <= a.nodes <= MAX_NODES:
        raise InputError(f"--nodes takes 2 to {MAX_NODES:,}, not {a.nodes:,}")


def parts_of(run: Run, g: guide_data.Guide, a, lab: guide_lab.Lab,
             progress) -> guide_page.Parts:
    """Everything the page needs besides the Guide, the lab runs included
    (for the schemes the run measured: one the run has no figure of stays
    "not measured in this run")."""
    latency_n, latency = guide_latency.by_scheme(run, a.nodes)
    removals = guide_removals.analyse(run, a.nodes)
    measured = ({r.scheme for r in g.rows if r.best} | set(latency)
                | {s for per in removals.by_pct.values() for s in per})
    schemes = [(s.name, s.removal) for s in run.registry.schemes if s.name in measured]
    rows = guide_lab.rows(lab, schemes, progress)
    floors = {s: guide_balance.floor(r.keys, a.nodes) for s, r in rows.items()}
    progress(f"noise floor: {len({f.keys for f in floors.values()})} key counts at "
             f"N = {a.nodes:,}")
    return guide_page.Parts(run.registry, run.context.get("chbench_hwy_target", "?"), rows,
                            floors, latency_n, latency, removals,
                            guide_schemes.caveats(REPO / "docs" / "schemes"))


def write(out: Path, files: dict) -> None:
    for name, data in files.items():
        (out / f".{name}.tmp").write_bytes(data)
    for name in files:
        os.replace(out / f".{name}.tmp", out / name)


def main(argv: Optional[list] = None) -> int:
    a = parse_args(argv)
    start = time.monotonic()

    def progress(text: str) -> None:
        guide_lab.stderr(f"{PROG}: [{time.monotonic() - start:5.1f} s] {text}")

    try:
        check(a)
        run_dir, run = the_run(a.run, a.machine)
    except InputError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2
    source = source_name(run_dir)
    g = guide_data.build(run, a.nodes)
    progress(f"read {source}: family nodes at N = "
             f"{', '.join(guide_data.n_text(n) for n in g.columns)}; advice at N = "
             f"{guide_data.n_text(g.advice_n)}")
    lab = guide_lab.Lab(a.lab, a.nodes, a.keys)
    try:
        parts = parts_of(run, g, a, lab, progress)
    except guide_lab.LabFailed as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 1
    files = plot(g, source, a.formats, a.theme)
    image = output.embed_name(PLOT, a.formats, a.theme)
    text = guide_text.page(g, parts, run, lab, image, source, profiles_run(run_dir, run), a.nodes)
    files["guide.md"] = text.encode()
    write(a.out, files)
    progress(f"wrote {', '.join(files)} into {a.out} from {source}")
    return 0


if __name__ == "__main__":
    sys.exit(cli.exit_status(main))
