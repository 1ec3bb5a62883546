#!/usr/bin/python3
"""Plots and a Markdown report for one chbench run.

Reads the Google Benchmark 1.7.1 JSON that build/release/bench/chbench_bench
writes (--benchmark_out=FILE --benchmark_out_format=json, run with
repetitions) and writes into an existing folder:

  ring_tokens.png    ns/key vs ring tokens, per ring kernel, with the stream
                     floor                                     (family "tokens")
  latency.png        throughput beside latency vs ring tokens  ("tokens", "latency")
  inflight.png       ns/key vs keys in flight, per kernel and ring (family "inflight")
  clustered.png      ns/key on clustered tokens, vs Eytzinger  (family "clustered")
  schemes_nodes.png  ns/key vs node count, every scheme        (family "nodes")
  threads.png        speed-up vs thread count, per kernel      (family "threads")
  batch.png          ns/key vs batch size K, per kernel        (family "batch")
  hashed.png         ns/key with key hashing included          (family "hashed")
  targets.png        SIMD speed-up over scalar, per Highway target (family "targets")
  report.md          machine and build, ratios, the ring's speed-limit goals (issue
                     4), SIMD targets, plots, tables, checks

A family missing from the JSON gets no plot; the report says so.

Benchmark names follow the bench's contract
`<family>/<scheme>/<kernel>/N:<n>/V:<v>/K:<k>/threads:<t>[/inflight:<g>][/window:<w>]`,
where a SIMD kernel forced to one Highway target is `<kernel>@<TARGET>` and
`ring/stream` is the stream baseline (reads each key hash, writes one owner, no
lookup); suffixes that Google Benchmark appends itself (`/real_time`,
`/repeats:3`, a second `threads:`) are ignored. Counters are top-level numeric
fields of each entry.

Exit status: 0 on success; 2 when the input cannot be read, is not JSON
(corrupt or truncated), holds no chbench benchmarks, or the output folder does
not exist or cannot be written; then nothing at all is written. 1 when
matplotlib is missing, or writing failed midway (the folder is left as it was).

Run it with Debian's interpreter, /usr/bin/python3, which sees
python3-matplotlib.
"""

from __future__ import annotations

import io
import json
import math
import os
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

import cli

PROG = "plot.py"
EXIT_BAD_INPUT = 2
EXIT_NO_MATPLOTLIB = 1
EXIT_WRITE_FAILED = 1

FAMILY_ORDER = ("tokens", "latency", "inflight", "clustered", "nodes", "batch", "threads",
                "hashed", "targets", "profiles")
SCHEME_ORDER = ("ring", "hrw", "jump", "modn", "maglev")
SCHEME_TITLES = {
    "ring": "ring",
    "hrw": "rendezvous (HRW)",
    "jump": "jump",
    "modn": "mod-N",
    "maglev": "Maglev",
}
# Name segments `KEY:value` and the counter each one mirrors.
NAME_PARAMS = {"N": "nodes", "V": "vnodes", "K": "keys", "threads": "threads",
               "inflight": "in_flight", "window": "window_bits"}
TIME_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# Tokens at and above which the report compares Eytzinger with lower_bound.
RATIO_MIN_TOKENS = 1_000_000
# Above this coefficient of variation a figure is flagged as noisy.
NOISY_CV = 0.05
DPI = 150

OUTPUT_FILES = (
    "ring_tokens.png",
    "latency.png",
    "inflight.png",
    "clustered.png",
    "schemes_nodes.png",
    "threads.png",
    "batch.png",
    "hashed.png",
    "targets.png",
    "report.md",
)
# Highway targets, widest first; others (NEON, SVE, ...) follow by name.
TARGET_ORDER = ("AVX10_2", "AVX3_SPR", "AVX3_ZEN4", "AVX3_DL", "AVX3", "AVX2", "SSE4", "SSSE3",
                "SSE2", "SCALAR", "EMU128")
# SIMD kernel -> the scalar kernel of the same scheme it is measured against.
SCALAR_COUNTERPARTS = {
    ("hrw", "simd_keys"): "scalar",
    ("hrw", "simd_nodes"): "scalar",
    ("jump", "simd"): "scalar",
    ("modn", "simd"): "scalar",
    ("ring", "simd_branchless"): "branchless",
    ("ring", "simd_eytzinger"): "eytzinger",
}
# The Ratios section's SIMD checks: rendezvous from this N up, jump at these N.
SIMD_HRW_MIN_NODES = 64
SIMD_JUMP_NODES = (1_000, 1_000_000)

# Issue 4, "Ring at the speed limit". The stream baseline reads each key hash
# and writes one owner without a lookup: the memory floor, never a kernel.
STREAM_LABEL = "ring/stream"
LOWER_BOUND_LABEL = "ring/lower_bound"
EYTZINGER_LABEL = "ring/eytzinger"
SMALL_RING = 65_536  # "~64k tokens": the measured ring closest to this
LARGE_RING = 16_777_216  # "~16M tokens"
NEAR_FACTOR = 2.0  # a ring is "~T tokens" only within this factor of T
# Best ring kernel ÷ lower_bound at least this much, at ~64k and ~16M tokens.
LOWER_BOUND_GOALS = ((SMALL_RING, "~64k", 20.0), (LARGE_RING, "~16M", 30.0))
STREAM_GOAL = 6.0  # best ring kernel ÷ stream at most this, at every ring up to ~64k
CLUSTERED_GOAL_KERNELS = ("ring/stree", "ring/bucketed")  # no slower than Eytzinger there
# What "keys in flight" means for each kernel of family "inflight".
KNOB_NAMES = {"ring/stree": "lockstep group", "ring/bucketed": "prefetch distance"}


class InputError(Exception):
    """The input cannot be used; the message is one line for the user."""


# --------------------------------------------------------------------------
# Reading the JSON


@dataclass(frozen=True)
class BenchName:
    """The parts of a benchmark name that the contract defines."""

    family: str
    scheme: str
    kernel: str
    params: dict  # counter name ("nodes", "vnodes", "keys", "threads", "in_flight",
    #               "window_bits") -> int


def parse_name(name: str) -> Optional[BenchName]:
    """Splits `family/scheme/kernel/N:n/V:v/K:k/threads:t[/inflight:g][/window:w][/...]`.

    Returns None when the name does not start with three plain segments.
    Unknown or repeated `KEY:value` segments (Google Benchmark appends its
    own `threads:`, `repeats:`, `min_time:`) are ignored: the first one wins.
    """
    parts = name.split("/")
    if len(parts) < 3:
        return None
    family, scheme, kernel = parts[:3]
    if not all(p and ":" not in p for p in (family, scheme, kernel)):
        return None
    params: dict = {}
    for segment in parts[3:]:
        key, sep, value = segment.partition(":")
        counter = NAME_PARAMS.get(key) if sep else None
        if counter is None or counter in params:
            continue
        try:
            params[counter] = int(value)
        except ValueError:
            continue
    return BenchName(family, scheme, kernel, params)


def number(value: Any) -> Optional[float]:
    """A finite float from a JSON value, or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def entry_ns_per_key(entry: dict) -> Optional[float]:
    """ns/key of one entry: the ns_per_key counter, else real_time / keys."""
    value = number(entry.get("ns_per_key"))
    if value is not None and value > 0:
        return value
    return real_time_ns_per_key(entry)


def real_time_ns_per_key(entry: dict) -> Optional[float]:
    """real_time (converted to ns) divided by the keys counter, or None
    unless both are positive."""
    real_time = number(entry.get("real_time"))
    keys = number(entry.get("keys"))
    scale = TIME_UNIT_NS.get(entry.get("time_unit", "ns"))
    if real_time is None or real_time <= 0 or not keys or keys < 0 or scale is None:
        return None
    return real_time * scale / keys


@dataclass
class Result:
    """One benchmark configuration, summarised over its repetitions."""

    run_name: str
    family: str
    scheme: str
    kernel: str
    nodes: Optional[int] = None
    vnodes: Optional[int] = None
    keys: Optional[int] = None
    threads: Optional[int] = None
    threads_ran: Optional[int] = None
    tokens: Optional[int] = None
    in_flight: Optional[int] = None  # family "inflight": lockstep group or prefetch distance
    window_bits: Optional[int] = None  # family "clustered": tokens in one 2^w window
    memory_bytes: Optional[float] = None
    bytes_per_token: Optional[float] = None  # lookup structure ÷ tokens
    build_ms: Optional[float] = None  # building the table from the node list, once
    order: int = 0  # where the kernel first appears in the JSON (bench order)
    ns: Optional[float] = None  # median ns/key
    ns_lo: Optional[float] = None  # spread: min over repetitions ...
    ns_hi: Optional[float] = None  # ... and max (or median -/+ stddev)
    cv: Optional[float] = None  # of ns/key, a fraction
    repetitions: Optional[int] = None
    keys_per_second: Optional[float] = None
    error: Optional[str] = None
    hwy_label: Optional[str] = None  # the entry's "label": the Highway target that ran
    hwy_target: Optional[float] = None  # counter: that target's Highway bit

    @property
    def label(self) -> str:
        """`scheme/kernel`, as the bench and the kernel registry name it."""
        return f"{self.scheme}/{self.kernel}"

    @property
    def is_floor(self) -> bool:
        """The stream baseline: a memory floor to compare with, not a kernel."""
        return self.label == STREAM_LABEL

    @property
    def base_kernel(self) -> str:
        """The kernel without a forced target: `simd_keys` of `simd_keys@AVX2`."""
        return self.kernel.partition("@")[0]

    @property
    def forced_target(self) -> Optional[str]:
        """`AVX2` of `simd_keys@AVX2`; None when Highway's dispatch chose."""
        return self.kernel.partition("@")[2] or None

    def sort_key(self) -> tuple:
        """Scheme order of SPEC.md, kernels in the bench's order, then parameters."""
        scheme = SCHEME_ORDER.index(self.scheme) if self.scheme in SCHEME_ORDER else 99
        return (scheme, self.order, self.kernel, self.nodes or 0, self.vnodes or 0,
                self.keys or 0, self.threads or 0, self.window_bits or 0, self.in_flight or 0)


@dataclass
class Run:
    """Everything read from one JSON file."""

    context: dict
    results: list  # of Result
    warnings: list = field(default_factory=list)

    def family(self, name: str) -> list:
        """The measured (not errored) results of one family, sorted."""
        return sorted((r for r in self.results if r.family == name and r.ns is not None),
                      key=Result.sort_key)

    def families(self) -> list:
        """Family names present, known ones first in the contract's order."""
        present = {r.family for r in self.results}
        known = [f for f in FAMILY_ORDER if f in present]
        return known + sorted(present - set(FAMILY_ORDER))


