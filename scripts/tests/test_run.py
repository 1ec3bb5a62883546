"""Tests of scripts/run.sh, index.py and install-deps.sh (machine-name.sh:
test_machine_name.py).

run.sh is driven with CHBENCH_BENCH=fake_bench.sh, which skips the build and
stands in for the bench, so these tests need no compiled code.
"""

from __future__ import annotations

import datetime
import fcntl
import gzip
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

from support import (FAKE_BENCH, FIXTURE, PYTHON, SCRIPTS, TESTS, commit_name, cpu_context, machine_name,
                     run, snapshot)

RUN_SH = str(SCRIPTS / "run.sh")
RUN_NAME = re.compile(r"^\d{8}-\d{6}-(nogit|[0-9a-f]+)(-x86-64-v[234])?(-\d+)?$")
RUN_FILES = {"bench.json", "console.txt", "command.txt", "report.md", "summary.txt", "ring_tokens.png",
             "latency.png", "inflight.png", "clustered.png", "schemes_nodes.png",
             "schemes_best_nodes.png", "jump_family.png", "removals.png", "removals_memory.png", "threads.png",
             "batch.png", "hashed.png", "targets.png"}
RUN_FILES |= {name.replace(".png", ".svg") for name in RUN_FILES if name.endswith(".png")}
RUN_FILES |= {"bench.json.gz", "medians.csv"}  # the committed form (compact_run.py), the CSV


# A stand-in chbench-lab for the guide: the same figures for every scheme.
ANY_SCHEME_LAB = r'''#!/usr/bin/python3
import json, sys
if sys.argv[1] == "balance":
    print(json.dumps({"summary": {"keys": {"busiest_over_mean": {"mean": 1.25}}}}))
else:
    print(json.dumps({"moved_fraction": 0.01, "between_old_fraction": 0.0}))
'''


def fake_env(**extra) -> dict:
    """Environment that makes run.sh use the fake bench (and no lab: no guide,
    unless CHBENCH_LAB is given)."""
    env = {"CHBENCH_BENCH": str(FAKE_BENCH), "CHBENCH_LAB": "/nonexistent/chbench-lab"}
    env.update({k: str(v) for k, v in extra.items()})
    return env


def add_earlier_run(results: Path, machine: str, name: str = "20200101-000000-abc1234") -> Path:
    """A finished run folder from before, to check it is never touched."""
    earlier = results / machine / name
    earlier.mkdir(parents=True)
    shutil.copy(FIXTURE, earlier / "bench.json")
    (earlier / "report.md").write_text("# earlier\n")
    return earlier


