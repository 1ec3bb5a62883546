"""guide.py on a small synthetic run timed in rounds, with a stand-in lab:
each recommendation comes from the family that measures its situation (the
fastest with 10 % and 50 % of the nodes removed differs from the fastest with
none removed), ties are named as ties, the advice is for the measured N
nearest the fleet size asked, a flagged figure is marked, a scheme with no
figure has its row, a scheme page's caveat is carried over, and balance is
judged against the noise floor."""

from __future__ import annotations

import json
import os
import tempfile
import unittest
from pathlib import Path

import make_rounds_fixture as rf
from support import PYTHON, SCRIPTS, run
from test_plot import table_rows

from chbench_plots import guide, guide_balance, guide_schemes, latency, load  # noqa: E402
from chbench_plots import registry as registry_module  # noqa: E402

GUIDE = str(SCRIPTS / "guide.py")
R = rf.ROUNDS


def removal_name(label: str, pct: int, order: str = "random") -> str:
    return (f"removals/{label}/N:1000/V:100/K:100000/threads:1/removed:{pct}/order:{order}"
            f"/iterations:1/repeats:{R}/manual_time")


def latency_name(label: str) -> str:
    return f"latency/{label}/N:1000/V:100/K:100003/threads:1/iterations:1/repeats:{R}/manual_time"


# Family nodes: jump hash fastest at N = 1,000 (nothing removed); at N = 100
# jump and Maglev tie (within 1 % round by round). Family removals (the
# schemes that let any node leave): Maglev fastest at 10 %, the ring at 50 %.
# Family latency: one key at a time, mod-N fastest.
GROUPS = [
    [(rf.name("nodes", "jump/simd", 100), rf.steady(2.0)),
     (rf.name("nodes", "maglev/simd", 100), rf.steady(2.01, phase=3)),
     (rf.name("nodes", "ring/bucketed", 100), rf.steady(5.0)),
     (rf.name("nodes", "hrw/scalar", 100), rf.steady(20.0))],
    [(rf.name("nodes", "jump/simd", 1000), rf.steady(2.5)),
     (rf.name("nodes", "maglev/simd", 1000), rf.steady(3.0)),
     (rf.name("nodes", "ring/bucketed", 1000), rf.steady(6.0)),
     (rf.name("nodes", "hrw/scalar", 1000), rf.steady(200.0))],
    [(removal_name("ring/bucketed", 10), rf.steady(6.0)),
     (removal_name("maglev/simd", 10), rf.steady(3.5)),
     (removal_name("hrw/simd_keys", 10), rf.steady(180.0)),
     (removal_name("jump/simd", 10, "lifo"), rf.steady(1.0))],
    [(removal_name("ring/bucketed", 50), rf.steady(2.0)),
     (removal_name("maglev/simd", 50), rf.steady(3.5)),
     (removal_name("hrw/simd_keys", 50), rf.steady(90.0))],
    [(latency_name("modn/simd"), rf.steady(8.0)), (latency_name("jump/simd"), rf.steady(30.0)),
     (latency_name("ring/bucketed"), rf.steady(60.0))],
]
MEMORY = {("ring", 10): 5_000_000.0, ("maglev", 10): 262_148.0, ("ring", 50): 2_500_000.0,
          ("maglev", 50): 262_148.0}
NOISY = "nodes/ring/bucketed/N:1000"  # flagged by the canary

# The stand-in lab: busiest ÷ mean per scheme, all else small and fixed.
FAKE_LAB = r'''#!/usr/bin/python3
import json, sys
args = sys.argv[1:]
scheme, keys = args[args.index("--scheme") + 1], int(args[args.index("--keys") + 1])
if args[0] == "balance":
    value = {"ring": 1.40, "maglev": 1.25, "hrw": 1.104, "jump": 1.102}.get(scheme, 1.105)
    print(json.dumps({"scheme": scheme, "keys": keys, "vnodes": 100 if scheme == "ring" else None,
                      "table_size": 65537 if scheme == "maglev" else None,
                      "summary": {"keys": {"busiest_over_mean": {"mean": value}}}}))
else:
    print(json.dumps({"moved_fraction": 0.001, "between_old_fraction": 0.0}))
'''


def bench_json() -> dict:
    data = rf.build(GROUPS)
    for row in data["benchmarks"]:
        name = row["name"]
        if name.startswith("removals/"):
            scheme, pct = name.split("/")[1], int(name.split("removed:")[1].split("/")[0])
            row["memory_bytes"] = MEMORY.get((scheme, pct), 4096.0)
            row["removed_pct"] = float(pct)
        if name.startswith(NOISY + "/"):
            row["noisy"] = 1.0
    return data