def load(path: Path) -> Run:
    """Reads and summarises a bench JSON file. Raises InputError."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from None
    if not raw.strip():
        raise InputError(f"{path} is empty; did the bench run finish?")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as err:
        detail = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise InputError(f"{path} is not valid JSON ({detail}); "
                         "is it corrupt or cut short?") from None
    if not isinstance(data, dict):
        raise InputError(f"{path} is JSON but not a Google Benchmark report (no top-level object)")
    entries = data.get("benchmarks")
    if not isinstance(entries, list) or not entries:
        raise InputError(f"{path} holds no benchmarks (missing or empty \"benchmarks\" list)")
    context = data.get("context") if isinstance(data.get("context"), dict) else {}
    run = Run(context=context, results=[])
    run.results = summarise(entries, run.warnings)
    if not run.results:
        raise InputError(f"{path} holds no chbench benchmarks "
                         "(names like tokens/ring/eytzinger/N:1000/V:100/K:300000/threads:1)")
    return run


def summarise(entries: list, warnings: list) -> list:
    """Groups entries by run name and reduces each group to a Result."""
    groups: dict = {}
    skipped = 0
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            skipped += 1
            continue
        run_name = entry.get("run_name")
        if not isinstance(run_name, str):
            run_name = entry["name"]
            aggregate = entry.get("aggregate_name")
            if entry.get("run_type") == "aggregate" and isinstance(aggregate, str):
                run_name = run_name.removesuffix("_" + aggregate)
        parsed = parse_name(run_name)
        if parsed is None:
            skipped += 1
            continue
        groups.setdefault(run_name, (parsed, []))[1].append(entry)
    if skipped:
        warnings.append(f"{skipped} entries skipped: no chbench name "
                        "(family/scheme/kernel/...)")
    results = [reduce_group(name, parsed, group, warnings)
               for name, (parsed, group) in groups.items()]
    first_seen: dict = {}
    for r in results:
        r.order = first_seen.setdefault(r.label, len(first_seen))
    return results


def reduce_group(run_name: str, parsed: BenchName, group: list, warnings: list) -> Result:
    """Median, spread, CV and parameters of one configuration."""
    result = Result(run_name, parsed.family, parsed.scheme, parsed.kernel)
    errors = [e for e in group if e.get("error_occurred")]
    if errors:
        result.error = str(errors[0].get("error_message") or "error_occurred")
        return result
    iterations = [e for e in group if e.get("run_type", "iteration") == "iteration"]
    aggregates = {e.get("aggregate_name"): e for e in group if e.get("run_type") == "aggregate"}
    median_entry = aggregates.get("median")
    first = median_entry or (iterations[0] if iterations else group[0])

    # Parameters: the counters, with the name as the fallback. `threads` is
    # taken from the name first: Google Benchmark writes its own "threads"
    # field (the benchmark threads, 1) into the same object as the counter.
    def counter(key: str) -> Optional[int]:
        value = number(first.get(key))
        return None if value is None else int(round(value))

    result.nodes = counter("nodes") or parsed.params.get("nodes")
    result.vnodes = counter("vnodes") or parsed.params.get("vnodes")
    result.keys = counter("keys") or parsed.params.get("keys")
    result.threads = parsed.params.get("threads") or counter("threads")
    result.threads_ran = counter("threads_ran")
    result.tokens = counter("tokens")
    if result.tokens is None and parsed.scheme == "ring" and result.nodes and result.vnodes:
        result.tokens = result.nodes * result.vnodes
    result.in_flight = counter("in_flight") or parsed.params.get("in_flight")
    result.window_bits = counter("window_bits") or parsed.params.get("window_bits")
    result.memory_bytes = number(first.get("memory_bytes"))
    result.bytes_per_token = number(first.get("bytes_per_token"))
    if result.bytes_per_token is None and result.memory_bytes and result.tokens \
            and not result.is_floor:
        result.bytes_per_token = result.memory_bytes / result.tokens
    result.build_ms = number(first.get("build_ms"))
    label = first.get("label")
    result.hwy_label = (label.strip() or None) if isinstance(label, str) else None
    result.hwy_target = number(first.get("hwy_target"))
    for key, value in parsed.params.items():
        got = getattr(result, key)
        if key != "threads" and got is not None and got != value:
            warnings.append(f"{run_name}: counter {key} = {got} but the name says {value}")

    samples = [v for v in (entry_ns_per_key(e) for e in iterations) if v is not None]
    if median_entry is not None:
        result.ns = entry_ns_per_key(median_entry)
    if result.ns is None and samples:
        result.ns = statistics.median(samples)
    if result.ns is None:
        result.error = "no positive ns_per_key, real_time or keys in the JSON"
        return result

    counted = number(first.get("ns_per_key"))
    timed = real_time_ns_per_key(first)
    if counted and timed and not 0.67 < counted / timed < 1.5:
        warnings.append(f"{run_name}: ns_per_key counter {sig3(counted)} disagrees with "
                        f"real_time / keys = {sig3(timed)} ns; plotted the counter")

    result.repetitions = (int(number(first.get("repetitions")) or 0) or len(iterations) or 1)
    if len(samples) >= 2:
        result.ns_lo, result.ns_hi = min(samples), max(samples)
    elif "stddev" in aggregates:
        stddev = entry_ns_per_key_spread(aggregates["stddev"])
        if stddev is not None:
            result.ns_lo, result.ns_hi = result.ns - stddev, result.ns + stddev
    cv_entry = aggregates.get("cv")
    if cv_entry is not None:
        result.cv = number(cv_entry.get("ns_per_key"))
        if result.cv is None:
            result.cv = number(cv_entry.get("real_time"))
    if result.cv is None and len(samples) >= 2:
        mean = statistics.fmean(samples)
        result.cv = statistics.stdev(samples) / mean if mean else None

    kps = number(first.get("keys_per_second"))
    result.keys_per_second = kps if kps else 1e9 / result.ns
    return result


def entry_ns_per_key_spread(entry: dict) -> Optional[float]:
    """The stddev aggregate's ns/key (its counters hold standard deviations).

    Its `keys` counter is a standard deviation too (0), so real_time / keys
    cannot stand in for a missing ns_per_key here.
    """
    return number(entry.get("ns_per_key"))


# --------------------------------------------------------------------------
# Numbers


def sig3(x: Optional[float]) -> str:
    """x rounded to 3 significant digits, plain notation from 0.001 to 10^7."""
    if x is None or not math.isfinite(x):
        return "–"
    if x == 0:
        return "0"
    rounded = float(f"{x:.3g}")
    magnitude = math.floor(math.log10(abs(rounded)))
    if -3 <= magnitude < 7:
        return f"{rounded:,.{max(0, 2 - magnitude)}f}"
    return f"{rounded:.2e}"


def si(x: Optional[float], unit: str = "") -> str:
    """x with an SI prefix and 3 significant digits, e.g. 3.75e9 -> '3.75 G'."""
    if x is None or not math.isfinite(x):
        return "–"
    for factor, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= factor * 0.9995:
            return f"{sig3(x / factor)} {prefix}{unit}"
    return f"{sig3(x)} {unit}".rstrip()


def binary_size(n: Optional[float]) -> str:
    """Bytes as B, KiB, MiB or GiB with 3 significant digits."""
    if n is None or not math.isfinite(n):
        return "–"
    for factor, unit in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= factor:
            return f"{sig3(n / factor)} {unit}"
    return f"{int(n)} B"


def integer(n: Optional[float]) -> str:
    """An exact count with thousands separators."""
    return "–" if n is None else f"{int(n):,}"


def crossovers(xs: list, a: list, b: list) -> list:
    """Where series a and b (same xs, ascending, all > 0) cross.

    Interpolates log(a) - log(b) linearly in log(x), as on a log-log plot.
    Returns (x, a_below_before) per crossing: a_below_before tells whether a
    was the smaller one just before the crossing.
    """
    found = []
    diff = [math.log(p) - math.log(q) for p, q in zip(a, b)]
    for i in range(len(xs) - 1):
        d0, d1 = diff[i], diff[i + 1]
        if d0 == 0 and (i == 0 or diff[i - 1] == 0):
            continue
        if d0 == 0:
            found.append((xs[i], diff[i - 1] < 0))
        elif d0 * d1 < 0:
            t = d0 / (d0 - d1)
            x = math.exp(math.log(xs[i]) + t * (math.log(xs[i + 1]) - math.log(xs[i])))
            found.append((x, d0 < 0))
    if len(diff) >= 2 and diff[-1] == 0 and diff[-2] != 0:
        found.append((xs[-1], diff[-2] < 0))
    return found


def interpolate_loglog(xs: list, ys: list, x: float) -> float:
    """y at x on the piecewise log-log line through (xs, ys), xs ascending."""
    for i in range(len(xs) - 1):
        if xs[i] <= x <= xs[i + 1]:
            t = (math.log(x) - math.log(xs[i])) / (math.log(xs[i + 1]) - math.log(xs[i]))
            return math.exp(math.log(ys[i]) + t * (math.log(ys[i + 1]) - math.log(ys[i])))
    return ys[0] if x < xs[0] else ys[-1]


# --------------------------------------------------------------------------
# Analysis shared by plots and report

# Which result field is the x axis of each family; the fields it is derived
# from do not split series either.
FAMILY_X = {"tokens": ("tokens", {"nodes", "vnodes"}), "nodes": ("nodes", {"tokens"}),
            "batch": ("keys", set()), "threads": ("threads", {"threads_ran"})}
PARAM_FIELDS = ("nodes", "vnodes", "keys", "threads")
PARAM_LABELS = {"nodes": "N", "vnodes": "V", "keys": "K", "threads": "threads"}


@dataclass
class Series:
    """One line of a plot: a kernel with the parameters that vary held fixed."""

    label: str
    scheme: str
    points: list  # of Result, ascending in x


@dataclass
class Split:
    """A family's results as plot lines, and how its parameters vary.

    fixed: parameters with one value for every result (for the subtitle);
    per_kernel: parameters that differ between kernels but not within one
    (the table shows them); a parameter that varies within a kernel splits it
    into several series and appears in their labels.
    """

    series: list
    fixed: dict
    per_kernel: list

    def subtitle(self) -> str:
        """'N = 1,000, K = 300,000, 1 thread' (+ what differs by kernel)."""
        parts = []
        for f in PARAM_FIELDS:
            if f not in self.fixed:
                continue
            if f == "threads":
                parts.append(f"{self.fixed[f]} thread" + ("s" if self.fixed[f] != 1 else ""))
            else:
                parts.append(f"{PARAM_LABELS[f]} = {integer(self.fixed[f])}")
        if self.per_kernel:
            parts.append(", ".join(PARAM_LABELS[f] for f in self.per_kernel)
                         + " by kernel (see report)")
        return ", ".join(parts)


def split_series(results: list, x_field: str, derived: set) -> Split:
    """Groups a family's results into Series along x_field."""
    others = [f for f in PARAM_FIELDS if f != x_field and f not in derived]
    fixed: dict = {}
    per_kernel, varying = [], []
    for f in others:
        # A non-ring scheme's V does not matter; do not let it split series.
        relevant = [r for r in results if not (f == "vnodes" and r.scheme != "ring")]
        values = {getattr(r, f) for r in relevant}
        if len(values) <= 1:
            if values and None not in values:
                fixed[f] = values.pop()
            continue
        by_label: dict = {}
        for r in relevant:
            by_label.setdefault(r.label, set()).add(getattr(r, f))
        if any(len(v) > 1 for v in by_label.values()):
            varying.append(f)
        else:
            per_kernel.append(f)
    groups: dict = {}
    for r in results:
        extra = [f"{PARAM_LABELS[f]}={getattr(r, f)}" for f in varying
                 if not (f == "vnodes" and r.scheme != "ring")]
        label = r.label + (f" ({', '.join(extra)})" if extra else "")
        groups.setdefault(label, Series(label, r.scheme, [])).points.append(r)
    for series in groups.values():
        series.points.sort(key=lambda r: getattr(r, x_field) or 0)
        series.points = [p for p in series.points if getattr(p, x_field)]
    return Split([g for g in groups.values() if g.points], fixed, per_kernel)


def envelope(series: list, x_field: str) -> tuple:
    """Lower envelope over series: (xs, ys, labels) at the x values all share."""
    common = None
    for s in series:
        xs = {getattr(p, x_field) for p in s.points}
        common = xs if common is None else common & xs
    xs = sorted(common or [])
    ys, labels = [], []
    for x in xs:
        best = min((p.ns, s.label) for s in series for p in s.points
                   if getattr(p, x_field) == x)
        ys.append(best[0])
        labels.append(best[1])
    return xs, ys, labels


@dataclass
class Crossover:
    """Where rendezvous and the best ring kernel cost the same."""

    nodes: float
    hrw_below_before: bool
    ring_label: str
    hrw_label: str
    ns: float
    group: str


@dataclass
class NodesAnalysis:
    """Crossovers per group of the "nodes" family, and what was compared."""

    crossovers: list
    notes: list


def analyse_nodes(run: Run) -> NodesAnalysis:
    """Finds where HRW's ns/key passes the best ring kernel's, per (V, K, threads)."""
    analysis = NodesAnalysis([], [])
    results = run.family("nodes")
    groups: dict = {}
    for r in results:
        groups.setdefault((r.keys, r.threads), {}).setdefault(r.scheme, []).append(r)
    for (keys, threads), by_scheme in sorted(groups.items(), key=lambda kv: str(kv[0])):
        ring = [r for r in by_scheme.get("ring", [])]
        hrw = [r for r in by_scheme.get("hrw", [])]
        group = f"K = {integer(keys)}, threads = {threads}"
        if not ring or not hrw:
            analysis.notes.append(f"{group}: needs both ring and hrw results")
            continue
        vnodes = sorted({r.vnodes for r in ring})
        for v in vnodes:
            ring_series = series_by_label([r for r in ring if r.vnodes == v], "nodes")
            hrw_series = series_by_label(hrw, "nodes")
            sub = group + (f", V = {integer(v)}" if v is not None else "")
            xs_r, ys_r, lab_r = envelope(ring_series, "nodes")
            xs_h, ys_h, lab_h = envelope(hrw_series, "nodes")
            xs = sorted(set(xs_r) & set(xs_h))
            if len(xs) < 2:
                analysis.notes.append(f"{sub}: fewer than two node counts with both ring and hrw")
                continue
            ring_ns = [ys_r[xs_r.index(x)] for x in xs]
            hrw_ns = [ys_h[xs_h.index(x)] for x in xs]
            found = crossovers(xs, hrw_ns, ring_ns)
            if not found:
                faster = "rendezvous" if hrw_ns[0] < ring_ns[0] else "the best ring kernel"
                analysis.notes.append(
                    f"{sub}: no crossover between N = {integer(xs[0])} and "
                    f"N = {integer(xs[-1])}; {faster} is faster throughout")
            for n, hrw_below in found:
                i = max(j for j in range(len(xs)) if xs[j] <= n)
                j = min(i + 1, len(xs) - 1)
                ring_label = lab_r[xs_r.index(xs[j if hrw_below else i])]
                hrw_label = lab_h[xs_h.index(xs[i])]
                analysis.crossovers.append(Crossover(
                    n, hrw_below, ring_label, hrw_label,
                    interpolate_loglog(xs, ring_ns, n), sub))
    return analysis


def series_by_label(results: list, x_field: str) -> list:
    """Series per kernel label along x_field (points without an x dropped)."""
    groups: dict = {}
    for r in results:
        if getattr(r, x_field):
            groups.setdefault(r.label, Series(r.label, r.scheme, [])).points.append(r)
    for s in groups.values():
        s.points.sort(key=lambda p: getattr(p, x_field))
    return list(groups.values())


def eytzinger_ratios(run: Run) -> list:
    """(lower_bound, eytzinger) result pairs of family "tokens", tokens >= 1M."""
    lower = {}
    for r in run.family("tokens"):
        if r.label == "ring/lower_bound":
            lower[(r.nodes, r.vnodes, r.keys, r.threads)] = r
    pairs = []
    for r in run.family("tokens"):
        if r.label != "ring/eytzinger":
            continue
        base = lower.get((r.nodes, r.vnodes, r.keys, r.threads))
        if base is not None and (r.tokens or 0) >= RATIO_MIN_TOKENS:
            pairs.append((base, r))
    return sorted(pairs, key=lambda p: (p[1].tokens, p[1].keys or 0))


