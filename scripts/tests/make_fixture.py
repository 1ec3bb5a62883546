#!/usr/bin/python3
"""Writes fixtures/small_bench.json: a synthetic chbench run for the tests.

Google Benchmark writes one key per line; here each entry is one line, to keep
the file small. The file follows the bench's JSON contract and Google Benchmark 1.7.1's layout
as closely as a hand-made file can: 3 repetitions per configuration, then the
mean, median, stddev and cv aggregates; names carry Google Benchmark's own
`/real_time` suffix; the "threads" key appears twice in every entry (Google
Benchmark's benchmark-thread field first, the bench's counter last), as the
real reporter writes it. The context carries the kernel registry as the bench
writes it ("chbench_registry", a JSON string; registry_text() builds it from
SCHEMES, KERNELS and FLOORS below), and the families and name segments
("chbench_families"; families_text(), from SEGMENTS and FAMILIES). SIMD
kernels (those the registry marks `simd`) carry the `hwy_target` and
`hwy_target_forced` counters and the target that ran as the entry's "label",
as the bench reports them. Every entry has `build_ms`;
ring kernels other than the stream baseline `bytes_per_token`; family
"inflight" names and counts `in_flight`, family "clustered" `window_bits`.
Every repetition carries the noise record (bench/canary.h): canary_compute_ns,
canary_memory_ns, canary_ratio, canary_ms, steal_ms, load_avg_1m, noisy; the
context the canary's rule and calibration (chbench_noise). Two configurations
are flagged noisy (NOISY below): one whose memory canary strayed, one whose
host stole time in one repetition. Family "threads" carries each thread's CPU
time (thread_cpu_ms_<slot>), one kernel with a thread short of CPU. Family
"dense" holds jump hash and two of its successors at a few N up to 2^31 - 1
(the parameters' counters are written exactly); three more successors are in
the registry only, as are weighted rendezvous and multi-probe consistent hashing
(which the goals name). Family "removals" holds four kernels at 0, 10, 50 and 90%
removed (names `/removed:<pct>/order:<order>`, counters removed_pct,
survivors, remove_us, readd_us), jump/simd under LIFO.

The medians below are chosen by hand so that the tests know the report's
ratios exactly (see test_plot.py). The repetitions scatter around each median
deterministically, so that the median aggregate equals the chosen value.

Usage: /usr/bin/python3 scripts/tests/make_fixture.py [OUTPUT]
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
from pathlib import Path

REPS = 3
OUT = Path(__file__).resolve().parent / "fixtures" / "small_bench.json"

# The registry at the library's commit ce2f39d (then kernels/src/schemes.cc; now kernels/chbench/kernels.def), in
# its order, with the bench's stream baseline; then jump hash's successors
# (placed by the bucket count alone, only the last bucket leaves).
SCHEMES = (("modn", "mod-N", []), ("ring", "ring (consistent hashing)", ["vnodes"]),
           ("hrw", "rendezvous (HRW)", []), ("jump", "jump hash", []),
           ("maglev", "Maglev", ["table_size"]),
           ("jumpback", "JumpBackHash (SplitMix64)", []),
           ("jumpback_xorshift", "JumpBackHash (XorshiftL7R9)", []),
           ("flip", "FlipHash", []), ("power", "PowerCH", []), ("binomial", "BinomialHash", []),
           ("hrw_weighted", "weighted rendezvous", ["weights"]),
           ("multiprobe", "multi-probe consistent hashing", []))
# (removal, buckets_only) of the schemes that are not ("any", False).
JUMP_LIKE = ("jump", "jumpback", "jumpback_xorshift", "flip", "power", "binomial")
# The schemes whose lookup scores every node (rendezvous and weighted rendezvous).
SCORES_EVERY_NODE = ("hrw", "hrw_weighted")
REMOVAL = {"modn": ("none", True), **{s: ("last", True) for s in JUMP_LIKE}}
LOCKSTEP = {"name": "lockstep group", "default": "32 up to a 16 MiB tree, 128 above",
            "min": 1, "max": 256, "sweep": [1, 2, 4, 8, 16, 32, 64, 128, 256]}
DISTANCE = {"name": "prefetch distance",
            "default": "none up to a 256 KiB table, 32 up to 16 MiB, 128 above", "min": 1,
            "max": 1024, "sweep": [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]}
# (name, simd, rival, baseline, rank, knob)
KERNELS = (
    ("modn/scalar", False, None, False, 1, None),
    ("modn/simd", True, "modn/scalar", False, 0, None),
    ("ring/lower_bound", False, None, True, 6, None),
    ("ring/branchless", False, None, False, 4, None),
    ("ring/eytzinger", False, None, False, 2, None),
    ("ring/simd_branchless", True, "ring/branchless", True, 5, None),
    ("ring/simd_eytzinger", True, "ring/eytzinger", False, 3, None),
    ("ring/stree", True, "ring/eytzinger", False, 1, LOCKSTEP),
    ("ring/bucketed", True, "ring/eytzinger", False, 0, DISTANCE),
    ("hrw/scalar", False, None, False, 2, None),
    ("hrw/simd_nodes", True, "hrw/scalar", False, 1, None),
    ("hrw/simd_keys", True, "hrw/scalar", False, 0, None),
    ("jump/scalar", False, None, False, 2, None),
    ("jump/interleaved", False, None, False, 1, None),
    ("jump/simd", True, "jump/scalar", False, 0, None),
    ("maglev/scalar", False, None, False, 1, None),
    ("maglev/simd", True, "maglev/scalar", False, 0, None),
) + tuple(kernel for scheme in JUMP_LIKE[1:] for kernel in (
    (f"{scheme}/scalar", False, None, False, 10, None),
    (f"{scheme}/simd", True, f"{scheme}/scalar", False, 0, None))) + tuple(
    # Schemes the goals name that the fixture does not measure.
    kernel for scheme in ("hrw_weighted", "multiprobe") for kernel in (
        (f"{scheme}/scalar", False, None, False, 10, None),
        (f"{scheme}/simd", True, f"{scheme}/scalar", False, 0, None)))
STREAM = "ring/stream"
# (name, floor kind, simd) of the floors besides the stream baseline.
FLOORS = (("modn/compute", "compute", True), ("ring/random_read", "random_read", False))
# The name segments and the families in the bench's order, each with the
# segments its names carry, as the bench describes them (chbench_families).
SEGMENTS = (("N", "nodes", "int", "N"), ("V", "vnodes", "int", "V"), ("K", "keys", "int", "K"),
            ("threads", "threads", "int", "threads"),
            ("inflight", "in_flight", "int", "in flight"),
            ("window", "window_bits", "int", "window bits"), ("M", "table_size", "int", "M"),
            ("c", "balance_factor", "number", "c"),
            ("removed", "removed_pct", "number", "removed %"),
            ("order", "removal_order", "word", "order"),
            ("capacity", "fleet_capacity", "int", "capacity"),
            ("change", "change", "word", "change"), ("weights", "weights", "word", "weights"),
            ("R", "replicas", "int", "R"))
BASE = ["N", "V", "K", "threads"]
FAMILIES = (("tokens", BASE), ("latency", BASE), ("inflight", BASE + ["inflight"]),
            ("clustered", BASE + ["window"]), ("nodes", BASE), ("dense", BASE),
            ("removals", BASE + ["M", "removed", "order"]), ("batch", BASE),
            ("threads", BASE), ("hashed", BASE), ("bounded", BASE + ["c"]),
            ("replicas", BASE + ["R"]), ("targets", BASE), ("profiles", BASE),
            ("weighted", BASE + ["weights"]))


def registry(kernels: tuple = KERNELS) -> dict:
    """The registry object the bench writes, for `kernels` (entries as in
    KERNELS), the stream baseline and the other floors (FLOORS)."""
    entries = [{"name": name, "scheme": name.split("/")[0], "kernel": name.split("/")[1],
                "summary": f"{name} (fixture)", "simd": simd, "rival": rival,
                "baseline": baseline, "rank": rank, "stream": False, "knob": knob}
               for name, simd, rival, baseline, rank, knob in kernels]
    entries.append({"name": STREAM, "scheme": "ring", "kernel": "stream",
                    "summary": "reads each key hash, writes one owner, no lookup",
                    "simd": False, "rival": None, "baseline": True, "rank": None,
                    "stream": True, "knob": None})
    # The other floors, in the registry as the bench lists them, unmeasured.
    for name, kind, simd in FLOORS:
        entries.append({"name": name, "scheme": name.split("/")[0], "kernel": name.split("/")[1],
                        "summary": f"the {kind.replace('_', '-')} floor (fixture)", "simd": simd, "rival": None,
                        "baseline": False, "rank": None, "stream": False, "floor": kind,
                        "knob": None})
    return {"schemes": [{"name": name, "title": title, "source": "docs/spec.md", "aliases": [],
                         "params": params, "removal": REMOVAL.get(name, ("any", False))[0],
                         "max_nodes": 4294967295,
                         "buckets_only": REMOVAL.get(name, ("any", False))[1],
                         "scores_every_node": name in SCORES_EVERY_NODE}
                        for name, title, params in SCHEMES],
            "kernels": entries}


def registry_text(kernels: tuple = KERNELS) -> str:
    """The registry as the context's "chbench_registry" string."""
    return json.dumps(registry(kernels), separators=(",", ":"))


