"""Reading the bench's JSON: names, counters, and each configuration's
repetitions reduced to one Result.

Benchmark names follow the bench's contract
`<family>/<scheme>/<kernel>/N:<n>/V:<v>/K:<k>/threads:<t>[/<key>:<value>...]`,
where a SIMD kernel forced to one Highway target is `<kernel>@<TARGET>`, and
the segments after the kernel are those the run describes (families.py:
context chbench_families, or the fallback for a run from before): the name is
the one place a configuration's parameters are read from. The segments
Google Benchmark appends itself (`/real_time`, `/manual_time`,
`/iterations:1`, `/repeats:10`, ...) are not the configuration's:
config_name (names.py) strips them, and every name matched between runs, or
against chbench_groups, or shown in a report, is that bare name. Counters are
top-level numeric fields of each entry: what was measured (ns_per_key,
tokens, memory_bytes, ...), never a parameter.

A run timed in comparison groups (interleaved rounds; context keys
`chbench_timing` and `chbench_groups`, read by rounds.py) has aggregate rows
only, "repetitions" = R rounds; its median row's counters ns_per_key_lo and
_hi (the median's 95 % interval, then the spread instead of min–max), group,
and ratio, ratio_lo, ratio_hi (member ÷ its reference) are read too. A run
from before keeps its repetitions, median and min–max spread.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from . import bench_file, caches
from . import families as families_mod
from . import registry as registry_mod
from . import rounds as rounds_mod
from .errors import InputError
from .names import config_name
from .numeric import sig3

LEGACY_SEGMENTS = {s.key: s for s in families_mod.LEGACY_SEGMENTS}
TIME_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


@dataclass(frozen=True)
class BenchName:
    """The parts of a benchmark name that the contract defines."""

    family: str
    scheme: str
    kernel: str
    params: dict  # the segments' fields ("nodes", "removal_order", ...) -> int, float
    #               or str, as each segment's kind says


def parse_name(name: str, segments: Optional[dict] = None) -> Optional[BenchName]:
    """Splits `family/scheme/kernel/N:n/V:v/K:k/threads:t[/<key>:<value>...]`
    by `segments` (key -> families.Segment; default: LEGACY_SEGMENTS).

    Returns None when the name does not start with three plain segments.
    Unknown or repeated `KEY:value` segments (Google Benchmark appends its
    own `threads:`, `repeats:`, `min_time:`) are ignored: the first one wins.
    """
    segments = LEGACY_SEGMENTS if segments is None else segments
    parts = name.split("/")
    if len(parts) < 3:
        return None
    family, scheme, kernel = parts[:3]
    if not all(p and ":" not in p for p in (family, scheme, kernel)):
        return None
    params: dict = {}
    for part in parts[3:]:
        key, sep, text = part.partition(":")
        segment = segments.get(key) if sep else None
        if segment is None or segment.field in params:
            continue
        value = segment.value(text)
        if value is not None:
            params[segment.field] = value
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
    in_flight: Optional[int] = None  # family "inflight": the kernel's knob
    window_bits: Optional[int] = None  # family "clustered": tokens in one 2^w window
    table_size: Optional[int] = None  # Maglev's M where the bench set one
    replicas: Optional[int] = None  # family "replicas": R owners a key
    balance_factor: Optional[float] = None  # family "bounded": c, bounded loads
    fleet_capacity: Optional[int] = None  # a custom run's --capacity
    change: Optional[str] = None  # a change build: "remove" or "readd"
    weights: Optional[str] = None  # family "weighted": the weights' pattern ("1-4")
    # Every parameter the name carries, by field (the attributes above among
    # them, and any a later bench adds).
    params: dict = field(default_factory=dict)
    # Family "removals" (and --removed-fraction): the share of N removed, in
    # percent, the order ("lifo", "fifo", "random"), the nodes left, and the
    # table rebuilt after one more removal and after one re-add, microseconds.
    removed_pct: Optional[float] = None
    removal_order: Optional[str] = None
    survivors: Optional[int] = None
    remove_us: Optional[float] = None
    readd_us: Optional[float] = None
    memory_bytes: Optional[float] = None
    bytes_per_token: Optional[float] = None  # lookup structure ÷ tokens
    build_ms: Optional[float] = None  # building the table from the node list, once
    order: int = 0  # where the kernel first appears in the JSON (bench order)
    scheme_rank: int = 0  # the scheme's place in the registry (else in the JSON)
    is_floor: bool = False  # a floor (floors.py), not a kernel
    floor_kind: Optional[str] = None  # its kind: "stream", "compute", "random_read"
    takes_vnodes: bool = False  # V matters: the scheme places tokens on a ring
    ns: Optional[float] = None  # median ns/key
    ns_lo: Optional[float] = None  # spread: the median's 95 % interval (interval), else the
    ns_hi: Optional[float] = None  # min and max over repetitions (or median -/+ stddev)
    interval: bool = False  # ns_lo, ns_hi are the median's interval over rounds
    # A run timed in comparison groups (rounds.py): the group's index, this
    # member's ns/key in each round (None: a failed member, or an old run),
    # and, where the member has a reference in its group, the median of the
    # per-round ratios member ÷ reference with its interval (the bench's).
    # Its place in the group, the group's rounds (every member's) and the
    # run's state margin choose the rounds each figure keeps
    # (fastest_rounds.py).
    group: Optional[int] = None
    rounds: Optional[list] = None
    member: Optional[int] = None
    group_rounds: Optional[list] = None
    state_margin: Optional[float] = None
    ratio: Optional[float] = None
    ratio_lo: Optional[float] = None
    ratio_hi: Optional[float] = None
    cv: Optional[float] = None  # of ns/key, a fraction
    repetitions: Optional[int] = None
    keys_per_second: Optional[float] = None
    error: Optional[str] = None
    hwy_label: Optional[str] = None  # the entry's "label": the Highway target that ran
    hwy_target: Optional[float] = None  # counter: that target's Highway bit
    # The noise record (bench/canary.h); None where the run has none.
    noisy: Optional[bool] = None  # any repetition flagged (counter `noisy`)
    canary_ratio: Optional[float] = None  # the canary ÷ the run's best, before it
    steal_ms: Optional[float] = None  # host steal over the repetitions, summed
    load_avg: Optional[float] = None  # 1-minute load average at the canary
    canary_ms: Optional[float] = None  # what the canary cost
    canary_compute_ns: Optional[float] = None  # its compute loop before the group, ns
    canary_memory_ns: Optional[float] = None  # its memory loop before the group, ns
    # Its lookup structure (memory_bytes) is larger than the core's L2
    # (caches.py); None where the run records no L2.
    beyond_l2: Optional[bool] = None
    retry_round: Optional[int] = None  # set by run.sh --retry-noisy: re-timed in this round
    # Family threads: median CPU ms per arena slot over the repetitions, and
    # the median wall ms of a repetition's timed iterations beside it.
    thread_cpu_ms: dict = field(default_factory=dict)
    wall_ms: Optional[float] = None

    @property
    def config_name(self) -> str:
        """The bare configuration name: run_name without the segments Google
        Benchmark appends (names.config_name)."""
        return config_name(self.run_name)

    @property
    def label(self) -> str:
        """`scheme/kernel`, as the bench and the kernel registry name it."""
        return f"{self.scheme}/{self.kernel}"

    @property
    def base_kernel(self) -> str:
        """The kernel without a forced target: `simd@AVX2` -> `simd`."""
        return self.kernel.partition("@")[0]

    @property
    def base_label(self) -> str:
        """`scheme/kernel` without a forced target."""
        return f"{self.scheme}/{self.base_kernel}"

    @property
    def forced_target(self) -> Optional[str]:
        """`AVX2` of `simd@AVX2`; None when Highway's dispatch chose."""
        return self.kernel.partition("@")[2] or None

    @property
    def order_label(self) -> str:
        """`scheme/kernel`, with ` (LIFO)` or ` (FIFO)` after removals in an order
        other than random (jump hash and its successors beside the others)."""
        if self.removal_order and self.removal_order != "random":
            return f"{self.label} ({self.removal_order.upper()})"
        return self.label

    def sort_key(self) -> tuple:
        """Schemes in registry order, kernels in the bench's order, then parameters."""
        return (self.scheme_rank, self.order, self.kernel, self.nodes or 0, self.vnodes or 0,
                self.keys or 0, self.threads or 0, self.window_bits or 0, self.in_flight or 0,
                self.removed_pct or 0, self.replicas or 0, self.balance_factor or 0)