class RunOptions(unittest.TestCase):
    """Command line handling that stops before any work."""

    def test_help(self):
        result = run(["bash", RUN_SH, "--help"])
        self.assertEqual(result.returncode, 0)
        self.assertIn("Usage: scripts/run.sh [--full] [--preset NAME] [--out DIR] [--jobs N]", result.stdout)

    def test_unknown_option(self):
        result = run(["bash", RUN_SH, "--fast"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("unknown option '--fast'", result.stderr)

    def test_bad_jobs(self):
        result = run(["bash", RUN_SH, "--jobs", "0"])
        self.assertEqual(result.returncode, 2)
        self.assertIn("--jobs", result.stderr)


class Unwritable(unittest.TestCase):
    """An unwritable results folder: one message, exit 2, nothing touched."""

    def test_under_proc(self):
        result = run(["bash", RUN_SH, "--out", "/proc/chbench-results"], env=fake_env())
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
        self.assertIn("not writable", result.stderr)
        self.assertFalse(os.path.exists("/proc/chbench-results"))

    def test_file_as_parent(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            add_earlier_run(tmp / "results", machine_name())
            (tmp / "blocker").write_text("a file, not a folder\n")
            before = snapshot(tmp)
            result = run(["bash", RUN_SH, "--out", str(tmp / "blocker" / "results")],
                         env=fake_env())
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
            self.assertIn("is not writable", result.stderr)
            self.assertEqual(snapshot(tmp), before)

    def test_checked_before_building(self):
        # Without CHBENCH_BENCH run.sh would build; it must refuse first, fast.
        started = time.monotonic()
        result = run(["bash", RUN_SH, "--out", "/proc/chbench-results"])
        self.assertEqual(result.returncode, 2)
        self.assertLess(time.monotonic() - started, 10)
        self.assertNotIn("cmake", result.stdout + result.stderr)


class FullRun(unittest.TestCase):
    """run.sh end to end with the fake bench."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = Path(self._tmp.name)
        self.results = self.tmp / "results"
        self.machine = machine_name()
        self.args_file = self.tmp / "args.txt"

    def tearDown(self):
        self._tmp.cleanup()

    def run_sh(self, *args, **env) -> subprocess.CompletedProcess:
        return run(["bash", RUN_SH, "--out", str(self.results), *args],
                   env=fake_env(FAKE_BENCH_ARGS=self.args_file, **env))

    def run_dirs(self) -> list:
        return sorted(p.name for p in (self.results / self.machine).iterdir())

    def test_success(self):
        earlier = add_earlier_run(self.results, self.machine)
        before = snapshot(earlier)
        result = self.run_sh("--", "--benchmark_filter=tokens/", "--rounds=3")
        self.assertEqual(result.returncode, 0, result.stderr)
        new = [n for n in self.run_dirs() if n != earlier.name]
        self.assertEqual(len(new), 1, self.run_dirs())
        name = new[0]
        self.assertRegex(name, RUN_NAME)
        self.assertTrue(name.endswith("-" + commit_name()))
        stamp = datetime.datetime.strptime(name[:15], "%Y%m%d-%H%M%S")
        now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
        self.assertLess(abs((now - stamp).total_seconds()), 120)  # UTC, not local time
        run_dir = self.results / self.machine / name
        self.assertEqual({p.name for p in run_dir.iterdir()}, RUN_FILES)
        self.assertEqual(snapshot(earlier), before)

        args = self.args_file.read_text().splitlines()
        partial = self.results / self.machine / f".partial-{name}"
        self.assertEqual(args, ["--sweep", "quick", f"--benchmark_out={partial}/bench.json",
                                "--benchmark_out_format=json", "--benchmark_filter=tokens/",
                                "--rounds=3"])
        console = (run_dir / "console.txt").read_text()
        self.assertIn("threads:1/real_time  3.9 ms", console)  # colours stripped
        self.assertNotIn("\033", console)
        # The table goes to console.txt only; the bench's own lines to the terminal too.
        self.assertNotIn("3.9 ms", result.stdout + result.stderr)
        self.assertIn("fake_bench: verifying", result.stderr)
        self.assertIn("fake_bench: verifying", console)
        # Google Benchmark's context block is in console.txt, not on the terminal;
        # its DEBUG warning is one line saying what it means.
        for line in ("Run on (2 X", "Load Average:", "chbench_cpu_model: AMD EPYC",
                     "Library was built as DEBUG"):
            self.assertIn(line, console)
            self.assertNotIn(line, result.stderr)
        self.assertIn("run.sh: note: Google Benchmark (Debian's libbenchmark) says it was "
                      "built as DEBUG", result.stderr)
        self.assertIn("**N ≈ 17.3**", (run_dir / "report.md").read_text())
        # Without a lab there is no guide, and the first screen says so in its last line.
        self.assertEqual(self.first_screen(result, run_dir)[-1],
                         "No guide: no chbench-lab at /nonexistent/chbench-lab; scripts/guide.py "
                         "RUN --nodes N --lab LAB makes one from a run with family nodes.")
        # The CPU's identity, as machine-name.sh --json gives it, is in the context.
        context = json.loads((run_dir / "bench.json").read_text())["context"]
        identity = json.loads(context["chbench_cpu"])
        self.assertEqual(identity["name"], self.machine)
        self.assertEqual(context["chbench_cpu_model"], "AMD EPYC")  # the bench's own, kept
        # The committed form: the same context, PNGs with a palette.
        committed = json.loads(gzip.decompress((run_dir / "bench.json.gz").read_bytes()))
        self.assertEqual(committed["context"]["chbench_cpu"], context["chbench_cpu"])
        self.assertEqual((run_dir / "schemes_nodes.png").read_bytes()[25], 3)  # colour type

        index = (self.results / "README.md").read_text()
        lines = [line for line in index.splitlines() if line.startswith("| 20")]
        self.assertEqual(len(lines), 2)
        self.assertIn(f"[{name}]({self.machine}/{name}/report.md)", lines[0])  # newest first
        self.assertIn("| quick |", lines[0])
        self.assertIn(f"{self.machine}/{earlier.name}/report.md", lines[1])

    def test_preset_names_the_run(self):
        result = self.run_sh("--preset", "x86-64-v2")
        self.assertEqual(result.returncode, 0, result.stderr)
        (name,) = self.run_dirs()
        self.assertRegex(name, RUN_NAME)
        self.assertTrue(name.endswith(f"-{commit_name()}-x86-64-v2"), name)
        self.assertIn("preset x86-64-v2", result.stderr)

    def test_bad_preset(self):
        for preset, message in (("../x", "takes a preset name"),
                                ("no-such-preset", "no configure preset 'no-such-preset'")):
            result = run(["bash", RUN_SH, "--out", str(self.results), "--preset", preset])
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertIn(message, result.stderr)
            self.assertFalse(self.results.exists())

    def first_screen(self, result: subprocess.CompletedProcess, run_dir: Path) -> list:
        """summary.txt's lines, after checking the terminal showed them all,
        in order, and named the guide only where guide.md exists."""
        lines = (run_dir / "summary.txt").read_text().splitlines()
        self.assertIn("\n".join(lines) + "\n", result.stderr)
        self.assertEqual(sum("guide.md" in line for line in lines),
                         (run_dir / "guide.md").exists())
        return lines

    def test_no_guide_without_family_nodes(self):
        # A selection without family nodes (--families weighted): no guide, and
        # no line pointing to one; the line says why and what makes one.
        data = json.loads(FIXTURE.read_text())
        data["benchmarks"] = [b for b in data["benchmarks"] if not b["name"].startswith("nodes/")]
        bench = self.tmp / "no_nodes.json"
        bench.write_text(json.dumps(data))
        result = self.run_sh("--", "--families", "weighted", FAKE_BENCH_JSON=bench,
                             CHBENCH_LAB=TESTS / "fake_lab.sh")
        self.assertEqual(result.returncode, 0, result.stderr)
        (name,) = self.run_dirs()
        run_dir = self.results / self.machine / name
        self.assertFalse((run_dir / "guide.md").exists())
        self.assertEqual(self.first_screen(result, run_dir)[-1],
                         f"No guide: results/{self.machine}/{name} lacks what the guide reads: "
                         'family "nodes" and the kernel registry; scripts/guide.py RUN --nodes N '
                         "--lab LAB makes one from a run with family nodes.")

    def test_guide_written(self):
        lab = self.tmp / "lab"
        lab.write_text(ANY_SCHEME_LAB)
        lab.chmod(0o755)
        result = self.run_sh("--nodes", "100", CHBENCH_LAB=lab)
        self.assertEqual(result.returncode, 0, result.stderr)
        (name,) = self.run_dirs()
        run_dir = self.results / self.machine / name
        self.assertTrue((run_dir / "guide.md").exists())
        self.assertEqual(self.first_screen(result, run_dir)[-1],
                         "Which scheme for your fleet of 100 nodes: guide.md")

    def test_full_sweep_flag(self):
        result = self.run_sh("--full")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.args_file.read_text().splitlines()[:2], ["--sweep", "full"])

    def test_never_overwrites(self):
        # Occupy the names of the next seconds; the run must pick a free one.
        machine_dir = self.results / self.machine
        machine_dir.mkdir(parents=True)
        now = datetime.datetime.now(datetime.timezone.utc)
        taken = set()
        for s in range(-1, 30):
            stamp = (now + datetime.timedelta(seconds=s)).strftime("%Y%m%d-%H%M%S")
            taken.add(add_earlier_run(self.results, self.machine,
                                      f"{stamp}-{commit_name()}").name)
        before = snapshot(machine_dir)
        result = self.run_sh()
        self.assertEqual(result.returncode, 0, result.stderr)
        new = [n for n in self.run_dirs() if n not in taken]
        self.assertEqual(len(new), 1)
        self.assertTrue(new[0].endswith(f"-{commit_name()}-2"), new[0])
        after = snapshot(machine_dir)
        self.assertEqual({k: v for k, v in after.items() if k in before}, before)

    def check_failure(self, expected_status: int, **env):
        earlier = add_earlier_run(self.results, self.machine)
        before = snapshot(self.results)
        result = self.run_sh(**env)
        self.assertEqual(result.returncode, expected_status, result.stderr)
        self.assertEqual(self.run_dirs(), [earlier.name])  # no new folder, no partial
        self.assertEqual(snapshot(self.results), before)
        return result

    def test_bench_mismatch_status(self):
        result = self.check_failure(1, FAKE_BENCH_EXIT=1)
        self.assertIn("exit status 1", result.stderr)

    def test_bench_bad_input_status(self):
        self.check_failure(2, FAKE_BENCH_EXIT=2)

    def test_truncated_json(self):
        truncated = self.tmp / "truncated.json"
        truncated.write_bytes(FIXTURE.read_bytes()[:5000])
        result = self.check_failure(2, FAKE_BENCH_JSON=truncated)
        self.assertIn("not valid JSON", result.stderr)

    def test_fresh_folder_removed_on_failure(self):
        result = self.run_sh(FAKE_BENCH_EXIT=1)
        self.assertEqual(result.returncode, 1)
        self.assertFalse(self.results.exists())

    def test_one_run_at_a_time(self):
        machine_dir = self.results / self.machine
        machine_dir.mkdir(parents=True)
        fd = os.open(machine_dir, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running run.sh holds it
            result = self.run_sh()
        finally:
            os.close(fd)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("another run is writing", result.stderr)
        self.assertEqual(self.run_dirs(), [])


def alive(pid: int) -> bool:
    """Whether process `pid` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


class Interrupted(unittest.TestCase):
    """SIGINT or SIGTERM in the middle of a run, sent to run.sh alone (as kill
    or a scheduler does) or to its whole process group (as Ctrl-C does): exit
    status 128 + signal within seconds, the bench stopped, earlier results and
    the index byte-identical, and no run folder, finished or partial, left for
    index.py or plot.py to read."""

    def interrupt(self, sig: int, group: bool):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            results = tmp / "results"
            machine = machine_name()
            earlier = add_earlier_run(results, machine)
            self.assertEqual(run([PYTHON, str(SCRIPTS / "index.py"), str(results)]).returncode, 0)
            before = snapshot(results)
            pidfile = tmp / "bench.pid"
            proc = subprocess.Popen(
                ["bash", RUN_SH, "--out", str(results)],
                env={**os.environ, **fake_env(FAKE_BENCH_SLEEP=60, FAKE_BENCH_PIDFILE=pidfile)},
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                start_new_session=True)
            try:
                # Mid-run: the bench runs and has written its JSON into the
                # partial folder, as a real one does only at the end.
                deadline = time.monotonic() + 30
                while not (pidfile.is_file() and pidfile.read_text().strip() and
                           list((results / machine).glob(".partial-*/bench.json"))):
                    self.assertLess(time.monotonic(), deadline, "the run did not start")
                    time.sleep(0.05)
                bench_pid = int(pidfile.read_text())
                sent = time.monotonic()
                if group:
                    os.killpg(proc.pid, sig)
                else:
                    proc.send_signal(sig)
                status = proc.wait(timeout=30)
                took = time.monotonic() - sent
                stderr = proc.stderr.read()
            finally:
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                proc.stderr.close()
            self.assertEqual(status, 128 + sig, stderr)
            self.assertLess(took, 10)  # not after the bench's 60 s
            self.assertFalse(alive(bench_pid), "the bench still runs")
            self.assertEqual(stderr.splitlines()[-1],
                             "run.sh: {}; stopping, no results kept".format(
                                 "interrupted" if sig == signal.SIGINT else "terminated"))
            self.assertEqual(snapshot(results), before)
            self.assertEqual(sorted(p.name for p in (results / machine).iterdir()),
                             [earlier.name])
            # The index, regenerated, still lists the earlier run only.
            self.assertEqual(run([PYTHON, str(SCRIPTS / "index.py"), str(results)]).returncode, 0)
            rows = [line for line in (results / "README.md").read_text().splitlines()
                    if line.startswith("| 20")]
            self.assertEqual(len(rows), 1)
            self.assertIn(earlier.name, rows[0])

    def test_sigint_to_process_group(self):
        self.interrupt(signal.SIGINT, group=True)

    def test_sigint_to_run_sh(self):
        self.interrupt(signal.SIGINT, group=False)

    def test_sigterm_to_process_group(self):
        self.interrupt(signal.SIGTERM, group=True)

    def test_sigterm_to_run_sh(self):
        self.interrupt(signal.SIGTERM, group=False)


class Index(unittest.TestCase):
    """index.py: one line per run, all machines, newest first."""

    def test_order_and_links(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            add_earlier_run(root, "amd-epyc-2c", "20260101-120000-abc1234")
            add_earlier_run(root, "intel-xeon-8c", "20260102-080000-def5678")
            add_earlier_run(root, "amd-epyc-2c", "20260102-080000-def5678-2")
            v2 = add_earlier_run(root, "amd-epyc-2c", "20260102-090000-def5678-x86-64-v2")
            data = json.loads((v2 / "bench.json").read_text())
            data["context"]["chbench_preset"] = "x86-64-v2"
            (v2 / "bench.json").write_text(json.dumps(data))
            (root / "amd-epyc-2c" / ".partial-20260103-000000-nogit").mkdir()
            (root / "amd-epyc-2c" / "notes").mkdir()
            result = run([PYTHON, str(SCRIPTS / "index.py"), str(root)])
            self.assertEqual(result.returncode, 0, result.stderr)
            rows = [line for line in (root / "README.md").read_text().splitlines()
                    if line.startswith("| 20")]
            self.assertEqual(rows, [
                "| 2026-01-02 09:00:00 UTC | amd-epyc-2c | x86-64-v2 | `def5678` | quick | "
                "[20260102-090000-def5678-x86-64-v2]"
                "(amd-epyc-2c/20260102-090000-def5678-x86-64-v2/report.md) |",
                "| 2026-01-02 08:00:00 UTC | amd-epyc-2c | release | `def5678` | quick | "
                "[20260102-080000-def5678-2](amd-epyc-2c/20260102-080000-def5678-2/report.md) |",
                "| 2026-01-02 08:00:00 UTC | intel-xeon-8c | release | `def5678` | quick | "
                "[20260102-080000-def5678](intel-xeon-8c/20260102-080000-def5678/report.md) |",
                "| 2026-01-01 12:00:00 UTC | amd-epyc-2c | release | `abc1234` | quick | "
                "[20260101-120000-abc1234](amd-epyc-2c/20260101-120000-abc1234/report.md) |",
            ])

    def test_cpu_identities(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            for name, cpu, recorded in (("20260101-120000-abc1234", "amd-epyc-zen5-2c", False),
                                        ("20260102-120000-abc1234", "amd-epyc-zen3-2c", True),
                                        ("20260103-120000-abc1234", "amd-epyc-zen5-2c", False)):
                run_dir = add_earlier_run(root, "amd-epyc-2c", name)
                data = json.loads((run_dir / "bench.json").read_text())
                data["context"].update(cpu_context(cpu, recorded))
                (run_dir / "bench.json").write_text(json.dumps(data))
            (root / "amd-epyc-2c" / "notes.md").write_text("# Notes\n\nFiled by hand.\n\nMore.\n")
            result = run([PYTHON, str(SCRIPTS / "index.py"), str(root)])
            self.assertEqual(result.returncode, 0, result.stderr)
            text = (root / "README.md").read_text()
        machines = text.split("## Machines\n\n")[1].split("\n\n## Runs")[0].splitlines()
        self.assertTrue(machines[0].startswith(
            '- `amd-epyc-2c #1` (2 runs): "AMD EPYC"; avx512 (sse4_1 '), machines[0])
        self.assertIn("family and model not recorded", machines[0])
        self.assertEqual(machines[1], "  Filed by hand.")  # the folder's notes.md
        self.assertTrue(machines[2].startswith(
            "- `amd-epyc-2c #2` (1 run): AuthenticAMD family 25 model 1 stepping 1 (zen3); "
            '"AMD EPYC"; avx2 ('), machines[2])
        self.assertTrue(machines[3].startswith(
            "- **Warning:** `amd-epyc-2c/` holds runs of 2 different CPUs (#1: 2 runs, newest "
            "20260103-120000-abc1234; #2: 1 run, newest 20260102-120000-abc1234)"), machines[3])
        self.assertIn("was filed as `amd-epyc-zen3-avx2-2c` when it ran", machines[4])
        rows = [line.split(" | ")[1] for line in text.splitlines() if line.startswith("| 20")]
        self.assertEqual(rows, ["amd-epyc-2c #1", "amd-epyc-2c #2", "amd-epyc-2c #1"])
        warnings = result.stderr.splitlines()
        self.assertEqual(len(warnings), 2, result.stderr)
        self.assertTrue(warnings[0].startswith("index.py: warning: amd-epyc-2c/ holds runs of 2 "
                                               "different CPUs"), warnings[0])

    def test_empty(self):
        with tempfile.TemporaryDirectory() as tmp:
            result = run([PYTHON, str(SCRIPTS / "index.py"), tmp])
            self.assertEqual(result.returncode, 0)
            self.assertIn("No runs yet", (Path(tmp) / "README.md").read_text())


class InstallDeps(unittest.TestCase):
    """install-deps.sh when nothing or something is missing."""

    SCRIPT = str(SCRIPTS / "install-deps.sh")

    def test_quiet_when_all_present(self):
        result = run(["bash", self.SCRIPT])
        self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "", ""))

    def test_help_and_usage_errors(self):
        result = run(["bash", self.SCRIPT, "--help"])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("--toolchain NAME", result.stdout)
        for args, message in ((["--toolchain", "mips"], "unknown toolchain 'mips'"),
                              (["--toolchain"], "--toolchain needs a name"),
                              (["--bogus"], "unknown option '--bogus'")):
            result = run(["bash", self.SCRIPT, *args])
            self.assertEqual((result.returncode, result.stdout), (2, ""), args)
            self.assertIn(message, result.stderr)

    def without_root(self, fake_dpkg_query: str, *args: str):
        """Runs the script as nobody with a stand-in dpkg-query."""
        with tempfile.TemporaryDirectory() as tmp:
            os.chmod(tmp, 0o755)
            fake = Path(tmp) / "dpkg-query"
            fake.write_text(fake_dpkg_query)
            fake.chmod(fake.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
            return run(["runuser", "-u", "nobody", "--", "env", f"PATH={tmp}:/usr/bin:/bin",
                        "bash", self.SCRIPT, *args])

    @unittest.skipUnless(os.geteuid() == 0 and shutil.which("runuser"), "needs root and runuser")
    def test_missing_without_root(self):
        result = self.without_root(
            "#!/bin/sh\n[ \"$3\" = libhwy-dev ] && exit 1\nprintf 'all installed\\n'\n")
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(result.stdout, "")
        self.assertIn("missing packages: libhwy-dev; run as root", result.stderr)

    @unittest.skipUnless(os.geteuid() == 0 and shutil.which("runuser"), "needs root and runuser")
    def test_other_architecture_does_not_count(self):
        # libhwy-dev installed for arm64 only: the native one is still missing.
        result = self.without_root(
            "#!/bin/sh\n[ \"$3\" = libhwy-dev ] && { printf 'arm64 installed\\n'; exit 0; }\n"
            "printf 'all installed\\n'\n")
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("missing packages: libhwy-dev;", result.stderr)

    @unittest.skipUnless(os.geteuid() == 0 and shutil.which("runuser"), "needs root and runuser")
    def test_aarch64_toolchain_packages(self):
        # Everything native is installed, nothing of arm64 ("NAME:arm64" queries).
        result = self.without_root(
            "#!/bin/sh\ncase $3 in *:arm64) exit 1;; esac\nprintf 'all installed\\n'\n",
            "--toolchain", "aarch64")
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("libbenchmark-dev:arm64 libhwy-dev:arm64 libtbb-dev:arm64 "
                      "libxxhash-dev:arm64 libssl-dev:arm64 zlib1g-dev:arm64 "
                      "libmurmurhash-dev:arm64 libhiredis-dev:arm64 libmemcached11:arm64; run as root", result.stderr)
        self.assertIn("--toolchain aarch64", result.stderr)


class TestCommands(unittest.TestCase):
    """test.sh and test-arm.sh: help, and usage errors before any work."""

    def test_help_and_usage_errors(self):
        for script, bad in (("test.sh", ["--presets"]), ("test.sh", ["--frob"]),
                            ("test-arm.sh", ["--cpus", "sve1024"]),
                            ("test-arm.sh", ["--jobs", "0"]), ("test-arm.sh", ["--frob"])):
            path = str(SCRIPTS / script)
            result = run(["bash", path, "--help"])
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertTrue(result.stdout.startswith("Usage: "), result.stdout)
            result = run(["bash", path, *bad])
            self.assertEqual((result.returncode, result.stdout), (2, ""), (script, bad))
            self.assertRegex(result.stderr, rf"^{re.escape(script)}: error: ")


@unittest.skipUnless(shutil.which("shellcheck"), "shellcheck not installed")
class ShellCheck(unittest.TestCase):
    """Every shell script is shellcheck-clean."""

    def test_scripts(self):
        scripts = sorted(str(p) for p in SCRIPTS.rglob("*.sh"))
        scripts.append(str(SCRIPTS.parent / ".ci" / "run"))
        result = run(["shellcheck", *scripts])
        self.assertEqual(result.returncode, 0, result.stdout)


if __name__ == "__main__":
    unittest.main()
