"""The scripts' ending when their reader stops early (`agreement.py A B |
head -1`): no traceback, exit status 141 (cli.exit_status). The reader here
has closed the pipe before the script writes, so that every write fails, as
the writes after `head` exits do: a pipe that holds the whole output would
let a real `head -1` take it all at once, and nothing would fail."""

from __future__ import annotations

import os
import subprocess
import unittest

from support import FIXTURE, PYTHON, SCRIPTS

import cli  # noqa: E402  (support puts scripts/ on sys.path)


def into_closed_pipe(args: list) -> subprocess.CompletedProcess:
    """Runs args with standard output a pipe whose reader has gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(args, stdout=write_end, stderr=subprocess.PIPE, text=True,
                              timeout=120, check=False)
    finally:
        os.close(write_end)


class ClosedStdout(unittest.TestCase):
    def check_quiet(self, *args: str) -> None:
        done = into_closed_pipe([PYTHON, *args])
        self.assertEqual(done.stderr, "")
        self.assertEqual(done.returncode, cli.EXIT_CLOSED_STDOUT)

    def test_agreement(self):
        self.check_quiet(str(SCRIPTS / "agreement.py"), str(FIXTURE), str(FIXTURE))

    def test_export_csv_to_stdout(self):
        self.check_quiet(str(SCRIPTS / "export_csv.py"), str(FIXTURE), "--out", "-")

    def test_help(self):
        self.check_quiet(str(SCRIPTS / "compare.py"), "--help")

    def test_head_takes_the_first_line(self):
        # Into a real `head -1`: the first line, and no traceback whether the
        # script's writes end before head does or not.
        done = subprocess.run(
            ["bash", "-c", 'set -o pipefail; "$@" | head -1', "bash", PYTHON,
             str(SCRIPTS / "agreement.py"), str(FIXTURE), str(FIXTURE)],
            capture_output=True, text=True, timeout=120, check=False)
        self.assertRegex(done.stdout, r"^[0-9,]+ configurations in both runs")
        self.assertEqual(done.stderr, "")
        self.assertIn(done.returncode, (0, cli.EXIT_CLOSED_STDOUT))


if __name__ == "__main__":
    unittest.main()