def thread_speedups(run: Run) -> list:
    """(series, {threads: (result, speed-up)}) for family "threads"."""
    out = []
    for s in split_series(run.family("threads"), "threads", {"threads_ran"}).series:
        one = next((p for p in s.points if p.threads == 1), None)
        if one is None:
            continue
        out.append((s, {p.threads: (p, one.ns / p.ns) for p in s.points}))
    return out


def hashing_baseline(run: Run, r: Result) -> Optional[Result]:
    """The lookup-only result for the same kernel and configuration, if any."""
    for family in ("nodes", "tokens", "batch", "threads"):
        for other in run.family(family):
            if (other.label == r.label and other.nodes == r.nodes and other.keys == r.keys
                    and other.threads == r.threads
                    and (r.scheme != "ring" or other.vnodes == r.vnodes)):
                return other
    return None


def scalar_counterpart(scheme: str, kernel: str) -> Optional[str]:
    """The scalar kernel a SIMD kernel is measured against; None if not SIMD.

    Kernels missing from SCALAR_COUNTERPARTS follow its pattern: a ring
    `simd_<x>` against `<x>`, any other scheme's `simd*` against `scalar`.
    """
    if (scheme, kernel) in SCALAR_COUNTERPARTS:
        return SCALAR_COUNTERPARTS[(scheme, kernel)]
    if not kernel.startswith("simd"):
        return None
    if scheme == "ring":
        return kernel.removeprefix("simd_") if kernel.startswith("simd_") else None
    return "scalar"


def target_rank(name: str) -> tuple:
    """Sort key of a Highway target name: widest first, unknown ones after."""
    return (TARGET_ORDER.index(name), "") if name in TARGET_ORDER else (len(TARGET_ORDER), name)


@dataclass
class TargetGroup:
    """One SIMD kernel configuration of family "targets": its scalar
    counterpart, its dispatched run and its runs forced to each target."""

    scheme: str
    kernel: str  # without @TARGET
    nodes: Optional[int]
    vnodes: Optional[int]
    keys: Optional[int]
    threads: Optional[int]
    scalar_kernel: Optional[str]
    scalar: Optional[Result] = None
    dispatched: Optional[Result] = None
    dispatched_target: Optional[str] = None  # the target Highway's dispatch chose
    forced: dict = field(default_factory=dict)  # target name -> Result, widest first
    order: int = 0

    @property
    def label(self) -> str:
        """`scheme/kernel`."""
        return f"{self.scheme}/{self.kernel}"

    @property
    def scalar_label(self) -> str:
        """`scheme/scalar kernel`."""
        return f"{self.scheme}/{self.scalar_kernel or '?'}"

    def speedup(self, r: Optional[Result]) -> Optional[float]:
        """Median ns/key of the scalar counterpart ÷ that of r."""
        if r is None or self.scalar is None or not r.ns or not self.scalar.ns:
            return None
        return self.scalar.ns / r.ns

    def speedup_range(self, r: Result) -> Optional[tuple]:
        """(slowest, fastest) speed-up over the repetitions of both, if known."""
        s = self.scalar
        if s is None or None in (s.ns_lo, s.ns_hi, r.ns_lo, r.ns_hi) or r.ns_lo <= 0:
            return None
        return s.ns_lo / r.ns_hi, s.ns_hi / r.ns_lo

    def avx2_over_avx3(self) -> Optional[float]:
        """Median ns/key forced to AVX2 ÷ forced to AVX3 (AVX-512); above 1,
        AVX3 is faster."""
        avx2, avx3 = self.forced.get("AVX2"), self.forced.get("AVX3")
        return avx2.ns / avx3.ns if avx2 and avx3 and avx3.ns else None


@dataclass
class TargetsAnalysis:
    """Family "targets" grouped per SIMD kernel configuration."""

    groups: list  # of TargetGroup, in scheme order, kernels in bench order
    targets: list  # every forced target name in the family, widest first
    notes: list


def analyse_targets(run: Run) -> TargetsAnalysis:
    """Pairs each SIMD kernel of family "targets" with its scalar counterpart."""
    results = run.family("targets")
    by_config: dict = {}
    for r in results:
        counterpart = scalar_counterpart(r.scheme, r.base_kernel)
        if counterpart is None:
            continue
        key = (r.scheme, r.base_kernel, r.nodes, r.vnodes, r.keys, r.threads)
        group = by_config.get(key)
        if group is None:
            group = by_config[key] = TargetGroup(r.scheme, r.base_kernel, r.nodes, r.vnodes,
                                                 r.keys, r.threads, counterpart, order=r.order)
        group.order = min(group.order, r.order)
        if r.forced_target is None:
            group.dispatched = r
        else:
            group.forced[r.forced_target] = r
    scalars = {(r.label, r.nodes, r.vnodes, r.keys, r.threads): r for r in results}
    notes = []
    groups = sorted(by_config.values(), key=lambda g: (
        SCHEME_ORDER.index(g.scheme) if g.scheme in SCHEME_ORDER else 99, g.order, g.kernel,
        g.nodes or 0, g.keys or 0, g.vnodes or 0, g.threads or 0))
    for g in groups:
        where = f"`{g.label}` at N = {integer(g.nodes)}, K = {integer(g.keys)}"
        g.forced = dict(sorted(g.forced.items(), key=lambda kv: target_rank(kv[0])))
        g.scalar = scalars.get((g.scalar_label, g.nodes, g.vnodes, g.keys, g.threads))
        if g.scalar is None:
            notes.append(f"{where}: no `{g.scalar_label}` with the same N, V, K and threads "
                         "in family `targets`, so no speed-up")
        for name, r in g.forced.items():
            if r.hwy_label and r.hwy_label != name:
                notes.append(f"`{r.run_name}` was forced to {name} but reports "
                             f"{r.hwy_label} as the target that ran")
        g.dispatched_target = dispatched_target(g, run.context)
    targets = sorted({t for g in groups for t in g.forced}, key=target_rank)
    if groups and not any("AVX2" in g.forced and "AVX3" in g.forced for g in groups):
        ran = ", ".join(targets) or "none"
        notes.append(f"no AVX2 : AVX3 ratio: needs both targets, this run forced {ran}")
    return TargetsAnalysis(groups, targets, notes)


def dispatched_target(group: TargetGroup, context: dict) -> Optional[str]:
    """The target the dispatched run used: its label, else the forced run with
    the same Highway target bit, else the run's context."""
    d = group.dispatched
    if d is None:
        return None
    if d.hwy_label:
        return d.hwy_label
    if d.hwy_target is not None:
        for name, r in group.forced.items():
            if r.hwy_target == d.hwy_target:
                return name
    target = context.get("chbench_hwy_target")
    return target if isinstance(target, str) and target else None


@dataclass
class SimdCheck:
    """One row of a Ratios check: the best dispatched SIMD kernel vs scalar."""

    family: str
    scalar: Result
    simd: Result

    @property
    def speedup(self) -> float:
        """Scalar ns/key ÷ SIMD ns/key."""
        return self.scalar.ns / self.simd.ns


def simd_checks(run: Run, scheme: str, simd_kernels: tuple, want_nodes: Callable) -> list:
    """Per family "targets" then "nodes": the scalar kernel at each wanted N
    beside the fastest dispatched kernel of simd_kernels there."""
    rows = []
    for family in ("targets", "nodes"):
        results = run.family(family)
        for base in results:
            if base.label != f"{scheme}/scalar" or not want_nodes(base.nodes):
                continue
            rivals = [r for r in results
                      if r.scheme == scheme and r.kernel in simd_kernels
                      and (r.nodes, r.vnodes, r.keys, r.threads)
                      == (base.nodes, base.vnodes, base.keys, base.threads)]
            if rivals:
                rows.append(SimdCheck(family, base, min(rivals, key=lambda r: r.ns)))
    return rows


# --------------------------------------------------------------------------
# Issue 4: the ring at the speed limit


@dataclass
class RingPoint:
    """The ring kernels of one family measured on one ring, at one thread.

    kernels maps `ring/<kernel>` to its Result; the stream baseline is among
    them when it ran, but never counts as the best kernel.
    """

    tokens: int
    nodes: Optional[int]
    vnodes: Optional[int]
    keys: Optional[int]
    kernels: dict

    def best(self) -> Optional[Result]:
        """The fastest ring kernel here (median ns/key), stream excluded."""
        return min((r for r in self.kernels.values() if not r.is_floor),
                   key=lambda r: r.ns, default=None)


def ring_points(run: Run, family: str) -> list:
    """A family's one-thread ring results, one RingPoint per ring (N, V, K,
    cluster window), ascending in tokens; runs with keys in flight set are
    left out (family "inflight" varies them)."""
    points: dict = {}
    for r in run.family(family):
        if r.scheme != "ring" or not r.tokens or (r.threads or 1) != 1 or r.in_flight:
            continue
        key = (r.nodes, r.vnodes, r.keys, r.window_bits)
        point = points.setdefault(key, RingPoint(r.tokens, r.nodes, r.vnodes, r.keys, {}))
        point.kernels.setdefault(r.label, r)
    return sorted(points.values(), key=lambda p: (p.tokens, p.keys or 0, p.nodes or 0))


def nearest_ring(points: list, target: int) -> Optional[RingPoint]:
    """The point whose token count is closest to target (in ratio), if within
    NEAR_FACTOR of it; on a tie the larger ring."""
    near = [p for p in points if abs(math.log(p.tokens / target)) <= math.log(NEAR_FACTOR)]
    return min(near, key=lambda p: (abs(math.log(p.tokens / target)), -p.tokens), default=None)


@dataclass
class Goal:
    """One of issue 4's speed goals as this run measured it."""

    text: str  # what the goal asks, in Markdown
    measured: str  # the figures that decide it, or why there are none
    met: Optional[bool]  # None: not measured in this run

    @property
    def verdict(self) -> str:
        """'goal met', 'goal not met' or 'not measured'."""
        if self.met is None:
            return "not measured"
        return "goal met" if self.met else "goal not met"


@dataclass
class InflightLine:
    """One kernel on one ring of family "inflight": its runs per keys in flight."""

    label: str
    tokens: int
    points: list  # of Result, ascending in in_flight
    default: Optional[Result]  # the same kernel and ring in family "tokens"

    @property
    def knob(self) -> str:
        """What keys in flight means for this kernel."""
        return KNOB_NAMES.get(self.label, "keys in flight")

    def best(self) -> Result:
        """The fastest setting (median ns/key); on a tie the fewer keys in flight."""
        return min(self.points, key=lambda r: (r.ns, r.in_flight))

    def at(self, in_flight: int) -> Optional[Result]:
        """The run with this many keys in flight, if measured."""
        return next((r for r in self.points if r.in_flight == in_flight), None)


def inflight_lines(run: Run) -> list:
    """Family "inflight" at one thread as one InflightLine per kernel and
    ring, kernels in bench order, rings ascending."""
    groups: dict = {}
    for r in run.family("inflight"):
        if r.in_flight and r.tokens and (r.threads or 1) == 1:
            groups.setdefault((r.label, r.nodes, r.vnodes, r.keys, r.window_bits), []).append(r)
    defaults = {(r.label, r.nodes, r.vnodes, r.keys): r
                for r in run.family("tokens") if (r.threads or 1) == 1}
    lines = []
    for (label, nodes, vnodes, keys, _), results in groups.items():
        results.sort(key=lambda r: r.in_flight)
        lines.append(InflightLine(label, results[0].tokens, results,
                                  defaults.get((label, nodes, vnodes, keys))))
    return sorted(lines, key=lambda line: (line.points[0].order, line.tokens))


@dataclass
class SpeedLimit:
    """Issue 4's ratios and goal verdicts, from families tokens, clustered and
    inflight."""

    tokens: list  # RingPoints of family "tokens"
    lower_bound: list  # ("~64k" or "~16M", goal ratio, RingPoint or None)
    lower_bound_goals: list  # a Goal per entry of lower_bound
    stream_limit: int  # rings up to this many tokens are held to STREAM_GOAL
    stream: list  # RingPoints up to stream_limit with stream and a kernel
    stream_goal: Goal
    clustered: list  # RingPoints of family "clustered" with ring/eytzinger
    clustered_goal: Goal
    inflight: list  # of InflightLine

    @property
    def goals(self) -> list:
        """Every goal, in the issue's order."""
        return self.lower_bound_goals + [self.stream_goal, self.clustered_goal]


