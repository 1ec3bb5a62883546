#!/usr/bin/python3
"""Exports one run's medians as CSV: a row per measured configuration.

Columns, after a header row: family, scheme, kernel (with `@TARGET` where a
SIMD kernel was forced to one Highway target), then one column per name
segment the run records (N, V, K, threads, then the others its families
carry, e.g. removed, order, R; as the name writes them, empty where a
family has none), then

    ns_per_key                  the median ns/key
    ns_per_key_lo, _hi          its 95 % interval over the rounds (empty for a
                                run without rounds: it has none)
    ratio_to                    the kernel it is compared with: in a run timed
                                in rounds its reference in its comparison group
                                (its scalar rival, else its scheme's baseline),
                                else its scalar rival at the same configuration
    ratio, ratio_lo, ratio_hi   ns/key ÷ that kernel's, with the paired 95 %
                                interval (empty without rounds)
    noisy                       yes / no as the noise canary flagged it, empty
                                for a run without a canary

Numbers carry six significant digits. A configuration that failed has no
median and no row. Written with Python's csv module (RFC 4180 quoting).

Usage: /usr/bin/python3 scripts/export_csv.py RUN [--out FILE]
       RUN: a run folder (bench.json or bench.json.gz) or a bench JSON file;
       FILE: default RUN/medians.csv, `-` for stdout.
Exit status: 0; 2 on unusable input (one line on stderr), nothing written.
"""

from __future__ import annotations

import csv
import io
import os
import sys
from pathlib import Path
from typing import Optional

import cli
from chbench_plots import bench_file, rounds
from chbench_plots import registry as registry_mod
from chbench_plots.errors import EXIT_BAD_INPUT, InputError
from chbench_plots.load import Result, Run, load, read_json

PROG = "export_csv.py"
FILE_NAME = "medians.csv"
FIXED = ("family", "scheme", "kernel")
FIGURES = ("ns_per_key", "ns_per_key_lo", "ns_per_key_hi", "ratio_to", "ratio", "ratio_lo",
           "ratio_hi", "noisy")


def number(value: Optional[float]) -> str:
    """Six significant digits, '' for None."""
    return "" if value is None else f"{value:.6g}"


def segments_of(r: Result) -> dict:
    """{segment key: its text} of the name, in name order: {'N': '1000', ...}."""
    parts = (p.partition(":") for p in r.config_name.split("/")[3:])
    return {key: text for key, sep, text in parts if sep}


def segment_columns(results: list) -> list:
    """Every segment key the results' names carry, in order of first
    appearance (N, V, K, threads first as every name starts so)."""
    return list(dict.fromkeys(key for r in results for key in segments_of(r)))


def rival_ratio(run: Run, r: Result, by_name: dict) -> Optional[tuple]:
    """(rival label, r's ns ÷ its) at the same configuration for a run
    without rounds: a point, no interval; None without a rival measured."""
    kernel = run.registry.kernel(r.base_label) if run.registry else None
    if kernel is None or not kernel.rival or r.forced_target:
        return None
    name = r.config_name.split("/")
    name[1:3] = kernel.rival.split("/")
    rival = by_name.get("/".join(name))
    if rival is None or not rival.ns:
        return None
    return rival.label, rounds.Estimate(r.ns / rival.ns)


def ratio_cells(run: Run, r: Result, by_name: dict) -> list:
    """ratio_to, ratio, ratio_lo, ratio_hi of one result."""
    found = run.reference_ratio(r) if r.group is not None else rival_ratio(run, r, by_name)
    if found is None:
        return ["", "", "", ""]
    ref, estimate = found
    label = ref if isinstance(ref, str) else ref.label
    return [label, number(estimate.value), number(estimate.lo), number(estimate.hi)]


def rows(run: Run) -> list:
    """The header and one row per measured configuration, in the run's
    family order, each family sorted as the report sorts it."""
    measured = [r for family in run.families() for r in run.family(family)]
    columns = segment_columns(measured)
    by_name = {r.config_name: r for r in measured}
    out = [[*FIXED, *columns, *FIGURES]]
    for r in measured:
        segments = segments_of(r)
        estimate = rounds.ns_estimate(r)
        noisy = "" if r.noisy is None else ("yes" if r.noisy else "no")
        out.append([r.family, r.scheme, r.kernel, *(segments.get(c, "") for c in columns),
                    number(estimate.value), number(estimate.lo), number(estimate.hi),
                    *ratio_cells(run, r, by_name), noisy])
    return out


def csv_text(table: list) -> str:
    """The rows as CSV text (csv module, '\\n' line ends)."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(table)
    return buffer.getvalue()


def read_run(path: Path) -> Run:
    """The run of a run folder or bench JSON file, with its registry where
    it recorded one (a run from before has no rivals then). Raises InputError."""
    source = bench_file.in_folder(path) if path.is_dir() else path
    if path.is_dir() and not source.exists():
        raise InputError(f"{path} holds no bench.json or bench.json.gz: not a run folder")
    context = read_json(source).get("context")
    recorded = isinstance(context, dict) and registry_mod.CONTEXT_KEY in context
    return load(source, need_registry=recorded)


def write(out: str, text: str) -> None:
    """Writes text to `out` through a temporary file beside it ('-': stdout)."""
    if out == "-":
        sys.stdout.write(text)
        return
    tmp = Path(out).with_name(f".{Path(out).name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, out)


def main(argv: Optional[list] = None) -> int:
    """Command line entry point; returns the exit status."""
    parser = cli.Parser(prog=PROG, description="One run's medians, their intervals, the ratio "
                                               "to each kernel's rival and the noisy flag, as "
                                               "CSV: a row per configuration.")
    parser.add_argument("run", type=Path, metavar="RUN",
                        help="a run folder (bench.json or bench.json.gz) or a bench JSON file")
    parser.add_argument("--out", metavar="FILE",
                        help=f"the CSV file (default: RUN/{FILE_NAME}; - for stdout)")
    args = parser.parse_args(argv)
    try:
        if not args.run.exists():
            raise InputError(f"{args.run} does not exist")
        out = args.out or str((args.run if args.run.is_dir() else args.run.parent) / FILE_NAME)
        text = csv_text(rows(read_run(args.run)))
        if out != "-":
            problem = cli.folder_problem(Path(out).parent)
            if problem:
                raise InputError(problem)
    except InputError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    write(out, text)
    return 0


if __name__ == "__main__":
    sys.exit(cli.exit_status(main))
