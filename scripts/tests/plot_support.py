"""Shared helpers of the tests of scripts/plot.py: the fixture's outputs,
Markdown sections and tables, minimal bench reports, and the check that an
input is refused."""

from __future__ import annotations

import json
import re
import statistics
import tempfile
import unittest
from pathlib import Path

from make_fixture import KERNELS, registry_text
from support import FIXTURE, PYTHON, SCRIPTS, run, snapshot

# support puts scripts/ on sys.path.
from chbench_plots import numeric  # noqa: E402

PLOT = str(SCRIPTS / "plot.py")
PNGS = ("ring_tokens.png", "latency.png", "inflight.png", "clustered.png", "schemes_nodes.png",
        "schemes_best_nodes.png", "jump_family.png", "removals.png", "removals_memory.png", "threads.png", "batch.png",
        "hashed.png", "targets.png")
SVGS = tuple(name.replace(".png", ".svg") for name in PNGS)  # the default --format png,svg


def section(text: str, heading: str) -> str:
    """The text of a Markdown section, from its heading to the next of any level."""
    start = text.index(heading)
    rest = text[start + len(heading):]
    nxt = re.search(r"^#{1,6} ", rest, flags=re.M)
    return rest[:nxt.start()] if nxt else rest


def table_rows(text: str) -> list:
    """Cells of each Markdown table row (header and separator excluded)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows[1:] if rows else rows


def bench_json(entries: list, context: dict | None = None, kernels: tuple = KERNELS) -> str:
    """A minimal report around the given entries, its context holding the
    fixture's kernel registry (of `kernels`) unless `context` says otherwise."""
    context = {"chbench_registry": registry_text(kernels)} if context is None else context
    return json.dumps({"context": context, "benchmarks": entries})


def load_text(text: str):
    """The run of a bench JSON text, read as plot.py reads it (load.Run)."""
    from chbench_plots import load  # noqa: E402 (support puts scripts/ on sys.path)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "bench.json"
        src.write_text(text)
        return load.load(src)


def goals_text(text: str):
    """The goals of a goals.toml text, read and checked as plot.py reads them
    (goal_specs.Goals; InputError when malformed)."""
    from chbench_plots import goal_specs  # noqa: E402 (as load_text)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "goals.toml"
        path.write_text(text)
        return goal_specs.load_goals(path)


def fixture_cv(run_name: str) -> str:
    """The CV in percent, as the report prints it, of one fixture configuration's
    repetitions (its name without Google Benchmark's /real_time suffix)."""
    fixture = json.loads(FIXTURE.read_text())
    samples = [e["ns_per_key"] for e in fixture["benchmarks"]
               if e["run_name"] == run_name + "/real_time" and e["run_type"] == "iteration"]
    return numeric.sig3(statistics.stdev(samples) / statistics.fmean(samples) * 100)


def entry(name: str, ns: float, **fields) -> dict:
    """One iteration entry of the contract, counters included."""
    e = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": 1,
         "repetition_index": 0, "threads": 1, "iterations": 10, "real_time": ns * 1000,
         "cpu_time": ns * 1000, "time_unit": "ns", "keys": 1000.0, "ns_per_key": ns,
         "keys_per_second": 1e9 / ns}
    e.update(fields)
    return e


class OnTheFixture(unittest.TestCase):
    """A test class that runs plot.py once on the fixture: cls.out holds the
    files, cls.result the process, cls.report the report's text."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = Path(cls.tmp.name)
        cls.result = run([PYTHON, PLOT, str(FIXTURE), "--out", str(cls.out)])
        cls.report = (cls.out / "report.md").read_text() if cls.result.returncode == 0 else ""

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()


def check_rejected(test: unittest.TestCase, content: bytes | None, expect: str,
                   extra: tuple = ()) -> None:
    """plot.py on `content` (None: no file), with `extra` arguments, exits 2
    with one line on stderr holding `expect`, and writes nothing."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        src = tmp / "bench.json"
        if content is not None:
            src.write_bytes(content)
        out = tmp / "out"
        out.mkdir()
        (out / "keep.txt").write_text("earlier")
        before = snapshot(tmp)
        result = run([PYTHON, PLOT, str(src), "--out", str(out), *extra])
        test.assertEqual(result.returncode, 2, result.stderr)
        test.assertEqual(result.stdout, "")
        lines = result.stderr.splitlines()
        test.assertEqual(len(lines), 1, result.stderr)
        test.assertTrue(lines[0].startswith("plot.py: error: "), lines[0])
        test.assertIn(expect, lines[0])
        test.assertEqual(snapshot(tmp), before)