@dataclass
class Run:
    """Everything read from one JSON file."""

    context: dict
    results: list  # of Result
    warnings: list = field(default_factory=list)
    registry: Optional[registry_mod.Registry] = None
    timing: Optional[dict] = None  # context chbench_timing: method, rounds, seed, confidence
    # The families and name segments the run describes (families.py), completed
    # with those its names show.
    described: families_mod.Families = field(
        default_factory=lambda: families_mod.from_context({}, "run"))

    def family(self, name: str) -> list:
        """The measured (not errored) results of one family, sorted."""
        return sorted((r for r in self.results if r.family == name and r.ns is not None),
                      key=Result.sort_key)

    def families(self) -> list:
        """Family names present, in the order the run describes (families.py)."""
        return self.described.order(list(dict.fromkeys(r.family for r in self.results)))

    def family_title(self, name: str) -> str:
        """What the family varies, as the run says, else its name."""
        return self.described.title(name)

    def family_params(self, name: str) -> tuple:
        """The segments (families.Segment) the family's names carry."""
        return self.described.params(name)

    @property
    def has_rounds(self) -> bool:
        """Whether the run was timed in rounds (its Results have them)."""
        return any(r.rounds for r in self.results)

    def rounds_count(self) -> Optional[int]:
        """R of the timing record (context chbench_timing), if any."""
        return self._timing_count("rounds")

    def rounds_text(self) -> str:
        """The rounds the results have, in words (rounds.rounds_text)."""
        return rounds_mod.rounds_text(self.results, self.timing, self.rounds_count())

    def visits_count(self) -> Optional[int]:
        """The visits the rounds were shared between (chbench_timing), if recorded."""
        return self._timing_count("visits")

    def _timing_count(self, key: str) -> Optional[int]:
        value = (self.timing or {}).get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def ns_estimate(self, r: Result) -> rounds_mod.Estimate:
        """r's median ns/key and its 95 % interval (a point without rounds)."""
        return rounds_mod.ns_estimate(r)

    def ratio(self, a: Result, b: Result) -> Optional[rounds_mod.Estimate]:
        """a's ns/key ÷ b's with its interval: paired over the rounds when
        both are of one group, unpaired (bootstrap) across groups, a point
        for a run without rounds (rounds.ratio)."""
        return rounds_mod.ratio(a, b)

    def reference_ratio(self, r: Result) -> Optional[tuple]:
        """(r's reference in its group, r ÷ it) (rounds.reference_ratio), or None."""
        if r.group is None:
            return None
        members = [m for m in self.results if m.group == r.group]
        return rounds_mod.reference_ratio(r, members, self.registry)