def analyse_speed_limit(run: Run) -> SpeedLimit:
    """Computes every ratio of the "Ring at the speed limit" section."""
    tokens = ring_points(run, "tokens")
    lower_bound, goals = [], []
    for target, name, goal in LOWER_BOUND_GOALS:
        point = nearest_ring([p for p in tokens if LOWER_BOUND_LABEL in p.kernels
                              and p.best() is not None], target)
        lower_bound.append((name, goal, point))
        text = f"best ring kernel ≥ {goal:g}× `{LOWER_BOUND_LABEL}` at {name} tokens"
        if point is None:
            goals.append(Goal(text, f"no ring within {NEAR_FACTOR:g}× of "
                                    f"{integer(target)} tokens with `{LOWER_BOUND_LABEL}`", None))
            continue
        speedup = point.kernels[LOWER_BOUND_LABEL].ns / point.best().ns
        goals.append(Goal(text, f"{sig3(speedup)}× (`{point.best().label}` at "
                                f"{integer(point.tokens)} tokens)", speedup >= goal))

    small = nearest_ring(tokens, SMALL_RING)
    stream_limit = small.tokens if small is not None else SMALL_RING
    stream = [p for p in tokens if p.tokens <= stream_limit and STREAM_LABEL in p.kernels
              and p.best() is not None]
    text = (f"best ring kernel ≤ {STREAM_GOAL:g}× `{STREAM_LABEL}` at every ring up to "
            "~64k tokens")
    if stream:
        worst = max(stream, key=lambda p: p.best().ns / p.kernels[STREAM_LABEL].ns)
        ratio = worst.best().ns / worst.kernels[STREAM_LABEL].ns
        stream_goal = Goal(text, f"worst {sig3(ratio)}× (`{worst.best().label}` at "
                                 f"{integer(worst.tokens)} tokens) over {len(stream)} ring"
                                 + ("s" if len(stream) > 1 else ""), ratio <= STREAM_GOAL)
    else:
        stream_goal = Goal(text, f"no ring up to {integer(stream_limit)} tokens with "
                                 f"`{STREAM_LABEL}` and a kernel", None)

    clustered = [p for p in ring_points(run, "clustered") if EYTZINGER_LABEL in p.kernels]
    return SpeedLimit(tokens, lower_bound, goals, stream_limit, stream, stream_goal, clustered,
                      clustered_goal(clustered), inflight_lines(run))


def clustered_goal(points: list) -> Goal:
    """CLUSTERED_GOAL_KERNELS no slower than Eytzinger on any clustered ring."""
    names = " and ".join(f"`{label}`" for label in CLUSTERED_GOAL_KERNELS)
    text = f"on clustered tokens, {names} no slower than `{EYTZINGER_LABEL}`"
    ranges, slower = [], []
    for label in CLUSTERED_GOAL_KERNELS:
        ratios = [(p.kernels[label].ns / p.kernels[EYTZINGER_LABEL].ns, p.tokens)
                  for p in points if label in p.kernels]
        if not ratios:
            continue
        low, high = min(r for r, _ in ratios), max(r for r, _ in ratios)
        ranges.append(f"`{label}` {sig3(low)}×" + (f" to {sig3(high)}×" if high != low else ""))
        slower += [f"`{label}` at {integer(t)} tokens ({sig3(r)}×)" for r, t in ratios if r > 1]
    if not ranges:
        either = " or ".join(f"`{label}`" for label in CLUSTERED_GOAL_KERNELS)
        return Goal(text, f"no clustered ring with `{EYTZINGER_LABEL}` beside {either}", None)
    measured = "; ".join(ranges) + " of Eytzinger's time"
    if slower:
        measured += "; slower: " + ", ".join(slower)
    return Goal(text, measured, not slower)


# --------------------------------------------------------------------------
# Plots


def import_matplotlib(prog: str = PROG):
    """Imports matplotlib with the Agg backend; exits 1 with advice for the
    script `prog` if absent."""
    try:
        import matplotlib
    except ImportError:
        print(f"{prog}: error: matplotlib is not importable by {sys.executable}; "
              f"run /usr/bin/python3 scripts/{prog} (Debian's python3-matplotlib)",
              file=sys.stderr)
        sys.exit(EXIT_NO_MATPLOTLIB)
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    return Figure


class Style:
    """A stable colour and marker per kernel label, the same in every plot."""

    # Matplotlib's ten colours and three more, so that the 13 kernels of a
    # full build each get their own; 12 markers, so that no two kernels share
    # both colour and marker before the 157th. Black and "X" are kept for the
    # crossover mark of schemes_nodes.png.
    COLORS = ("C0", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9",
              "#b8860b", "#4b0082", "#006d6d")
    MARKERS = "osD^v<>ph*Pd"
    LINES = {"ring": "-", "hrw": "--", "jump": "-.", "modn": ":"}
    # The stream baseline is a floor, not a kernel: thick dashed grey, no
    # marker, and no colour taken from the kernels.
    FLOOR = {"color": "0.3", "marker": None, "linestyle": (0, (6, 3)), "linewidth": 2.2}

    def __init__(self, results: Iterable):
        ordered = sorted((r for r in results if not r.is_floor), key=Result.sort_key)
        self.index: dict = {}
        for r in ordered:
            self.index.setdefault(r.label, len(self.index))

    def kw(self, label: str, scheme: str) -> dict:
        """Plot keyword arguments for one series."""
        if label.split(" (")[0] == STREAM_LABEL:
            return dict(self.FLOOR)
        i = self.index.get(label.split(" (")[0], 0)
        return {"color": self.COLORS[i % len(self.COLORS)],
                "marker": self.MARKERS[i % len(self.MARKERS)],
                "linestyle": self.LINES.get(scheme, "-"), "markersize": 5, "linewidth": 1.6}


def new_axes(figure_cls, title: str, subtitle: str):
    """A figure with one axes, a title and a smaller second title line."""
    fig = figure_cls(figsize=(8.5, 5.4), dpi=DPI, constrained_layout=True)
    ax = fig.add_subplot()
    ax.set_title(f"{title}\n{subtitle}" if subtitle else title, fontsize=11)
    draw_grid(ax)
    return fig, ax


def new_panels(figure_cls, count: int, title: str, width: float = 6.0):
    """A figure with count axes side by side sharing the y axis, and a title."""
    fig = figure_cls(figsize=(width * count + 1.5, 5.6), dpi=DPI, constrained_layout=True)
    axes = list(fig.subplots(1, count, sharey=True, squeeze=False)[0])
    fig.suptitle(title, fontsize=11)
    for ax in axes:
        draw_grid(ax)
    return fig, axes


def draw_grid(ax) -> None:
    """Major and fainter minor grid lines."""
    ax.grid(True, which="major", alpha=0.45)
    ax.grid(True, which="minor", alpha=0.15)


def shared_legend(axes: list, title: str) -> None:
    """One legend for panels, right of the last one: every label once, in the
    order the panels first show it."""
    entries: dict = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    axes[-1].legend(list(entries.values()), list(entries), title=title, fontsize=9,
                    loc="upper left", bbox_to_anchor=(1.03, 1.0), borderaxespad=0)


# Above this many entries a legend goes to the right of the axes, where it
# cannot hide a line; the figure widens to make room.
LEGEND_INSIDE_MAX = 6


def place_legend(ax, title: str, outside: bool = False) -> None:
    """The legend inside the axes where matplotlib finds room, or, when it
    has many entries or outside is set, beside them."""
    entries = len(ax.get_legend_handles_labels()[0])
    if entries <= LEGEND_INSIDE_MAX and not outside:
        ax.legend(title=title, fontsize=9)
        return
    fig = ax.get_figure()
    width, height = fig.get_size_inches()
    fig.set_size_inches(width + 2.4, height)
    ax.legend(title=title, fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0)


def png(fig) -> bytes:
    """The figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def legend_label(label: str) -> str:
    """A series label for legends: the stream baseline says what it is."""
    if label.split(" (")[0] == STREAM_LABEL:
        return label.replace(STREAM_LABEL, "stream floor (ring/stream: no lookup)", 1)
    return label


def draw_series(ax, s: Series, x_of: Callable, style: Style) -> None:
    """A median line with its spread (min to max repetition) as a band."""
    xs = [x_of(p) for p in s.points]
    ys = [p.ns for p in s.points]
    kw = style.kw(s.label, s.scheme)
    ax.plot(xs, ys, label=legend_label(s.label), **kw)
    if all(p.ns_lo is not None for p in s.points):
        lo = [p.ns_lo for p in s.points]
        hi = [p.ns_hi for p in s.points]
        ax.fill_between(xs, lo, hi, color=kw["color"], alpha=0.18, linewidth=0)


def spread_note(results: list) -> str:
    """'median of 3 repetitions, band = min–max' for subtitles."""
    reps = sorted({r.repetitions for r in results if r.repetitions})
    text = "median of " + "/".join(str(n) for n in reps) + " repetitions" if reps else "median"
    return text


def plot_tokens(run: Run, figure_cls, style: Style) -> Optional[bytes]:
    """ring_tokens.png: ns/key vs distinct ring tokens, log-log, with the
    stream baseline as the floor."""
    results = [r for r in run.family("tokens") if r.tokens]
    if not results:
        return None
    split = split_series(results, "tokens", {"nodes", "vnodes"})
    floor = "; dashed grey: stream floor" if any(r.is_floor for r in results) else ""
    fig, ax = new_axes(figure_cls, "Ring lookup: cost per key vs ring size",
                       f"{split.subtitle()}; {spread_note(results)}, band = min–max{floor}")
    if draw_token_sweep(ax, run, split, results, style):
        room_below(ax)
    ax.set_ylabel("time per key [ns] (median)")
    # Lines fill the plot from corner to corner: the legend goes beside it.
    place_legend(ax, "kernel", outside=True)
    return png(fig)


def draw_token_sweep(ax, run: Run, split: Split, results: list, style: Style) -> bool:
    """Series against ring tokens on log-log axes, with the cache marks;
    returns whether there are marks."""
    for s in split.series:
        draw_series(ax, s, lambda p: p.tokens, style)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("distinct ring tokens (N × V)")
    return mark_caches(ax, run, results)


def room_below(ax) -> None:
    """Lowers a log y axis by a factor of 3, so that the cache marks' labels
    at the bottom stand below the lowest line (call once all is drawn)."""
    low, high = ax.get_ylim()
    ax.set_ylim(low / 3, high)


def plot_latency(run: Run, figure_cls, style: Style) -> Optional[bytes]:
    """latency.png: throughput (family "tokens") beside latency (family
    "latency") against ring tokens, log-log, sharing the y axis."""
    panels = [(family, title, [r for r in run.family(family) if r.scheme == "ring" and r.tokens])
              for family, title in (("tokens", "Throughput: independent keys"),
                                    ("latency", "Latency: each key waits for the previous "
                                                "owner"))]
    if not panels[1][2]:
        return None
    panels = [p for p in panels if p[2]]
    members = [r for _, _, results in panels for r in results]
    floor = "; dashed grey: stream floor" if any(r.is_floor for r in members) else ""
    fig, axes = new_panels(figure_cls, len(panels),
                           "Ring lookup: throughput and latency per key vs ring size\n"
                           f"{spread_note(members)}, band = min–max{floor}")
    marked = False
    for ax, (family, title, results) in zip(axes, panels):
        split = split_series(results, "tokens", {"nodes", "vnodes"})
        marked |= draw_token_sweep(ax, run, split, results, style)
        ax.set_title(f"{title}\nfamily \"{family}\": {split.subtitle()}", fontsize=10)
    if marked:
        room_below(axes[0])  # the y axis is shared
    axes[0].set_ylabel("time per key [ns] (median)")
    shared_legend(axes, "kernel")
    return png(fig)


def plot_inflight(figure_cls, lines: list) -> Optional[bytes]:
    """inflight.png: ns/key against keys in flight (log2), one panel per
    kernel, one line per ring; the best setting circled, the kernel's run in
    family "tokens" dotted."""
    if not lines:
        return None
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

    labels = list(dict.fromkeys(line.label for line in lines))
    rings = sorted({line.tokens for line in lines})
    colors = ramp_colors(rings, light=0.7)
    members = [r for line in lines for r in line.points]
    fig, axes = new_panels(figure_cls, len(labels),
                           "Keys in flight: cost per key vs how many lookups overlap\n"
                           f"1 thread; {spread_note(members)}, band = min–max; circled: "
                           "fastest setting; dotted: the kernel as run in family \"tokens\"")
    for ax, label in zip(axes, labels):
        mine = [line for line in lines if line.label == label]
        for line in mine:
            color = colors[line.tokens]
            marker = Style.MARKERS[rings.index(line.tokens) % len(Style.MARKERS)]
            xs = [r.in_flight for r in line.points]
            ax.plot(xs, [r.ns for r in line.points], color=color, marker=marker, markersize=5,
                    linewidth=1.6, label=f"{integer(line.tokens)} tokens")
            if all(r.ns_lo is not None for r in line.points):
                ax.fill_between(xs, [r.ns_lo for r in line.points],
                                [r.ns_hi for r in line.points], color=color, alpha=0.18,
                                linewidth=0)
            best = line.best()
            ax.plot([best.in_flight], [best.ns], marker="o", markersize=13, markerfacecolor="none",
                    markeredgecolor=color, markeredgewidth=1.8, linestyle="none")
            if line.default is not None:
                ax.axhline(line.default.ns, color=color, linestyle=":", linewidth=1.3)
        ax.set_xscale("log", base=2)
        ticks = sorted({r.in_flight for line in mine for r in line.points})
        ax.xaxis.set_major_locator(FixedLocator(ticks))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.set_yscale("log")
        plain_log_y(ax)
        knob = mine[0].knob
        ax.set_title(f"{label}: {knob}", fontsize=10)
        ax.set_xlabel(f"keys in flight ({knob}, log2 scale)")
    axes[0].set_ylabel("time per key [ns] (median)")
    axes[-1].plot([], [], marker="o", markersize=10, markerfacecolor="none", color="0.3",
                  linestyle="none", label="fastest setting")
    axes[-1].add_line(Line2D([], [], color="0.3", linestyle=":",
                             label="as in family \"tokens\""))
    shared_legend(axes, "ring")
    return png(fig)


def plot_clustered(figure_cls, style: Style, points: list) -> Optional[bytes]:
    """clustered.png: ns/key of every ring kernel on clustered tokens, one
    group of bars per ring, Eytzinger's time drawn across each group."""
    points = [p for p in points if p.best() is not None]
    if not points:
        return None
    labels = sorted({label for p in points for label, r in p.kernels.items() if not r.is_floor},
                    key=lambda label: style.index.get(label, len(style.index)))
    width = 0.84 / len(labels)
    members = [r for p in points for r in p.kernels.values()]
    windows = sorted({r.window_bits for r in members if r.window_bits})
    where = (f"tokens and keys in one window of 2^{'/'.join(map(str, windows))} hash values"
             if windows else "clustered tokens")
    keys = sorted({p.keys for p in points if p.keys})
    fig, ax = new_axes(figure_cls, "Clustered tokens: cost per key, every ring kernel",
                       f"{where}; K = {'/'.join(integer(k) for k in keys)}, 1 thread\n"
                       f"{spread_note(members)}, whiskers = min–max; above each bar: "
                       "its time ÷ Eytzinger's (red: slower)")
    values, shown = [], set()
    for gi, p in enumerate(points):
        eytzinger = p.kernels.get(EYTZINGER_LABEL)
        for li, label in enumerate(labels):
            r = p.kernels.get(label)
            if r is None:
                continue
            x = gi + (li - (len(labels) - 1) / 2) * width
            reference = label == EYTZINGER_LABEL
            ax.bar(x, r.ns, width=width, color=style.kw(label, "ring")["color"], zorder=2,
                   edgecolor="black" if reference else "white", linewidth=1.4 if reference else 0.4,
                   label=None if label in shown else label)
            shown.add(label)
            top = r.ns_hi if r.ns_hi is not None else r.ns
            # A spread from a stddev aggregate may reach below 0: not on a log axis.
            values += [v for v in (r.ns, r.ns_lo, top) if v is not None and v > 0]
            if r.ns_lo is not None:
                ax.errorbar([x], [r.ns], yerr=[[r.ns - r.ns_lo], [r.ns_hi - r.ns]], fmt="none",
                            ecolor="0.15", elinewidth=0.8, capsize=1.5, zorder=3)
            if eytzinger is not None and not reference:
                ratio = r.ns / eytzinger.ns
                ax.annotate(f"{sig3(ratio)}×", (x, top), xytext=(0, 3),
                            textcoords="offset points", ha="center", va="bottom", rotation=90,
                            fontsize=7, color="C3" if ratio > 1 else "0.15",
                            fontweight="bold" if ratio > 1 else "normal", zorder=4,
                            bbox={"fc": "white", "ec": "none", "alpha": 0.85, "pad": 0.5})
        if eytzinger is not None:
            ax.hlines(eytzinger.ns, gi - 0.46, gi + 0.46, colors="black", linestyles="--",
                      linewidth=1.3, zorder=3.5,
                      label=f"{EYTZINGER_LABEL} (reference)" if gi == 0 else None)
    log_y = max(values) / min(values) > 10
    if log_y:
        ax.set_yscale("log")
        ax.set_ylim(min(values) / 1.5, max(values) * 3)
        plain_log_y(ax)
    else:
        ax.set_ylim(0, max(values) * 1.25)
    ax.set_xticks(range(len(points)))
    ax.set_xticklabels([f"{integer(p.tokens)} tokens\nN = {integer(p.nodes)}, "
                        f"V = {integer(p.vnodes)}" for p in points], fontsize=9)
    ax.tick_params(axis="x", length=0)
    ax.set_xlim(-0.5, len(points) - 0.5)
    ax.grid(False, axis="x", which="both")
    ax.set_ylabel("time per key [ns] (median" + (", log scale)" if log_y else ")"))
    place_legend(ax, "kernel")
    return png(fig)


