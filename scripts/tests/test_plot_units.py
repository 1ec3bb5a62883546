"""Tests of the chbench_plots package's units (names, numbers, the run's
registry, rings, crossovers) and of the fixture's regeneration."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from make_fixture import registry_text
from support import FIXTURE, PYTHON, TESTS, run

# support puts scripts/ on sys.path.
from chbench_plots import load, numeric, registry, rings, targets  # noqa: E402
from chbench_plots import style as plotstyle  # noqa: E402


class Units(unittest.TestCase):
    """Pure functions of plot.py."""

    def test_parse_name_ignores_google_benchmark_suffixes(self):
        name = load.parse_name(
            "threads/ring/eytzinger/N:1000/V:100/K:300000/threads:2/repeats:3/real_time/threads:1")
        self.assertEqual((name.family, name.scheme, name.kernel), ("threads", "ring", "eytzinger"))
        self.assertEqual(name.params, {"nodes": 1000, "vnodes": 100, "keys": 300000, "threads": 2})

    def test_parse_name_rejects_foreign_names(self):
        self.assertIsNone(load.parse_name("BM_Sort/1024"))
        self.assertIsNone(load.parse_name("a/b:1/c"))

    def test_sig3(self):
        cases = {1.875: "1.88", 9.996: "10.0", 12345.0: "12,300", 0.9: "0.900", 140.0: "140",
                 3.0: "3.00", 0.000123: "1.23e-04", 0.0: "0", 17.3205: "17.3"}
        for x, want in cases.items():
            self.assertEqual(numeric.sig3(x), want, x)
        self.assertEqual(numeric.si(3.75e9, "keys/s"), "3.75 Gkeys/s")
        self.assertEqual(numeric.si(999.9), "1.00 k")

    def test_rivals_from_the_registry(self):
        # The fixture's registry: what the bench writes from the registry (kernels/chbench/kernels.def).
        reg = registry.from_context({"chbench_registry": registry_text()}, "x")
        cases = {"hrw/simd_keys": "hrw/scalar", "hrw/simd_nodes": "hrw/scalar",
                 "jump/simd": "jump/scalar", "modn/simd": "modn/scalar",
                 "maglev/simd": "maglev/scalar", "ring/simd_branchless": "ring/branchless",
                 "ring/simd_eytzinger": "ring/eytzinger", "ring/stree": "ring/eytzinger",
                 "ring/bucketed": "ring/eytzinger", "ring/stree@AVX2": "ring/eytzinger",
                 "ring/eytzinger": None, "jump/interleaved": None, "hrw/scalar": None,
                 "hrw/simd_wide": None, "ring/stream": None}
        for label, want in cases.items():
            self.assertEqual(reg.rival(label), want, label)
        self.assertEqual([s.name for s in reg.schemes], ["modn", "ring", "hrw", "jump", "maglev",
                                                         "jumpback", "jumpback_xorshift",
                                                         "flip", "power", "binomial",
                                                         "hrw_weighted", "multiprobe"])
        self.assertEqual([s.name for s in reg.jump_family()],
                         ["jump", "jumpback", "jumpback_xorshift", "flip", "power", "binomial"])
        self.assertEqual(reg.floors(), ["ring/stream"])
        self.assertEqual(reg.knob_name("ring/bucketed"), "prefetch distance")
        self.assertIsNone(reg.knob_name("ring/eytzinger"))
        self.assertTrue(reg.takes("ring", "vnodes"))
        self.assertFalse(reg.takes("hrw", "vnodes"))
        self.assertEqual(sorted(["SCALAR", "AVX2", "NEON", "AVX3", "EMU128", "SSE4"],
                                key=targets.target_rank),
                         ["AVX3", "AVX2", "SSE4", "SCALAR", "EMU128", "NEON"])

    def test_forced_target_in_name(self):
        name = load.parse_name("targets/hrw/simd_keys@AVX2/N:64/V:100/K:1000/threads:1/real_time")
        self.assertEqual((name.scheme, name.kernel, name.params["nodes"]),
                         ("hrw", "simd_keys@AVX2", 64))
        r = load.Result("x", "targets", "hrw", "simd_keys@AVX2")
        self.assertEqual((r.base_kernel, r.forced_target), ("simd_keys", "AVX2"))
        r = load.Result("x", "targets", "hrw", "simd_keys")
        self.assertEqual((r.base_kernel, r.forced_target), ("simd_keys", None))

    def test_parse_name_inflight_and_window_segments(self):
        name = load.parse_name("inflight/ring/stree/N:655/V:100/K:300000/threads:1/inflight:32"
                               "/real_time")
        self.assertEqual(name.params, {"nodes": 655, "vnodes": 100, "keys": 300000,
                                       "threads": 1, "in_flight": 32})
        name = load.parse_name("clustered/ring/bucketed/N:655/V:100/K:300000/threads:1/window:36")
        self.assertEqual(name.params["window_bits"], 36)

    def test_nearest_ring(self):
        def points(*tokens):
            return [rings.RingPoint(t, None, None, None, {}) for t in tokens]
        self.assertEqual(rings.nearest_ring(points(30_000, 100_000), 65_536).tokens, 100_000)
        # Equally far in ratio: the larger ring.
        self.assertEqual(rings.nearest_ring(points(32_768, 131_072), 65_536).tokens, 131_072)
        self.assertIsNone(rings.nearest_ring(points(10, 32_000, 140_000), 65_536))
        self.assertEqual(rings.nearest_ring(points(16_000_000, 40_000_000), 16_777_216).tokens,
                         16_000_000)

    def test_stream_is_a_floor_not_a_kernel(self):
        stream = load.Result("x", "tokens", "ring", "stream", order=0, is_floor=True)
        lower = load.Result("y", "tokens", "ring", "lower_bound", order=1, ns=9.0)
        style = plotstyle.Style([stream, lower])
        self.assertEqual(style.index, {"ring/lower_bound": 0})
        kw = style.kw("ring/stream", "ring")
        self.assertEqual((kw["color"], kw["marker"]), ("0.3", None))
        self.assertNotEqual(kw["linestyle"], "-")
        stream.ns = 1.0
        point = rings.RingPoint(10, 10, 1, 1000, {"ring/stream": stream,
                                                 "ring/lower_bound": lower})
        self.assertIs(point.best(), lower)
        self.assertEqual(style.legend("ring/stream"), "stream floor (ring/stream: no lookup)")

    def test_crossovers(self):
        (x, a_below), = numeric.crossovers([10, 30], [6.0, 16.0], [9.6, 10.0])
        self.assertAlmostEqual(x, 300 ** 0.5, places=9)
        self.assertTrue(a_below)
        self.assertEqual(numeric.crossovers([1, 10, 100], [1, 2, 3], [5, 6, 7]), [])
        # Touching at a measured point counts once.
        self.assertEqual(numeric.crossovers([1, 10, 100], [1, 5, 9], [2, 5, 8]), [(10, True)])


class FixtureUpToDate(unittest.TestCase):
    """The fixture is what make_fixture.py writes, so it can be regenerated."""

    def test_regenerates_identically(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "f.json"
            result = run([PYTHON, str(TESTS / "make_fixture.py"), str(out)])
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(out.read_bytes(), FIXTURE.read_bytes())


if __name__ == "__main__":
    unittest.main()
