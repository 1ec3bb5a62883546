"""The rounds of a run timed in comparison groups (context keys
`chbench_timing` and `chbench_groups`), attached to its Results, and the
figures computed from them.

A comparison group is one point of a family: the kernels compared at one
configuration, timed in R interleaved rounds (each round runs every member
once, in a fresh random order; with chbench_timing's "order" "schemes as
blocks", each scheme's members side by side: the bench's round_order.h), so
round k of one member pairs with round k of another. `chbench_groups` is a
JSON string {"groups": [{"members": [bare configuration name (names.config_name), ...], "ns_per_key": [[ns/key
of round 0, ..., round R-1] or null for a member that failed, ...]}, ...]}.
A group whose figures leave out a visit the host slowed (the bench's
revisits.h) also holds "visit_rounds" (each visit's count of rounds, in
order) and "kept_visits" (the 1-based visits kept): its members' rounds here
are those of the kept visits alone, as the bench's own figures are. Of
those, each figure keeps the rounds the host ran in its fastest state by the
pace of the members it is not of (fastest_rounds.py, the run's
"state_margin"). A run from before groups has neither key: its Results have
no rounds, and its figures are points (basis "point").

This module reads Results by their fields only (run_name, label, scheme,
base_label, forced_target, is_floor, ns, rounds, group, member, group_rounds,
state_margin, cv), so load.py can call
it without a cycle.
"""

from __future__ import annotations

import json
import math
import statistics
from typing import Optional

from . import fastest_rounds, intervals
from .intervals import Estimate
from .names import config_name

TIMING_KEY = "chbench_timing"
GROUPS_KEY = "chbench_groups"
# chbench_timing's "order" of a run whose rounds ran each scheme's members
# side by side (the bench's round_order.h: kBlockedOrder), and what a run
# without one did.
BLOCKED_ORDER = "schemes as blocks"
PLAIN_ORDER = "every member shuffled alike"


def context_json(context: dict, key: str, warnings: list) -> Optional[dict]:
    """The JSON object held as a string under context[key]; None when absent,
    and a warning when it is there but unreadable."""
    text = context.get(key)
    if text is None:
        return None
    try:
        value = json.loads(text) if isinstance(text, str) else text
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, dict):
        warnings.append(f"context {key} is not a JSON object; read as a run without rounds")
        return None
    return value


def round_order(timing_record: Optional[dict]) -> str:
    """How a run ordered each round's members: chbench_timing's "order"
    (BLOCKED_ORDER), or PLAIN_ORDER for a run that records none (older runs,
    every member shuffled alike)."""
    return (timing_record or {}).get("order") or PLAIN_ORDER


def timing(context: dict, warnings: list) -> Optional[dict]:
    """The timing record (method, order, rounds, visits, margins,
    min_slice_s, seed, confidence) or None."""
    return context_json(context, TIMING_KEY, warnings)


def state_margin(timing_record: Optional[dict]) -> Optional[float]:
    """The state margin of the timing record (chbench_timing): a number
    above 0, else None (every round kept; runs from before the rule)."""
    value = (timing_record or {}).get("state_margin")
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    return float(value) if ok and math.isfinite(value) and value > 0 else None


def round_list(value) -> Optional[list]:
    """One member's rounds as floats (ns/key; a round that is not a finite
    number becomes None), or None for a member that failed (null)."""
    if not isinstance(value, list):
        return None
    out = []
    for v in value:
        ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
        out.append(float(v) if ok else None)
    return out


def groups(context: dict, warnings: list) -> list:
    """[(member run names, their rounds (list or None)), ...] in group index
    order; [] for a run without groups."""
    data = context_json(context, GROUPS_KEY, warnings)
    raw = data.get("groups") if data else None
    if not isinstance(raw, list):
        return []
    out = []
    for g in raw:
        members = g.get("members") if isinstance(g, dict) else None
        times = g.get("ns_per_key") if isinstance(g, dict) else None
        if not isinstance(members, list) or not isinstance(times, list) \
                or len(members) != len(times):
            warnings.append(f"group {len(out)} of {GROUPS_KEY} is malformed; left out")
            out.append(([], []))
            continue
        kept = kept_rounds(g)
        out.append(([str(m) for m in members], [kept(round_list(t)) for t in times]))
    return out