def read_json(path: Path) -> dict:
    """The top-level object of a JSON file, plain or gzip (bench_file.py).
    Raises InputError."""
    raw = bench_file.read_bytes(path)
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
    return data


def load(path: Path, need_registry: bool = True, registry_from: Optional[Path] = None) -> Run:
    """Reads and summarises a bench JSON file and, unless need_registry is
    false, its kernel registry (registry.from_context), or, for a run from
    before the bench recorded one, the registry of the bench JSON
    `registry_from` (borrowed_registry). Without the registry, schemes are
    ordered as the JSON first shows them and no result is the stream floor.
    Raises InputError."""
    data = read_json(path)
    entries = data.get("benchmarks")
    if not isinstance(entries, list) or not entries:
        raise InputError(f"{path} holds no benchmarks (missing or empty \"benchmarks\" list)")
    context = data.get("context") if isinstance(data.get("context"), dict) else {}
    described = families_mod.from_context(context, path)
    run = Run(context=context, results=[])
    run.results = summarise(entries, run.warnings, described.segments)
    if not run.results:
        raise InputError(f"{path} holds no chbench benchmarks "
                         "(names like tokens/ring/<kernel>/N:1000/V:100/K:300000/threads:1)")
    caches.mark_beyond_l2(run.results, context)
    run.described = described.completed(run.results)
    run.timing = rounds_mod.timing(context, run.warnings)
    rounds_mod.attach(run.results, rounds_mod.groups(context, run.warnings), run.warnings,
                      rounds_mod.state_margin(run.timing))
    if need_registry and registry_from is not None and registry_mod.CONTEXT_KEY not in context:
        run.registry = borrowed_registry(run, registry_from)
    elif need_registry:
        run.registry = registry_mod.from_context(context, path)
    apply_registry(run)
    return run


def borrowed_registry(run: Run, source: Path) -> registry_mod.Registry:
    """The registry of the bench JSON `source` for a run that recorded none:
    every kernel the run measured (production profiles aside, which are not
    registry kernels) must be in it. Adds a warning that says where it came
    from. Raises InputError."""
    data = read_json(source)
    context = data.get("context") if isinstance(data.get("context"), dict) else {}
    registry = registry_mod.from_context(context, source)
    missing = sorted({r.label.partition("@")[0] for r in run.results if r.family != "profiles"}
                     - set(registry.kernels))
    if missing:
        raise InputError(f"the registry of {source} lacks kernels this run measured: "
                         f"{', '.join(missing)}")
    run.warnings.append(f"this run recorded no kernel registry; the plots take that of {source}")
    return registry