def families_text() -> str:
    """The context's "chbench_families" string: SEGMENTS and FAMILIES, each
    family titled "<name> (fixture)"."""
    return json.dumps({
        "segments": [{"key": k, "field": f, "kind": kind, "title": t}
                     for k, f, kind, t in SEGMENTS],
        "families": [{"name": name, "title": f"{name} (fixture)", "quick_budget_s": 30,
                      "params": params} for name, params in FAMILIES]}, separators=(",", ":"))


SIMD = {name for name, simd, *_ in KERNELS if simd}

CONTEXT = [
    ("date", "2026-11-30T10:20:00+00:00"),
    ("host_name", "fixture-host"),
    ("executable", "build/release/bench/chbench_bench"),
    ("num_cpus", 2),
    ("mhz_per_cpu", 2596),
    ("cpu_scaling_enabled", False),
    ("caches", [
        {"type": "Data", "level": 1, "size": 49152, "num_sharing": 1},
        {"type": "Instruction", "level": 1, "size": 32768, "num_sharing": 1},
        {"type": "Unified", "level": 2, "size": 1048576, "num_sharing": 1},
        {"type": "Unified", "level": 3, "size": 33554432, "num_sharing": 2},
    ]),
    ("load_avg", [0.12, 0.08, 0.03]),
    ("library_build_type", "debug"),
    ("chbench_benchmark_version", "1.7.1"),
    ("chbench_build_type", "Release"),
    ("chbench_commit", "0123abc"),
    ("chbench_compiler", "GNU 12.2.0"),
    ("chbench_cpu_flags", "sse4_2 avx2 bmi2 avx512f avx512bw avx512vl"),
    ("chbench_cpu_model", "AMD EPYC"),
    ("chbench_cxx_flags", "-O3 -DNDEBUG -Wall -Wextra -Werror"),
    ("chbench_hardware_threads", "2"),
    ("chbench_hwy_target", "AVX3"),
    ("chbench_hwy_targets_supported", "AVX3 AVX2 SSE4 SSSE3 SCALAR"),
    ("chbench_sweep", "quick"),
    ("chbench_tbb_version", "2021.8.0"),
    ("chbench_xxhash_version", "0.8.1"),
    ("chbench_registry", registry_text()),
    ("chbench_families", families_text()),
    ("chbench_noise", json.dumps({
        "baseline": None, "best_at_start": {"compute_ns": 265000.0, "memory_ns": 470000.0},
        "buffer_bytes": 4194304, "calibration": {"compute_ns": 265000.0, "memory_ns": 470000.0},
        "compute_steps": 200000, "margin": 0.15, "memory_steps": 40000, "min_steal_ms": 20.0,
        "rounds": 3}, separators=(",", ":"))),
]

