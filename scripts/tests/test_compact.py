"""The committed form of a run (compact_run.py, chbench_plots/compact.py,
png_palette.py, bench_file.py): what it keeps, that every reader reads it,
that bad input stops it, and that converting twice changes nothing."""

from __future__ import annotations

import gzip
import io
import json
import shutil
import tempfile
import unittest
from pathlib import Path

from support import FIXTURE, PYTHON, REPO, SCRIPTS, run, snapshot
import make_rounds_fixture as rf
from chbench_plots import compact, png_palette
from chbench_plots.load import load

COMPACT_RUN = str(SCRIPTS / "compact_run.py")
PLOT = str(SCRIPTS / "plot.py")
INDEX = str(SCRIPTS / "index.py")
# Fields of a Result the readers use, beside its CV (compared apart).
FIELDS = ("run_name", "ns", "ns_lo", "ns_hi", "interval", "group", "rounds", "ratio",
          "ratio_lo", "ratio_hi", "repetitions", "noisy", "canary_ratio", "steal_ms",
          "load_avg", "canary_ms", "memory_bytes", "bytes_per_token", "build_ms", "nodes",
          "vnodes", "keys", "threads", "error", "hwy_label", "keys_per_second")


# A report's machine-table row of the comparison groups as it once was: the
# whole JSON (hundreds of KB in a quick sweep).
LEGACY_GROUPS = {"groups": [{"members": ["a/x/N:1", "a/y/N:1"], "ns_per_key": [[1.0], [2.0]]},
                            {"members": ["b/x/N:1"], "ns_per_key": [[3.0]]}]}
# The project's bound on a committed run: its tracked files, in bytes.
MAX_RUN_BYTES = 1_500_000


def compacted(data: dict, folder: Path) -> Path:
    """Writes the committed form of `data` as folder/bench.json.gz."""
    path = folder / "bench.json.gz"
    path.write_bytes(compact.encode(compact.compact(data)))
    return path


class RoundTrip(unittest.TestCase):
    """load() of the committed form gives the Results of the full file."""

    def check(self, data: dict) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            full = Path(tmp) / "bench.json"
            full.write_text(json.dumps(data))
            before, after = load(full), load(compacted(data, Path(tmp)))
        self.assertEqual(len(before.results), len(after.results))
        for a, b in zip(before.results, after.results):
            for name in FIELDS:
                self.assertEqual(getattr(a, name), getattr(b, name), f"{a.run_name}: {name}")
            if a.cv is None:
                self.assertIsNone(b.cv)
            else:
                self.assertLess(abs(a.cv - b.cv), 1e-5 * a.cv, a.run_name)  # a rounded cv row
        self.assertEqual(before.has_rounds, after.has_rounds)

    def test_run_timed_in_rounds(self):
        data = rf.build(rf.plotted_groups())
        self.check(data)
        kept = compact.compact(data)["benchmarks"]
        # One median row a member, and the failed member's error row.
        self.assertEqual({e.get("aggregate_name") for e in kept}, {"median"})
        self.assertEqual(len(kept), sum(len(g) for g in rf.plotted_groups()))

    def test_run_with_repetitions(self):
        data = json.loads(FIXTURE.read_text())
        self.check(data)
        kept = compact.compact(data)["benchmarks"]
        self.assertFalse(any(e.get("aggregate_name") in ("mean", "stddev", "cv") for e in kept))
        reps = [e for e in data["benchmarks"] if e.get("run_type", "iteration") == "iteration"]
        self.assertEqual([e for e in kept if e.get("run_type", "iteration") == "iteration"],
                         reps)

    def test_context_kept_with_relative_paths(self):
        data = rf.build(rf.SLOWED)
        data["context"]["executable"] = "/srv/ci/chbench/build/release/bench/chbench_bench"
        out = compact.compact(data)["context"]
        self.assertEqual(out["executable"], "build/release/bench/chbench_bench")
        self.assertEqual(out["chbench_groups"], data["context"]["chbench_groups"])
        self.assertIn(compact.MARK_KEY, out)

    def test_encode_is_byte_stable(self):
        data = compact.compact(rf.build(rf.SLOWED))
        self.assertEqual(compact.encode(data), compact.encode(data))
        self.assertEqual(json.loads(gzip.decompress(compact.encode(data))), data)


