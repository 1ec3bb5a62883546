"""Hostile input for every script of scripts/: one table, one row per case.

Each case must end with a non-zero exit status (2 for bad input, 1 where the
script documents it), exactly one line on stderr, "<script>: error: ...",
naming the problem, nothing on stdout, and nothing written: the whole
scratch folder the case runs in (results with an earlier run, an empty
output folder, a regular file, broken JSON files) is byte-identical
afterwards.

Folders that cannot be written are ones that fail for root too (the tests run
as root, whom permission bits do not stop): a path under a regular file
(ENOTDIR), a regular file given as the folder, and /proc, where no file can be
created.

The bench and lab binaries have their own tables (tests/bench_cli_test.sh,
lab/tests/cli_*_test.sh); run.sh is driven here with the stand-in bench.
"""

from __future__ import annotations

import os
import tempfile
import unittest
from dataclasses import dataclass, field
from pathlib import Path

from support import FAKE_BENCH, FIXTURE, PYTHON, REPO, SCRIPTS, machine_name, run, snapshot


@dataclass
class Case:
    """One hostile invocation. `args` may use {tmp} (the scratch folder),
    {file} (a regular file in it), {out} (an empty folder), {results} (a
    results folder holding an earlier run), {earlier} (that run's folder),
    {broken} (a folder whose bench.json is cut short) and {fixture} (a valid
    bench JSON)."""

    name: str
    script: str
    args: list
    expect: str  # a fragment of the one stderr line
    status: int = 2
    env: dict = field(default_factory=dict)


def truncated(fraction: float) -> bytes:
    data = FIXTURE.read_bytes()
    return data[: int(len(data) * fraction)]


ONE_RUN = (b'{"context": %s, "benchmarks": [{"name": '
           b'"tokens/ring/lower_bound/N:10/V:1/K:1000/threads:1", "real_time": 5000, '
           b'"keys": 1000}]}')

# Broken results files, written into the scratch folder as {tmp}/NAME.
BROKEN_JSON = {
    "cut10.json": truncated(0.1),
    "cut50.json": truncated(0.5),
    "cut-last-byte.json": FIXTURE.read_bytes().rstrip()[:-1],
    "binary.json": bytes(range(256)) * 8,
    "empty.json": b"",
    "nested.json": b"[" * 100_000,
    "no-benchmarks.json": b'{"context": {}, "benchmarks": "none"}',
    "foreign.json": b'{"benchmarks": [{"name": "BM_Sort/64", "real_time": 1}]}',
    "array.json": b"[1, 2, 3]",
    # A chbench run whose context lacks the kernel registry, or holds a broken one.
    "no-registry.json": ONE_RUN % b"{}",
    "bad-registry.json": ONE_RUN % b'{"chbench_registry": "{\\"kernels\\": [oops"}',
    # A run of one configuration the fixture does not have.
    "one-run.json": ONE_RUN % b"{}",
    # A run whose description of its families is broken.
    "bad-families.json": ONE_RUN % b'{"chbench_families": "{\\"segments\\": 3}"}',
    # A goals file whose goal names a kernel no registry has (a typo).
    "typo-goals.toml": b"""[[goal]]
title = "eytzinger over lower_bound at N = 1,000"
family = "nodes"
kind = "pair_at_nodes"
numerator = "ring/lower_bound"
denominator = "ring/eytzinger2"
nodes = [1000]
at_least = 2
table = "Eytzinger"
""",
}

FAKE_REFUSES = {"CHBENCH_BENCH": str(FAKE_BENCH), "FAKE_BENCH_LIST_EXIT": "2",
                "FAKE_BENCH_LIST_ERROR": "chbench_bench: error: --nodes must be at least 1 (N = 0)"}

