"""No product file is longer than a reader takes in: every text file git
tracks has at most MAX_LINES lines, except data (the committed runs under
results/, the test vectors and fixtures, images, CSV and compressed files),
which no one reads through.

Usage: file_length_test.py REPO_DIR
Exit status: 0 clean; 1 with one line per file over the limit (`path: N
lines (at most 600)`); 2 usage error; 77 (ctest: skipped) when REPO_DIR is
not a git work tree or git is missing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from product_text_test import tracked_files

MAX_LINES = 600
DATA_DIRS = ("results/", "tests/vectors/", "scripts/tests/fixtures/")
DATA_SUFFIXES = (".png", ".svg", ".jpg", ".jpeg", ".gif", ".pdf", ".csv", ".gz")


def is_data(path: str) -> bool:
    """Whether path is data rather than text a person reads."""
    return path.startswith(DATA_DIRS) or path.endswith(DATA_SUFFIXES)


def line_count(path: Path) -> int | None:
    """The lines of a text file; None for a binary one (a NUL byte, not UTF-8)."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return len(text.splitlines())


def too_long(repo: Path, files: list) -> list:
    """`path: N lines (at most 600)` for every text file of `files` (paths
    relative to repo) over MAX_LINES, data aside."""
    out = []
    for rel in files:
        path = repo / rel
        n = None if is_data(rel) or not path.is_file() else line_count(path)
        if n is not None and n > MAX_LINES:
            out.append(f"{rel}: {n} lines (at most {MAX_LINES})")
    return out


def main(argv: list) -> int:
    if len(argv) != 2:
        print("usage: file_length_test.py REPO_DIR", file=sys.stderr)
        return 2
    files = tracked_files(Path(argv[1]))
    if files is None:
        print(f"skipped: {argv[1]} is not a git work tree, or git is missing")
        return 77
    found = too_long(Path(argv[1]), files)
    print("\n".join(found) if found else f"{len(files)} files, none over {MAX_LINES} lines")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
