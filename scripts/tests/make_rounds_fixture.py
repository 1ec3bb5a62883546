"""Synthetic bench JSON in the format of a run timed in comparison groups:
context keys chbench_timing and chbench_groups (JSON strings), and per
configuration the aggregates only (mean, median, stddev, cv; "repetitions" =
R) with the counters the bench writes, among them rounds, group,
ns_per_key_lo / _hi and, for a member with a reference in its group,
ratio, ratio_lo, ratio_hi (computed here with chbench_plots.intervals, the
reference by the rule of chbench_plots.rounds over make_fixture's registry).

build(groups) takes the groups as data: a list of groups, each a list of
(run name, ns/key of each round, or None for a member that failed); names
follow the bench's contract. SLOWED below is the run the tests use: member
B is 2.0× member A in every round, but B is slowed 3× in every third round.
"""

from __future__ import annotations

import json
import statistics
from typing import Optional

import support  # noqa: F401  (puts scripts/ on sys.path)
from make_fixture import CONTEXT, registry
from chbench_plots import intervals, rounds
from chbench_plots.names import config_name

ROUNDS = 21
TIMING = {"method": "interleaved rounds", "rounds": ROUNDS, "min_slice_s": 0.005,
          "seed": 12345, "confidence": 0.95}


def name(family: str, label: str, n: int, v: int = 100, k: int = 100000, t: int = 1) -> str:
    """A bench run name with the segments Google Benchmark appends, as the
    bench writes them (chbench_groups lists the bare names: names.config_name)."""
    return (f"{family}/{label}/N:{n}/V:{v}/K:{k}/threads:{t}"
            f"/iterations:1/repeats:{ROUNDS}/manual_time")


def drift(k: int) -> float:
    """A slow, deterministic drift of the host over the rounds (±4 %)."""
    return 1.0 + 0.04 * ((k * 7) % 5 - 2) / 2


def slowed_rounds(a_ns: float) -> tuple:
    """(A's rounds, B's rounds): B = 2 × A in every round, 3 × that in
    every third round (k = 2, 5, ...)."""
    a = [a_ns * drift(k) for k in range(ROUNDS)]
    b = [2.0 * x * (3.0 if k % 3 == 2 else 1.0) for k, x in enumerate(a)]
    return a, b


def steady(ns: float, spread: float = 0.01, phase: int = 0) -> list:
    """Rounds around ns/key: ± spread, deterministic, with the host's drift."""
    return [ns * drift(k) * (1 + spread * (((k + phase) * 3) % 7 - 3) / 3)
            for k in range(ROUNDS)]


def reference_name(member: str, members: list, kernels: dict) -> Optional[str]:
    """The member the bench divides `member` by (rounds.reference's rule:
    the first other member differing in the kernel alone, unforced, its
    rival; else, unless `member` is a baseline, its scheme's baseline)."""
    def label(m: str) -> str:
        return "/".join(m.split("/")[1:3]).partition("@")[0]

    entry = kernels.get(label(member))
    if entry is None or entry.get("stream") or entry.get("floor"):
        return None
    key = rounds.kernel_free_name(member)
    plain = [m for m in members if m != member and "@" not in m.split("/")[2]
             and rounds.kernel_free_name(m) == key
             and not kernels.get(label(m), {}).get("stream", True)
             and not kernels.get(label(m), {}).get("floor")]
    rival = next((m for m in plain if entry.get("rival") and label(m) == entry["rival"]), None)
    if rival is not None or entry.get("baseline"):
        return rival
    return next((m for m in plain if kernels[label(m)].get("baseline")), None)


