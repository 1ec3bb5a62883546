"""Command-line conventions shared by chbench's Python scripts (plot.py,
index.py, lab_docs.py): a usage error is one line on stderr,
"PROG: error: MESSAGE (see --help)", with exit status 2, an output
folder is checked by writing to it before any work starts, and a reader
that stops early (`| head`) ends a script quietly (exit_status)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable, Optional

# The status of a script whose reader closed its standard output: 128 +
# SIGPIPE (13), what a shell reports for a program that signal ended.
EXIT_CLOSED_STDOUT = 141


class Parser(argparse.ArgumentParser):
    """argparse.ArgumentParser whose usage errors take one line: argparse's own
    print the usage synopsis first, a second line that says nothing new."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def unwritable(folder: Path) -> Optional[str]:
    """None when a file can be created in `folder`, else the reason. It creates
    and removes a hidden file: permission bits alone say yes to root, which
    still cannot write into /proc or a read-only mount."""
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".write-test-")
    except OSError as err:
        return err.strerror or str(err)
    os.close(fd)
    os.unlink(name)
    return None


def folder_problem(folder: Path) -> Optional[str]:
    """None when `folder` is an existing folder a file can be written into,
    else the message: 'output folder X is not a folder', '... does not exist',
    '... is not writable (reason)'."""
    if folder.exists() and not folder.is_dir():
        return f"output folder {folder} is not a folder"
    if not folder.is_dir():
        return f"output folder {folder} does not exist"
    reason = unwritable(folder)
    return f"output folder {folder} is not writable ({reason})" if reason else None


def exit_status(main: Callable[[], Optional[int]]) -> int:
    """main()'s exit status, its standard output flushed before it is
    returned. When the reader closes the pipe first (`script.py | head -3`),
    the script stops with EXIT_CLOSED_STDOUT and no traceback: what it had
    yet to print goes to /dev/null, where the flush at exit cannot fail
    again. Use: `sys.exit(cli.exit_status(main))`."""
    try:
        status = main()
        sys.stdout.flush()
        return status or 0
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_CLOSED_STDOUT