def mark_caches(ax, run: Run, results: list) -> bool:
    """Dotted lines where the ring's lookup structure outgrows each data
    cache; returns whether it drew any."""
    per_token = [r.memory_bytes / r.tokens for r in results if r.memory_bytes and r.tokens]
    caches = run.context.get("caches")
    if not per_token or not isinstance(caches, list):
        return False
    drawn = False
    bytes_per_token = statistics.median(per_token)
    lo = min(r.tokens for r in results)
    hi = max(r.tokens for r in results)
    for cache in caches:
        if not isinstance(cache, dict) or cache.get("type") not in ("Data", "Unified"):
            continue
        size = number(cache.get("size"))
        if not size:
            continue
        x = size / bytes_per_token
        if lo <= x <= hi:
            ax.axvline(x, color="0.4", linestyle=":", linewidth=1)
            ax.annotate(f"L{cache.get('level', '?')} {binary_size(size)}", (x, 0.02),
                        xycoords=("data", "axes fraction"), xytext=(-3, 0),
                        textcoords="offset points", rotation=90, ha="right", va="bottom",
                        fontsize=8, color="0.3",
                        bbox={"fc": "white", "ec": "none", "alpha": 0.8, "pad": 1})
            drawn = True
    return drawn


def plot_nodes(run: Run, figure_cls, style: Style, analysis: NodesAnalysis) -> Optional[bytes]:
    """schemes_nodes.png: ns/key vs N for every scheme, log-log, crossover marked."""
    results = run.family("nodes")
    if not results:
        return None
    split = split_series(results, "nodes", {"tokens"})
    fig, ax = new_axes(figure_cls, "Every scheme: cost per key vs node count",
                       f"{split.subtitle()}; {spread_note(results)}, band = min–max")
    for s in split.series:
        draw_series(ax, s, lambda p: p.nodes, style)
    for c in analysis.crossovers:
        ax.axvline(c.nodes, color="0.25", linestyle=(0, (2, 3)), linewidth=1)
        ax.plot([c.nodes], [c.ns], marker="X", color="black", markersize=9, zorder=5)
        ax.annotate(f"ring = HRW at N ≈ {sig3(c.nodes)}", (c.nodes, 0.03),
                    xycoords=("data", "axes fraction"), xytext=(5, 0),
                    textcoords="offset points", fontsize=9, va="bottom",
                    bbox={"boxstyle": "round", "fc": "white", "ec": "0.6", "alpha": 0.9})
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("nodes N")
    ax.set_ylabel("time per key [ns] (median)")
    place_legend(ax, "scheme/kernel")
    return png(fig)


def plot_threads(run: Run, figure_cls, style: Style) -> Optional[bytes]:
    """threads.png: speed-up over one thread vs thread count, with the ideal."""
    speedups = thread_speedups(run)
    if not speedups:
        return None
    results = run.family("threads")
    split = split_series(results, "threads", {"threads_ran"})
    fig, ax = new_axes(figure_cls, "Thread scaling: speed-up over one thread",
                       f"{split.subtitle()}; ratio of medians, bars = min–max")
    max_t = max(t for _, by_t in speedups for t in by_t)
    ax.plot([1, max_t], [1, max_t], color="0.5", linestyle="--", linewidth=1.2,
            label="ideal (= threads)")
    for s, by_t in speedups:
        ts = sorted(by_t)
        ys = [by_t[t][1] for t in ts]
        kw = style.kw(s.label, s.scheme)
        ax.plot(ts, ys, label=s.label, **kw)
        one = by_t[1][0]
        if one.ns_lo is not None and all(by_t[t][0].ns_lo is not None for t in ts):
            lo = [one.ns_lo / by_t[t][0].ns_hi for t in ts]
            hi = [one.ns_hi / by_t[t][0].ns_lo for t in ts]
            ax.errorbar(ts, ys, yerr=[[max(0.0, y - low) for y, low in zip(ys, lo)],
                                      [max(0.0, high - y) for y, high in zip(ys, hi)]],
                        fmt="none", ecolor=kw["color"], alpha=0.6, capsize=3)
    hw = hardware_threads(run.context)
    if hw and 1 < hw <= max_t:
        ax.axvline(hw, color="0.4", linestyle=":", linewidth=1)
        ax.annotate(f"{hw} hardware threads", (hw, 0.02), xycoords=("data", "axes fraction"),
                    xytext=(-4, 0), textcoords="offset points", ha="right", fontsize=8)
    short = sorted({(t, p.threads_ran) for _, by_t in speedups for t, (p, _) in by_t.items()
                    if p.threads_ran is not None and p.threads_ran < t})
    if short:
        ax.text(0.98, 0.10, "fewer threads ran than asked: "
                + ", ".join(f"{ran} of {t}" for t, ran in short) + " (see report, Checks)",
                transform=ax.transAxes, ha="right", fontsize=9, color="C3",
                bbox={"fc": "white", "ec": "C3", "alpha": 0.9})
    all_t = sorted({t for _, by_t in speedups for t in by_t})
    ax.set_xticks(all_t)
    ax.set_xlabel("threads (oneTBB arena size)")
    ax.set_ylabel("speed-up [×] = median time at 1 thread ÷ at t threads")
    ax.set_ylim(bottom=0)
    place_legend(ax, "kernel")
    return png(fig)


def hardware_threads(context: dict) -> Optional[int]:
    """Hardware threads from the bench's context, else Google Benchmark's num_cpus."""
    for key in ("chbench_hardware_threads", "num_cpus"):
        try:
            value = int(str(context.get(key, "")).strip())
        except ValueError:
            continue
        if value > 0:
            return value
    return None


def plot_batch(run: Run, figure_cls, style: Style) -> tuple:
    """batch.png: ns/key vs batch size K, log x. Returns (png, log_y)."""
    results = [r for r in run.family("batch") if r.keys]
    if not results:
        return None, False
    split = split_series(results, "keys", set())
    fig, ax = new_axes(figure_cls, "Batch size: cost per key vs keys per call",
                       f"{split.subtitle()}; {spread_note(results)}, band = min–max")
    for s in split.series:
        draw_series(ax, s, lambda p: p.keys, style)
    ax.set_xscale("log")
    values = [r.ns for r in results]
    log_y = max(values) / min(values) > 10
    if log_y:
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlabel("batch size K [keys per call]")
    ax.set_ylabel("time per key [ns] (median)")
    place_legend(ax, "scheme/kernel")
    return png(fig), log_y


def plot_hashed(run: Run, figure_cls, style: Style) -> Optional[bytes]:
    """hashed.png: bars of ns/key with hashing, beside lookup only where measured."""
    results = run.family("hashed")
    if not results:
        return None
    split = split_series(results, "keys", set())
    fig, ax = new_axes(figure_cls, "Key hashing included: cost per key",
                       f"{split.subtitle()}; {spread_note(results)}, bars = min–max")
    labels = [r.label + ("" if len(results) == len({x.label for x in results})
                         else f" (N={r.nodes}, K={r.keys})") for r in results]
    ys = list(range(len(results)))[::-1]
    height = 0.38
    for y, r, label in zip(ys, results, labels):
        color = style.kw(r.label, r.scheme)["color"]
        err = None
        if r.ns_lo is not None:
            err = [[r.ns - r.ns_lo], [r.ns_hi - r.ns]]
        ax.barh(y + height / 2, r.ns, height=height, color=color, xerr=err, capsize=3,
                label="hash + lookup" if y == ys[0] else None)
        base = hashing_baseline(run, r)
        if base is not None:
            ax.barh(y - height / 2, base.ns, height=height, color=color, alpha=0.35,
                    hatch="//", label="lookup only" if y == ys[0] else None)
    values = [r.ns for r in results]
    if max(values) / min(values) > 20:
        ax.set_xscale("log")
    for y, r in zip(ys, results):
        ax.annotate(f"{sig3(r.ns)} ns", (r.ns_hi or r.ns, y + height / 2), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=9)
    log_note = ", log scale" if ax.get_xscale() == "log" else ""
    unpaired = sum(1 for r in results if hashing_baseline(run, r) is None)
    ax.set_xlabel(f"time per key [ns] (median{log_note})"
                  + ("\nno pale bar: no lookup-only run at the same N and K in this run"
                     if 0 < unpaired < len(results) else ""))
    ax.grid(False, axis="y")
    ax.legend(fontsize=9)
    return png(fig)


def ramp_colors(keys: list, light: float = 0.9) -> dict:
    """A colour per key, dark (first) to light (last, `light` along viridis):
    Highway targets from the widest, rings from the smallest."""
    from matplotlib import colormaps
    cmap = colormaps["viridis"]
    n = max(1, len(keys) - 1)
    return {t: cmap(0.05 + (light - 0.05) * i / n) for i, t in enumerate(keys)}


def ticks_125(axis, low: float, high: float) -> None:
    """Major ticks at 1, 2 and 5 times each power of ten from low to high, no
    minor ticks, on a log-scaled matplotlib axis (ax.xaxis or ax.yaxis)."""
    from matplotlib.ticker import FixedLocator, NullLocator
    ticks = [m * 10 ** e for e in range(math.floor(math.log10(low)),
                                        math.ceil(math.log10(high)) + 1)
             for m in (1, 2, 5) if low <= m * 10 ** e <= high]
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_minor_locator(NullLocator())


def plain_log_y(ax) -> None:
    """Plain numbers at 1-2-5 ticks on a log y axis spanning at most three
    decades (wider ones keep matplotlib's powers of ten)."""
    from matplotlib.ticker import FuncFormatter
    low, high = ax.get_ylim()
    if high / low <= 1000:
        ticks_125(ax.yaxis, low, high)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))


def machine_line(context: dict) -> str:
    """'AMD EPYC, 2 CPUs' from the run's context."""
    cpu = context.get("chbench_cpu_model") or "unknown CPU"
    cpus = hardware_threads(context)
    return f"{cpu}, {cpus} CPUs" if cpus else str(cpu)


