"""Tests of scripts/gen_docs.py with stand-in binaries: what each region is
made of, that --check finds a stale region and writes nothing, that text
outside the regions stays, and bad input (an unknown region, a start marker
without its end, a bench that fails)."""

from __future__ import annotations

import json
import os
import tempfile
import textwrap
import unittest
from pathlib import Path

from support import PYTHON, REPO, SCRIPTS, run

import gen_docs

REGISTRY = {
    "schemes": [
        {"name": "ring", "title": "ring (consistent hashing)",
         "source": "Karger et al., STOC 1997; docs/spec.md §6"},
        {"name": "maglev", "title": "Maglev", "source": "Eisenbud et al., NSDI 2016; docs/profiles.md"},
    ],
    "kernels": [
        {"name": "ring/lower_bound", "scheme": "ring", "kernel": "lower_bound", "summary": "a | b",
         "simd": False, "rival": None, "rank": 30, "stream": False, "knob": None},
        {"name": "ring/bucketed", "scheme": "ring", "kernel": "bucketed", "summary": "buckets",
         "simd": True, "rival": "ring/eytzinger", "rank": 10, "stream": False,
         "knob": {"name": "prefetch distance", "min": 1, "max": 1024}},
        {"name": "maglev/scalar", "scheme": "maglev", "kernel": "scalar", "summary": "table",
         "simd": False, "rival": None, "rank": 20, "stream": False, "knob": None},
        {"name": "ring/stream", "scheme": "ring", "kernel": "stream", "summary": "no lookup",
         "simd": False, "rival": None, "rank": None, "stream": True, "knob": None},
    ],
    "families": [{"name": "tokens", "title": "ring kernels against tokens", "quick_budget_s": 32.0},
                 {"name": "bounded", "title": "bounded loads", "quick_budget_s": 3.5}],
}

FAKE_BENCH = """#!{python}
import json, sys
if "--help" in sys.argv:
    print("chbench_bench: a stand-in\\nUsage: chbench_bench [OPTIONS]\\n\\nOptions:\\n"
          "  --sweep TEXT  quick or full\\n\\n\\nKernels:\\n  ring/bucketed  buckets")
    sys.exit(0)
if {fail}:
    print("chbench_bench: error: refused", file=sys.stderr)
    sys.exit(3)
out = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--benchmark_out="))
registry = {registry!r}
with open(out, "w") as f:
    families = {{"families": registry.pop("families")}}
    json.dump({{"context": {{"chbench_registry": json.dumps(registry),
                            "chbench_families": json.dumps(families)}}, "benchmarks": []}}, f)
"""

FAKE_LAB = """#!/bin/sh
echo "chbench-lab: a stand-in"
echo "Schemes: ring, maglev"
"""

SCHEMES_TABLE = textwrap.dedent("""\
    | scheme | title | source | defined in | kernels (default in bold) |
    |---|---|---|---|---|
    | `ring` | ring (consistent hashing) | Karger et al., STOC 1997 | [spec.md §6](docs/spec.md) | lower_bound, **bucketed** |
    | `maglev` | Maglev | Eisenbud et al., NSDI 2016 | [profiles.md](docs/profiles.md) | **scalar** |
    """)

PAGE = textwrap.dedent("""\
    # A page

    Text before.

    <!-- generated: schemes -->
    stale table
    <!-- end generated -->

    Text between.

    <!-- generated: lab-help -->
    <!-- end generated -->
    Text after.
    """)


