#!/usr/bin/python3
"""Generates docs/guide.md, "which scheme for my fleet on this CPU", and its
plot from the newest committed results of one machine identity and runs of
the built chbench-lab.

The bench run is the newest run folder RESULTS/<machine>/<run>/ of one CPU
identity (cpu_identity.py, as index.py and compare.py group runs) whose
bench.json holds family "nodes" and the kernel registry; --machine names the
folder (default: the one of the newest such run). From it, per scheme of its
registry: the fastest kernel at N = 1,000 and its median ns/key at N = 10,
100, 1,000, 10,000 and 10^6 (where measured), memory and build time at
N = 1,000, which nodes may leave and whether it takes weights; from the lab,
at N = 1,000 and --keys keys: the keys moved when node-1000 joins and when one
node leaves (the middle one, or the last bucket where only it may), those
moved between survivors, and busiest ÷ mean. Then the N where two schemes'
best kernels cross, and a decision list derived from those numbers
(chbench_plots/guide.py, guide_page.py). Writes into --out:

  guide.md           the page
  guide_nodes.png    the best kernel of each scheme, ns/key vs N (and .svg;
                     --format, --theme as plot.py)

Usage: /usr/bin/python3 scripts/guide.py [RESULTS] [--machine NAME] [--lab PATH]
                                         [--out DIR] [--keys K]
Exit status: 0 ok; 2 bad input (no run with family "nodes", no lab binary, an
output folder missing), and then nothing is written; 1 a lab run failed or
matplotlib is missing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

import cli
import index
from chbench_plots import bench_file
from chbench_plots import guide as guide_data
from chbench_plots import guide_page, guide_profiles, output
from chbench_plots.errors import InputError
from chbench_plots.load import Run, load
from chbench_plots.style import DPI, import_matplotlib

PROG = "guide.py"
REPO = Path(__file__).resolve().parent.parent
PLOT = "guide_nodes"
N = guide_data.MEMORY_N


def newest_run(root: Path, machine: Optional[str]) -> tuple:
    """(RunFolder, Run) of the newest run with family "nodes" and a registry,
    of `machine` (a folder label, `name #2` for its second CPU) or of the
    newest such run's identity. Raises InputError if there is none."""
    for folder in index.find_runs(root):
        if machine is not None and machine not in (folder.label, folder.machine):
            continue
        try:
            run = load(bench_file.in_folder(root / folder.machine / folder.name))
        except InputError:
            continue  # an older run without a registry: the guide needs one
        if run.family("nodes"):
            return folder, run
    where = f" of machine {machine}" if machine else ""
    raise InputError(f"{root} holds no run{where} with family \"nodes\" and a kernel registry")


def profiles_run(root: Path, folder, run: Run) -> tuple:
    """(source, Run) for the guide's profiles section: of the runs of the same
    machine folder and CPU as `folder`, the newest that measured the most
    profiles (family "profiles"), else `run` itself."""
    best, best_count = (f"results/{folder.machine}/{folder.name}", run), \
        len({r.scheme for r in run.family("profiles")})
    for other in index.find_runs(root):
        if other.machine != folder.machine or other.label != folder.label:
            continue
        try:
            loaded = load(bench_file.in_folder(root / other.machine / other.name))
        except InputError:
            continue
        count = len({r.scheme for r in loaded.family("profiles")})
        if count > best_count:
            best, best_count = (f"results/{other.machine}/{other.name}", loaded), count
    return best


class Lab:
    """chbench-lab --format json, every command kept for the page."""

    def __init__(self, path: Path, keys: int):
        self.path, self.keys, self.commands = path, keys, []

    def json(self, *args: str, refusable: bool = False) -> Optional[dict]:
        args = (*args, "--keys", str(self.keys))
        self.commands.append("chbench-lab " + " ".join(args))
        done = subprocess.run([str(self.path), *args, "--format", "json"], capture_output=True,
                              text=True)
        if done.returncode == 2 and refusable:
            return None  # the scheme refuses this change
        if done.returncode != 0:
            print(f"{PROG}: error: {' '.join(args)} failed ({done.returncode}): "
                  f"{done.stderr.strip()}", file=sys.stderr)
            sys.exit(1)
        return json.loads(done.stdout)

    def row(self, scheme: str, removal: str) -> guide_data.LabRow:
        """Join, leave and balance of one scheme at N nodes."""
        base = ("--scheme", scheme, "--nodes", str(N))
        join = self.json("move", *base, "--add", f"node-{N}")
        node = f"node-{N - 1}" if removal == "last" else f"node-{N // 2}"
        leave = self.json("move", *base, "--remove", node, refusable=True)
        balance = self.json("balance", *base)
        return guide_data.LabRow(
            join["moved_fraction"], join["between_old_fraction"],
            leave["moved_fraction"] if leave else None,
            leave["between_old_fraction"] if leave else None, node,
            balance["summary"]["keys"]["busiest_over_mean"]["mean"])