def kept_rounds(group: dict):
    """A function that takes a member's rounds to those of the group's kept
    visits (keys visit_rounds and kept_visits), or returns them as they are
    when the group kept every visit, the keys are malformed or the rounds
    are not the visits' sum in number."""
    sizes, kept = group.get("visit_rounds"), group.get("kept_visits")
    valid = (isinstance(sizes, list) and isinstance(kept, list)
             and all(isinstance(n, int) and n >= 0 for n in sizes)
             and all(isinstance(v, int) and 1 <= v <= len(sizes) for v in kept))
    if not valid:
        return lambda rounds: rounds
    starts = [sum(sizes[:v]) for v in range(len(sizes))]

    def keep(rounds):
        if rounds is None or len(rounds) != sum(sizes):
            return rounds
        return [x for v in sorted(kept) for x in rounds[starts[v - 1]:starts[v - 1] + sizes[v - 1]]]
    return keep


def groups_summary(value) -> str:
    """The context's chbench_groups (value: its JSON string) in a few words
    for the report's machine table: how many comparison groups and of how
    many configurations. The members and their rounds stay in the bench
    JSON, which every figure of the report is computed from."""
    found = [members for members, _ in groups({GROUPS_KEY: value}, []) if members]
    if not found:
        return "none readable"
    low, high = min(map(len, found)), max(map(len, found))
    size = f"{low}" if low == high else f"{low} to {high}"
    return (f"{len(found)}, of {size} configurations each (members and rounds: the bench "
            f"JSON's `{GROUPS_KEY}`)")


def attach(results: list, group_list: list, warnings: list,
           margin: Optional[float] = None) -> None:
    """Gives every Result its group index and rounds from group_list
    (groups()), its place in the group, the group's rounds and the run's
    state margin (chbench_timing's; None keeps every round); a member
    matches the Result of its configuration name (names.config_name of
    both). Warns once about members no Result has."""
    by_name = {}
    for r in results:
        by_name.setdefault(config_name(r.run_name), r)
    unknown = 0
    for index, (members, times) in enumerate(group_list):
        for place, (name, rounds) in enumerate(zip(members, times)):
            r = by_name.get(config_name(name))
            if r is None:
                unknown += 1
                continue
            r.group = index if r.group is None else r.group
            r.rounds = rounds
            r.group_rounds, r.member, r.state_margin = times, place, margin
            settle_spread(r)
            settle_cv(r)
    if unknown:
        warnings.append(f"{unknown} group members of {GROUPS_KEY} match no benchmark")


def settle_spread(r) -> None:
    """A member with rounds but without the bench's interval counters takes
    its spread from the rounds' interval, or has none (fewer than 6 rounds):
    a stddev band would pass for an interval."""
    if r.interval or not r.rounds or r.ns is None:
        return
    interval = intervals.median_interval(own_rounds(r))
    if interval is not None and interval[0] <= r.ns <= interval[1]:
        r.ns_lo, r.ns_hi, r.interval = interval[0], interval[1], True
    else:
        r.ns_lo = r.ns_hi = None


def settle_cv(r) -> None:
    """A member with rounds but no CV (the committed form keeps no cv row:
    compact.py) takes the CV of its rounds, as Google Benchmark computes it
    over the repetitions (sample standard deviation ÷ mean)."""
    values = [v for v in r.rounds or [] if v is not None]
    if r.cv is None and len(values) >= 2:
        mean = statistics.fmean(values)
        r.cv = statistics.stdev(values) / mean if mean else None


def ns_estimate(r) -> Estimate:
    """A Result's median ns/key with its interval: the bench's (counters
    ns_per_key_lo and _hi) or the rounds'; a point for a run without rounds."""
    if r.interval:
        return Estimate(r.ns, r.ns_lo, r.ns_hi, "median")
    if r.rounds:
        computed = intervals.median_estimate(own_rounds(r))
        if computed is not None:
            return Estimate(r.ns, computed.lo, computed.hi, "median")
    return Estimate(r.ns)