def plot_targets(run: Run, figure_cls, analysis: TargetsAnalysis) -> Optional[bytes]:
    """targets.png: speed-up over the scalar counterpart, one bar per target."""
    groups = [g for g in analysis.groups if g.scalar is not None
              and (g.dispatched is not None or g.forced)]
    if not groups:
        return None
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter

    targets = [t for t in analysis.targets if any(t in g.forced for g in groups)]
    colors = ramp_colors(targets)
    slots = ["dispatched"] * any(g.dispatched for g in groups) + targets
    width = 0.84 / len(slots)
    chosen = sorted({g.dispatched_target or "?" for g in groups if g.dispatched})
    members = [r for g in groups for r in [g.scalar, g.dispatched, *g.forced.values()] if r]
    fig = figure_cls(figsize=(12, 6.2), dpi=DPI, constrained_layout=True)
    ax = fig.add_subplot()
    fig.suptitle("SIMD kernels: speed-up over their scalar counterpart, per Highway target\n"
                 f"{machine_line(run.context)}; dispatch picks {' / '.join(chosen) or '–'}; "
                 f"one thread, {spread_note(members)}; whiskers = min–max", fontsize=11)
    values = []
    for gi, g in enumerate(groups):
        for slot_i, slot in enumerate(slots):
            r = g.dispatched if slot == "dispatched" else g.forced.get(slot)
            speedup = g.speedup(r)
            if speedup is None:
                continue
            x = gi + (slot_i - (len(slots) - 1) / 2) * width
            values.append(speedup)
            if slot == "dispatched":
                kw = {"facecolor": colors.get(g.dispatched_target, (0.6, 0.6, 0.6, 1.0))[:3]
                      + (0.45,), "hatch": "///", "edgecolor": "black", "linewidth": 0.8}
            else:
                kw = {"color": colors[slot], "edgecolor": "white", "linewidth": 0.4}
            ax.bar(x, speedup - 1, bottom=1, width=width, zorder=2, **kw)
            spread = g.speedup_range(r)
            if spread is not None:
                values += list(spread)
                ax.errorbar([x], [speedup], yerr=[[max(0.0, speedup - spread[0])],
                                                  [max(0.0, spread[1] - speedup)]],
                            fmt="none", ecolor="0.15", elinewidth=0.8, capsize=1.5, zorder=3)
            if slot == "dispatched":
                top = max(speedup, spread[1] if spread else speedup)
                low = min(speedup, spread[0] if spread else speedup)
                above = speedup >= 1
                ax.annotate(f"{sig3(speedup)}×", (x, top if above else low),
                            xytext=(0, 3 if above else -3), textcoords="offset points",
                            ha="center", va="bottom" if above else "top", fontsize=8,
                            fontweight="bold", zorder=4)
    ax.axhline(1, color="black", linewidth=1.2, zorder=2.5)
    lo, hi = min(values + [1.0]), max(values + [1.0])
    log_y = hi / lo > 10
    if log_y:
        ax.set_yscale("log")
        ax.set_ylim(lo / 1.6, hi * 1.6)
        ticks_125(ax.yaxis, *ax.get_ylim())
    else:
        ax.set_ylim(0, hi * 1.12)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}×"))
    ax.grid(True, axis="y", which="major", alpha=0.45, zorder=0)
    same_k = len({g.keys for g in groups}) == 1
    labels = []
    for g in groups:
        text = f"{g.scheme}/\n{g.kernel}\nN = {integer(g.nodes)}"
        if not same_k:
            text += f"\nK = {integer(g.keys)}"
        labels.append(text)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(labels, fontsize=9)
    ax.tick_params(axis="x", length=0)
    for gi in range(1, len(groups)):
        boundary = groups[gi].scheme != groups[gi - 1].scheme
        ax.axvline(gi - 0.5, color="0.35" if boundary else "0.8",
                   linewidth=1.0 if boundary else 0.6, zorder=1)
    ax.set_xlim(-0.5, len(groups) - 0.5)
    ax.set_ylabel("speed-up [×] = scalar ns/key ÷ SIMD ns/key"
                  + (" (log scale)" if log_y else ""))
    handles = []
    if "dispatched" in slots:
        handles.append(Patch(facecolor=(0.6, 0.6, 0.6, 0.45), edgecolor="black", hatch="///",
                             label="dispatched"))
    handles += [Patch(facecolor=colors[t], label=t) for t in targets]
    handles.append(Line2D([], [], color="black", linewidth=1.2, label="1× = scalar speed"))
    ax.legend(handles=handles, fontsize=9, ncol=len(handles), loc="lower center",
              bbox_to_anchor=(0.5, 1.0), frameon=False, title_fontsize=9,
              title="Highway target: forced, or hatched = as dispatched (tinted as the target "
                    "dispatch picked)")
    return png(fig)


# --------------------------------------------------------------------------
# Report


CONTEXT_ROWS = (
    ("CPU", "chbench_cpu_model"),
    ("Hardware threads", "chbench_hardware_threads"),
    ("CPUs (Google Benchmark)", "num_cpus"),
    ("MHz per CPU", "mhz_per_cpu"),
    ("CPU frequency scaling", "cpu_scaling_enabled"),
    ("Caches", "caches"),
    ("Load average at start", "load_avg"),
    ("SIMD target that ran (Highway)", "chbench_hwy_target"),
    ("SIMD targets supported", "chbench_hwy_targets_supported"),
    ("SIMD targets compiled", "chbench_hwy_targets_compiled"),
    ("Emulated", "chbench_emulated"),
    ("CMake preset", "chbench_preset"),
    ("Toolchain (toolchains/*.cmake)", "chbench_toolchain"),
    ("x86-64 baseline", "chbench_baseline"),
    ("Target architecture", "chbench_target_arch"),
    ("Cross-compiled", "chbench_cross_compiled"),
    ("Compiler", "chbench_compiler"),
    ("Build type", "chbench_build_type"),
    ("C++ flags", "chbench_cxx_flags"),
    ("oneTBB", "chbench_tbb_version"),
    ("Google Benchmark", "chbench_benchmark_version"),
    ("xxHash", "chbench_xxhash_version"),
    ("Commit", "chbench_commit"),
    ("Sweep", "chbench_sweep"),
    ("Repetitions", "chbench_repetitions"),
    ("Host", "host_name"),
    ("Date", "date"),
    ("Executable", "executable"),
    ("CPU flags", "chbench_cpu_flags"),
)
# Google Benchmark's own build type is Debian's, not ours: never shown.
CONTEXT_IGNORED = {"library_build_type"}


def md_cell(text: Any) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def context_value(key: str, value: Any) -> str:
    """A context field for the table."""
    if key == "caches" and isinstance(value, list):
        parts = []
        for c in value:
            if not isinstance(c, dict):
                continue
            kind = {"Data": "d", "Instruction": "i"}.get(c.get("type"), "")
            shared = c.get("num_sharing")
            text = f"L{c.get('level', '?')}{kind} {binary_size(number(c.get('size')))}"
            if isinstance(shared, int) and shared > 1:
                text += f" (shared by {shared})"
            parts.append(text)
        return ", ".join(parts) or "–"
    if key == "load_avg" and isinstance(value, list):
        return ", ".join(f"{v:.2f}" if number(v) is not None else "?" for v in value)
    if key == "chbench_cpu_flags":
        return f"`{value}`"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def report(run: Run, analysis: NodesAnalysis, speed: SpeedLimit, targets: TargetsAnalysis,
           plots: dict, batch_log_y: bool) -> str:
    """The whole report.md text."""
    ctx = run.context
    lines = ["# chbench report", ""]
    cpu = ctx.get("chbench_cpu_model") or "unknown CPU"
    when = ctx.get("date", "unknown date")
    lines += [f"Run of {when} on {cpu} ({ctx.get('num_cpus', '?')} CPUs), "
              f"sweep `{ctx.get('chbench_sweep', '?')}`, "
              f"commit `{ctx.get('chbench_commit', '?')}`. "
              "Figures are nanoseconds per key for a batch of K precomputed key hashes "
              "(lookups only) unless the family says it includes hashing; each figure is "
              "the median over repetitions, with its coefficient of variation (CV).", ""]
    emulated = str(ctx.get("chbench_emulated", "no"))
    if emulated != "no":
        lines += [f"**Emulated run: these timings mean nothing about any CPU** "
                  f"({md_cell(emulated)}).", ""]

    lines += ["## Machine and build", "", "| | |", "|---|---|"]
    shown = set()
    for title, key in CONTEXT_ROWS:
        if key in ctx:
            lines.append(f"| {title} | {md_cell(context_value(key, ctx[key]))} |")
            shown.add(key)
    for key in sorted(set(ctx) - shown - CONTEXT_IGNORED):
        lines.append(f"| {md_cell(key)} | {md_cell(context_value(key, ctx[key]))} |")
    lines.append("")

    lines += ratios_section(run, analysis)
    lines += speed_limit_section(speed)
    lines += profiles_section(run)
    lines += targets_section(targets)
    lines += plots_section(run, plots, batch_log_y)
    lines += tables_section(run)
    lines += checks_section(run)
    return "\n".join(lines).rstrip() + "\n"


def ratios_section(run: Run, analysis: NodesAnalysis) -> list:
    """Eytzinger vs lower_bound, 2 vs 1 threads, ring/rendezvous crossover."""
    lines = ["## Ratios", ""]
    lines += ["### Eytzinger ÷ lower_bound (family `tokens`)", "",
              f"Speed-up of `ring/eytzinger` over `ring/lower_bound` at every ring of at least "
              f"{integer(RATIO_MIN_TOKENS)} tokens: median ns/key of lower_bound ÷ median ns/key "
              "of eytzinger (above 1: Eytzinger is faster).", ""]
    pairs = eytzinger_ratios(run)
    if pairs:
        lines += ["| tokens | N | V | K | lower_bound ns/key | eytzinger ns/key | speed-up |",
                  "|---:|---:|---:|---:|---:|---:|---:|"]
        for base, eyt in pairs:
            lines.append(f"| {integer(eyt.tokens)} | {integer(eyt.nodes)} | "
                         f"{integer(eyt.vnodes)} | {integer(eyt.keys)} | "
                         f"{sig3(base.ns)} | {sig3(eyt.ns)} | "
                         f"{sig3(base.ns / eyt.ns)}× |")
    else:
        biggest = max((r.tokens for r in run.family("tokens") if r.tokens), default=None)
        lines.append("No tokens point of at least "
                     f"{integer(RATIO_MIN_TOKENS)} with both kernels in this run"
                     + (f" (largest ring: {integer(biggest)} tokens)." if biggest else "."))
    lines.append("")

    lines += ["### 2 threads ÷ 1 thread (family `threads`)", "",
              "Speed-up = median time per key at 1 thread ÷ at 2 threads (2 would be ideal).", ""]
    rows = [(s, by_t) for s, by_t in thread_speedups(run) if 2 in by_t]
    if rows:
        lines += ["| kernel | N | K | 1 thread ns/key | 2 threads ns/key | speed-up "
                  "| threads that ran |", "|---|---:|---:|---:|---:|---:|---:|"]
        for s, by_t in rows:
            two, speedup = by_t[2]
            ran = two.threads_ran if two.threads_ran is not None else "–"
            lines.append(f"| `{s.label}` | {integer(two.nodes)} | {integer(two.keys)} | "
                         f"{sig3(by_t[1][0].ns)} | {sig3(two.ns)} | {sig3(speedup)}× | {ran} |")
    else:
        lines.append("No kernel with both 1- and 2-thread results in this run.")
    lines.append("")

    lines += ["### Ring vs rendezvous crossover (family `nodes`)", "",
              "Node count where rendezvous (HRW) costs as much per key as the fastest ring "
              "kernel at that N, interpolated on the log-log curves.", ""]
    for c in analysis.crossovers:
        before, after = ("rendezvous", "ring") if c.hrw_below_before else ("ring", "rendezvous")
        lines.append(f"- {c.group}: **N ≈ {sig3(c.nodes)}** (≈ {sig3(c.ns)} ns/key); "
                     f"below it {before} is faster, above it {after} "
                     f"(`{c.hrw_label}` vs `{c.ring_label}`).")
    for note in analysis.notes:
        lines.append(f"- {note}.")
    if not analysis.crossovers and not analysis.notes:
        lines.append("No `nodes` results in this run.")
    lines.append("")

    lines += simd_check_lines(
        f"### SIMD rendezvous ÷ scalar rendezvous (N ≥ {SIMD_HRW_MIN_NODES})",
        "Speed-up of the faster of `hrw/simd_keys` and `hrw/simd_nodes`, as dispatched, over "
        f"`hrw/scalar` at every N of at least {SIMD_HRW_MIN_NODES}: median ns/key of scalar "
        "÷ median ns/key of SIMD (above 1: SIMD is faster).",
        simd_checks(run, "hrw", ("simd_keys", "simd_nodes"),
                    lambda n: (n or 0) >= SIMD_HRW_MIN_NODES),
        f"No `hrw/scalar` beside a dispatched SIMD rendezvous kernel at N ≥ "
        f"{SIMD_HRW_MIN_NODES} in this run.")
    wanted = " and ".join(f"{integer(n)}" for n in SIMD_JUMP_NODES)
    lines += simd_check_lines(
        "### Batched SIMD jump ÷ scalar jump (N = 1,000 and 10^6)",
        "Speed-up of `jump/simd` (keys in lanes), as dispatched, over `jump/scalar` at "
        f"N = {wanted}: median ns/key of scalar ÷ median ns/key of SIMD.",
        simd_checks(run, "jump", ("simd",), lambda n: n in SIMD_JUMP_NODES),
        f"No `jump/scalar` beside `jump/simd` at N = {wanted} in this run.")
    return lines


