"""plot.py and the run's kernel registry (context "chbench_registry"): refused
when missing or corrupt; the SIMD kernels, rivals and knobs it names are what
the plots and the report show, with no table of kernels in the scripts."""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from make_fixture import KERNELS, registry, registry_text
from support import FIXTURE, PYTHON, run
from plot_support import PLOT, bench_json, check_rejected, entry, section, table_rows

# support puts scripts/ on sys.path.
from chbench_plots import goal_specs, load  # noqa: E402
from chbench_plots import main as plot_main  # noqa: E402

NAME = "{}/{}/N:{}/V:100/K:1000/threads:1/real_time"


def figures(path: Path) -> dict:
    """The matplotlib figures plot.py draws for a bench JSON file."""
    run_ = load.load(path)
    analyses = plot_main.analyse(run_, goal_specs.load_goals())
    return plot_main.figures(run_, analyses)[0]


def tick_labels(fig) -> list:
    """The x tick labels of a figure's first axes, one line each."""
    return [t.get_text().replace("\n", " ") for t in fig.axes[0].get_xticklabels()]


def legend_texts(fig) -> list:
    """Every legend entry of a figure."""
    return [t.get_text() for ax in fig.axes if ax.get_legend()
            for t in ax.get_legend().get_texts()]


class MissingOrCorrupt(unittest.TestCase):
    """A run without a usable registry: exit 2, one line, nothing written."""

    ENTRIES = [entry(NAME.format("tokens", "ring/lower_bound", 10), 5.0)]

    def check(self, context: dict, expect: str):
        check_rejected(self, bench_json(self.ENTRIES, context=context).encode(), expect)

    def test_missing(self):
        self.check({"date": "x"}, "has no kernel registry (context \"chbench_registry\")")

    def test_not_json(self):
        self.check({"chbench_registry": "{\"schemes\": [oops"},
                   "context \"chbench_registry\" is not valid JSON")

    def test_cut_short(self):
        text = registry_text()
        self.check({"chbench_registry": text[: len(text) // 2]}, "is not valid JSON")

    def test_not_a_string(self):
        self.check({"chbench_registry": registry()}, "is not a string holding JSON")

    def test_no_kernels(self):
        self.check({"chbench_registry": json.dumps({"schemes": []})}, "has no \"kernels\" list")

    def test_bad_kernel_name(self):
        broken = registry()
        broken["kernels"][3]["name"] = "eytzinger"
        self.check({"chbench_registry": json.dumps(broken)},
                   "kernel 4 has no \"name\" of the form scheme/kernel")

    def test_bad_field_type(self):
        broken = registry()
        broken["kernels"][0]["simd"] = "yes"
        self.check({"chbench_registry": json.dumps(broken)}, "\"simd\" is not a bool")

    def test_fixture_without_its_registry(self):
        data = json.loads(FIXTURE.read_text())
        del data["context"]["chbench_registry"]
        check_rejected(self, json.dumps(data).encode(), "has no kernel registry")


class TargetsFromTheRegistry(unittest.TestCase):
    """The fixture's SIMD kernels, as its registry marks them, in targets.png."""

    @classmethod
    def setUpClass(cls):
        cls.figs = figures(FIXTURE)

    def test_every_simd_kernel_with_a_rival_is_drawn(self):
        labels = [label.split(" K = ")[0] for label in tick_labels(self.figs["targets"])]
        # ring/simd_branchless, jumpback_xorshift/simd, power/simd,
        # binomial/simd, hrw_weighted/simd and multiprobe/simd are not in the
        # fixture's family "targets" (as a --kernels selection may leave them
        # out); every other SIMD kernel is.
        for kernel in ("maglev/ simd N = 1,000", "ring/ stree N = 655", "ring/ bucketed N = 655",
                       "ring/ simd_eytzinger N = 655", "hrw/ simd_keys N = 64",
                       "hrw/ simd_nodes N = 64", "jump/ simd N = 1,000", "modn/ simd N = 1,000",
                       "jumpback/ simd N = 1,000", "flip/ simd N = 1,000"):
            self.assertIn(kernel, labels)
        simd = {name for name, is_simd, rival, *_ in KERNELS if is_simd and rival}
        drawn = {label.split(" N = ")[0].replace("/ ", "/") for label in labels}
        self.assertEqual(drawn, simd - {"ring/simd_branchless", "jumpback_xorshift/simd",
                                        "power/simd", "binomial/simd", "hrw_weighted/simd",
                                        "multiprobe/simd"})

    def test_inflight_panels_named_by_the_knob(self):
        titles = [ax.get_title() for ax in self.figs["inflight"].axes]
        self.assertEqual(titles, ["ring/stree: lockstep group",
                                  "ring/bucketed: prefetch distance"])


class NewKernel(unittest.TestCase):
    """A kernel only the run's registry knows (ring/newkernel: SIMD, rival
    ring/eytzinger) is plotted and reported with no change to the scripts."""

    @classmethod
    def setUpClass(cls):
        kernels = KERNELS + (("ring/newkernel", True, "ring/eytzinger", False, 7, None),)
        entries = []
        for n, eytzinger, new in ((10, 8.0, 2.0), (655, 14.0, 3.5)):
            entries += [entry(NAME.format("tokens", "ring/eytzinger", n), eytzinger),
                        entry(NAME.format("tokens", "ring/newkernel", n), new)]
        entries += [entry(NAME.format("targets", "ring/eytzinger", 655), 7.0),
                    entry(NAME.format("targets", "ring/newkernel", 655), 1.4, label="AVX3"),
                    entry(NAME.format("targets", "ring/newkernel@AVX3", 655), 1.4,
                          label="AVX3"),
                    entry(NAME.format("targets", "ring/newkernel@SCALAR", 655), 5.6,
                          label="SCALAR")]
        cls.tmp = tempfile.TemporaryDirectory()
        cls.src = Path(cls.tmp.name) / "bench.json"
        cls.src.write_text(bench_json(entries, kernels=kernels))
        result = run([PYTHON, PLOT, str(cls.src), "--out", cls.tmp.name])
        assert result.returncode == 0, result.stderr
        cls.report = (Path(cls.tmp.name) / "report.md").read_text()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_targets_table(self):
        rows = table_rows(section(self.report, "### Speed-up over the scalar counterpart"))
        self.assertEqual(rows, [["`ring/newkernel`", "655", "1,000", "`ring/eytzinger`", "7.00",
                                 "5.00× (AVX3)", "5.00×", "1.25×", "–"]])  # 7/1.4, 7/5.6

    def test_targets_plot(self):
        figs = figures(self.src)
        self.assertEqual(tick_labels(figs["targets"]), ["ring/ newkernel N = 655"])

    def test_tokens_plot_and_table(self):
        figs = figures(self.src)
        self.assertIn("ring/newkernel", legend_texts(figs["ring_tokens"]))
        rows = table_rows(section(self.report, "### Family `tokens`"))
        self.assertIn("`ring/newkernel`", [r[0] for r in rows])
        self.assertIn("`ring/newkernel` against `ring/eytzinger`",
                      section(self.report, "## SIMD targets"))



class BorrowedRegistry(unittest.TestCase):
    """--registry: a run from before the bench recorded its registry is
    plotted with a later run's, and the report says so."""

    def plot(self, kernels_of_lender: tuple) -> tuple:
        with tempfile.TemporaryDirectory() as tmp:
            old, lender = Path(tmp) / "old.json", Path(tmp) / "lender.json"
            old.write_text(bench_json([entry(NAME.format("nodes", "jump/scalar", 10), 4.0)],
                                      context={}))
            lender.write_text(bench_json([entry(NAME.format("nodes", "jump/scalar", 10), 1.0)],
                                         kernels=kernels_of_lender))
            result = run([PYTHON, PLOT, str(old), "--out", tmp, "--registry", str(lender)])
            report = (Path(tmp) / "report.md").read_text() if result.returncode == 0 else ""
            return result, report, str(lender)

    def test_borrowed(self):
        result, report, lender = self.plot(KERNELS)
        self.assertEqual(result.returncode, 0, result.stderr)
        warning = f"this run recorded no kernel registry; the plots take that of {lender}"
        self.assertIn(f"plot.py: warning: {warning}", result.stderr)
        self.assertIn(warning, report)
        self.assertIn("4.00", section(report, "### Family `nodes`"))

    def test_lender_lacks_a_kernel(self):
        result, _, lender = self.plot(tuple(k for k in KERNELS if k[0] != "jump/scalar"))
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr, f"plot.py: error: the registry of {lender} lacks "
                         "kernels this run measured: jump/scalar\n")


if __name__ == "__main__":
    unittest.main()


class ParamTable(unittest.TestCase):
    """The registry's parameter table: read where the bench writes one, empty
    for an older run, one clear line for a malformed entry."""

    def parse(self, params):
        data = registry()
        if params is not None:
            data["params"] = params
        from chbench_plots import registry as registry_module
        return registry_module.from_context({"chbench_registry": json.dumps(data)}, "run")

    def test_read(self):
        got = self.parse([{"name": "vnodes", "kind": "int", "option": "--vnodes", "symbol": "V",
                           "min": 1, "max": 4294967295, "default": 100, "segment": "V",
                           "field": "vnodes", "counter": True},
                          {"name": "weights", "kind": "per_node", "segment": "weights"}])
        self.assertEqual(got.param("vnodes").segment, "V")
        self.assertEqual(got.param("vnodes").default, 100)
        self.assertEqual(got.param("weights").kind, "per_node")
        self.assertEqual(got.param("weights").field, "weights")
        self.assertIsNone(got.param("probes"))

    def test_older_run_has_none(self):
        self.assertEqual(self.parse(None).params, ())

    def test_bad_kind(self):
        from chbench_plots.errors import InputError
        with self.assertRaisesRegex(InputError, "param 1: \"kind\" is 'list'"):
            self.parse([{"name": "weights", "kind": "list"}])


class Roles(unittest.TestCase):
    """The schemes the scripts need in a role, found by what the registry says
    of them: the ring takes virtual nodes, rendezvous scores every node and
    takes no weights; an older run's registry by the documented fallback."""

    @staticmethod
    def parse(data: dict):
        from chbench_plots import registry as registry_module
        return registry_module.from_context({"chbench_registry": json.dumps(data)}, "run")

    def test_by_the_fields(self):
        data = registry()
        for s in data["schemes"]:  # rename every scheme: the roles follow the fields
            s["name"] = "x_" + s["name"]
        got = self.parse(data)
        self.assertEqual(got.ring(), "x_ring")
        self.assertEqual(got.rendezvous(), "x_hrw")  # not x_hrw_weighted: it takes weights

    def test_none_without_the_role(self):
        data = registry()
        data["schemes"] = [s for s in data["schemes"] if s["name"] not in ("ring", "hrw")]
        got = self.parse(data)
        self.assertIsNone(got.ring())
        self.assertIsNone(got.rendezvous())

    def test_older_run_without_the_field(self):
        data = registry()
        for s in data["schemes"]:
            del s["scores_every_node"]
        got = self.parse(data)
        self.assertEqual(got.rendezvous(), "hrw")
        self.assertEqual([s.name for s in got.schemes if s.scores_every_node],
                         ["hrw", "hrw_weighted"])
