"""The scheme guide's numbers (scripts/guide.py writes docs/guide.md): one row
per scheme of the run's registry with its fastest kernel, the N where two
schemes' best kernels cross, and a decision list derived from both.

Everything comes from one bench run's family "nodes" (median ns/key per
kernel and N, memory_bytes and build_ms counters) and its kernel registry
(context chbench_registry: the schemes, which nodes may leave, parameters),
plus the lab's moves and balance per scheme (LabRow), so a scheme added to the
registry joins the guide with no edit here. Where the run was timed in
rounds, "the fastest" is named only when the rounds separate it from the
runner-up (intervals.fastest); otherwise the guide names the tie.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional

from . import intervals, rounds
from .load import Result, Run
from .numeric import sig3

# The node counts of the table's ns/key columns; GUIDE_N_BIG where measured.
GUIDE_N = (10, 100, 1000, 10000)
GUIDE_N_BIG = 1_000_000
MEMORY_N = 1000  # memory, build time and the lab's moves and balance are at this N
# Two medians closer than this (relative) are a tie, not an order: a crossover
# needs each scheme ahead by more at one of the two N.
TIE = 0.05


@dataclass(frozen=True)
class LabRow:
    """What chbench-lab measured for one scheme at N = MEMORY_N nodes: fractions
    of the keys moved on one join and one leave, those moved between nodes
    present before and after (survivors), and busiest node's keys ÷ mean."""

    join_moved: float
    join_between: float
    leave_moved: Optional[float]  # None: the lab refused the leave
    leave_between: Optional[float]
    leave_node: str  # the node that left ("node-500", or the last bucket)
    busiest_over_mean: float


@dataclass
class GuideRow:
    """One scheme: its fastest kernel and that kernel's measurements."""

    scheme: str
    title: str
    kernel: str  # scheme/kernel
    simd: bool
    ns: dict  # N -> median ns/key of `kernel`
    memory_bytes: Optional[float]
    build_ms: Optional[float]
    removal: str  # the registry's: "any", "last", "none"
    weights: bool
    lab: Optional[LabRow] = None
    tied: tuple = ()  # other kernels of the scheme the rounds do not separate from `kernel`
    at: Optional[Result] = None  # `kernel` at N = MEMORY_N


@dataclass(frozen=True)
class Crossover:
    """Two schemes whose best kernels swap order between two measured N."""

    cheaper_below: str  # the scheme that is cheaper at the smaller N
    cheaper_above: str
    n_low: int  # the measured N on either side
    n_high: int
    n_cross: float  # where the log-log lines between them meet


@dataclass
class Guide:
    rows: list  # of GuideRow, in registry order
    crossovers: list  # of Crossover
    best_by_n: dict = field(default_factory=dict)  # N -> {scheme: best ns/key}
    best_at: dict = field(default_factory=dict)  # N -> {scheme: its best kernel's Result}


def nodes_results(run: Run) -> list:
    """Family "nodes" without the stream floor and forced Highway targets."""
    return [r for r in run.family("nodes") if not r.is_floor and "@" not in r.kernel]


def best_results(run: Run) -> dict:
    """N -> {scheme: the Result of its kernel with the lowest median ns/key at that N}."""
    out: dict = {}
    for r in nodes_results(run):
        per = out.setdefault(r.nodes, {})
        if r.scheme not in per or r.ns < per[r.scheme].ns:
            per[r.scheme] = r
    return dict(sorted(out.items()))


def best_by_n(run: Run) -> dict:
    """N -> {scheme: lowest median ns/key of any of its kernels at that N}."""
    return {n: {s: r.ns for s, r in per.items()} for n, per in best_results(run).items()}


def fastest(results: list) -> list:
    """The fastest of `results` (lowest median ns/key) alone when the rounds
    separate it from the runner-up, else the tie, fastest first
    (intervals.fastest; a run without rounds: the lowest median alone)."""
    return intervals.fastest(results, lambda r: r.ns, rounds.ratio)


def fastest_kernel(results: list) -> list:
    """The labels of the scheme's fastest kernel at N = MEMORY_N and of the
    kernels tied with it (fastest()), or, without one measured there, the
    kernel of the lowest geometric mean over its Ns alone."""
    at = [r for r in results if r.nodes == MEMORY_N]
    if at:
        return [r.label for r in fastest(at)]
    logs: dict = {}
    for r in results:
        logs.setdefault(r.label, []).append(math.log(r.ns))
    return [min(logs, key=lambda k: sum(logs[k]) / len(logs[k]))]


def scheme_row(run: Run, scheme, results: list) -> GuideRow:
    """The row of one scheme from its results in family "nodes"."""
    label, *tied = fastest_kernel(results)
    mine = {r.nodes: r for r in results if r.label == label}
    at = mine.get(MEMORY_N)
    kernel = run.registry.kernel(label)
    return GuideRow(scheme.name, scheme.title, label, bool(kernel and kernel.simd),
                    {n: r.ns for n, r in sorted(mine.items())},
                    at.memory_bytes if at else None, at.build_ms if at else None,
                    scheme.removal, "weights" in scheme.params, tied=tuple(tied), at=at)


def rows_of(run: Run) -> list:
    """One GuideRow per registry scheme measured in family "nodes"."""
    results = nodes_results(run)
    rows = []
    for scheme in run.registry.schemes:
        mine = [r for r in results if r.scheme == scheme.name]
        if mine:
            rows.append(scheme_row(run, scheme, mine))
    return rows


def crossing(n0: int, n1: int, a0: float, a1: float, b0: float, b1: float) -> float:
    """The N between n0 and n1 where the straight lines in log N, log ns through
    (n0, a0)-(n1, a1) and (n0, b0)-(n1, b1) meet."""
    d0, d1 = math.log(a0 / b0), math.log(a1 / b1)
    t = d0 / (d0 - d1)
    return math.exp(math.log(n0) + t * (math.log(n1) - math.log(n0)))


def ahead(x: float, y: float) -> int:
    """1 if x is lower than y by more than TIE, -1 if higher, 0 for a tie."""
    if x < y * (1 - TIE):
        return 1
    return -1 if y < x * (1 - TIE) else 0


def crossovers(best: dict, order: list) -> list:
    """Every pair of schemes (registry order) whose best ns/key swap order
    between two consecutive N both measured, each ahead by more than TIE on
    its side; one Crossover per swap."""
    out = []
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            ns = [n for n, per in best.items() if a in per and b in per]
            for n0, n1 in zip(ns, ns[1:]):
                a0, a1, b0, b1 = best[n0][a], best[n1][a], best[n0][b], best[n1][b]
                if ahead(a0, b0) * ahead(a1, b1) != -1:
                    continue
                below, above = (a, b) if a0 < b0 else (b, a)
                out.append(Crossover(below, above, n0, n1, crossing(n0, n1, a0, a1, b0, b1)))
    return sorted(out, key=lambda c: (c.n_cross, c.cheaper_below, c.cheaper_above))


def build(run: Run, lab: dict) -> Guide:
    """The guide of one run; lab: scheme -> LabRow (schemes without one get none)."""
    rows = rows_of(run)
    for row in rows:
        row.lab = lab.get(row.scheme)
    best = best_by_n(run)
    return Guide(rows, crossovers(best, [r.scheme for r in rows]), best, best_results(run))


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
    """'1,000' of an N; '10^6' of a million."""
    return "10^6" if n == 10 ** 6 else f"{round(n):,}"


LEAVE_TEXT = {"any": "any node", "last": "last bucket only", "none": "no (all keys remap)"}