CASES = [
    # ---- run.sh (the fake bench: no build) ----
    Case("run.sh unknown flag", "run.sh", ["--fast"], "unknown option '--fast'"),
    Case("run.sh --jobs 0", "run.sh", ["--jobs", "0"], "--jobs takes 1 to 999, not '0'"),
    Case("run.sh --jobs negative", "run.sh", ["--jobs=-2"], "--jobs takes 1 to 999"),
    Case("run.sh --jobs enormous", "run.sh", ["--jobs", "99999999999"], "--jobs takes 1 to 999"),
    Case("run.sh --jobs text", "run.sh", ["--jobs", "all"], "--jobs takes 1 to 999"),
    Case("run.sh --out missing value", "run.sh", ["--out"], "--out needs a folder"),
    Case("run.sh --out empty", "run.sh", ["--out", ""], "--out needs a folder"),
    Case("run.sh --out under a file", "run.sh", ["--out", "{file}/results"], "is not writable",
         env={"CHBENCH_BENCH": str(FAKE_BENCH)}),
    Case("run.sh --out is a file", "run.sh", ["--out", "{file}"], "is not writable",
         env={"CHBENCH_BENCH": str(FAKE_BENCH)}),
    Case("run.sh --out in /proc", "run.sh", ["--out", "/proc/chbench-results"], "is not writable",
         env={"CHBENCH_BENCH": str(FAKE_BENCH)}),
    Case("run.sh bench flags refused", "run.sh", ["--out", "{results}", "--", "--nodes", "0"],
         "N = 0", env=FAKE_REFUSES),
    Case("run.sh missing bench", "run.sh", ["--out", "{results}"], "is missing or not executable",
         status=1, env={"CHBENCH_BENCH": "/nonexistent/chbench_bench"}),
    Case("run.sh --retry-noisy missing value", "run.sh", ["--retry-noisy"],
         "--retry-noisy needs a number of rounds"),
    Case("run.sh --retry-noisy negative", "run.sh", ["--retry-noisy=-1"],
         "--retry-noisy takes 0 to 20 rounds, not '-1'"),
    Case("run.sh --retry-noisy enormous", "run.sh", ["--retry-noisy", "99999999999"],
         "--retry-noisy takes 0 to 20 rounds"),
    Case("run.sh --retry-noisy text", "run.sh", ["--retry-noisy", "twice"],
         "--retry-noisy takes 0 to 20 rounds, not 'twice'"),
    Case("run.sh --retry-noisy 21", "run.sh", ["--retry-noisy", "21"],
         "--retry-noisy takes 0 to 20 rounds"),

    # ---- retry_noisy.py (run.sh --retry-noisy) ----
    Case("retry_noisy.py no arguments", "retry_noisy.py", [], "the following arguments are"),
    Case("retry_noisy.py unknown command", "retry_noisy.py", ["redo", "{fixture}"],
         "invalid choice: 'redo'"),
    Case("retry_noisy.py missing JSON", "retry_noisy.py", ["filters", "{tmp}/none.json"],
         "cannot read"),
    Case("retry_noisy.py JSON is a folder", "retry_noisy.py", ["baseline", "{out}"],
         "cannot read"),
    *[Case(f"retry_noisy.py {name}", "retry_noisy.py", ["filters", "{tmp}/" + name], expect)
      for name, expect in [("cut10.json", "not valid JSON"), ("cut50.json", "not valid JSON"),
                           ("binary.json", "not valid JSON"), ("empty.json", "not valid JSON"),
                           ("nested.json", "not valid JSON"),
                           ("no-benchmarks.json", "not a Google Benchmark JSON file"),
                           ("array.json", "not a Google Benchmark JSON file")]],
    Case("retry_noisy.py --per-filter 0", "retry_noisy.py",
         ["filters", "{fixture}", "--per-filter", "0"], "--per-filter takes a positive count"),
    Case("retry_noisy.py --per-filter text", "retry_noisy.py",
         ["filters", "{fixture}", "--per-filter", "all"], "invalid int value"),
    Case("retry_noisy.py merge without --round", "retry_noisy.py",
         ["merge", "{fixture}", "{fixture}", "--record", "{tmp}/r.json"], "--round"),
    Case("retry_noisy.py merge a broken retry", "retry_noisy.py",
         ["merge", "{fixture}", "{tmp}/cut50.json", "--round", "1", "--record", "{tmp}/r.json"],
         "not valid JSON"),
    Case("retry_noisy.py merge a broken record", "retry_noisy.py",
         ["merge", "{fixture}", "{fixture}", "--round", "1", "--record", "{file}"],
         "cannot read the retries record"),
    Case("retry_noisy.py finish a record that is not one", "retry_noisy.py",
         ["finish", "{fixture}", "--record", "{tmp}/array.json", "--max-rounds", "1"],
         "is not a retries record"),

    # ---- agreement.py ----
    Case("agreement.py one file", "agreement.py", ["{fixture}"], "the following arguments"),
    Case("agreement.py missing file", "agreement.py", ["{fixture}", "{tmp}/none.json"],
         "cannot read"),
    Case("agreement.py broken file", "agreement.py", ["{tmp}/cut50.json", "{fixture}"],
         "not valid JSON"),
    Case("agreement.py foreign file", "agreement.py", ["{fixture}", "{tmp}/foreign.json"],
         "holds no chbench benchmarks"),
    Case("agreement.py --tolerance 0", "agreement.py",
         ["{fixture}", "{fixture}", "--tolerance", "0"], "--tolerance takes 0 to 10"),
    Case("agreement.py --tolerance negative", "agreement.py",
         ["{fixture}", "{fixture}", "--tolerance=-0.1"], "--tolerance takes 0 to 10"),
    Case("agreement.py --tolerance text", "agreement.py",
         ["{fixture}", "{fixture}", "--tolerance", "tight"], "invalid float value"),
    Case("agreement.py --max-tokens 0", "agreement.py",
         ["{fixture}", "{fixture}", "--max-tokens", "0"], "--max-tokens takes a positive"),
    Case("agreement.py nothing in common", "agreement.py", ["{fixture}", "{tmp}/one-run.json"],
         "measured no configuration in common"),

    # ---- noise-check.sh (fails before running anything) ----
    Case("noise-check.sh unknown flag", "noise-check.sh", ["--loud"], "unknown option '--loud'"),
    Case("noise-check.sh --hammer-mib 0", "noise-check.sh", ["--hammer-mib", "0"],
         "--hammer-mib takes 1 to 65536, not '0'"),
    Case("noise-check.sh --hammer-mib enormous", "noise-check.sh",
         ["--hammer-mib", "99999999999"], "--hammer-mib takes 1 to 65536"),
    Case("noise-check.sh --hammer-mib text", "noise-check.sh", ["--hammer-mib", "1G"],
         "--hammer-mib takes 1 to 65536, not '1G'"),
    Case("noise-check.sh --hammer-seconds negative", "noise-check.sh",
         ["--hammer-seconds", "-5"], "--hammer-seconds takes 1 to 3600"),
    Case("noise-check.sh --hammer-seconds missing", "noise-check.sh", ["--hammer-seconds"],
         "--hammer-seconds needs a number"),
    Case("noise-check.sh missing bench", "noise-check.sh", ["--bench", "{tmp}/none"],
         "is missing or not executable", status=1),

    # ---- plot.py ----
    Case("plot.py no arguments", "plot.py", [], "the following arguments are required"),
    Case("plot.py unknown flag", "plot.py", ["{fixture}", "--out", "{out}", "--bogus"],
         "unrecognized arguments: --bogus"),
    Case("plot.py --format empty", "plot.py", ["{fixture}", "--out", "{out}", "--format", ""],
         "--format takes a comma list of png, svg, pdf; got an empty one"),
    Case("plot.py --format svg,,pdf", "plot.py", ["{fixture}", "--out", "{out}", "--format",
                                                  "svg,,pdf"], "'svg,,pdf' has an empty item (a comma list of png, svg, pdf)"),
    Case("plot.py --theme sepia", "plot.py", ["{fixture}", "--out", "{out}", "--theme", "sepia"],
         "invalid choice: 'sepia' (choose from 'light', 'dark')"),
    Case("plot.py --out is a file", "plot.py", ["{fixture}", "--out", "{file}"], "is not a folder"),
    Case("plot.py --schemes unknown", "plot.py", ["{fixture}", "--out", "{out}", "--schemes",
                                                  "rings"], "--schemes: unknown scheme rings"),
    Case("plot.py --kernels empty", "plot.py", ["{fixture}", "--out", "{out}", "--kernels", ""],
         "--kernels was given an empty list"),
    Case("plot.py --out under a file", "plot.py", ["{fixture}", "--out", "{file}/x"],
         "does not exist"),
    Case("plot.py --out in /proc", "plot.py", ["{fixture}", "--out", "/proc"], "is not writable"),
    Case("plot.py missing JSON", "plot.py", ["{tmp}/none.json", "--out", "{out}"], "cannot read"),
    Case("plot.py JSON is a folder", "plot.py", ["{out}", "--out", "{out}"], "cannot read"),
    *[Case(f"plot.py {name}", "plot.py", ["{tmp}/" + name, "--out", "{out}"], expect)
      for name, expect in [("cut10.json", "not valid JSON"), ("cut50.json", "not valid JSON"),
                           ("cut-last-byte.json", "not valid JSON"),
                           ("binary.json", "not valid JSON"), ("empty.json", "is empty"),
                           ("nested.json", "not valid JSON"),
                           ("no-benchmarks.json", "holds no benchmarks"),
                           ("foreign.json", "holds no chbench benchmarks"),
                           ("array.json", "not a Google Benchmark report"),
                           ("no-registry.json", "has no kernel registry"),
                           ("bad-registry.json", "\"chbench_registry\" is not valid JSON"),
                           ("bad-families.json",
                            "context chbench_families has no \"segments\" list")]],
    Case("plot.py goal names an unknown kernel", "plot.py",
         ["{fixture}", "--out", "{out}", "--goals", "{tmp}/typo-goals.toml"],
         "goal \"eytzinger over lower_bound at N = 1,000\" names denominator "
         "\"ring/eytzinger2\", which is no kernel of the run's registry; did you mean "
         "\"ring/eytzinger\"?"),

    # ---- compact_run.py ----
    Case("compact_run.py no arguments", "compact_run.py", [], "the following arguments are"),
    Case("compact_run.py missing folder", "compact_run.py", ["{tmp}/none"], "is not a folder"),
    Case("compact_run.py a file", "compact_run.py", ["{file}"], "is not a folder"),
    Case("compact_run.py a run, then a missing folder", "compact_run.py",
         ["{earlier}", "{tmp}/none"], "none is not a folder"),  # the run is left as it was
    Case("compact_run.py a broken bench.json", "compact_run.py", ["{broken}"],
         "bench.json is not valid JSON"),

    # ---- index.py ----
    Case("index.py unknown flag", "index.py", ["--bogus"], "unrecognized arguments: --bogus"),
    Case("index.py two folders", "index.py", ["{results}", "{out}"], "unrecognized arguments"),
    Case("index.py missing folder", "index.py", ["{tmp}/none"], "is not a folder"),
    Case("index.py a file", "index.py", ["{file}"], "is not a folder"),
    Case("index.py /proc", "index.py", ["/proc"], "is not writable"),

    # ---- lab_load_docs.py (fails before running the lab) ----
    Case("lab_load_docs.py unknown flag", "lab_load_docs.py", ["--bogus"], "unrecognized arguments"),
    Case("lab_load_docs.py no lab", "lab_load_docs.py", ["--lab", "/nonexistent", "--out", "{out}"],
         "no chbench-lab at"),
    # ---- guide.py (fails before running the lab) ----
    Case("guide.py unknown flag", "guide.py", ["--bogus"], "unrecognized arguments: --bogus"),
    Case("guide.py missing results", "guide.py", ["{tmp}/none"], "is not a folder"),
    Case("guide.py missing lab", "guide.py", ["{results}", "--lab", "{tmp}/none"],
         "no chbench-lab at"),
    Case("guide.py --out is a file", "guide.py", ["{results}", "--lab", "/bin/true", "--out",
                                                  "{file}"], "is not a folder"),
    Case("guide.py --out in /proc", "guide.py", ["{results}", "--lab", "/bin/true", "--out",
                                                 "/proc"], "is not writable"),
    Case("guide.py --keys 0", "guide.py", ["{results}", "--lab", "/bin/true", "--out", "{out}",
                                           "--keys", "0"], "--keys takes 1 to 10,000,000"),
    Case("guide.py --nodes 0", "guide.py", ["{results}", "--lab", "/bin/true", "--out", "{out}",
                                            "--nodes", "0"], "--nodes takes 2 to 1,000,000"),
    Case("guide.py --nodes not a number", "guide.py", ["--nodes", "many"],
         "argument --nodes: invalid int value: 'many'"),
    Case("guide.py --format gif", "guide.py", ["--format", "gif"], "unknown format 'gif'"),
    Case("guide.py no run with family nodes", "guide.py",
         ["{results}", "--lab", "/bin/true", "--out", "{out}", "--machine", "no-such-cpu"],
         "holds no run of machine no-such-cpu with family \"nodes\""),

    # ---- gen_docs.py (with --check, so that nothing is written) ----
    Case("gen_docs.py unknown flag", "gen_docs.py", ["--bogus"], "unrecognized arguments: --bogus"),
    Case("gen_docs.py missing page", "gen_docs.py", ["--check", "{tmp}/none.md"],
         "cannot read"),
    Case("gen_docs.py page is a folder", "gen_docs.py", ["--check", "{out}"], "cannot read"),
    Case("gen_docs.py missing bench", "gen_docs.py",
         ["--check", "--bench", "{tmp}/none", str(REPO / "README.md")], "cannot run"),
    Case("gen_docs.py failing bench", "gen_docs.py",
         ["--check", "--bench", "/bin/false", str(REPO / "README.md")], "false exited 1"),

    # ---- lab_docs.py (fails before running the lab) ----
    Case("lab_docs.py unknown flag", "lab_docs.py", ["--bogus"], "unrecognized arguments"),
    Case("lab_docs.py --format gif", "lab_docs.py", ["--format", "png,gif"],
         "unknown format 'gif' in 'png,gif' (choose from png, svg, pdf)"),
    Case("lab_docs.py --theme blue", "lab_docs.py", ["--theme", "blue"],
         "argument --theme: invalid choice: 'blue'"),
    Case("lab_docs.py --keys text", "lab_docs.py", ["--keys", "many"], "invalid int value"),
    Case("lab_docs.py --keys 0", "lab_docs.py", ["--lab", "/bin/true", "--out", "{out}",
                                                 "--keys", "0"], "--keys takes 1 to"),
    Case("lab_docs.py --keys negative", "lab_docs.py",
         ["--lab", "/bin/true", "--out", "{out}", "--keys=-5"], "--keys takes 1 to"),
    Case("lab_docs.py --keys enormous", "lab_docs.py",
         ["--lab", "/bin/true", "--out", "{out}", "--keys", "10000000000000"], "--keys takes 1 to"),
    Case("lab_docs.py --rings 0", "lab_docs.py",
         ["--lab", "/bin/true", "--out", "{out}", "--rings", "0"], "--rings takes 1 to"),
    Case("lab_docs.py --rings enormous", "lab_docs.py",
         ["--lab", "/bin/true", "--out", "{out}", "--rings", "4000000000"], "--rings takes 1 to"),
    Case("lab_docs.py missing lab", "lab_docs.py", ["--lab", "{tmp}/none", "--out", "{out}"],
         "no chbench-lab at"),
    Case("lab_docs.py lab not executable", "lab_docs.py", ["--lab", "{file}", "--out", "{out}"],
         "no chbench-lab at"),
    Case("lab_docs.py --out is a file", "lab_docs.py", ["--lab", "/bin/true", "--out", "{file}"],
         "does not exist"),
    Case("lab_docs.py --out in /proc", "lab_docs.py", ["--lab", "/bin/true", "--out", "/proc"],
         "is not writable"),
    Case("lab_docs.py lab lists no schemes", "lab_docs.py",
         ["--lab", "/bin/true", "--out", "{out}"], "lists no schemes", status=1),
    Case("lab_docs.py lab prints no JSON", "lab_docs.py",
         ["--lab", str(Path(__file__).resolve().parent / "fake_lab.sh"), "--out", "{out}"], "printed no JSON", status=1),

    # ---- compare.py ----
    Case("compare.py unknown flag", "compare.py", ["--frob"], "unrecognized arguments: --frob"),
    Case("compare.py missing folder", "compare.py", ["{tmp}/none"], "is not a folder"),
    Case("compare.py a file", "compare.py", ["{file}"], "is not a folder"),
    Case("compare.py one result set", "compare.py", ["{results}"], "holds 1 result set(s)"),
    Case("compare.py empty --families", "compare.py", ["{results}", "--families", ","],
         "--families was given an empty list"),
    Case("compare.py --baseline not a run", "compare.py", ["--baseline", "{out}", "{results}"],
         "holds no bench.json or bench.json.gz: not a run folder"),
    Case("compare.py --baseline broken", "compare.py", ["--baseline", "{broken}", "{earlier}"],
         "bench.json"),
    Case("compare.py neither run nor results", "compare.py", ["{earlier}", "{out}"],
         "is neither a run folder"),

    # ---- export_csv.py ----
    Case("export_csv.py no arguments", "export_csv.py", [], "the following arguments are"),
    Case("export_csv.py missing run", "export_csv.py", ["{tmp}/none"], "does not exist"),
    Case("export_csv.py not a run folder", "export_csv.py", ["{out}"], "not a run folder"),
    Case("export_csv.py a broken bench.json", "export_csv.py", ["{broken}"], "bench.json"),
    Case("export_csv.py --out under a file", "export_csv.py", ["{fixture}", "--out",
                                                               "{file}/x.csv"], "output folder"),

    # ---- test-arm.sh (fails before installing or building) ----
    Case("test-arm.sh unknown flag", "test-arm.sh", ["--frob"], "unknown option '--frob'"),
    Case("test-arm.sh unknown CPU", "test-arm.sh", ["--cpus", "pentium"],
         "unknown CPU configuration 'pentium'"),

    # ---- shell helpers ----
    Case("machine-name.sh positional argument", "machine-name.sh", ["AMD EPYC"],
         "takes no positional arguments"),
    Case("machine-name.sh unknown option", "machine-name.sh", ["--model", "x"],
         "unknown option '--model'"),
    Case("machine-name.sh --cpuinfo without value", "machine-name.sh", ["--cpuinfo"],
         "--cpuinfo needs a value"),
    Case("machine-name.sh missing cpuinfo", "machine-name.sh", ["--cpuinfo", "{tmp}/none"],
         "cannot read cpuinfo"),
    Case("machine-name.sh empty cpuinfo", "machine-name.sh", ["--cpuinfo", "{tmp}/empty.json"],
         "is empty: it describes no CPU"),
    Case("machine-name.sh cpuinfo is a folder", "machine-name.sh", ["--cpuinfo", "{out}"],
         "is a folder"),
    Case("machine-name.sh CPU count 0", "machine-name.sh", ["--cpus", "0"], "CPU count '0'"),
    Case("machine-name.sh CPU count negative", "machine-name.sh", ["--cpus=-4"],
         "CPU count '-4'"),
    Case("machine-name.sh CPU count enormous", "machine-name.sh", ["--cpus", "99999999999999"],
         "CPU count"),
    Case("machine-name.sh CPU count text", "machine-name.sh", ["--cpus", "two"],
         "CPU count 'two'"),
    Case("machine-name.sh cache folder without cpuinfo", "machine-name.sh",
         ["--sysfs-cache", "{out}"], "--sysfs-cache goes with --cpuinfo"),
    Case("machine-name.sh cache folder is a file", "machine-name.sh",
         ["--cpuinfo", "{file}", "--sysfs-cache", "{file}"], "is not a folder"),
    Case("install-deps.sh argument", "install-deps.sh", ["--all"], "unknown option '--all'"),
    Case("install-deps.sh unknown toolchain", "install-deps.sh", ["--toolchain", "riscv"],
         "riscv"),
    Case("test.sh unknown preset", "test.sh", ["--presets", "nightly"], "unknown preset 'nightly'"),
    Case("test.sh positional argument", "test.sh", ["nightly"], "unknown option 'nightly'"),
    Case("fuzz.sh unknown flag", "fuzz.sh", ["--forever"], "unknown option '--forever'"),
    Case("fuzz.sh --time 0", "fuzz.sh", ["--time", "0"], "--time takes 1 to"),
    Case("fuzz.sh --time negative", "fuzz.sh", ["--time", "-60"], "--time takes 1 to"),
    Case("fuzz.sh --time enormous", "fuzz.sh", ["--time", "99999999999"], "--time takes 1 to"),
    Case("fuzz.sh --time text", "fuzz.sh", ["--time", "1h"], "--time takes 1 to"),
    Case("fuzz.sh --jobs 0", "fuzz.sh", ["--jobs", "0"], "--jobs takes a positive number"),
    Case("fuzz.sh --jobs enormous", "fuzz.sh", ["--jobs", "100000"], "--jobs takes a positive"),
    Case("fuzz.sh --time without value", "fuzz.sh", ["--time"], "--time needs a value"),
    Case("fuzz.sh missing fuzzer", "fuzz.sh", ["--fuzzer", "{tmp}/none"],
         "is missing or not executable"),
    Case("fuzz.sh --work under a file", "fuzz.sh", ["--fuzzer", "/bin/true", "--work",
                                                    "{file}/corpus"], "cannot create or write"),
]


