#!/usr/bin/python3
"""Turns run folders into their committed form, in place.

For each FOLDER (a run folder, or results/comparison):
- bench.json (else bench.json.gz) -> bench.json.gz: the bench JSON without
  the rows its readers recompute, local paths relative
  (chbench_plots/compact.py);
- every <plot>.png -> a palette PNG at 100 dpi (chbench_plots/png_palette.py;
  one already palette is left alone);
- command.txt, report.md, notes.md: absolute paths into the checkout made
  relative; report.md loses any line that names an issue number, the noise
  line of a run without a canary takes the report's present wording, and a
  machine-table row of the comparison groups' whole JSON (reports before the
  row was summarised: most of their bytes) becomes the present summary;
- medians.csv (export_csv.py) is committed as it is up to MAX_CSV_BYTES
  (200 KB: a quick sweep's is about 85 KB); a larger one (a full sweep's) is
  moved to medians-full.csv, which .gitignore keeps out of a commit
  (export_csv.py makes it again from bench.json.gz).

Nothing is deleted: bench.json, console.txt, the SVGs and medians-full.csv
stay for the user, and the repository's .gitignore keeps them out of a commit. Running it again
changes nothing. Every file of every folder is read and converted before the
first is written, so bad input leaves everything as it was.

Usage: /usr/bin/python3 scripts/compact_run.py FOLDER...
Exit status: 0; 2 on unusable input (one line on stderr), nothing written.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

import cli
from chbench_plots import bench_file, compact, png_palette, rounds
from chbench_plots.errors import EXIT_BAD_INPUT, EXIT_WRITE_FAILED, InputError
from chbench_plots.load import read_json

PROG = "compact_run.py"
TEXT_FILES = ("command.txt", "notes.md", "report.md")
CSV_NAME, LARGE_CSV_NAME = "medians.csv", "medians-full.csv"
MAX_CSV_BYTES = 200_000
ISSUE_LINE = re.compile(r"\bissues? #?\d+", re.IGNORECASE)
# The noise line of a run without a canary as reports once printed it.
OLD_NOISE = re.compile(r"\(a bench from before issue \d+\)")
NEW_NOISE = "(a bench from before the noise canary)"
# The machine table's row of chbench_groups as reports once printed it: the JSON.
OLD_GROUPS = re.compile(r"^\| chbench_groups \| (\{.*\}) \|$", re.MULTILINE)


def report_text(text: str) -> str:
    """A committed report's text: relative paths, the present noise wording
    and groups row, no line naming an issue number."""
    text = OLD_NOISE.sub(NEW_NOISE, compact.relative_paths(text))
    text = OLD_GROUPS.sub(lambda m: "| Comparison groups | "
                          f"{rounds.groups_summary(m.group(1))} |", text)
    return "".join(line for line in text.splitlines(keepends=True)
                   if not ISSUE_LINE.search(line))


def bench_output(folder: Path) -> dict:
    """{bench.json.gz: bytes} for a folder with a bench JSON, else {}."""
    source = bench_file.in_folder(folder)
    if not source.exists():
        return {}
    data = read_json(source)
    if not isinstance(data.get("benchmarks"), list):
        raise InputError(f"{source} is not a Google Benchmark report (no \"benchmarks\" list)")
    return {bench_file.COMPACT_NAME: compact.encode(compact.compact(data))}


def plot_outputs(folder: Path) -> dict:
    """{<plot>.png: its committed-size bytes} for each PNG not yet shrunk."""
    out = {}
    for path in sorted(folder.glob("*.png")):
        try:
            small = png_palette.shrink(path.read_bytes())
        except OSError as err:
            raise InputError(f"cannot read {path}: {err.strerror or err}") from None
        except ValueError as err:
            raise InputError(f"{path}: {err}") from None
        if small is not None:
            out[path.name] = small
    return out


def text_outputs(folder: Path) -> dict:
    """{name: bytes} of the text files that change."""
    out = {}
    for name in TEXT_FILES:
        path = folder / name
        if not path.exists():
            continue
        try:
            text = path.read_text()
        except (OSError, UnicodeDecodeError) as err:
            raise InputError(f"cannot read {path}: {err}") from None
        new = report_text(text) if name == "report.md" else compact.relative_paths(text)
        if new != text:
            out[name] = new.encode()
    return out


def csv_moves(folder: Path) -> dict:
    """{medians.csv: medians-full.csv} when the folder's medians.csv is larger
    than MAX_CSV_BYTES, else {}."""
    path = folder / CSV_NAME
    if path.is_file() and path.stat().st_size > MAX_CSV_BYTES:
        return {CSV_NAME: LARGE_CSV_NAME}
    return {}


def move(folder: Path, moves: dict) -> None:
    """Renames each file of `moves` (old name -> new name) in the folder."""
    for old, new in moves.items():
        os.replace(folder / old, folder / new)


def folder_outputs(folder: Path) -> dict:
    """Every file of the folder's committed form that differs from what is
    there: {name: bytes}. Raises InputError."""
    if not folder.is_dir():
        raise InputError(f"{folder} is not a folder")
    files = {**bench_output(folder), **plot_outputs(folder), **text_outputs(folder)}
    return {name: data for name, data in files.items()
            if not (folder / name).exists() or (folder / name).read_bytes() != data}


def write(folder: Path, files: dict) -> None:
    """Replaces each file through a temporary one beside it."""
    for name, data in files.items():
        target = folder / name
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, target)


def main(argv: list | None = None) -> int:
    """Command line entry point; returns the exit status."""
    parser = cli.Parser(prog=PROG, description="Turns run folders into their committed form "
                                               "(bench.json.gz, palette PNGs, relative paths).")
    parser.add_argument("folders", type=Path, nargs="+", metavar="FOLDER")
    args = parser.parse_args(argv)
    try:
        planned = [(folder, folder_outputs(folder), csv_moves(folder))
                   for folder in args.folders]
    except InputError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        for folder, files, moves in planned:
            write(folder, files)
            move(folder, moves)
    except OSError as err:
        print(f"{PROG}: error: cannot write: {err.strerror or err}", file=sys.stderr)
        return EXIT_WRITE_FAILED
    for folder, files, moves in planned:
        done = sorted(files) + [f"{old} -> {new}" for old, new in moves.items()]
        print(f"{folder}: {', '.join(done) if done else 'already compact'}")
    return 0


if __name__ == "__main__":
    sys.exit(cli.exit_status(main))