def apply_registry(run: Run) -> None:
    """Ranks schemes, marks the floors and the schemes that take V, and
    derives what the counters lack: tokens (N × V where V matters) and bytes
    per token."""
    first_seen: dict = {}
    for r in run.results:
        first_seen.setdefault(r.scheme, len(first_seen))
    for r in run.results:
        if run.registry is not None:
            r.scheme_rank = run.registry.scheme_rank(r.scheme)
            r.floor_kind = run.registry.floor_kind(r.label)
            r.is_floor = r.floor_kind is not None
            # A ring token count says so too, should "params" be missing.
            r.takes_vnodes = run.registry.takes(r.scheme, "vnodes") or bool(r.tokens)
        else:
            r.scheme_rank = first_seen[r.scheme]
            r.takes_vnodes = bool(r.tokens)
        if r.tokens is None and r.takes_vnodes and r.nodes and r.vnodes:
            r.tokens = r.nodes * r.vnodes
        if r.bytes_per_token is None and r.memory_bytes and r.tokens and not r.is_floor:
            r.bytes_per_token = r.memory_bytes / r.tokens


def summarise(entries: list, warnings: list, segments: Optional[dict] = None) -> list:
    """Groups entries by run name and reduces each group to a Result; names
    are parsed by `segments` (parse_name)."""
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
        parsed = parse_name(run_name, segments)
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
    first = aggregates.get("median") or (iterations[0] if iterations else group[0])
    read_parameters(result, parsed, first)
    read_timings(result, iterations, aggregates, first, warnings)
    read_noise(result, iterations, aggregates)
    return result


def read_noise(result: Result, iterations: list, aggregates: dict) -> None:
    """The noise record: flagged when any repetition says `noisy` (or the
    mean aggregate, else the median, is above 0 when the repetitions are
    missing), the worst
    canary ratio, the steal summed over the repetitions (in a run timed in
    rounds: its group's steal over all rounds), the load average;
    and each thread's CPU time (family threads)."""
    # The committed form keeps no mean row: a run timed in rounds has the
    # same noise counters in every aggregate row (constant over the rounds).
    mean = aggregates.get("mean") or aggregates.get("median")
    rows = iterations or ([mean] if mean else [])
    flags = [v for v in (number(e.get("noisy")) for e in rows) if v is not None]
    if not flags:
        return
    result.noisy = any(v > 0 for v in flags)

    def values(key: str) -> list:
        return [v for v in (number(e.get(key)) for e in rows) if v is not None]

    ratios, steal, load = values("canary_ratio"), values("steal_ms"), values("load_avg_1m")
    result.canary_ratio = max(ratios) if ratios else None
    if steal:
        # Without repetitions, the mean row's steal is one repetition's, but in
        # a run timed in rounds (counter `rounds`) it is the steal of the whole
        # group over all its rounds, the same for every member (noise.py sums
        # it once per group).
        in_rounds = not iterations and number(rows[0].get("rounds")) is not None
        scale = 1 if iterations or in_rounds else (result.repetitions or 1)
        result.steal_ms = sum(steal) * scale
    result.load_avg = load[0] if load and load[0] >= 0 else None
    cost = values("canary_ms")
    result.canary_ms = cost[0] if cost else None
    compute, memory = values("canary_compute_ns"), values("canary_memory_ns")
    result.canary_compute_ns = compute[0] if compute else None
    result.canary_memory_ns = memory[0] if memory else None
    retry = values("retry_round")
    result.retry_round = int(retry[0]) if retry else None
    slots: dict = {}
    for e in rows:
        for key, value in e.items():
            if key.startswith("thread_cpu_ms_") and number(value) is not None:
                slot = key.removeprefix("thread_cpu_ms_")
                if slot.isdigit():
                    slots.setdefault(int(slot), []).append(number(value))
    result.thread_cpu_ms = {slot: statistics.median(v) for slot, v in sorted(slots.items())}
    walls = [wall_ms(e) for e in rows]
    walls = [w for w in walls if w is not None]
    result.wall_ms = statistics.median(walls) if walls else None


def wall_ms(entry: dict) -> Optional[float]:
    """Milliseconds of one repetition's timed iterations: real_time (per
    iteration, in its time unit) × iterations. A run timed in rounds (counter
    `rounds`) times one batch a repetition, one iteration (its aggregates'
    `iterations` count the repetitions instead)."""
    real_time, iterations = number(entry.get("real_time")), number(entry.get("iterations"))
    if number(entry.get("rounds")) is not None:
        iterations = 1
    scale = TIME_UNIT_NS.get(entry.get("time_unit", "ns"))
    if real_time is None or not iterations or scale is None:
        return None
    return real_time * scale * iterations / 1e6