# The noise canary's calibration, and the configurations flagged noisy:
# run name -> (memory canary ÷ calibration, steal ms per repetition).
CANARY = (265000.0, 470000.0)
NOISY = {
    "tokens/ring/stree/N:10000/V:100/K:300000/threads:1": (1.42, (0.0, 0.0, 0.0)),
    "nodes/hrw/scalar/N:300/V:100/K:300000/threads:1": (1.02, (0.0, 40.0, 0.0)),
}
# Family "threads", 2 threads: each slot's CPU time ÷ the repetition's wall
# time; ring/lower_bound's second thread got little CPU.
THREAD_SHARES = {"lower_bound": (0.97, 0.55)}
DEFAULT_SHARES = (0.98, 0.96)

# family -> list of (scheme, kernel, N, V, K, threads, median ns/key, extra)
# Rings (N, V) of family "tokens": 10, 1,000, 65,500 (~64k), 10^6, 4·10^6 and
# 1.6·10^7 (~16M) tokens.
TOKENS_RINGS = ((10, 1), (100, 10), (655, 100), (10000, 100), (40000, 100), (160000, 100))
TOKENS_NS = {
    "lower_bound": (12.0, 32.0, 100.0, 140.0, 200.0, 360.0),
    "branchless": (6.0, 15.0, 45.0, 90.0, 150.0, 300.0),
    "eytzinger": (8.0, 13.0, 14.0, 30.0, 40.0, 60.0),
    "stree": (3.0, 5.0, 8.0, 12.0, 20.0, 30.0),
    "bucketed": (1.5, 2.0, 3.0, 8.0, 10.0, 15.0),
    "stream": (0.3, 0.4, 0.5, 0.6, 0.8, 1.0),  # the stream baseline
}
# Family "latency": rings of 10, 65,500 and 1.6·10^7 tokens, K = 100,003.
LATENCY_RINGS = ((10, 1), (655, 100), (160000, 100))
LATENCY_NS = {
    "lower_bound": (25.0, 190.0, 900.0),
    "eytzinger": (22.0, 90.0, 400.0),
    "stree": (14.0, 60.0, 300.0),
    "bucketed": (10.0, 50.0, 250.0),
    "stream": (3.0, 3.0, 3.5),
}
# Family "clustered": rings of 65,500, 10^6 and 1.6·10^7 tokens; family
# "inflight" the first and the last of them.
BIG_RINGS = ((655, 100), (10000, 100), (160000, 100))
INFLIGHT_RINGS = (BIG_RINGS[0], BIG_RINGS[-1])
INFLIGHT = {  # kernel: (keys in flight, ns/key per ring)
    "stree": ((1, 2, 4, 8, 16, 32, 64, 128, 256), (
        (40.0, 24.0, 15.0, 10.0, 8.5, 8.0, 9.0, 11.0, 14.0),
        (200.0, 110.0, 62.0, 38.0, 30.0, 28.0, 27.0, 30.0, 36.0))),
    "bucketed": ((1, 2, 4, 8, 16, 32, 64, 128, 256, 512), (
        (6.0, 5.0, 4.5, 4.0, 3.6, 3.5, 3.8, 4.2, 5.0, 6.0),
        (60.0, 40.0, 28.0, 20.0, 15.0, 13.0, 12.0, 11.5, 12.0, 14.0))),
}
CLUSTER_WINDOW = 36
CLUSTERED_NS = {
    "lower_bound": (110.0, 150.0, 480.0),
    "eytzinger": (16.0, 32.0, 64.0),
    "stree": (8.0, 16.0, 40.0),
    "bucketed": (12.0, 24.0, 80.0),
}
# Build time per token in ns, for the build_ms counter.
BUILD_NS_PER_TOKEN = {"eytzinger": 40.0, "simd_eytzinger": 40.0, "stree": 50.0,
                      "bucketed": 80.0, "stream": 0.0}
