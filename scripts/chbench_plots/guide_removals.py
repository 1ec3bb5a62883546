"""The guide's "any node may leave or fail" advice, measured where it applies:
family "removals" of the same run, each scheme that lets any node leave
(registry removal "any") timed with 10 % and 50 % of its N nodes removed in
a seeded random order, the lookup structure's bytes after the removals
(counter memory_bytes) beside its ns/key. The fastest at each fraction is
named only where the rounds separate it (intervals.fastest), else the tie.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from . import intervals, rounds
from .guide import nearest
from .load import Result, Run

FRACTIONS = (0.0, 10.0, 50.0)  # removed percent shown; the advice is at 10 and 50
ADVICE_FRACTIONS = (10.0, 50.0)


@dataclass
class Removals:
    """Family removals at one N: per removed percent, each any-leave scheme's
    fastest timed kernel there, and the fastest (or the tie)."""

    nodes: Optional[int]  # the N used (nearest the fleet size asked), None: not measured
    measured_n: list  # every N the family measured
    by_pct: dict = field(default_factory=dict)  # percent -> {scheme: Result}
    fastest: dict = field(default_factory=dict)  # percent -> [Result]


def results_of(run: Run, any_leave: set) -> list:
    """The one-thread results of family removals of the schemes in any_leave."""
    return [r for r in run.family("removals") if r.scheme in any_leave and r.nodes
            and r.removed_pct is not None and r.threads in (None, 1) and r.ns is not None
            and not r.is_floor]


def analyse(run: Run, nodes: int) -> Removals:
    """Family removals at the measured N nearest `nodes` (log scale)."""
    any_leave = {s.name for s in run.registry.schemes if s.removal == "any"}
    results = results_of(run, any_leave)
    measured = sorted({r.nodes for r in results})
    n = nearest(measured, nodes)
    out = Removals(n, measured)
    for r in results:
        if r.nodes != n or r.removed_pct not in FRACTIONS:
            continue
        per = out.by_pct.setdefault(r.removed_pct, {})
        if r.scheme not in per or r.ns < per[r.scheme].ns:
            per[r.scheme] = r
    for pct, per in out.by_pct.items():
        out.fastest[pct] = intervals.fastest(list(per.values()), lambda r: r.ns, rounds.ratio)
    return out


def config_name(r: Result) -> str:
    """`removals/anchor/simd/…/removed:10`: the configuration's short name,
    the scheme, kernel and removed share (the full name is in the run)."""
    return f"removals/{r.label}/N:{r.nodes}/removed:{r.removed_pct:g}"