def read_parameters(result: Result, parsed: BenchName, first: dict) -> None:
    """The configuration's parameters, from its name (the one place), and
    what the counters measured: tokens, survivors, bytes, build times, the
    Highway target."""
    def counter(key: str) -> Optional[int]:
        value = number(first.get(key))
        return None if value is None else int(round(value))

    result.params = dict(parsed.params)
    for key, value in parsed.params.items():
        if key in PARAM_ATTRIBUTES:
            setattr(result, key, value)
    result.threads_ran = counter("threads_ran")
    result.tokens = counter("tokens")
    result.survivors = counter("survivors")
    result.remove_us = number(first.get("remove_us"))
    result.readd_us = number(first.get("readd_us"))
    result.memory_bytes = number(first.get("memory_bytes"))
    result.bytes_per_token = number(first.get("bytes_per_token"))
    result.build_ms = number(first.get("build_ms"))
    label = first.get("label")
    result.hwy_label = (label.strip() or None) if isinstance(label, str) else None
    result.hwy_target = number(first.get("hwy_target"))


# The parameters a Result has an attribute for (the rest stay in params).
PARAM_ATTRIBUTES = {"nodes", "vnodes", "keys", "threads", "in_flight", "window_bits",
                    "table_size", "replicas", "removed_pct", "removal_order", "balance_factor",
                    "fleet_capacity", "change", "weights"}


def read_interval(result: Result, median: dict) -> None:
    """The counters of a run timed in rounds, constant over its rounds (so
    read from the median row): group, ns_per_key_lo / _hi (the median's
    95 % interval, which then stands for the spread) and ratio, ratio_lo,
    ratio_hi (member ÷ its reference, where it has one)."""
    group = number(median.get("group"))
    result.group = int(group) if group is not None and group >= 0 else None
    lo, hi = number(median.get("ns_per_key_lo")), number(median.get("ns_per_key_hi"))
    if lo is not None and hi is not None and lo <= result.ns <= hi:
        result.ns_lo, result.ns_hi, result.interval = lo, hi, True
    result.ratio = number(median.get("ratio"))
    if result.ratio is not None:
        result.ratio_lo = number(median.get("ratio_lo"))
        result.ratio_hi = number(median.get("ratio_hi"))


def read_timings(result: Result, iterations: list, aggregates: dict, first: dict,
                 warnings: list) -> None:
    """Median ns/key, its spread and CV, and keys/s; an error when there is
    no usable time."""
    samples = [v for v in (entry_ns_per_key(e) for e in iterations) if v is not None]
    kept = None
    if "median" in aggregates:
        # The bench's median of the rounds it kept (a visit the host slowed
        # left out, the host's slower states: rounds.py), else Google
        # Benchmark's of every round.
        kept = number(aggregates["median"].get("ns_per_key_kept"))
        kept = kept if kept and kept > 0 else None
        result.ns = kept or entry_ns_per_key(aggregates["median"])
    if result.ns is None and samples:
        result.ns = statistics.median(samples)
    if result.ns is None:
        result.error = "no positive ns_per_key, real_time or keys in the JSON"
        return
    counted = number(first.get("ns_per_key"))
    timed = real_time_ns_per_key(first)
    if counted and timed and not 0.67 < counted / timed < 1.5:
        warnings.append(f"{result.config_name}: ns_per_key counter {sig3(counted)} disagrees with "
                        f"real_time / keys = {sig3(timed)} ns; plotted the counter")
    result.repetitions = (int(number(first.get("repetitions")) or 0) or len(iterations) or 1)
    read_interval(result, first)
    if result.interval:
        pass  # the rounds' interval is the spread
    elif len(samples) >= 2:
        result.ns_lo, result.ns_hi = min(samples), max(samples)
    elif "stddev" in aggregates:
        # The stddev aggregate's counters hold standard deviations; its keys
        # counter too (0), so real_time / keys cannot stand in for ns_per_key.
        stddev = number(aggregates["stddev"].get("ns_per_key"))
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
    # keys/s of the same rounds as ns/key: Google Benchmark's median counter
    # covers every round, the kept median may not.
    kps = None if kept else number(first.get("keys_per_second"))
    result.keys_per_second = kps if kps else 1e9 / result.ns