class Situations(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        tmp = Path(cls.tmp.name)
        cls.run_dir = tmp / "results" / "cpu-a-2c" / "20261201-000000-aaaaaaa"
        cls.run_dir.mkdir(parents=True)
        (cls.run_dir / "bench.json").write_text(json.dumps(bench_json()))
        cls.lab = tmp / "lab"
        cls.lab.write_text(FAKE_LAB)
        os.chmod(cls.lab, 0o755)
        cls.pages = {}
        for nodes in (1000, 300):
            out = tmp / f"out{nodes}"
            out.mkdir()
            result = run([PYTHON, GUIDE, str(cls.run_dir), "--nodes", str(nodes), "--lab",
                          str(cls.lab), "--out", str(out), "--keys", "1000000"])
            cls.pages[nodes] = (result, (out / "guide.md").read_text()
                                if result.returncode == 0 else "")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def page(self, nodes: int = 1000) -> str:
        result, text = self.pages[nodes]
        self.assertEqual(result.returncode, 0, result.stderr)
        return text

    def decisions(self, nodes: int = 1000) -> str:
        return self.page(nodes).split("## Decisions")[1].split("## Lookup cost")[0]

    def test_removals_advice_differs_from_nothing_removed(self):
        part = self.decisions()
        # The medians carry the fixture's drift of the host (steady()).
        self.assertIn("- Fastest batch lookup at N = 1,000, nothing removed: jump hash (2.51 "
                      "[2.44-2.57] ns/key, `nodes/jump/simd/N:1000`).", part)
        self.assertIn("- Any node may leave or fail, 10 % of N = 1,000 removed: Maglev (3.51 "
                      "[3.42-3.59] ns/key, `removals/maglev/simd/N:1000/removed:10`); memory "
                      "after removal: Maglev 256 KiB.", part)
        self.assertIn("- Any node may leave or fail, 50 % of N = 1,000 removed: ring "
                      "(consistent hashing) (2.01 [1.95-2.05] ns/key, "
                      "`removals/ring/bucketed/N:1000/removed:50`); memory after removal: ring "
                      "(consistent hashing) 2.38 MiB.", part)
        self.assertIn("- Fastest one key at a time at N = 1,000 (what a client doing one lookup "
                      "per request pays): mod-N (8.03 [7.81-8.21] ns/key, "
                      "`latency/modn/simd/N:1000`).", part)
        self.assertNotIn("jump hash", part.split("Any node may leave")[1])

    def test_tie_and_nearest_n(self):
        page = self.page(300)
        self.assertIn("The advice is for N = 100 nodes, the measured N nearest the N = 300 "
                      "asked for (on a log scale).", page)
        part = self.decisions(300)
        self.assertIn("- Fastest batch lookup at N = 100, nothing removed: a tie of Maglev (2.00 "
                      "[1.95-2.04] ns/key, `nodes/maglev/simd/N:100`) and jump hash (2.01 "
                      "[1.95-2.05] ns/key, `nodes/jump/simd/N:100`), which the rounds do not "
                      "separate.", part)
        self.assertEqual(guide.nearest([10, 100, 1000], 300), 100)
        self.assertEqual(guide.nearest([10, 100, 1000], 400), 1000)
        self.assertEqual(guide.nearest([10, 100, 4096], 2000), 4096)

    def table(self, heading: str) -> list:
        return table_rows(self.page().split(heading)[1].split("\n## ")[0])

    def test_flagged_figure_and_unmeasured_scheme(self):
        rows = {r[0]: r for r in self.table("## Lookup cost")}
        self.assertEqual(rows["ring (consistent hashing)"][2], "V = 100")
        self.assertTrue(rows["ring (consistent hashing)"][4].endswith("~"),
                        rows["ring (consistent hashing)"])
        self.assertFalse(rows["jump hash"][4].endswith("~"))
        self.assertTrue(rows["jump hash"][4].endswith("*"))
        self.assertEqual(rows["Maglev"][2], "M = 65,537 (lab)")
        self.assertEqual(rows["FlipHash"][1:3], ["not measured in this run", "–"])
        self.assertEqual(rows["mod-N"][1:],
                         ["–", "–", "–", "–", "8.03 [7.81-8.21] (`simd`)"])
        self.assertEqual(len(rows), 12)  # every scheme of the registry

    def test_caveat_carried_over(self):
        caveats = self.page().split("## Caveats")[1].split("## Crossovers")[0]
        self.assertIn("- JumpBackHash (XorshiftL7R9) (`jumpback_xorshift`): its generator, "
                      "XorshiftL7R9, is fast but called statistically weak by hash4j", caveats)
        rows = [r[0] for r in self.table("## Lookup cost")]
        self.assertIn("JumpBackHash (XorshiftL7R9) (caveat below)", rows)
        self.assertIn("jump hash", rows)  # no caveat on its page

    def test_balance_against_the_floor(self):
        part = self.decisions()
        floor = guide_balance.floor(1_000_000, 1000)
        self.assertLess(floor.lo, 1.1)
        line = next(x for x in part.splitlines() if x.startswith("- Most even load"))
        self.assertTrue(line.startswith(
            "- Most even load: a tie at the noise floor, from 1,000,000 keys (a uniform random "
            f"placement: {guide_balance.floor_text(floor)}): jump hash 1.102, rendezvous (HRW) "
            "1.104, "), line)
        self.assertNotIn("Maglev", line)
        self.assertNotIn("ring", line)
        rows = {r[0]: r for r in self.table("## Fleet changes")}
        self.assertEqual(rows["ring (consistent hashing)"][6], "1.400")
        self.assertEqual(rows["jump hash"][6], "1.102 (at the floor)")
        self.assertEqual(rows["jump hash"][8], guide_balance.floor_text(floor))

    def test_source_named_within_results(self):
        self.assertIn("`results/cpu-a-2c/20261201-000000-aaaaaaa`", self.page())
        self.assertNotIn(str(self.tmp.name), self.page())


class Floor(unittest.TestCase):
    def test_floor_matches_the_known_scale(self):
        # K keys into N nodes: the busiest ≈ mean + sd × sqrt(2 ln N), sd = sqrt(K/N).
        f = guide_balance.floor(10_000_000, 1000)
        self.assertAlmostEqual(f.mean, 1 + (1000 / 1e7) ** 0.5 * (2 * 6.9078) ** 0.5, delta=0.008)
        self.assertLess(f.lo, f.mean)
        self.assertLess(f.mean, f.hi)
        self.assertEqual(f, guide_balance.floor(10_000_000, 1000))  # seeded

    def test_ranking_above_the_floor(self):
        f = guide_balance.Floor(10**6, 1000, 1.10, 1.08, 1.13)
        floors = {s: f for s in "abc"}
        self.assertEqual(guide_balance.most_even({"a": 1.30, "b": 1.20, "c": 1.50}, floors),
                         ("one", ["b"]))
        self.assertEqual(guide_balance.most_even({"a": 1.22, "b": 1.20, "c": 1.50}, floors),
                         ("tie", ["b", "a"]))
        self.assertEqual(guide_balance.most_even({"a": 1.12, "b": 1.20}, floors),
                         ("floor", ["a"]))


class LatencyPlot(unittest.TestCase):
    def test_the_ring_sweep_leaves_out_the_point_of_every_scheme(self):
        def result(label: str, n: int, floor: bool = False) -> load.Result:
            scheme, kernel = label.split("/")
            return load.Result(f"latency/{label}/N:{n}", "latency", scheme, kernel, nodes=n,
                               vnodes=100, tokens=n * 100 if scheme == "ring" else 0,
                               takes_vnodes=scheme == "ring", is_floor=floor, ns=1.0)
        results = [result("ring/eytzinger", 655), result("ring/stream", 655, True),
                   result("ring/bucketed", 1000), result("jump/simd", 1000)]
        self.assertEqual([r.run_name for r in latency.ring_sweep(results)],
                         ["latency/ring/eytzinger/N:655", "latency/ring/stream/N:655"])


class Caveats(unittest.TestCase):
    def test_page_lines_become_caveats(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "zeta.md").write_text("# Zeta\n\nCaveat: slow when empty.\n"
                                               "Caveat (`zeta_fast`): weak generator.\n"
                                               "Not a Caveat: here.\n")
            self.assertEqual(guide_schemes.caveats(Path(tmp)),
                             {"zeta": ["slow when empty."], "zeta_fast": ["weak generator."]})


class SetupText(unittest.TestCase):
    """A scheme's set-up line takes each parameter's symbol, field and lab key
    from the run's parameter table, so a parameter the scripts never name
    shows as the others do."""

    def registry(self, params: list):
        data = {"schemes": [{"name": "zeta", "params": ["table_size", "probe_depth", "weights"]}],
                "kernels": [{"name": "zeta/scalar", "scheme": "zeta", "kernel": "scalar"}],
                "params": params}
        return registry_module.from_context({"chbench_registry": json.dumps(data)}, "run")

    def test_from_the_run_table(self):
        table = [{"name": "table_size", "symbol": "M", "field": "table_size", "segment": "M"},
                 {"name": "probe_depth", "symbol": "D", "field": "depth"},
                 {"name": "weights", "kind": "per_node", "default": 1}]
        params = guide_schemes.params_of(self.registry(table), "zeta")
        self.assertEqual([p.name for p in params], ["table_size", "probe_depth", "weights"])
        bench = load.Result("x", "nodes", "zeta", "scalar", params={"depth": 12})
        self.assertEqual(guide_schemes.setup_text(params, bench, {"table_size": 65537}),
                         "M = 65,537 (lab); D = 12; weights all 1")
        self.assertEqual(guide_schemes.setup_text(params, None, {}),
                         "table_size: default; probe_depth: default; weights all 1")

    def test_older_run_without_a_table(self):
        params = guide_schemes.params_of(self.registry([]), "zeta")
        self.assertEqual(guide_schemes.setup_text(params, None, {"table_size": 7,
                                                                 "probe_depth": 3}),
                         "M = 7 (lab); probe_depth = 3 (lab); weights all 1")


if __name__ == "__main__":
    unittest.main()