def plot(guide: guide_data.Guide, titles: dict, source: str, formats: tuple,
         theme: str) -> dict:
    """guide_nodes.<format>: each scheme's best ns/key against N, log-log."""
    figure_cls = import_matplotlib(PROG)
    with output.theme(theme):
        fig = figure_cls(figsize=(8.5, 5.4), dpi=DPI, constrained_layout=True)
        ax = fig.add_subplot()
        for i, row in enumerate(guide.rows):
            pts = [(n, per[row.scheme]) for n, per in guide.best_by_n.items() if row.scheme in per]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="osD^v<>ph*Pd"[i % 12],
                    linestyle=("-", "--", "-.", ":")[i // 10 % 4], color=f"C{i % 10}",
                    label=titles[row.scheme], markersize=4)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("nodes N")
        ax.set_ylabel("ns per key, the scheme's best kernel at each N (median)")
        ax.set_title(f"Each scheme's best kernel: cost per key vs N\nfrom {source}", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        return output.encode_all(fig, PLOT, formats, DPI, theme)


def page(guide: guide_data.Guide, folder, run: Run, lab: Lab, image: str, source: str,
         profiles: tuple) -> str:
    """The whole of guide.md."""
    ctx = run.context
    titles = {r.scheme: r.title for r in guide.rows}
    target = ctx.get("chbench_hwy_target", "?")
    cpu = folder.identity.text()
    lines = ["# Which scheme: a guide generated from the measurements", "",
             "<!-- Generated by scripts/guide.py from committed results and chbench-lab; "
             "do not edit. -->", "",
             f"Every number below is measured: ns/key, memory and build time by the bench in "
             f"`{source}` (commit `{ctx.get('chbench_commit', '?')}`, sweep "
             f"`{ctx.get('chbench_sweep', '?')}`, {ctx.get('date', '?')}) on {cpu}, SIMD "
             f"target {target}; keys moved and balance by `chbench-lab` at N = {n(N)} nodes "
             f"and {lab.keys:,} keys (ring V = 100, the lab's defaults otherwise). A scheme "
             "is shown with its fastest kernel at N = 1,000; – is not measured in this run.", "",
             "## Every scheme", ""]
    lines += guide_page.table(guide, target)
    lines += [""] + guide_page.unmeasured_note(guide)
    lines += ["", "Moved: share of all keys whose owner changes when `node-1000` joins and "
              "when one node leaves (`node-500`, or the last bucket where only it may). "
              "Between survivors: keys moved between nodes present before and after. "
              "Arbitrary leave and weights: the run's registry.", "",
              "## Crossovers", ""]
    lines += guide_page.crossover_lines(guide, titles)
    lines += ["", f"![Each scheme's best kernel vs N, from {source}]({image})", "",
              f"Figure: from `{source}`, family `nodes`.", "", "## Decisions", ""]
    lines += guide_page.decisions(guide, titles)
    lines += [""] + guide_profiles.section(profiles[1], profiles[0])
    lines += ["## Provenance", "",
              f"- Bench results: `{source}`",
              "- Regenerate (after building): `/usr/bin/python3 scripts/guide.py`", "",
              "<details><summary>Every lab command behind this page</summary>", "", "```"]
    lines += lab.commands + ["```", "", "</details>", ""]
    return "\n".join(lines)


def n(value: float) -> str:
    return guide_data.n_text(value)


def parse_args(argv: Optional[list]):
    ap = cli.Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="?", type=Path, default=REPO / "results",
                    help="results folder with <machine>/<run>/bench.json (default: results)")
    ap.add_argument("--machine", metavar="NAME",
                    help="machine folder (default: that of the newest run with family nodes)")
    ap.add_argument("--lab", type=Path, default=REPO / "build/release/lab/chbench-lab")
    ap.add_argument("--out", type=Path, default=REPO / "docs", metavar="DIR")
    ap.add_argument("--keys", type=int, default=100_000, help="keys per lab run (default 100000)")
    output.add_arguments(ap)
    return ap.parse_args(argv)


def check(a) -> None:
    """Raises InputError for unusable arguments, before any lab run."""
    if not a.results.is_dir():
        raise InputError(f"{a.results} is not a folder")
    if not (a.lab.is_file() and os.access(a.lab, os.X_OK)):
        raise InputError(f"no chbench-lab at {a.lab} (build it, or pass --lab PATH)")
    problem = cli.folder_problem(a.out)
    if problem:
        raise InputError(problem)
    if not 1 <= a.keys <= 10_000_000:
        raise InputError(f"--keys takes 1 to 10,000,000, not {a.keys:,}")


def main(argv: Optional[list] = None) -> int:
    a = parse_args(argv)
    try:
        check(a)
        folder, run = newest_run(a.results, a.machine)
    except InputError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2
    lab = Lab(a.lab, a.keys)
    removal = {s.name: s.removal for s in run.registry.schemes}
    rows = guide_data.rows_of(run)
    g = guide_data.build(run, {r.scheme: lab.row(r.scheme, removal[r.scheme]) for r in rows})
    source = f"results/{folder.machine}/{folder.name}"
    titles = {r.scheme: r.title for r in g.rows}
    files = plot(g, titles, source, a.formats, a.theme)
    image = output.embed_name(PLOT, a.formats, a.theme)
    profiles = profiles_run(a.results, folder, run)
    files["guide.md"] = page(g, folder, run, lab, image, source, profiles).encode()
    for name, data in files.items():
        (a.out / f".{name}.tmp").write_bytes(data)
    for name in files:
        os.replace(a.out / f".{name}.tmp", a.out / name)
    print(f"{PROG}: wrote {', '.join(str(a.out / f) for f in files)} from {source}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