NODES_N = (3, 10, 30, 100, 300, 1000)  # V = 100
NODES_NS = {
    ("ring", "lower_bound"): (11.0, 14.0, 18.0, 24.0, 33.0, 48.0),
    ("ring", "branchless"): (7.0, 9.8, 12.5, 16.0, 24.0, 40.0),
    ("ring", "eytzinger"): (8.4, 9.6, 10.0, 11.5, 13.0, 15.5),
    ("hrw", "scalar"): (2.6, 6.0, 16.0, 51.0, 151.0, 502.0),
    ("jump", "scalar"): (4.0, 6.5, 8.5, 10.5, 12.5, 14.5),
    ("modn", "scalar"): (1.1, 1.1, 1.1, 1.1, 1.1, 1.1),
}
THREADS_NS = {  # N = 1000, V = 100, K = 3,000,000: (1 thread, 2 threads)
    ("ring", "lower_bound"): (60.0, 31.0),
    ("ring", "eytzinger"): (30.0, 16.5),
    ("hrw", "scalar"): (500.0, 252.0),
    ("jump", "scalar"): (14.0, 8.0),
    ("modn", "scalar"): (1.2, 0.9),
}
BATCH_K = (10, 1000, 100000, 1000000)  # N = 1000, V = 100
BATCH_BASE = {  # steady-state ns/key, fixed cost per call in ns
    ("ring", "eytzinger"): (15.5, 250.0),
    ("jump", "interleaved"): (7.6, 150.0),
    ("modn", "scalar"): (1.1, 80.0),
}
HASHED_NS = {  # N = 1000, V = 100, K = 300,000: with hashing
    ("ring", "lower_bound"): 55.0,
    ("ring", "eytzinger"): 22.0,
    ("hrw", "scalar"): 509.0,
    ("jump", "scalar"): 21.0,
    ("modn", "scalar"): 7.3,
}
# Family "targets", V = 100, one thread: (scheme, N, K, scalar counterpart and
# its ns/key, {SIMD kernel: (dispatched, forced AVX3, AVX2, SCALAR) ns/key}).
# Dispatch picks AVX3. hrw/simd_nodes is missing at N = 1,000 and
# ring/simd_branchless altogether, as a CPU or a --kernels selection may have it.
# ring/stree, ring/bucketed (rival eytzinger) and maglev/simd are the SIMD
# kernels a table of rivals in the plot script once lacked.
TARGETS = ("AVX3", "AVX2", "SCALAR")
HWY_BITS = {"AVX3": 256.0, "AVX2": 512.0, "SCALAR": float(2 ** 62)}
TARGETS_NS = (
    ("hrw", 64, 100000, "scalar", 100.0,
     {"simd_nodes": (10.0, 10.0, 25.0, 80.0), "simd_keys": (8.0, 8.2, 40.0, 125.0)}),
    ("hrw", 1000, 20000, "scalar", 1500.0, {"simd_keys": (100.0, 100.0, 300.0, 1200.0)}),
    ("jump", 1000, 100000, "scalar", 50.0, {"simd": (2.5, 2.5, 8.0, 40.0)}),
    ("jump", 1000000, 100000, "scalar", 80.0, {"simd": (4.0, 4.0, 10.0, 64.0)}),
    ("ring", 655, 100000, "eytzinger", 7.0, {"simd_eytzinger": (10.0, 10.0, 14.0, 7.0),
                                             "stree": (3.5, 3.5, 5.6, 14.0),
                                             "bucketed": (1.75, 1.75, 2.0, 3.5)}),
    ("modn", 1000, 100000, "scalar", 2.4, {"simd": (0.6, 0.6, 1.2, 4.8)}),
    ("maglev", 1000, 100000, "scalar", 3.0, {"simd": (1.5, 1.5, 2.0, 6.0)}),
    # Jump hash's successors: the bench's one point at N = 1,000 for a scheme
    # its size table does not list.
    ("jumpback", 1000, 100000, "scalar", 7.0, {"simd": (0.7, 0.7, 1.75, 7.0)}),
    ("flip", 1000, 100000, "scalar", 5.6, {"simd": (1.6, 1.6, 2.8, 8.0)}),
)
# Family "dense", K = 100,000, V = 1, one thread: a few N of the sweep, jump
# hash and two successors (jumpback_xorshift, power and binomial are in the
# registry but not measured: their goals and rows say so). jump/simd is 6×
# jump/scalar at N = 1,000 and 10^6; jumpback/simd 10× its scalar kernel
# there, and at most 1 ns/key at every N but 2^20 + 1 (1.20 ns); flip/simd
# 3.5× flip/scalar at N = 1,000 and 4× at 10^6; jumpback/simd is 64× jump/scalar
# at 10^6.
DENSE_N = (7, 8, 9, 1000, 1023, 1024, 1025, 1000000, 1048575, 1048576, 1048577, 2147483647)
DENSE_NS = {
    ("jump", "scalar"): (8.0, 8.0, 9.0, 24.0, 24.0, 24.0, 25.0, 48.0, 48.0, 48.0, 50.0, 80.0),
    ("jump", "simd"): (1.5, 1.5, 1.6, 4.0, 4.0, 4.0, 4.2, 8.0, 8.0, 8.0, 8.4, 12.0),
    ("jumpback", "scalar"): (6.0, 6.5, 12.0, 7.0, 6.0, 6.5, 12.0, 7.5, 6.0, 6.5, 12.5, 6.0),
    ("jumpback", "simd"): (0.6, 0.65, 0.9, 0.7, 0.6, 0.65, 0.95, 0.75, 0.6, 0.65, 1.2, 0.6),
    ("flip", "scalar"): (5.0, 5.0, 6.0, 5.6, 5.0, 5.0, 6.0, 5.6, 5.0, 5.0, 6.4, 5.2),
    ("flip", "simd"): (1.25, 1.25, 1.5, 1.6, 1.25, 1.25, 1.5, 1.4, 1.25, 1.25, 1.6, 1.3),
}


