"""Tests of the plots' files for docs sites (chbench_plots/output.py): the
--format and --theme options of plot.py, compare.py and lab_docs.py, the file
names, SVG text as paths, and byte-identical re-renders."""

from __future__ import annotations

import argparse
import tempfile
import unittest
from pathlib import Path

from support import FIXTURE, PYTHON, SCRIPTS, run
from test_compare import NODES, context, write_run

from chbench_plots import output  # noqa: E402  (support puts scripts/ on sys.path)

PLOT = str(SCRIPTS / "plot.py")
COMPARE = str(SCRIPTS / "compare.py")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# The plots plot.py draws from the fixture (every family is in it).
STEMS = ("ring_tokens", "latency", "inflight", "clustered", "schemes_nodes",
         "schemes_best_nodes", "jump_family",
         "removals", "removals_memory", "threads", "batch", "hashed", "targets")


class Options(unittest.TestCase):
    """parse_formats, the names of files, and what argparse makes of both options."""

    def parser(self) -> argparse.ArgumentParser:
        parser = argparse.ArgumentParser()
        output.add_arguments(parser)
        return parser

    def test_formats(self):
        self.assertEqual(output.parse_formats("png,svg,pdf"), ("png", "svg", "pdf"))
        self.assertEqual(output.parse_formats("SVG, png,svg"), ("svg", "png"))
        self.assertEqual(output.parse_formats("pdf"), ("pdf",))

    def test_bad_formats(self):
        for text, expect in (("png,gif", "unknown format 'gif'"), ("", "an empty one"),
                             ("png,,svg", "'png,,svg' has an empty item"), ("jpeg", "choose from png, svg, pdf")):
            with self.subTest(text=text), self.assertRaises(argparse.ArgumentTypeError) as err:
                output.parse_formats(text)
            self.assertIn(expect, str(err.exception))

    def test_defaults(self):
        args = self.parser().parse_args([])
        self.assertEqual(args.formats, ("png", "svg"))
        self.assertEqual(args.theme, "light")
        args = self.parser().parse_args(["--format", "pdf", "--theme", "dark"])
        self.assertEqual((args.formats, args.theme), (("pdf",), "dark"))

    def test_names(self):
        self.assertEqual(output.file_name("schemes_nodes", "svg"), "schemes_nodes.svg")
        self.assertEqual(output.file_name("schemes_nodes", "png", "dark"), "schemes_nodes-dark.png")
        self.assertEqual(output.embed_name("a", ("svg", "png")), "a.png")
        self.assertEqual(output.embed_name("a", ("pdf", "svg"), "dark"), "a-dark.svg")
        self.assertEqual(output.embed_name("a", ("pdf",)), "a.pdf")


def plot(out: Path, *args: str):
    result = run([PYTHON, PLOT, str(FIXTURE), "--out", str(out), *args])
    assert result.returncode == 0, result.stderr
    return result


class PlotFiles(unittest.TestCase):
    """The files plot.py writes per format and theme."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.first, cls.second = Path(cls.tmp.name) / "1", Path(cls.tmp.name) / "2"
        for out in (cls.first, cls.second):
            out.mkdir()
            plot(out, "--format", "png,svg,pdf")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_plot_in_every_format(self):
        expected = {f"{s}.{f}" for s in STEMS for f in ("png", "svg", "pdf")} | {"report.md", "summary.txt"}
        self.assertEqual({p.name for p in self.first.iterdir()}, expected)
        self.assertTrue((self.first / "batch.png").read_bytes().startswith(PNG_MAGIC))
        self.assertTrue((self.first / "batch.pdf").read_bytes().startswith(b"%PDF"))
        self.assertIn(b"<svg", (self.first / "batch.svg").read_bytes()[:400])

    def test_svg_text_is_paths(self):
        for stem in STEMS:
            svg = (self.first / f"{stem}.svg").read_text()
            self.assertNotIn("<text", svg, stem)
            self.assertNotIn("font-family", svg, stem)
            self.assertNotIn("<dc:date>", svg, stem)

    def test_renders_are_byte_identical(self):
        for stem in STEMS:
            for fmt in ("svg", "pdf", "png"):
                name = f"{stem}.{fmt}"
                self.assertEqual((self.first / name).read_bytes(),
                                 (self.second / name).read_bytes(), name)

    def test_report_shows_the_png(self):
        report = (self.first / "report.md").read_text()
        self.assertIn("(schemes_nodes.png)", report)
        self.assertNotIn(".svg)", report)

    def test_dark_theme_beside_light(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            plot(out)
            plot(out, "--theme", "dark", "--format", "svg")
            names = {p.name for p in out.iterdir()}
            self.assertEqual(names, {f"{s}{t}.{f}" for s in STEMS for t, f in
                                     (("", "png"), ("", "svg"), ("-dark", "svg"))} | {"report.md", "summary.txt"})
            dark = (out / "batch-dark.svg").read_text()
            self.assertIn(output.DARK_BACKGROUND, dark)
            self.assertNotIn(output.DARK_BACKGROUND, (out / "batch.svg").read_text())
            self.assertIn("(schemes_nodes-dark.svg)", (out / "report.md").read_text())

    def test_format_no_longer_asked_for_is_removed(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            plot(out)
            plot(out, "--format", "svg")
            self.assertEqual({p.name for p in out.iterdir()},
                             {f"{s}.svg" for s in STEMS} | {"report.md", "summary.txt"})
            self.assertIn("(schemes_nodes.svg)", (out / "report.md").read_text())


class CompareFiles(unittest.TestCase):
    """compare.py's plots per format and theme, stale ones removed."""

    def test_formats_and_theme(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "results"
            times = {NODES.format("jump/scalar", 10): 5.0}
            write_run(root, "cpu-a-2c", "20260101-000000-aaaaaaa", context("release"), times)
            write_run(root, "cpu-b-2c", "20260101-000000-bbbbbbb", context("release"), times)
            out = Path(tmp) / "out"
            for args in ([], ["--theme", "dark", "--format", "pdf"]):
                result = run([PYTHON, COMPARE, str(root), "--out", str(out), *args])
                self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual({p.name for p in out.iterdir()},
                             {"compare.md", "compare_nodes.png", "compare_nodes.svg",
                              "compare_nodes-dark.pdf"})
            self.assertIn("![nodes](compare_nodes-dark.pdf)", (out / "compare.md").read_text())
            again = Path(tmp) / "again"
            run([PYTHON, COMPARE, str(root), "--out", str(again)])
            self.assertEqual((again / "compare_nodes.svg").read_bytes(),
                             (out / "compare_nodes.svg").read_bytes())

    def test_bad_format(self):
        result = run([PYTHON, COMPARE, "--format", "png,tiff"])
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr, "compare.py: error: argument --format: unknown format "
                         "'tiff' in 'png,tiff' (choose from png, svg, pdf) (see --help)\n")