def command(script: str) -> list:
    path = str(SCRIPTS / script)
    return [PYTHON, path] if script.endswith(".py") else ["bash", path]


class BadInput(unittest.TestCase):
    """Every case of CASES, as a subtest."""

    def test_table(self):
        names = [c.name for c in CASES]
        self.assertEqual(len(names), len(set(names)), "case names repeat")
        scripts = {c.script for c in CASES}
        every = {p.name for p in SCRIPTS.iterdir() if p.suffix in (".sh", ".py")} - {
            "cli.py", "cpu_identity.py", "ccache-env.sh", "lab_docs_plots.py",
        "compare_inputs.py", "profile_changes.py", "guide_lab.py"}  # modules
        self.assertEqual(scripts, every, "every script of scripts/ has cases")
        for case in CASES:
            with self.subTest(case.name):
                self.check(case)

    def check(self, case: Case):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            (tmp / "file").write_text("a regular file, not a folder\n")
            (tmp / "out").mkdir()
            earlier = tmp / "results" / machine_name() / "20200101-000000-abc1234"
            earlier.mkdir(parents=True)
            (earlier / "bench.json").write_bytes(FIXTURE.read_bytes())
            (earlier / "report.md").write_text("# earlier\n")
            for name, data in BROKEN_JSON.items():
                (tmp / name).write_bytes(data)
            (tmp / "broken").mkdir()
            (tmp / "broken" / "bench.json").write_bytes(BROKEN_JSON["cut50.json"])
            before = snapshot(tmp)
            places = {"tmp": tmp, "file": tmp / "file", "out": tmp / "out",
                      "results": tmp / "results", "fixture": FIXTURE, "earlier": earlier,
                      "broken": tmp / "broken"}
            args = [a.format(**places) for a in case.args]
            result = run(command(case.script) + args, env=case.env, cwd=tmp, timeout=60)
            lines = result.stderr.splitlines()
            self.assertEqual(result.returncode, case.status, result.stderr)
            self.assertEqual(len(lines), 1, result.stderr)
            prog = case.script if case.script != "run.sh" or "FAKE_BENCH_LIST_ERROR" not in \
                case.env else "chbench_bench"
            self.assertTrue(lines[0].startswith(f"{prog}: error: "), lines[0])
            self.assertIn(case.expect, lines[0])
            self.assertNotIn("Traceback", result.stderr)
            self.assertEqual(result.stdout, "")
            self.assertEqual(snapshot(tmp), before, "something was written")
            self.assertFalse(os.path.exists("/proc/chbench-results"))


if __name__ == "__main__":
    unittest.main()