# Family "removals", one thread, at the bench's sizes (N = 1,000 with V = 100,
# 10^6 with V = 10), K = 100,000 (rendezvous 20,000): (scheme, kernel, removal
# order) -> {N: median ns/key at each of REMOVED_PCT}. hrw/scalar and
# maglev/simd only at N = 1,000, as the quick sweep has them; jump/simd under
# LIFO. build_ms: 40 ns a ring token (BUILD_NS_PER_TOKEN), 10 ns a rendezvous
# node, 3 ms for Maglev's table, 0.001 ms for jump; the rebuild after one more
# removal takes 0.9 × and after one re-add 1.1 × the build (remove_us,
# readd_us).
REMOVED_PCT = (0, 10, 50, 90)
REMOVALS_V = {1000: 100, 1000000: 10}
REMOVALS_NS = {
    ("ring", "eytzinger", "random"): {1000: (20.0, 19.0, 16.0, 12.0),
                                      1000000: (60.0, 58.0, 50.0, 36.0)},
    ("hrw", "scalar", "random"): {1000: (500.0, 450.0, 250.0, 50.0)},
    ("jump", "simd", "lifo"): {1000: (4.0, 4.0, 3.6, 3.2), 1000000: (8.0, 8.0, 7.2, 6.4)},
    ("maglev", "simd", "random"): {1000: (2.0, 2.1, 2.2, 2.4)},
}