class LabDocsPlots(unittest.TestCase):
    """lab_docs.py's three plots from lab results of the shapes it reads."""

    def test_plot_files(self):
        import lab_docs
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        summary = {"circle": {"share_std_pct": {"pooled": 10.0}},
                   "keys": {"share_std_pct": {"pooled": 11.0},
                            "busiest_over_mean": {"mean": 1.3, "min": 1.2, "max": 1.4}}}
        by_v = {v: {"nodes": 10, "summary": summary,
                    "theory": {"circle_share_std_pct": 9.0, "busiest_over_mean": 2.9}}
                for v in (1, 10)}
        g = {"sweep": {"ring": [(1, 0.5), (2, 0.33)], "jump": [(1, 0.5), (2, 0.33)]},
             "ring_scheme": "ring"}
        args = lab_docs.parse_args(["--lab", "/bin/true", "--out", "/tmp", "--format",
                                    "svg,png", "--theme", "dark"])
        files = lab_docs.plot_files(plt, g, {"by_v": by_v}, args)
        again = lab_docs.plot_files(plt, g, {"by_v": by_v}, args)
        self.assertEqual(set(files), {f"{s}-dark.{f}" for s in lab_docs.PLOTS
                                      for f in ("svg", "png")})
        self.assertEqual(files, again)
        self.assertNotIn(b"<text", files["lab_moved_vs_n-dark.svg"])



class LabLoadDocs(unittest.TestCase):
    """lab_load_docs.py's plots and sections from lab results of the shapes it reads."""

    @staticmethod
    def results() -> dict:
        import lab_load_docs as d

        schemes = ("ring", "jump")
        zipf = {(sc, s): {"request_load": {"busiest_over_mean": 1 + s}, "hottest_key_share": s / 4}
                for sc in schemes for s in d.ZIPF_S}
        moved = {"keys": 100, "plain": {"keys": 9, "requests": 90},
                 "bounded": {"moved": {"keys": 12, "requests": 120}}}
        balance = {c: {"requests": 1000, "request_load": {"busiest_over_mean": 2.0},
                       "bounded": {"load": {"busiest_over_mean": min(c, 2.0)}, "walked": 10}}
                   for c in d.FACTORS}
        tokens = {(ring, m, v, rf): [{"nodes": n, "std_pct": 1.0 if m == "allocated" else 5.0,
                                      "max_over_mean": 1.01 if m == "allocated" else 1.1}
                                     for n in range(3, d.TOKENS_TO + 1)]
                  for ring in ("ring", "cassandra") for rf in (1, 3)
                  for m, v in (("allocated", 16), ("random", 16), ("random", 256))}
        return {"zipf": zipf, "bounded": {"balance": balance, "join": dict.fromkeys(d.FACTORS, moved),
                                          "leave": dict.fromkeys(d.FACTORS, moved)},
                "tokens": tokens, "keys": 1000, "schemes": schemes, "ring_scheme": "ring"}

    def test_figures_and_sections(self):
        import lab_docs
        import lab_load_docs as d
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        r = self.results()
        figures = d.figures(plt, r, lab_docs.colors(r["schemes"]), str.upper)
        self.assertEqual(set(figures), set(d.PLOTS))
        for stem, draw in figures.items():
            fig = draw()
            self.assertTrue(output.encode(fig, "png", 50).startswith(b"\x89PNG"), stem)
            plt.close(fig)
        images = {stem: stem + ".png" for stem in d.PLOTS}
        text = "\n".join(d.sections(r, str.upper, images))
        for stem in d.PLOTS:
            self.assertIn(f"({stem}.png)", text)
        self.assertIn("no worse than 256 random ones in every row", text)
        # 16 random spread 5 / 1 times as much as 16 allocated in every row.
        self.assertIn("spread 5 to 5 times as much", text)

if __name__ == "__main__":
    unittest.main()
