"""The scheme guide's numbers (scripts/guide.py writes docs/guide.md): one row
per scheme of the run's registry, its fastest kernel at each node count N
family "nodes" measured, the measured brackets where two schemes' order
changes, and the node count the advice is for.

Everything comes from one bench run's family "nodes" (median ns/key per
kernel and N with its interval, memory_bytes and build_ms counters) and its
kernel registry (context chbench_registry: the schemes, which nodes may
leave, parameters), so a scheme added to the registry joins the guide with
no edit here. The fastest kernel of a scheme at each N and the fastest
scheme there follow the first screen's rule (first_screen.columns: the
lowest median, alone only when the rounds separate it), and a crossover is
the first screen's too: the cheaper of two schemes changes between two
consecutive N whose verdicts are both decided (first_screen.side), never
interpolated between them. The other parts of the guide: guide_removals.py
(any node may leave), guide_balance.py (busiest ÷ mean beside its noise
floor), guide_latency.py (one key at a time), guide_schemes.py (set-up and
caveats).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional

from . import first_screen, intervals, rounds
from .load import Result, Run
from .numeric import sig3

DEFAULT_NODES = 1000  # the fleet size the guide answers for unless told


@dataclass
class GuideRow:
    """One scheme of the registry: its fastest kernel at each measured N (the
    Result, None where not measured) and at the advice N."""

    scheme: str
    title: str
    removal: str  # the registry's: "any", "last", "none"
    weights: bool
    best: dict = field(default_factory=dict)  # N -> its fastest kernel's Result
    fastest_at: dict = field(default_factory=dict)  # N -> whether it is fastest or tied
    tied: tuple = ()  # other kernels not separated from best[advice N]

    def at(self, n: int) -> Optional[Result]:
        return self.best.get(n)


@dataclass(frozen=True)
class Crossover:
    """Two schemes whose order changes between two decided N, measured on
    either side (no N between them was decided)."""

    cheaper_below: str  # the scheme that is cheaper at n_low
    cheaper_above: str
    n_low: int
    n_high: int
    ratio_low: intervals.Estimate  # cheaper_above ÷ cheaper_below at n_low (> 1)
    ratio_high: intervals.Estimate  # the same ratio at n_high (< 1)


@dataclass
class Guide:
    rows: list  # of GuideRow, in registry order (every scheme of the registry)
    columns: list  # the N family "nodes" measured, ascending
    advice_n: Optional[int]  # the measured N nearest the fleet size asked for
    asked_n: int
    crossovers: list = field(default_factory=list)
    fastest: dict = field(default_factory=dict)  # N -> [Result], the fastest or the tie

    def row(self, scheme: str) -> Optional[GuideRow]:
        return next((r for r in self.rows if r.scheme == scheme), None)


def nearest(measured: list, n: int) -> Optional[int]:
    """The N of `measured` nearest n on a log scale (the smaller on a tie);
    None for none. nearest([10, 100, 1000], 300) -> 100 (log distance 0.48
    against 0.52)."""
    if not measured:
        return None
    return min(sorted(measured), key=lambda m: abs(math.log(m) - math.log(n)))


def kernel_tie(run: Run, scheme: str, n: int, best: Result) -> tuple:
    """The other kernels of `scheme` at N = n the rounds do not separate from
    `best` (intervals.fastest over the one-thread results of family nodes)."""
    mine = [r for r in run.family("nodes") if r.scheme == scheme and r.nodes == n
            and r.threads in (None, 1) and r.ns is not None]
    tied = intervals.fastest(mine, lambda r: r.ns, rounds.ratio)
    return tuple(r.label for r in tied if r.label != best.label) if len(tied) > 1 else ()


def side(a: Result, b: Result) -> Optional[bool]:
    """True when a is decidedly cheaper than b (b ÷ a above 1, its interval
    clear of 1), False when b is, None undecided (first_screen.side)."""
    e = rounds.ratio(b, a)
    return None if e is None else first_screen.side(e)


def crossovers(rows: list, columns: list) -> list:
    """Every pair of schemes (registry order) whose decided order flips
    between two consecutive N at which both were measured and decided."""
    out = []
    for i, a in enumerate(rows):
        for b in rows[i + 1:]:
            decided = [(n, side(a.best[n], b.best[n])) for n in columns
                       if n in a.best and n in b.best]
            decided = [(n, s) for n, s in decided if s is not None]
            for (n0, s0), (n1, s1) in zip(decided, decided[1:]):
                if s0 == s1:
                    continue
                below, above = (a, b) if s0 else (b, a)
                out.append(Crossover(below.scheme, above.scheme, n0, n1,
                                     rounds.ratio(above.best[n0], below.best[n0]),
                                     rounds.ratio(above.best[n1], below.best[n1])))
    return sorted(out, key=lambda c: (c.n_low, c.n_high, c.cheaper_below, c.cheaper_above))


def build(run: Run, nodes: int = DEFAULT_NODES) -> Guide:
    """The guide of one run for a fleet of `nodes` nodes: a row for every
    scheme of the registry (empty where family nodes has none of it)."""
    cols = first_screen.columns(run)
    columns = [c.nodes for c in cols]
    advice = nearest(columns, nodes)
    rows = []
    for scheme in run.registry.schemes:
        row = GuideRow(scheme.name, scheme.title, scheme.removal, "weights" in scheme.params)
        for c in cols:
            if scheme.name in c.best:
                row.best[c.nodes] = c.best[scheme.name]
                row.fastest_at[c.nodes] = scheme.name in c.fastest
        if advice in row.best:
            row.tied = kernel_tie(run, scheme.name, advice, row.best[advice])
        rows.append(row)
    fastest = {c.nodes: [c.best[s] for s in c.fastest] for c in cols}
    return Guide(rows, columns, advice, nodes, crossovers([r for r in rows if r.best], columns),
                 fastest)


# ---- text ------------------------------------------------------------------------------------


def size_text(n_bytes: Optional[float]) -> str:
    """'12.3 KiB' of a byte count; '–' without one."""
    if n_bytes is None:
        return "–"
    for unit, size in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if n_bytes >= size:
            return f"{sig3(n_bytes / size)} {unit}"
    return f"{int(n_bytes)} B"


def ms_text(ms: Optional[float]) -> str:
    """'1.23 ms' or '45.6 µs' of milliseconds; '–' without."""
    if ms is None:
        return "–"
    return f"{sig3(ms)} ms" if ms >= 1 else f"{sig3(ms * 1000)} µs"


def pct_text(fraction: Optional[float]) -> str:
    """'0.098 %' of a fraction, three significant digits; '–' without."""
    return "–" if fraction is None else f"{sig3(100 * fraction)} %"


def n_text(n: float) -> str:
    """'1,000' of an N; '10^6' of a power of ten from 10^5 (first_screen.n_text)."""
    return first_screen.n_text(int(round(n)))


def ns_text(r: Optional[Result], fastest: bool = False) -> str:
    """'1.21 [1.18-1.25]*~': a median ns/key, its interval, * fastest or
    tied, ~ flagged noisy (first_screen.cell); '–' without."""
    return first_screen.cell(r, fastest)


LEAVE_TEXT = {"any": "any node", "last": "last bucket only", "none": "no (all keys remap)"}