def removals_extra(scheme: str, kernel: str, order: str, n: int, pct: int) -> dict:
    """The name suffix's values and the counters of one removals configuration."""
    survivors = n - round(n * pct / 100)
    tokens = survivors * REMOVALS_V[n] if scheme == "ring" else 0
    build = {"ring": tokens * BUILD_NS_PER_TOKEN.get(kernel, 20.0) / 1e6,
             "hrw": survivors * 10 / 1e6, "maglev": 3.0}.get(scheme, 0.001)
    memory = 65537 * 4 if scheme == "maglev" else memory_bytes(scheme, kernel, tokens, survivors)
    return {"removed": pct, "order": order, "survivors": survivors, "tokens": tokens,
            "build_ms": build, "memory": memory}


def configs() -> list:
    """Every (family, scheme, kernel, N, V, K, threads, median ns/key, extra),
    extra holding in_flight or window_bits where the family sets them."""
    out = []
    for kernel, values in TOKENS_NS.items():
        for (n, v), ns in zip(TOKENS_RINGS, values):
            out.append(("tokens", "ring", kernel, n, v, 300000, 1, ns))
    for kernel, values in LATENCY_NS.items():
        for (n, v), ns in zip(LATENCY_RINGS, values):
            out.append(("latency", "ring", kernel, n, v, 100003, 1, ns))
    for kernel, (settings, per_ring) in INFLIGHT.items():
        for (n, v), values in zip(INFLIGHT_RINGS, per_ring):
            for g, ns in zip(settings, values):
                out.append(("inflight", "ring", kernel, n, v, 300000, 1, ns, {"in_flight": g}))
    for kernel, values in CLUSTERED_NS.items():
        for (n, v), ns in zip(BIG_RINGS, values):
            out.append(("clustered", "ring", kernel, n, v, 300000, 1, ns,
                        {"window_bits": CLUSTER_WINDOW}))
    for (scheme, kernel), values in NODES_NS.items():
        for n, ns in zip(NODES_N, values):
            out.append(("nodes", scheme, kernel, n, 100, 300000, 1, ns))
    for (scheme, kernel), (base, fixed) in BATCH_BASE.items():
        for k in BATCH_K:
            # Large batches leave the cache: +8 % at a million keys.
            ns = base + fixed / k + (0.08 * base if k >= 1000000 else 0.0)
            out.append(("batch", scheme, kernel, 1000, 100, k, 1, float(f"{ns:.3g}")))
    for (scheme, kernel), values in THREADS_NS.items():
        for t, ns in zip((1, 2), values):
            out.append(("threads", scheme, kernel, 1000, 100, 3000000, t, ns))
    for (scheme, kernel), ns in HASHED_NS.items():
        out.append(("hashed", scheme, kernel, 1000, 100, 300000, 1, ns))
    for scheme, n, k, scalar, scalar_ns, simd in TARGETS_NS:
        out.append(("targets", scheme, scalar, n, 100, k, 1, scalar_ns))
        for kernel, (dispatched, *forced) in simd.items():
            out.append(("targets", scheme, kernel, n, 100, k, 1, dispatched))
            for target, ns in zip(TARGETS, forced):
                out.append(("targets", scheme, f"{kernel}@{target}", n, 100, k, 1, ns))
    for (scheme, kernel), values in DENSE_NS.items():
        for n, ns in zip(DENSE_N, values):
            out.append(("dense", scheme, kernel, n, 1, 100000, 1, ns))
    for (scheme, kernel, order), by_n in REMOVALS_NS.items():
        k = 20000 if scheme == "hrw" else 100000
        for n, values in by_n.items():
            for pct, ns in zip(REMOVED_PCT, values):
                out.append(("removals", scheme, kernel, n, REMOVALS_V[n], k, 1, ns,
                            removals_extra(scheme, kernel, order, n, pct)))
    # Families without an extra parameter get an empty one.
    return [c if len(c) == 9 else c + ({},) for c in out]


