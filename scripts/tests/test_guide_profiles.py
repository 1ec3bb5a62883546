"""Tests of chbench_plots/guide_profiles.py: each profile's own lookup beside
its fastest kernel at each N, the speed-up, and no row for a profile without
a kernel measured."""

from __future__ import annotations

import unittest
from types import SimpleNamespace

import support  # noqa: F401  (puts scripts/ on sys.path)

from chbench_plots import guide_profiles


def result(profile: str, kernel: str, nodes: int, ns: float):
    return SimpleNamespace(scheme=profile, kernel=kernel, nodes=nodes, ns=ns, rounds=None,
                           group=None)


class FakeRun:
    def __init__(self, results):
        self.results = results

    def family(self, name: str) -> list:
        return self.results if name == "profiles" else []


class GuideProfiles(unittest.TestCase):
    def test_rows_and_speedup(self):
        run = FakeRun([result("ketama", "libmemcached", 10, 200.0),
                       result("ketama", "bucketed", 10, 16.0),
                       result("ketama", "eytzinger", 10, 20.0),
                       result("nginx_consistent", "own_lookup", 100, 50.0),
                       result("nginx_consistent", "bucketed", 100, 10.0),
                       result("kafka", "simd", 12, 6.0),
                       result("go_redis_ring", "own_lookup", 100, 160.0)])
        rows = guide_profiles.rows(run)
        self.assertEqual([(p, n, own.ns if own else None, best.kernel if best else None)
                          for p, n, own, best in rows],
                         [("ketama", 10, 200.0, "bucketed"),
                          ("nginx_consistent", 100, 50.0, "bucketed"),
                          ("kafka", 12, None, "simd"), ("go_redis_ring", 100, 160.0, None)])
        text = "\n".join(guide_profiles.section(run))
        self.assertIn("| `ketama` | 10 | 200 | `bucketed` | 16.0 | 12.5× |", text)
        self.assertIn("| `kafka` | 12 | – | `simd` | 6.00 | – |", text)
        self.assertIn("| `go_redis_ring` | 100 | 160 | none (no registry kernel) | – | – |", text)

    def test_no_profiles_no_section(self):
        self.assertEqual(guide_profiles.section(FakeRun([])), [])


if __name__ == "__main__":
    unittest.main()