def rows(run_name: str, index: int, rounds: list, ref: Optional[list]) -> list:
    """The four aggregate rows of one member."""
    family, scheme, kernel, *params = config_name(run_name).split("/")
    n, v, k, t = (int(p.split(":")[1]) for p in params[:4])
    lo, hi = intervals.median_interval(rounds) or (None, None)
    median = statistics.median(rounds)
    counters = {"keys": float(k), "nodes": float(n), "vnodes": float(v), "threads": float(t),
                "tokens": float(n * v if scheme == "ring" else 0), "noisy": 0.0,
                "canary_ratio": 1.0, "canary_ms": 2.5, "steal_ms": 0.0, "load_avg_1m": 0.1,
                "rounds": float(len(rounds)), "group": float(index)}
    if lo is not None:
        counters.update(ns_per_key_lo=lo, ns_per_key_hi=hi)
    if ref is not None:
        paired = intervals.paired_ratio(rounds, ref)
        counters.update(ratio=paired.value)
        if paired.has_interval:
            counters.update(ratio_lo=paired.lo, ratio_hi=paired.hi)
    out = []
    for agg, f in (("mean", statistics.fmean), ("median", statistics.median),
                   ("stddev", statistics.stdev), ("cv", cv)):
        ns = f(rounds)
        row = {"name": f"{run_name}_{agg}", "run_name": run_name, "run_type": "aggregate",
               "repetitions": len(rounds), "threads": 1, "aggregate_name": agg,
               "aggregate_unit": "percentage" if agg == "cv" else "time", "iterations": 1,
               "real_time": ns * k, "cpu_time": ns * k, "time_unit": "ns",
               **counters, "ns_per_key": ns, "keys_per_second": 1e9 / median}
        if agg in ("stddev", "cv"):
            row["keys"] = 0.0
        out.append(row)
    return out


def cv(xs: list) -> float:
    """Standard deviation ÷ mean."""
    return statistics.stdev(xs) / statistics.fmean(xs)


def build(groups: list) -> dict:
    """The bench JSON object of `groups` ([[(run name, rounds or None), ...], ...])."""
    kernels = {k["name"]: k for k in registry()["kernels"]}
    benchmarks, recorded = [], []
    for index, members in enumerate(groups):
        names = [m for m, _ in members]
        times = dict(members)
        for member, rounds in members:
            if rounds is None:
                benchmarks.append({"name": member, "run_name": member, "run_type": "aggregate",
                                   "aggregate_name": "median", "error_occurred": True,
                                   "error_message": "kernel failed its check"})
                continue
            ref = reference_name(member, names, kernels)
            benchmarks += rows(member, index, rounds, times.get(ref) if ref else None)
        recorded.append({"members": [config_name(m) for m in names],
                         "ns_per_key": [times[m] for m in names]})
    context = dict(CONTEXT)
    context["chbench_timing"] = json.dumps(TIMING)
    context["chbench_groups"] = json.dumps({"groups": recorded})
    return {"context": context, "benchmarks": benchmarks}


def slowed_groups() -> list:
    """Family nodes at N = 1,000: jump/scalar (A) and jump/interleaved (B =
    2 A, 3× slower in every third round) with jump/simd; at N = 100 a
    tie (jump/scalar and jump/interleaved within 1 % round by round) beside
    a clearly slower hrw/scalar; and a failed member."""
    a, b = slowed_rounds(10.0)
    return [
        [(name("nodes", "jump/scalar", 1000), a), (name("nodes", "jump/interleaved", 1000), b),
         (name("nodes", "jump/simd", 1000), steady(2.5))],
        [(name("nodes", "jump/scalar", 100), steady(8.0, phase=0)),
         (name("nodes", "jump/interleaved", 100), steady(8.02, phase=3)),
         (name("nodes", "hrw/scalar", 100), steady(50.0)),
         (name("nodes", "maglev/scalar", 100), None)],
    ]


SLOWED = slowed_groups()


def plotted_groups() -> list:
    """SLOWED and groups of the families whose plots draw spreads: tokens
    (two ring kernels on 65,500 tokens), targets (hrw/simd_keys dispatched
    and forced to AVX2 beside hrw/scalar) and threads (ring/eytzinger on 1
    and 2 threads)."""
    return SLOWED + [
        [(name("tokens", "ring/lower_bound", 655), steady(100.0)),
         (name("tokens", "ring/eytzinger", 655), steady(14.0, phase=1))],
        [(name("targets", "hrw/scalar", 64), steady(100.0)),
         (name("targets", "hrw/simd_keys", 64), steady(8.0, phase=2)),
         (name("targets", "hrw/simd_keys@AVX2", 64), steady(40.0, phase=4))],
        [(name("threads", "ring/eytzinger", 1000, k=3000000), steady(30.0)),
         (name("threads", "ring/eytzinger", 1000, k=3000000, t=2), steady(16.5, phase=5))],
    ]