def memory_bytes(scheme: str, kernel: str, tokens: int, n: int) -> int:
    """Bytes of lookup structure, as the kernels report them (round figures
    per token for the S-tree and the bucket index; none for the stream)."""
    if scheme == "ring":
        base = kernel.partition("@")[0]
        per_token = {"stree": 16, "bucketed": 48, "stream": 0}
        if base in per_token:
            return tokens * per_token[base]
        eytzinger = base in ("eytzinger", "simd_eytzinger")
        return (tokens + 1) * 12 if eytzinger else tokens * 8 + (tokens + 1) * 4
    if scheme == "hrw":
        return n * 8
    return 0


def simd_target(label: str) -> tuple:
    """(target that ran, forced) of a `scheme/kernel[@TARGET]` label, or (None,
    False) for a kernel the registry does not mark SIMD."""
    base, _, forced = label.partition("@")
    if forced:
        return forced, True
    return ("AVX3", False) if base in SIMD else (None, False)


# Counters that are the configuration's parameters: the same in every
# repetition, written exactly.
PARAMETERS = ("nodes", "vnodes", "keys", "threads", "tokens", "removed_pct", "survivors")


def round6(x: float) -> float:
    """x to 6 significant digits: enough for the tests, and a smaller file."""
    return float(f"{x:.6g}")


def fmt(value) -> str:
    """A JSON value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    if isinstance(value, dict):
        return obj(list(value.items()))
    raise TypeError(value)


def obj(pairs: list) -> str:
    """A one-line JSON object from (key, value) pairs; keys may repeat, as in
    Google Benchmark's output, which json.dumps cannot write."""
    return "{" + ", ".join(f"{json.dumps(k)}: {fmt(v)}" for k, v in pairs) + "}"


def noise_counters(index: int, base: str, rep: int) -> list:
    """The noise record of one repetition of configuration `index` (name
    `base`): flagged where NOISY says, the load average varying."""
    memory_ratio, steal = NOISY.get(base, (1.0 + 0.01 * (index % 5), (0.0, 0.0, 0.0)))
    noisy = memory_ratio > 1.15 or steal[rep] > 20
    return [("canary_compute_ns", CANARY[0]),
            ("canary_memory_ns", round6(CANARY[1] * memory_ratio)),
            ("canary_ratio", round6(memory_ratio)), ("canary_ms", 2.5),
            ("steal_ms", steal[rep]), ("load_avg_1m", round6(0.10 + 0.05 * (index % 7))),
            ("noisy", float(noisy))]


def thread_cpu(config: tuple, ns: float) -> list:
    """Family "threads": each slot's CPU ms in a repetition of `ns` per key."""
    family, _, kernel, _, _, k, t = config[:7]
    if family != "threads":
        return []
    wall_ms = ns * k * max(1, int(2e8 / (ns * k))) / 1e6
    shares = THREAD_SHARES.get(kernel, DEFAULT_SHARES)[:t] if t > 1 else (0.99,)
    return [(f"thread_cpu_ms_{slot}", round6(wall_ms * share))
            for slot, share in enumerate(shares)]