def cv_cell(r: Optional[Result]) -> str:
    """A result's CV in percent for a table cell."""
    return sig3(r.cv * 100) if r is not None and r.cv is not None else "–"


def speed_limit_section(speed: SpeedLimit) -> list:
    """Issue 4's goals with their verdicts, and the tables behind them."""
    lines = ["## Ring at the speed limit", "",
             "Issue 4's speed goals, computed from this run: ratios of medians measured side by "
             "side in one run, one thread, on the bench's 64-bit ring tokens. The best ring "
             "kernel is the fastest ring kernel of family `tokens` on that ring; "
             f"`{STREAM_LABEL}`, the stream baseline (reads each key hash, writes one owner, "
             "no lookup), is the memory floor and never counts as a kernel. ~64k tokens is the "
             f"measured ring closest to {integer(SMALL_RING)} tokens, ~16M the one closest to "
             f"{integer(LARGE_RING)} (within a factor of {NEAR_FACTOR:g}). CV = standard "
             "deviation ÷ mean of ns/key over the repetitions.", "",
             "| goal | measured | verdict |", "|---|---|---|"]
    lines += [f"| {g.text} | {md_cell(g.measured)} | **{g.verdict}** |" for g in speed.goals]
    lines.append("")
    lines += lower_bound_lines(speed)
    lines += stream_lines(speed)
    lines += clustered_lines(speed)
    lines += inflight_report_lines(speed.inflight)
    lines += memory_lines(speed.tokens)
    return lines


def goal_line(goal: Goal) -> str:
    """A goal as a list item: what it asks, the figures, the verdict."""
    return f"- {goal.text}: {goal.measured} — **{goal.verdict}**."


def lower_bound_lines(speed: SpeedLimit) -> list:
    """Best ring kernel ÷ lower_bound on every ring of family "tokens"."""
    lines = ["### Best ring kernel ÷ lower_bound (family `tokens`)", "",
             f"Speed-up = median ns/key of `{LOWER_BOUND_LABEL}` ÷ median ns/key of the best "
             "ring kernel on the same ring; the goal column marks the rings the goals are "
             "judged at.", ""]
    points = [p for p in speed.tokens if LOWER_BOUND_LABEL in p.kernels and p.best() is not None]
    if not points:
        return lines + [f"No ring with `{LOWER_BOUND_LABEL}` in family `tokens` in this run.", ""]
    judged = [(point, f"{name}: ≥ {goal:g}×, {verdict.verdict}") for (name, goal, point), verdict
              in zip(speed.lower_bound, speed.lower_bound_goals) if point is not None]
    lines += ["| tokens | N | V | lower_bound ns/key | CV % | best kernel | ns/key | CV % "
              "| speed-up | goal |", "|---:|---:|---:|---:|---:|---|---:|---:|---:|---|"]
    for p in points:
        base, best = p.kernels[LOWER_BOUND_LABEL], p.best()
        lines.append(f"| {integer(p.tokens)} | {integer(p.nodes)} | {integer(p.vnodes)} | "
                     f"{sig3(base.ns)} | {cv_cell(base)} | `{best.label}` | {sig3(best.ns)} | "
                     f"{cv_cell(best)} | {sig3(base.ns / best.ns)}× | "
                     f"{next((text for point, text in judged if point is p), '–')} |")
    lines.append("")
    return lines + [goal_line(g) for g in speed.lower_bound_goals] + [""]


def stream_lines(speed: SpeedLimit) -> list:
    """Best ring kernel ÷ stream baseline on the rings up to ~64k tokens."""
    lines = ["### Best ring kernel ÷ stream baseline (family `tokens`)", "",
             f"Ratio = median ns/key of the best ring kernel ÷ median ns/key of `{STREAM_LABEL}` "
             f"on the same ring (1 would be a lookup as cheap as reading the key), at every ring "
             f"up to {integer(speed.stream_limit)} tokens.", ""]
    if speed.stream:
        lines += ["| tokens | N | V | best kernel | ns/key | CV % | stream ns/key | CV % "
                  "| best ÷ stream |", "|---:|---:|---:|---|---:|---:|---:|---:|---:|"]
        for p in speed.stream:
            best, stream = p.best(), p.kernels[STREAM_LABEL]
            lines.append(f"| {integer(p.tokens)} | {integer(p.nodes)} | {integer(p.vnodes)} | "
                         f"`{best.label}` | {sig3(best.ns)} | {cv_cell(best)} | "
                         f"{sig3(stream.ns)} | {cv_cell(stream)} | "
                         f"{sig3(best.ns / stream.ns)}× |")
        lines.append("")
    return lines + [goal_line(speed.stream_goal), ""]


def clustered_lines(speed: SpeedLimit) -> list:
    """Every kernel ÷ Eytzinger on every clustered ring."""
    lines = ["### Clustered tokens vs Eytzinger (family `clustered`)", "",
             "Every token and key in one window of 2^w hash values (w = `window_bits`), the ring "
             "an adversary or a bad hash makes; ratio = a kernel's median ns/key ÷ "
             f"`{EYTZINGER_LABEL}`'s on the same ring (above 1: slower than Eytzinger).", ""]
    if not speed.clustered:
        return lines + [f"No clustered ring with `{EYTZINGER_LABEL}` in this run.", "",
                        goal_line(speed.clustered_goal), ""]
    lines += ["| tokens | window bits | kernel | ns/key | CV % | ÷ Eytzinger |",
              "|---:|---:|---|---:|---:|---:|"]
    slower: dict = {}
    for p in speed.clustered:
        reference = p.kernels[EYTZINGER_LABEL]
        for r in p.kernels.values():
            if r.is_floor:
                continue
            ratio = r.ns / reference.ns
            cell = f"{sig3(ratio)}×"
            if ratio > 1:
                cell = f"**{cell}** slower"
                slower.setdefault(r.label, []).append(integer(p.tokens))
            lines.append(f"| {integer(p.tokens)} | {integer(r.window_bits)} | `{r.label}` | "
                         f"{sig3(r.ns)} | {cv_cell(r)} | {cell} |")
    lines.append("")
    if slower:
        lines.append("- Slower than Eytzinger: " + "; ".join(
            f"`{label}` at {', '.join(at)} tokens" for label, at in slower.items()) + ".")
    else:
        lines.append("- No kernel is slower than Eytzinger on any clustered ring.")
    return lines + [goal_line(speed.clustered_goal), ""]