def ratio(a, b) -> Optional[Estimate]:
    """a's ns/key ÷ b's: paired (the per-round ratios) when both are of one
    group, unpaired (ratio of medians, bootstrap) when both have rounds in
    different groups, a point (ratio of the medians, no interval) when
    neither has rounds; None when the ns/key are missing, or only one of the
    two has rounds (nothing honest to pair it with)."""
    if not a.ns or not b.ns:
        return None
    if not a.rounds and not b.rounds:
        return Estimate(a.ns / b.ns)
    if not a.rounds or not b.rounds:
        return None
    if a.group is not None and a.group == b.group:
        kept = state_places(a, {a.member, b.member})
        return intervals.paired_ratio(fastest_rounds.at(a.rounds, kept),
                                      fastest_rounds.at(b.rounds, kept))
    return intervals.unpaired_ratio(own_rounds(a), own_rounds(b))


def state_places(r, leave_out: set) -> Optional[list]:
    """The places of the rounds of r's group the host ran in its fastest
    state by the pace of the members not in leave_out (fastest_rounds.py);
    None: every round."""
    if r.group_rounds is None:
        return None
    return fastest_rounds.places(r.group_rounds, r.state_margin, leave_out)


def own_rounds(r) -> list:
    """r's rounds that its own median and interval use: those the host ran
    in its fastest state by the other members' pace."""
    return fastest_rounds.at(r.rounds, state_places(r, {r.member}))


def kernel_free_name(name: str) -> tuple:
    """A configuration name without its kernel segment (the third, with any
    forced `@TARGET`) and its `inflight:` segment (a kernel's own knob):
    two members differ in the kernel alone when these are equal (the
    bench's differs_in_kernel_alone, bench/rounds.cc)."""
    parts = config_name(name).split("/")
    return tuple(p for i, p in enumerate(parts) if i != 2 and not p.startswith("inflight:"))


def reference(r, members: list, registry) -> Optional[object]:
    """The Result r is compared with in its group (members: the group's
    Results, in the group's order), by the bench's rule (reference_of,
    bench/rounds.cc): the first other member that differs from r in the
    kernel alone (same family, scheme and every name parameter; inflight
    aside), is no floor, runs with no forced target and is r's
    kernel's rival (registry `rival`); failing that, unless r's kernel is
    itself a baseline, the first such member whose kernel is a baseline.
    None for the stream floor, a kernel the registry lacks, or without a
    registry."""
    kernel = registry.kernel(r.base_label) if registry is not None else None
    if kernel is None or r.is_floor:
        return None
    key = kernel_free_name(r.run_name)

    def find(wanted) -> Optional[object]:
        for m in members:
            entry = registry.kernel(m.base_label)
            if m is not r and entry is not None and not m.is_floor and entry.floor is None \
                    and not m.forced_target and wanted(m, entry) \
                    and kernel_free_name(m.run_name) == key:
                return m
        return None

    if kernel.rival:
        found = find(lambda m, entry: m.base_label == kernel.rival)
        if found is not None:
            return found
    if kernel.baseline:
        return None
    return find(lambda m, entry: entry.baseline)


def group_members(results: list) -> dict:
    """group index -> the Results of that group, in the run's order."""
    out: dict = {}
    for r in results:
        if r.group is not None:
            out.setdefault(r.group, []).append(r)
    return out


def reference_ratio(r, members: list, registry) -> Optional[tuple]:
    """(reference Result, Estimate of r ÷ it): the bench's counters ratio,
    ratio_lo, ratio_hi where r has them, else computed from the rounds;
    None when r has no reference in its group."""
    ref = reference(r, members, registry)
    if ref is None:
        return None
    if r.ratio is not None:
        return ref, Estimate(r.ratio, r.ratio_lo, r.ratio_hi, "paired")
    computed = ratio(r, ref)
    return (ref, computed) if computed is not None else None


def rounds_text(results: list, timing_record: Optional[dict], count: Optional[int]) -> str:
    """'30 interleaved rounds', '10 to 30 interleaved rounds' (groups of long
    batches run fewer), '1 interleaved round': the rounds the results have
    (else `count`, the timing record's), as 'the rounds kept of ...' in a run
    whose figures keep the rounds of the host's fastest state."""
    counts = {len(r.rounds) for r in results if r.rounds} or ({count} if count else set())
    if not counts:
        text = "interleaved rounds"
    elif min(counts) == max(counts):
        text = f"{min(counts)} interleaved round{'' if min(counts) == 1 else 's'}"
    else:
        text = f"{min(counts)} to {max(counts)} interleaved rounds"
    return f"the rounds kept of {text}" if state_margin(timing_record) else text