def entries_for(index: int, config: tuple, rng: random.Random) -> list:
    """The 3 iteration entries and 4 aggregates of one configuration."""
    family, scheme, kernel, n, v, k, t, median, extra = config
    base = f"{family}/{scheme}/{kernel}/N:{n}/V:{v}/K:{k}/threads:{t}"
    if "in_flight" in extra:
        base += f"/inflight:{extra['in_flight']}"
    if "window_bits" in extra:
        base += f"/window:{extra['window_bits']}"
    if "removed" in extra:
        base += f"/removed:{extra['removed']}/order:{extra['order']}"
    run_name = base + "/real_time"
    tokens = extra.get("tokens", n * v if scheme == "ring" else 0)
    memory = extra.get("memory", memory_bytes(scheme, kernel, tokens, n))
    build = [("build_ms", round6(extra.get("build_ms", tokens * BUILD_NS_PER_TOKEN.get(kernel, 20.0)
                                                        / 1e6)))]
    if tokens and kernel != "stream":
        build.append(("bytes_per_token", round6(memory / tokens)))
    if "removed" in extra:
        build += [("removed_pct", float(extra["removed"])),
                  ("survivors", float(extra["survivors"])),
                  ("remove_us", round6(extra["build_ms"] * 900)),
                  ("readd_us", round6(extra["build_ms"] * 1100))]
    knobs = [("in_flight", float(extra["in_flight"]))] if "in_flight" in extra else []
    window = [("window_bits", float(extra["window_bits"]))] if "window_bits" in extra else []
    low = round6(median * (1 - rng.uniform(0.002, 0.03)))
    high = round6(median * (1 + rng.uniform(0.002, 0.04)))
    samples = [low, median, high]
    rng.shuffle(samples)
    cpu_ratio = 1.0 if t == 1 else float(t)
    target, forced = simd_target(f"{scheme}/{kernel}")
    hwy = [] if target is None else [("hwy_target", HWY_BITS[target]),
                                     ("hwy_target_forced", float(forced))]
    label = [] if target is None else [("label", target)]

    def counters(ns: float, rep: int = 0) -> list:
        return build + hwy + knobs + [
            ("keys", float(k)), ("keys_per_second", round6(1e9 / ns)),
            ("memory_bytes", float(memory)),
            ("nodes", float(n)), ("ns_per_key", ns), ("threads", float(t)),
            ("threads_ran", float(t)), ("tokens", float(tokens)), ("vnodes", float(v))
        ] + window + noise_counters(index, base, rep) + thread_cpu(config, ns)

    head = [("family_index", index), ("per_family_instance_index", 0),
            ("run_name", run_name)]
    out = []
    for rep, ns in enumerate(samples):
        iterations = max(1, int(2e8 / (ns * k)))
        out.append([("name", run_name)] + head + [
            ("run_type", "iteration"), ("repetitions", REPS), ("repetition_index", rep),
            ("threads", 1), ("iterations", iterations), ("real_time", round6(ns * k)),
            ("cpu_time", round6(ns * k * cpu_ratio)), ("time_unit", "ns")] + counters(ns, rep)
            + label)

    per_sample = [dict(counters(ns, rep)) for rep, ns in enumerate(samples)]
    times = [ns * k for ns in samples]

    def aggregate(name: str, unit: str, f) -> list:
        # The parameters stay exact (N reaches 2^31 - 1 in family "dense").
        counter_values = [(key, f([c[key] for c in per_sample]) if key in PARAMETERS
                           else round6(f([c[key] for c in per_sample])))
                          for key, _ in counters(samples[0])]
        return [("name", f"{run_name}_{name}")] + head + [
            ("run_type", "aggregate"), ("repetitions", REPS), ("threads", 1),
            ("aggregate_name", name), ("aggregate_unit", unit), ("iterations", REPS),
            ("real_time", round6(f(times))),
            ("cpu_time", round6(f([x * cpu_ratio for x in times]))),
            ("time_unit", "ns")] + counter_values + label

    def cv(xs: list) -> float:
        mean = statistics.fmean(xs)
        return statistics.stdev(xs) / mean if mean else 0.0

    out.append(aggregate("mean", "time", statistics.fmean))
    out.append(aggregate("median", "time", statistics.median))
    out.append(aggregate("stddev", "time", statistics.stdev))
    out.append(aggregate("cv", "percentage", cv))
    assert math.isclose(dict(out[-3])["ns_per_key"], median)
    return out


def build() -> str:
    """The whole fixture text."""
    rng = random.Random(20261130)
    entries = []
    for i, config in enumerate(configs()):
        entries += entries_for(i, config, rng)
    context = ",\n".join(f"    {json.dumps(k)}: {fmt(v)}" for k, v in CONTEXT)
    body = ",\n".join("    " + obj(e) for e in entries)
    return ("{\n  \"context\": {\n" + context + "\n  },\n  \"benchmarks\": [\n"
            + body + "\n  ]\n}\n")


def main() -> int:
    """Writes the fixture to OUTPUT or its default place."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(build())
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