def inflight_report_lines(inflight: list) -> list:
    """The fastest keys-in-flight setting per kernel and ring."""
    lines = ["### Best keys in flight (family `inflight`)", "",
             "Per kernel and ring, the setting with the lowest median ns/key; gain = ns/key "
             "with 1 key in flight ÷ ns/key at the best setting. The last columns are the "
             "kernel as run in family `tokens` (its built-in setting) on the same ring.", ""]
    if not inflight:
        return lines + ["No `inflight` results in this run.", ""]
    lines += ["| kernel | keys in flight means | tokens | best | ns/key | CV % | 1 in flight "
              "ns/key | gain | family `tokens` ns/key | CV % |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for line in inflight:
        best, one = line.best(), line.at(1)
        gain = f"{sig3(one.ns / best.ns)}×" if one is not None else "–"
        default = line.default
        lines.append(f"| `{line.label}` | {line.knob} | {integer(line.tokens)} | "
                     f"{integer(best.in_flight)} | {sig3(best.ns)} | {cv_cell(best)} | "
                     f"{sig3(one.ns) if one else '–'} | {gain} | "
                     f"{sig3(default.ns) if default else '–'} | {cv_cell(default)} |")
    return lines + [""]


def memory_lines(points: list) -> list:
    """Bytes per token and build time per kernel and ring, family "tokens"."""
    lines = ["### Memory and build time per kernel (family `tokens`)", "",
             "Bytes per token = the kernel's lookup structure ÷ ring tokens (`bytes_per_token`); "
             "build = milliseconds to build it from the node list (`build_ms`), timed once per "
             "configuration, so without a spread.", ""]
    labels = list(dict.fromkeys(label for p in points for label, r in p.kernels.items()
                                if not r.is_floor))
    if not labels:
        return lines + ["No ring kernels in family `tokens` in this run.", ""]
    for title, value in (("Bytes per token", lambda r: sig3(r.bytes_per_token)),
                         ("Build time [ms]", lambda r: sig3(r.build_ms))):
        lines += [f"{title}:", "", "| tokens | " + " | ".join(f"`{x}`" for x in labels) + " |",
                  "|---:|" + "---:|" * len(labels)]
        for p in points:
            cells = [value(p.kernels[x]) if x in p.kernels else "–" for x in labels]
            lines.append(f"| {integer(p.tokens)} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def profiles_section(run: Run) -> list:
    """Family `profiles`: each profile's kernels from key strings, and for ketama the
    ratio to libmemcached's own server choice on the same keys in the same run."""
    results = run.family("profiles")
    if not results:
        return []
    lines = ["## Production profiles (family `profiles`)", "",
             "Keys hashed as each system hashes them (ketama: MD5; redis: CRC16 slot; kafka: "
             "murmur2; cassandra: Murmur3 token; maglev: XXH3) and looked up with the "
             "library's kernels, key hashing included, one thread; docs/profiles.md defines "
             "each profile. `libmemcached` is libmemcached's own `memcached_generate_hash` "
             "on the same keys and servers, whose owners were checked identical to ours "
             "before timing. Speed-up = median ns/key of libmemcached ÷ median ns/key of the "
             "kernel, both from this run; spread = fastest ... slowest repetition.", ""]
    client = {(r.scheme, r.nodes, r.vnodes, r.keys): r for r in results
              if r.kernel == "libmemcached"}
    lines += ["| profile | N | V | K | kernel | ns/key | spread | CV | vs libmemcached |",
              "|---|---:|---:|---:|---|---:|---:|---:|---:|"]
    for r in sorted(results, key=lambda r: (r.scheme, r.nodes or 0, r.kernel != "libmemcached",
                                            r.order)):
        other = client.get((r.scheme, r.nodes, r.vnodes, r.keys))
        ratio = ("–" if other is None or other is r
                 else f"{sig3(other.ns / r.ns)}×")
        spread = (f"{sig3(r.ns_lo)} ... {sig3(r.ns_hi)}"
                  if r.ns_lo is not None and r.ns_hi is not None else "–")
        cv = f"{100 * r.cv:.1f}%" if r.cv is not None else "–"
        lines.append(f"| {r.scheme} | {integer(r.nodes)} | {integer(r.vnodes)} | "
                     f"{integer(r.keys)} | `{r.kernel}` | {sig3(r.ns)} | {spread} | {cv} | "
                     f"{ratio} |")
    lines.append("")
    return lines


def simd_check_lines(heading: str, text: str, rows: list, missing: str) -> list:
    """A Ratios subsection for simd_checks rows, with their range."""
    lines = [heading, "", text, ""]
    if not rows:
        return lines + [missing, ""]
    lines += ["| family | N | K | scalar ns/key | fastest SIMD kernel | SIMD ns/key | speed-up |",
              "|---|---:|---:|---:|---|---:|---:|"]
    for c in rows:
        lines.append(f"| `{c.family}` | {integer(c.scalar.nodes)} | {integer(c.scalar.keys)} | "
                     f"{sig3(c.scalar.ns)} | `{c.simd.label}` | {sig3(c.simd.ns)} | "
                     f"{sig3(c.speedup)}× |")
    speedups = [c.speedup for c in rows]
    lines += ["", f"Range: {sig3(min(speedups))}× to {sig3(max(speedups))}× "
              f"over {len(rows)} configuration" + ("s." if len(rows) > 1 else "."), ""]
    return lines


def targets_section(analysis: TargetsAnalysis) -> list:
    """Per SIMD kernel configuration: ns/key and speed-up per Highway target."""
    lines = ["## SIMD targets (family `targets`)", ""]
    if not analysis.groups:
        return lines + ["No SIMD kernels in family `targets` in this run.", ""]
    lines += ["Each SIMD kernel as Highway's run-time dispatch runs it and forced to each "
              "target the CPU runs, beside its scalar counterpart (ring `simd_branchless` "
              "and `simd_eytzinger` against `branchless` and `eytzinger`, every other scheme's "
              "SIMD kernels against `scalar`), same N, V, K, one thread. Speed-up = median "
              "ns/key of the scalar counterpart ÷ median ns/key of the SIMD kernel (above 1: "
              "SIMD is faster). AVX2 : AVX3 = median ns/key forced to AVX2 ÷ forced to AVX3 "
              "(AVX-512); above 1, the 512-bit target is faster.", ""]
    targets = analysis.targets
    lines += ["### Speed-up over the scalar counterpart", ""]
    head = (["kernel", "N", "K", "scalar counterpart", "scalar ns/key", "dispatched"]
            + targets + ["AVX2 : AVX3"])
    lines += ["| " + " | ".join(head) + " |", "|---|---:|---:|---|---:|" + "---:|" * (
        len(head) - 5)]
    for g in analysis.groups:
        chosen = f" ({g.dispatched_target})" if g.dispatched_target else ""
        dispatched = (f"{sig3(g.speedup(g.dispatched))}×{chosen}"
                      if g.speedup(g.dispatched) else "–")
        row = [f"`{g.label}`", integer(g.nodes), integer(g.keys), f"`{g.scalar_label}`",
               sig3(g.scalar.ns) if g.scalar else "–", dispatched]
        row += [f"{sig3(g.speedup(g.forced.get(t)))}×" if g.speedup(g.forced.get(t)) else "–"
                for t in targets]
        ratio = g.avx2_over_avx3()
        row.append(sig3(ratio) if ratio else "–")
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    lines += ["### Median ns/key per target", "",
              "CV = standard deviation ÷ mean of ns/key over the repetitions.", "",
              "| kernel | N | K | target | ns/key | speed-up | CV % | reps |",
              "|---|---:|---:|---|---:|---:|---:|---:|"]
    for g in analysis.groups:
        rows = []
        if g.scalar is not None:
            rows.append((f"`{g.scalar_label}` (scalar counterpart)", g.scalar))
        if g.dispatched is not None:
            rows.append((f"dispatched ({g.dispatched_target or '?'})", g.dispatched))
        rows += [(t, r) for t, r in g.forced.items()]
        for name, r in rows:
            speedup = g.speedup(r)
            lines.append(f"| `{g.label}` | {integer(g.nodes)} | {integer(g.keys)} | {name} | "
                         f"{sig3(r.ns)} | {sig3(speedup) + '×' if speedup else '–'} | "
                         f"{sig3(r.cv * 100) if r.cv is not None else '–'} | "
                         f"{r.repetitions or '–'} |")
    lines.append("")
    if analysis.notes:
        lines += [f"- {note}." for note in analysis.notes] + [""]
    return lines


PLOT_TEXT = {
    "ring_tokens.png": (
        "Ring lookup cost vs ring size",
        "Each line is one ring kernel, at a fixed batch; x is the number of distinct tokens on "
        "the ring (N × V), y the median time per key, both log scales, with the band spanning "
        "the fastest and slowest repetition. The dashed grey line is the stream floor "
        "(`ring/stream`: read each key hash, write one owner, no lookup), work every lookup "
        "does too. A flat stretch means the tokens "
        "still fit a cache; the slope steepens where the search structure leaves a cache level "
        "(dotted lines, from the structure's bytes per token and the caches Google Benchmark "
        "reports). The gap between lines at the right is the layout's effect (Eytzinger's "
        "prefetching vs a plain binary search) when every probe misses the cache."),
    "latency.png": (
        "Throughput beside latency",
        "Left, as in the plot above, independent keys (family `tokens`): lookups overlap, so "
        "the time per key is throughput. Right, each key waits for the previous key's owner "
        "(family `latency`): one lookup at a time, so the time per key is its full latency. "
        "Same colour per kernel in both panels, the same y axis, log-log, bands spanning the "
        "fastest and slowest repetition; the dashed grey line is the stream floor of each "
        "family. A kernel's height on the right over its height on the left is what "
        "overlapping lookups buy."),
    "inflight.png": (
        "Keys in flight",
        "One panel per kernel, one line per ring: time per key against how many lookups are "
        "in flight at once (log2 x, log y): the S-tree's lockstep group, the bucket index's "
        "prefetch distance. With one in flight every cache miss is waited for alone; more "
        "overlap the misses until the registers, the line fill buffers or the cache run out. "
        "The circle marks each line's fastest setting; the dotted line in the same colour is "
        "the kernel as run in family `tokens`, with its built-in setting."),
    "clustered.png": (
        "Clustered tokens",
        "Every ring kernel on a ring whose tokens and keys all lie in one narrow window of "
        "hash values, one group of bars per ring size; whiskers span the fastest and slowest "
        "repetition. The dashed line across each group, and the outlined bar, is "
        "`ring/eytzinger`, the reference; the figure above every other bar is its time ÷ "
        "Eytzinger's, in red where it is slower. A bucket index sees every key in one bucket "
        "here, so this is its worst case."),
    "schemes_nodes.png": (
        "Every scheme vs node count",
        "Each line is one kernel (solid: ring, dashed: rendezvous, dash-dot: jump, dotted: "
        "mod-N), at a fixed number of virtual nodes per ring node; log-log. Rendezvous scores "
        "every node, so its cost grows about linearly with N; ring grows with log(N × V), jump "
        "with log N, mod-N not at all. The cross marks the N where rendezvous becomes slower "
        "than the fastest ring kernel; below it, rendezvous is the cheaper lookup."),
    "threads.png": (
        "Thread scaling",
        "Speed-up of each kernel over its own one-thread time (ratio of medians) against the "
        "oneTBB arena size; the dashed diagonal is perfect scaling. Points below it show the "
        "cost of sharing memory bandwidth, caches or a core (beyond the dotted line, more "
        "threads than the machine has). Bars span the best and worst ratio of repetitions."),
    "batch.png": (
        "Batch size",
        "Time per key against the number of keys per call (log x). Small batches pay the call "
        "and set-up cost over few keys; large ones lose when keys and answers stop fitting in "
        "cache. The flat middle is the kernel's steady state."),
    "hashed.png": (
        "Key hashing included",
        "Time per key when the key strings are hashed (XXH3) inside the timed loop; the pale "
        "hatched bar beside it, where the same configuration was measured without hashing, is "
        "the lookup alone, so the difference is what hashing the key costs (the table gives "
        "it in ns; on a log axis the gap between bars is a ratio, not a difference)."),
    "targets.png": (
        "SIMD speed-up per Highway target",
        "One group of bars per SIMD kernel configuration (kernel and N), one bar per "
        "Highway target: the speed-up over the kernel's scalar counterpart at the same N, V "
        "and K (median ns/key of the scalar kernel ÷ that of the SIMD kernel). Bars start at "
        "the 1× line: up means the SIMD kernel is faster than scalar, down slower. The hatched "
        "bar with its figure is the kernel as Highway's run-time dispatch runs it, coloured as "
        "the target it picked; it should match that target's forced bar. The other bars force "
        "one target each, widest (darkest) first; SCALAR is the SIMD code with one lane, so "
        "the gap between it and the wider targets is what the vectors buy, and the gap from "
        "AVX2 to AVX3 is the 512-bit width (with AVX-512's gathers and masks). Whiskers span "
        "the slowest to the fastest ratio of repetitions."),
}


def plots_section(run: Run, plots: dict, batch_log_y: bool) -> list:
    """One subsection per plot: image and how to read it, or why it is missing."""
    lines = ["## Plots", ""]
    family_of = {"ring_tokens.png": "tokens", "latency.png": "latency",
                 "inflight.png": "inflight", "clustered.png": "clustered",
                 "schemes_nodes.png": "nodes",
                 "threads.png": "threads", "batch.png": "batch", "hashed.png": "hashed",
                 "targets.png": "targets"}
    for name, (title, text) in PLOT_TEXT.items():
        lines += [f"### {title}", ""]
        if plots.get(name) is None:
            lines += [f"Not drawn: no usable `{family_of[name]}` results in this run.", ""]
            continue
        if name == "batch.png":
            text += " The y axis is logarithmic." if batch_log_y else " The y axis starts at 0."
        lines += [f"![{title}]({name})", "", text, ""]
    return lines


def tables_section(run: Run) -> list:
    """One table per family: median ns/key, keys/s, CV, repetitions."""
    lines = ["## Tables", "",
             "Median ns/key and keys/s over the repetitions; CV = standard deviation ÷ mean "
             "of ns/key across repetitions. Parameters that are the same for every row are "
             "listed above the table.", ""]
    for family in run.families():
        results = run.family(family)
        if not results:
            continue
        lines += [f"### Family `{family}`", ""]
        if family == "hashed":
            lines += ["Key hashing included in the timed loop.", ""]
        cols = []
        fixed = {}
        for f in ("nodes", "vnodes", "tokens", "keys", "threads", "window_bits", "in_flight"):
            values = {getattr(r, f) for r in results}
            if len(values) == 1:
                v = values.pop()
                if v is not None and not (f == "tokens" and v == 0):
                    fixed[f] = v
            else:
                cols.append(f)
        if fixed:
            lines += ["Fixed: " + ", ".join(f"{COLUMN_TITLES[f]} = {integer(v)}"
                                            for f, v in fixed.items()) + ".", ""]
        show_ran = any(r.threads_ran is not None and r.threads_ran != r.threads for r in results) \
            or family == "threads"
        show_mem = any(r.memory_bytes for r in results)
        show_base = family == "hashed"
        head = ["kernel"] + [COLUMN_TITLES[c] for c in cols]
        if show_ran:
            head.append("threads ran")
        head += ["ns/key", "keys/s", "CV %", "reps"]
        if show_base:
            head += ["lookup only ns/key", "hashing ns/key"]
        if show_mem:
            head.append("memory")
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|---|" + "---:|" * (len(head) - 1))
        for r in results:
            row = [f"`{r.label}`"] + [
                "–" if c == "tokens" and r.scheme != "ring" else integer(getattr(r, c))
                for c in cols]
            if show_ran:
                row.append(integer(r.threads_ran))
            row += [sig3(r.ns), si(r.keys_per_second),
                    cv_cell(r), str(r.repetitions or "–")]
            if show_base:
                base = hashing_baseline(run, r)
                row += [sig3(base.ns), sig3(r.ns - base.ns)] if base else ["–", "–"]
            if show_mem:
                row.append(binary_size(r.memory_bytes))
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    return lines


COLUMN_TITLES = {"nodes": "N", "vnodes": "V", "tokens": "tokens", "keys": "K", "threads": "threads",
                 "window_bits": "window bits", "in_flight": "in flight"}


def checks_section(run: Run) -> list:
    """Errors, warnings, fewer threads than asked, noisy figures."""
    items = []
    for r in run.results:
        if r.error:
            items.append(f"`{r.run_name}` failed: {r.error}")
    for r in run.results:
        if r.threads_ran is not None and r.threads and r.threads_ran != r.threads:
            items.append(f"`{r.run_name}`: asked for {r.threads} threads, {r.threads_ran} ran")
    noisy = [r for r in run.results if r.cv is not None and r.cv > NOISY_CV]
    if noisy:
        worst = max(noisy, key=lambda r: r.cv)
        items.append(f"{len(noisy)} of {len(run.results)} figures have a CV above "
                     f"{sig3(NOISY_CV * 100)} % (worst: `{worst.run_name}`, "
                     f"{sig3(worst.cv * 100)} %); "
                     "treat small differences there as noise")
    single = [r for r in run.results if r.ns is not None and (r.repetitions or 1) < 2]
    if single:
        items.append(f"{len(single)} figures come from a single repetition (no spread)")
    items += run.warnings
    lines = ["## Checks", ""]
    lines += [f"- {item}" for item in items] if items else ["Nothing to report: every benchmark "
                                                            "ran, with the threads it asked for."]
    return lines + [""]


# --------------------------------------------------------------------------
# Main


def render(run: Run) -> dict:
    """Every output file's name -> bytes, built in memory."""
    figure_cls = import_matplotlib()
    # Family "targets" adds kernels forced to one target; they would shift
    # every other kernel's colour between runs with and without it.
    style = Style(r for r in run.results if r.family != "targets")
    analysis = analyse_nodes(run)
    speed = analyse_speed_limit(run)
    plots = {
        "ring_tokens.png": plot_tokens(run, figure_cls, style),
        "latency.png": plot_latency(run, figure_cls, style),
        "inflight.png": plot_inflight(figure_cls, speed.inflight),
        "clustered.png": plot_clustered(figure_cls, style, ring_points(run, "clustered")),
        "schemes_nodes.png": plot_nodes(run, figure_cls, style, analysis),
        "threads.png": plot_threads(run, figure_cls, style),
    }
    plots["batch.png"], batch_log_y = plot_batch(run, figure_cls, style)
    plots["hashed.png"] = plot_hashed(run, figure_cls, style)
    targets = analyse_targets(run)
    plots["targets.png"] = plot_targets(run, figure_cls, targets)
    files = {name: data for name, data in plots.items() if data is not None}
    files["report.md"] = report(run, analysis, speed, targets, plots, batch_log_y).encode()
    return files


def main(argv: Optional[list] = None) -> int:
    """Command line entry point; returns the exit status."""
    parser = cli.Parser(
        prog=PROG,
        description="Plots and report.md from a chbench Google Benchmark JSON file.",
        epilog="Writes " + ", ".join(OUTPUT_FILES) + " into --out (a family missing from the "
               "JSON gets no plot). Exit status 2 on unusable input; then nothing is written.")
    parser.add_argument("json", type=Path, help="bench output (--benchmark_out_format=json)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="existing folder for the plots and report.md")
    args = parser.parse_args(argv)
    try:
        if args.out.exists() and not args.out.is_dir():
            raise InputError(f"output folder {args.out} is not a folder")
        if not args.out.is_dir():
            raise InputError(f"output folder {args.out} does not exist")
        reason = cli.unwritable(args.out)
        if reason:
            raise InputError(f"output folder {args.out} is not writable ({reason})")
        run = load(args.json)
    except InputError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    files = render(run)
    # Every file is written beside its final name first; only when all are
    # written do they replace the old ones, so a failure changes nothing.
    staged = []
    try:
        for name, data in files.items():
            tmp = args.out / f".{name}.tmp"
            staged.append(tmp)
            tmp.write_bytes(data)
    except OSError as err:
        for tmp in staged:
            tmp.unlink(missing_ok=True)
        print(f"{PROG}: error: cannot write into {args.out}: {err.strerror or err}",
              file=sys.stderr)
        return EXIT_WRITE_FAILED
    for name in files:
        os.replace(args.out / f".{name}.tmp", args.out / name)
    for name in OUTPUT_FILES:
        if name not in files and (args.out / name).exists():
            (args.out / name).unlink()  # a stale plot from an earlier call
    for warning in run.warnings:
        print(f"{PROG}: warning: {warning}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