class RelativePaths(unittest.TestCase):
    def test_paths_into_the_checkout(self):
        line = ("/srv/a/checkout-7/build/x86-64-v2/bench/chbench_bench --sweep quick "
                "--benchmark_out=/srv/a/checkout-7/results/m/.partial-x/bench.json")
        self.assertEqual(compact.relative_paths(line),
                         "build/x86-64-v2/bench/chbench_bench --sweep quick "
                         "--benchmark_out=results/m/.partial-x/bench.json")

    def test_other_paths_kept(self):
        for text in ("/proc/cpuinfo", "build/release/x", "a /usr/share/benchmark/compare.py"):
            self.assertEqual(compact.relative_paths(text), text)


def plot_png(dpi: float = 150) -> bytes:
    """A small matplotlib figure as its RGBA PNG."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    fig = Figure(figsize=(3, 2), dpi=dpi)
    ax = fig.add_subplot()
    for k in range(6):
        ax.plot([0, 1, 2], [k, k + 1, k * 0.5], marker="o", label=f"line {k}")
    ax.legend()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


class Png(unittest.TestCase):
    def test_shrink(self):
        from matplotlib import image
        original = plot_png()
        small = png_palette.shrink(original)
        parts = png_palette.chunks(small)
        self.assertEqual(parts["IHDR"][9], png_palette.COLOR_TYPE_PALETTE)
        self.assertAlmostEqual(png_palette.dpi_of(parts), 100, delta=0.01)
        big, little = image.imread(io.BytesIO(original)), image.imread(io.BytesIO(small))
        self.assertEqual(little.shape[:2], (200, 300))
        self.assertEqual(big.shape[:2], (300, 450))
        self.assertLess(len(small), len(original) / 2)
        # The mean colour survives within a few levels of 255.
        self.assertLess(abs(big[:, :, :3].mean() - little[:, :, :3].mean()), 3 / 255)
        self.assertIsNone(png_palette.shrink(small))

    def test_not_a_png(self):
        with self.assertRaises(ValueError):
            png_palette.shrink(b"GIF89a")


class CompactRun(unittest.TestCase):
    """compact_run.py on a run folder."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.folder = Path(self.tmp.name) / "20260101-000000-aaaaaaa"
        self.folder.mkdir()
        data = rf.build(rf.SLOWED)
        data["context"]["executable"] = "/srv/ci/chbench/build/release/bench/chbench_bench"
        (self.folder / "bench.json").write_text(json.dumps(data))
        (self.folder / "nodes.png").write_bytes(plot_png())
        (self.folder / "command.txt").write_text(
            "/srv/ci/chbench/build/release/bench/chbench_bench --sweep quick\n")
        old = "a bench from before " + "issue " + str(15)
        (self.folder / "report.md").write_text(
            f"# Run\n\n**Noise: not recorded.** No canary ({old}): see.\n"
            "| Executable | /srv/ci/chbench/build/release/bench/chbench_bench |\n"
            f"| chbench_groups | {json.dumps(LEGACY_GROUPS)} |\n"
            "Fixed in " + "issue " + str(9) + ".\nEnd.\n")

    def tearDown(self):
        self.tmp.cleanup()

    def compact_run(self, *folders: Path):
        return run([PYTHON, COMPACT_RUN, *map(str, folders)])

    def test_committed_form(self):
        result = self.compact_run(self.folder)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual((self.folder / "command.txt").read_text(),
                         "build/release/bench/chbench_bench --sweep quick\n")
        self.assertEqual((self.folder / "report.md").read_text(),
                         "# Run\n\n**Noise: not recorded.** No canary (a bench from before the "
                         "noise canary): see.\n| Executable | build/release/bench/chbench_bench "
                         "|\n| Comparison groups | 2, of 1 to 2 configurations each (members and "
                         "rounds: the bench JSON's `chbench_groups`) |\nEnd.\n")
        self.assertTrue((self.folder / "bench.json").exists())  # the user's full file stays
        png = (self.folder / "nodes.png").read_bytes()
        self.assertEqual(png_palette.chunks(png)["IHDR"][9], png_palette.COLOR_TYPE_PALETTE)
        shown = run([PYTHON, PLOT, str(self.folder / "bench.json.gz"), "--out", self.tmp.name,
                     "--format", "png"])
        self.assertEqual(shown.returncode, 0, shown.stderr)

    def test_twice_changes_nothing(self):
        self.assertEqual(self.compact_run(self.folder).returncode, 0)
        before = snapshot(self.folder)
        again = self.compact_run(self.folder)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("already compact", again.stdout)
        self.assertEqual(snapshot(self.folder), before)
        # From the committed form alone: the same bytes.
        gz = (self.folder / "bench.json.gz").read_bytes()
        (self.folder / "bench.json").unlink()
        self.assertEqual(self.compact_run(self.folder).returncode, 0)
        self.assertEqual((self.folder / "bench.json.gz").read_bytes(), gz)

    def expect_refused(self, name: str, data: bytes, message: str) -> None:
        """compact_run.py on this folder and a copy whose `name` holds `data`:
        one line, exit status 2, neither folder touched."""
        other = Path(self.tmp.name) / "other"
        shutil.copytree(self.folder, other)
        (other / "bench.json").unlink()
        (other / name).write_bytes(data)
        before = snapshot(Path(self.tmp.name))
        result = self.compact_run(self.folder, other)
        self.assertEqual(result.returncode, 2, result.stderr)
        lines = result.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertTrue(lines[0].startswith("compact_run.py: error: "), lines[0])
        self.assertIn(message, lines[0])
        self.assertEqual(snapshot(Path(self.tmp.name)), before)

    def test_truncated_gzip(self):
        gz = compact.encode(compact.compact(rf.build(rf.SLOWED)))
        self.expect_refused("bench.json.gz", gz[:len(gz) // 2], "bench.json.gz is cut short")

    def test_corrupt_gzip(self):
        gz = bytearray(compact.encode(compact.compact(rf.build(rf.SLOWED))))
        gz[30:60] = bytes(30)
        self.expect_refused("bench.json.gz", bytes(gz), "bench.json.gz is not a valid gzip file")

    def test_broken_png(self):
        self.expect_refused("nodes.png", b"\x89PNG\r\n\x1a\n" + bytes(40), "other/nodes.png")


class Readers(unittest.TestCase):
    """Every reader takes a folder that holds only bench.json.gz, and a
    corrupt one stops it with one line and exit status 2."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name) / "results"
        self.run_dir = self.root / "cpu-a-2c" / "20260101-000000-aaaaaaa"
        self.run_dir.mkdir(parents=True)
        self.gz = compacted(rf.build(rf.plotted_groups()), self.run_dir)

    def tearDown(self):
        self.tmp.cleanup()

    def test_plot_and_index(self):
        out = Path(self.tmp.name) / "plots"
        out.mkdir()
        result = run([PYTHON, PLOT, str(self.gz), "--out", str(out), "--format", "png"])
        self.assertEqual(result.returncode, 0, result.stderr)
        report = (out / "report.md").read_text()
        self.assertIn("rounds", report)
        # The machine table counts the groups; their members stay in the JSON.
        sizes = [len(members) for members in rf.plotted_groups()]
        self.assertIn(f"| Comparison groups | {len(sizes)}, of {min(sizes)} to {max(sizes)} "
                      "configurations each ", report)
        self.assertNotIn('{"groups"', report)
        result = run([PYTHON, INDEX, str(self.root)])
        self.assertEqual(result.returncode, 0, result.stderr)
        index = (self.root / "README.md").read_text()
        self.assertRegex(index, r"\| quick \|")  # the sweep, read from the .gz context

    def test_retry_noisy_reads_it(self):
        result = run([PYTHON, str(SCRIPTS / "retry_noisy.py"), "baseline", str(self.gz)])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertRegex(result.stdout.strip(), r"^\d+(\.\d+)?,\d+(\.\d+)?$")

    def test_truncated(self):
        data = self.gz.read_bytes()
        self.gz.write_bytes(data[:-20])
        for command in ([PYTHON, PLOT, str(self.gz), "--out", self.tmp.name],
                        [PYTHON, str(SCRIPTS / "agreement.py"), str(self.gz), str(self.gz)]):
            result = run(command)
            self.assertEqual(result.returncode, 2, result.stderr)
            lines = result.stderr.strip().splitlines()
            self.assertEqual(len(lines), 1, result.stderr)
            self.assertIn("bench.json.gz is cut short", lines[0])


class CommittedRuns(unittest.TestCase):
    """Every run committed under results/ is at most MAX_RUN_BYTES in its
    committed form (the files git tracks in its folder)."""

    def test_sizes(self):
        listed = run(["git", "-C", str(REPO), "ls-files", "-z", "results"])
        if listed.returncode != 0:
            self.skipTest("not a git work tree")
        sizes: dict = {}
        for path in filter(None, listed.stdout.split("\0")):
            parts = Path(path).parts
            if len(parts) >= 4 and (REPO / path).is_file():  # results/<machine>/<run>/<file>
                run_dir = "/".join(parts[:3])
                sizes[run_dir] = sizes.get(run_dir, 0) + (REPO / path).stat().st_size
        self.assertTrue(sizes, "no committed run under results/")
        for run_dir, size in sizes.items():
            self.assertLessEqual(size, MAX_RUN_BYTES, run_dir)


if __name__ == "__main__":
    unittest.main()