class GenDocs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.bench = self.binary("bench", FAKE_BENCH.format(python=PYTHON, fail=False,
                                                             registry=REGISTRY))
        self.lab = self.binary("lab", FAKE_LAB)
        self.page = self.dir / "page.md"
        self.page.write_text(PAGE)

    def tearDown(self):
        self.tmp.cleanup()

    def binary(self, name: str, text: str) -> Path:
        path = self.dir / name
        path.write_text(text)
        os.chmod(path, 0o755)
        return path

    def gen(self, *args: str, bench: Path | None = None):
        return run([PYTHON, str(SCRIPTS / "gen_docs.py"), "--bench", str(bench or self.bench),
                    "--lab", str(self.lab), *args])

    def test_regions_are_rewritten_and_the_rest_kept(self):
        result = self.gen(str(self.page))
        self.assertEqual(result.returncode, 0, result.stderr)
        text = self.page.read_text()
        self.assertIn("<!-- generated: schemes -->\n" + SCHEMES_TABLE + "<!-- end generated -->",
                      text)
        self.assertIn("<!-- generated: lab-help -->\n```text\nchbench-lab: a stand-in\n"
                      "Schemes: ring, maglev\n```\n<!-- end generated -->\nText after.\n", text)
        self.assertTrue(text.startswith("# A page\n\nText before.\n\n"))
        self.assertIn("\n\nText between.\n\n", text)
        self.assertNotIn("stale table", text)

    def test_check_names_the_stale_region_and_writes_nothing(self):
        result = self.gen("--check", str(self.page))
        self.assertEqual(result.returncode, 1)
        self.assertIn("page.md: region 'schemes'", result.stderr)
        self.assertIn("page.md: region 'lab-help'", result.stderr)
        self.assertEqual(self.page.read_text(), PAGE)
        self.assertEqual(self.gen(str(self.page)).returncode, 0)
        again = self.gen("--check", str(self.page))
        self.assertEqual((again.returncode, again.stderr), (0, ""))

    def test_unknown_region_is_refused(self):
        self.page.write_text("<!-- generated: colours -->\n<!-- end generated -->\n")
        result = self.gen(str(self.page))
        self.assertEqual(result.returncode, 2)
        self.assertIn("unknown generated region 'colours'", result.stderr)

    def test_start_without_end_is_refused(self):
        self.page.write_text("<!-- generated: schemes -->\nno end\n")
        result = self.gen(str(self.page))
        self.assertEqual(result.returncode, 2)
        self.assertIn("without its '<!-- end generated -->'", result.stderr)
        self.assertEqual(self.page.read_text(), "<!-- generated: schemes -->\nno end\n")

    def test_a_failing_bench_is_one_line(self):
        failing = self.binary("failing", FAKE_BENCH.format(python=PYTHON, fail=True,
                                                           registry=REGISTRY))
        result = self.gen(str(self.page), bench=failing)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr, "gen_docs.py: error: failing exited 3: "
                                        "chbench_bench: error: refused\n")
        self.assertEqual(self.page.read_text(), PAGE)


class Renderers(unittest.TestCase):
    def sources(self) -> gen_docs.Sources:
        sources = gen_docs.Sources("bench", "lab")
        sources._registry = REGISTRY
        return sources

    def test_kernels_table(self):
        table = gen_docs.render_kernels(self.sources()).splitlines()
        self.assertEqual(table[0], "| kernel | SIMD | scalar rival | knob | what it does |")
        self.assertEqual(table[2], "| `ring/lower_bound` |  |  |  | a \\| b |")
        self.assertEqual(table[3], "| `ring/bucketed` | yes | `ring/eytzinger` | "
                                   "prefetch distance (1-1024) | buckets |")
        self.assertEqual(len(table), 2 + len(REGISTRY["kernels"]))

    def test_families_table(self):
        self.assertEqual(gen_docs.render_families(self.sources()).splitlines()[2:],
                         ["| `tokens` | ring kernels against tokens | 32 |",
                          "| `bounded` | bounded loads | 3.5 |"])

    def test_bench_options_leave_the_kernels_out(self):
        sources = self.sources()
        sources._help["bench "] = "intro\nOptions:\n  --sweep TEXT\n\nKernels:\n  ring/x  y\n"
        self.assertEqual(gen_docs.render_bench_options(sources),
                         "```text\nOptions:\n  --sweep TEXT\n```\n")

    def test_links_from_a_page_in_docs(self):
        sources = self.sources()
        sources.up = gen_docs.up_to_repo(REPO / "docs" / "page.md")
        self.assertEqual(sources.up, Path(".."))
        self.assertIn("[profiles.md](../docs/profiles.md)", gen_docs.render_schemes(sources))

    def test_presets_follow_inherited_toolchains(self):
        presets = json.loads((REPO / "CMakePresets.json").read_text())["configurePresets"]
        rows = gen_docs.render_presets(self.sources()).splitlines()[2:]
        self.assertEqual(len(rows), len([p for p in presets if not p.get("hidden")]))
        self.assertIn("| `debug` | `gcc.cmake` | Debug, GCC |", rows)


if __name__ == "__main__":
    unittest.main()
