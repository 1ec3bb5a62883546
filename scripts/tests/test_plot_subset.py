"""Tests of plot.py --schemes and --kernels (chbench_plots/subset.py): the
per-kernel plots draw the kernels chosen, the others the whole run, the
report says so, and an unknown name stops it."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from support import FIXTURE, PYTHON, SCRIPTS, assert_refused, run
from plot_support import section

# support puts scripts/ on sys.path.
from chbench_plots import subset as subset_mod  # noqa: E402
from chbench_plots.errors import InputError  # noqa: E402
from chbench_plots.goal_specs import GOALS_FILE, load_goals  # noqa: E402
from chbench_plots.load import load  # noqa: E402
from chbench_plots.main import analyse, figures  # noqa: E402

PLOT = str(SCRIPTS / "plot.py")


def labels(fig) -> set:
    """The legend labels of every axes of a figure."""
    out = set()
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is not None:
            out |= {t.get_text() for t in legend.get_texts()}
    return out


class Drawings(unittest.TestCase):
    """The fixture's figures, whole and for a subset."""

    @classmethod
    def setUpClass(cls):
        cls.bench = load(FIXTURE)
        analyses = analyse(cls.bench, load_goals(GOALS_FILE))
        cls.whole, _ = figures(cls.bench, analyses)
        chosen = subset_mod.parse(cls.bench, "jump", "ring/eytzinger,ring/lower_bound")
        cls.cut, _ = figures(cls.bench, analyses, chosen)

    def test_nodes_lines_of_the_subset(self):
        whole, cut = labels(self.whole["schemes_nodes"]), labels(self.cut["schemes_nodes"])
        self.assertIn("hrw/scalar", whole)
        self.assertEqual({name for name in cut if "/" in name},
                         {name for name in whole if name.startswith(("jump/", "ring/eytzinger",
                                                                     "ring/lower_bound"))})

    def test_ring_tokens_keeps_the_floor(self):
        cut = labels(self.cut["ring_tokens"])
        self.assertIn("ring/eytzinger", cut)
        self.assertNotIn("ring/bucketed", cut)
        floor = self.bench.registry.floors()[0]
        self.assertTrue(any(floor in name for name in cut), cut)

    def test_ratio_plots_draw_the_whole_run(self):
        self.assertEqual(labels(self.whole["targets"]), labels(self.cut["targets"]))


class Names(unittest.TestCase):
    """subset.parse on the fixture's registry."""

    @classmethod
    def setUpClass(cls):
        cls.bench = load(FIXTURE)

    def test_none_without_options(self):
        self.assertIsNone(subset_mod.parse(self.bench, None, None))

    def test_forced_target_goes_with_its_kernel(self):
        chosen = subset_mod.parse(self.bench, None, "hrw/simd_keys")
        forced = [r for r in self.bench.results if r.kernel == "simd_keys@AVX3"]
        self.assertTrue(forced and all(chosen.keeps(r) for r in forced))
        self.assertEqual(chosen.text(), "kernel `hrw/simd_keys`")

    def test_unknown_names_listed_with_the_known(self):
        with self.assertRaises(InputError) as caught:
            subset_mod.parse(self.bench, "jump,rings,hrws", None)
        self.assertIn("--schemes: unknown schemes rings, hrws (known: modn, ring, hrw, jump,",
                      str(caught.exception))


class CommandLine(unittest.TestCase):
    """plot.py with the options: the report, and bad input."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_report_says_what_was_drawn(self):
        result = run([PYTHON, PLOT, str(FIXTURE), "--out", str(self.out), "--format", "png",
                      "--schemes", "jump,ring"])
        self.assertEqual(result.returncode, 0, result.stderr)
        report = (self.out / "report.md").read_text()
        self.assertIn("Drawn for the schemes `jump`, `ring` only (plot.py --schemes, --kernels); "
                      "the tables have every kernel.",
                      section(report, "### Every scheme vs node count"))
        self.assertNotIn("Drawn for", section(report, "### SIMD speed-up per Highway target"))
        self.assertIn("Not drawn: no usable `replicas` results among the kernels chosen.", report)
        self.assertIn("`hrw/scalar`", section(report, "### Family `nodes`"))  # tables whole

    def expect_error(self, message: str, *args: str) -> None:
        assert_refused(self, [PYTHON, PLOT, str(FIXTURE), "--out", str(self.out), *args],
                       "plot.py", message, self.out)

    def test_unknown_kernel(self):
        self.expect_error("--kernels: unknown kernel ring/fast (known: modn/scalar, modn/simd, "
                          "ring/lower_bound,", "--kernels", "ring/bucketed,ring/fast")

    def test_scheme_given_as_kernels(self):
        self.expect_error("--kernels: unknown kernel jump (known:", "--kernels", "jump")

    def test_empty_list(self):
        self.expect_error("--schemes was given an empty list", "--schemes", ",")


if __name__ == "__main__":
    unittest.main()
