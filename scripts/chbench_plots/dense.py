"""Family "dense": jump hash and its successors (the schemes that place keys
by the bucket count alone and let only the last bucket leave) at N = 2^k - 1,
2^k and 2^k + 1, N = 1,000 and 10^6: jump_family.png, and the report's
section on them (each kernel at the N the speed goals name, its worst and
best N, and each SIMD kernel's speed-up over its scalar rival).

Which schemes belong to the family and which scalar kernel a SIMD kernel is
measured against come from the run (the bench's family and the registry's
`rival`), so a scheme added to the library is drawn with no edit here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional

from . import floors
from .load import Result, Run
from .node_points import node_points
from .numeric import cv_cell, integer, sig3
from .series import series_by_label, split_series
from .style import (Style, draw_series, machine_line, new_axes, place_legend, plain_log_y,
                    spread_note)

FAMILY = "dense"
# The N the speed goals name (goals.toml), shown in the report's table.
GOAL_NODES = (1_000, 1_000_000)
# Powers of two: light vertical lines; the labelled ticks every few of them.
POWER_LINE = {"color": "0.55", "linewidth": 0.7, "alpha": 0.45, "zorder": 0}
MAX_X_LABELS = 11


@dataclass
class KernelRow:
    """One kernel of the family: its figures at GOAL_NODES, its worst and best N."""

    label: str
    at: dict  # N of GOAL_NODES -> Result (missing: not measured)
    worst: Result  # highest median ns/key over every N (ties: the smallest N)
    best: Result  # lowest
    count: int  # N measured
    over_floor: dict = field(default_factory=dict)  # N of GOAL_NODES -> ÷ the compute floor


@dataclass
class SimdRow:
    """A SIMD kernel of the family beside its registry rival at GOAL_NODES."""

    label: str
    rival: str
    target: str  # the Highway target its runs report ('' unknown)
    at: dict  # N -> (rival Result, SIMD Result), where both ran

    def speedup(self, n: int) -> Optional[float]:
        """Rival ns/key ÷ SIMD ns/key at N = n."""
        pair = self.at.get(n)
        return pair[0].ns / pair[1].ns if pair else None


@dataclass
class DenseAnalysis:
    """What the report's section on family "dense" prints."""

    kernels: list = field(default_factory=list)  # of KernelRow, in the family's order (no floor)
    simd: list = field(default_factory=list)  # of SimdRow
    nodes: list = field(default_factory=list)  # every N measured, ascending
    keys: list = field(default_factory=list)  # every K measured
    unmeasured: list = field(default_factory=list)  # registry schemes of the family absent


def family_results(run: Run) -> list:
    """The family's one-thread results as Highway's dispatch runs them."""
    return [r for r in run.family(FAMILY) if not r.forced_target and (r.threads or 1) == 1
            and r.nodes]


def analyse(run: Run) -> DenseAnalysis:
    """Each kernel's row and each SIMD kernel's speed-ups."""
    results = family_results(run)
    out = DenseAnalysis(nodes=sorted({r.nodes for r in results}),
                        keys=sorted({r.keys for r in results if r.keys}))
    index = floors.by_point(results)
    for s in series_by_label(results, "nodes"):
        if s.points[0].is_floor:
            continue
        by_n = {p.nodes: p for p in s.points}
        at = {n: by_n[n] for n in GOAL_NODES if n in by_n}
        over = {n: floors.ratio(r, "compute", index) for n, r in at.items()}
        # max/min keep the first of equal medians: points ascend in N.
        out.kernels.append(KernelRow(s.label, at, max(s.points, key=lambda p: p.ns),
                                     min(s.points, key=lambda p: p.ns), len(s.points),
                                     {n: v for n, v in over.items() if v is not None}))
    if run.registry is None:
        return out
    measured = {r.scheme for r in results}
    out.unmeasured = [s.name for s in run.registry.jump_family() if s.name not in measured]
    rows: dict = {}
    for point in node_points(run, FAMILY):
        if point.nodes not in GOAL_NODES:
            continue
        for r in point.kernels.values():
            rival = run.registry.rival(r.label)
            if rival is None:
                continue
            row = rows.setdefault(r.label, SimdRow(r.label, rival, r.hwy_label or "", {}))
            if rival in point.kernels:
                row.at.setdefault(point.nodes, (point.kernels[rival], r))
    out.simd = list(rows.values())
    return out


def power_name(n: int) -> str:
    """'2^20 + 1' for N = 1,048,577 (2^k and 2^k ± 1, k ≥ 2); '' otherwise."""
    k = round(math.log2(n)) if n > 0 else 0
    if k < 2:
        return ""
    return {0: f"2^{k}", -1: f"2^{k} - 1", 1: f"2^{k} + 1"}.get(n - 2 ** k, "")


def n_text(n: int) -> str:
    """'1,048,577 (2^20 + 1)', or the number alone."""
    name = power_name(n)
    return f"{integer(n)} ({name})" if name else integer(n)


def ns_cell(r: Optional[Result]) -> str:
    """A median ns/key, marked where the bench flagged it noisy."""
    if r is None:
        return "–"
    return sig3(r.ns) + (" **noisy**" if r.noisy else "")


def section(analysis: DenseAnalysis) -> list:
    """The report's section: one row per kernel, then the SIMD speed-ups."""
    lines = ["## Jump family (family `dense`)", ""]
    if not analysis.kernels:
        return lines + [f"No `{FAMILY}` results in this run."
                        + unmeasured_text(analysis), ""]
    nodes = analysis.nodes
    keys = ", ".join(integer(k) for k in analysis.keys) or "?"
    lines += ["The schemes that place keys by the bucket count alone and let only the last "
              "bucket leave (jump hash and its successors), one thread, K = " + keys + ", "
              f"SIMD kernels as Highway's dispatch runs them; {len(nodes)} N from "
              f"{integer(nodes[0])} to {integer(nodes[-1])} (2^k - 1, 2^k, 2^k + 1, and "
              "1,000 and 10^6, where the speed goals are stated). Worst and best N: where the "
              "kernel's median ns/key is highest and lowest over every N of the family in "
              "this run (of equal medians, the smallest N). **noisy**: a configuration the "
              "bench flagged (see Noise)." + unmeasured_text(analysis) + floor_text(analysis),
              ""]
    with_floor = any(row.over_floor for row in analysis.kernels)
    head = ["kernel"]
    for n in GOAL_NODES:
        head += [f"N = {integer(n)} ns/key", "CV %"] + (["× compute floor"] if with_floor else [])
    head += ["worst N", "ns/key", "best N", "ns/key", "N measured"]
    lines += ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for row in analysis.kernels:
        cells = [f"`{row.label}`"]
        for n in GOAL_NODES:
            cells += [ns_cell(row.at.get(n)), cv_cell(row.at.get(n))]
            if with_floor:
                cells.append(f"{sig3(row.over_floor[n])}×" if n in row.over_floor else "–")
        cells += [n_text(row.worst.nodes), ns_cell(row.worst), n_text(row.best.nodes),
                  ns_cell(row.best), str(row.count)]
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""] + simd_lines(analysis)


def floor_text(analysis: DenseAnalysis) -> str:
    """What the "× compute floor" columns are, where the run has them."""
    if not any(row.over_floor for row in analysis.kernels):
        return ""
    return (" × compute floor: the kernel's median ns/key ÷ the compute floor's at the same "
            "N (one multiply-xorshift and a multiply-shift into [0, N) a key, keys in lanes: "
            "the cheapest hash-then-bucket, the bound for these O(1) schemes).")


def unmeasured_text(analysis: DenseAnalysis) -> str:
    """' Not measured: `power`, ... (in the registry, no results).' or ''."""
    if not analysis.unmeasured:
        return ""
    names = ", ".join(f"`{s}`" for s in analysis.unmeasured)
    return f" Not measured: {names} (in the run's registry, no `{FAMILY}` results)."


def simd_lines(analysis: DenseAnalysis) -> list:
    """Each SIMD kernel's speed-up over its rival at GOAL_NODES."""
    at = " and ".join(integer(n) for n in GOAL_NODES)
    lines = [f"### SIMD ÷ scalar rival (family `{FAMILY}`, N = {at})", ""]
    if not analysis.simd:
        return lines + ["No SIMD kernel with a scalar rival at these N in this run.", ""]
    lines += ["Speed-up = median ns/key of the scalar rival the run's kernel registry names "
              "÷ median ns/key of the SIMD kernel, at the same N (above 1: SIMD is faster; the "
              "goals under Goals judge them).", "",
              "| SIMD kernel | rival | target | " + " | ".join(
                  f"speed-up at N = {integer(n)}" for n in GOAL_NODES) + " |",
              "|---|---|---|" + "---:|" * len(GOAL_NODES)]
    for row in analysis.simd:
        cells = [f"`{row.label}`", f"`{row.rival}`", row.target or "?"]
        for n in GOAL_NODES:
            speedup = row.speedup(n)
            noisy = any(r.noisy for r in row.at.get(n, ()))
            cells.append("–" if speedup is None
                         else f"{sig3(speedup)}×" + (" **noisy**" if noisy else ""))
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


# The widest step in N a line is drawn across: the full sweep's neighbouring
# powers of two are 2x apart; the quick sweep's clusters (2^10 and 2^20) are
# drawn apart, with no line through N never measured.
MAX_DRAWN_GAP = 4.0


def figure(run: Run, figure_cls, style: Style):
    """jump_family.png: ns/key against N, log2 x with the powers of two
    marked, one line per kernel; None without family "dense"."""
    results = family_results(run)
    if not results:
        return None
    split = split_series(results, "nodes", {"tokens"})
    targets = sorted({r.hwy_label for r in results if r.hwy_label})
    fig, ax = new_axes(
        figure_cls, "Jump hash and its successors: cost per key vs bucket count N",
        f"{split.subtitle()}; {machine_line(run.context)}; SIMD kernels as dispatched "
        f"({' / '.join(targets) or 'no SIMD target recorded'})\n"
        f"{spread_note(results, 'band')}; grey lines: powers of two "
        "(points at 2^k - 1, 2^k, 2^k + 1)" + floor_line(results))
    # Wider and taller than the other plots: a dozen lines with a step at
    # each of some thirty powers of two.
    fig.set_size_inches(10.5, 6.4)
    for s in split.series:
        draw_series(ax, s, lambda p: p.nodes, style, gap=MAX_DRAWN_GAP, markersize=3,
                    linewidth=1.3)
    nodes = [r.nodes for r in results]
    x_axis(ax, min(nodes), max(nodes))
    # Log y: the kernels span about 0.5 to 100 ns per key. On a linear axis the
    # SIMD kernels (and the 1 ns goal) would be squeezed into the bottom few
    # pixels, their sawtooth between powers of two invisible; on a log axis
    # every kernel reads as well, and a speed-up (what the goals judge) is the
    # same distance everywhere. Jump's O(log N) then bends upward gently
    # instead of rising straight, still plainly apart from its flat successors.
    ax.set_yscale("log")
    plain_log_y(ax)
    ax.set_ylabel("time per key [ns] (median, log scale)")
    ax.plot([], [], label="power of two", **{k: v for k, v in POWER_LINE.items()
                                             if k != "zorder"})
    place_legend(ax, "scheme/kernel")
    return fig


def floor_line(results: list) -> str:
    """The subtitle's last line on the floors drawn ('\ngrey: compute floor
    (short dashes)'), or ''."""
    text = floors.subtitle(results)
    return "\n" + text.removeprefix("; ") if text else ""


def x_axis(ax, low: int, high: int) -> None:
    """Log2 x from low to high N: a light line at every power of two, ticks
    labelled 2^k every few of them."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    ax.set_xscale("log", base=2)
    ax.set_xlim(low / 1.4, high * 1.4)
    ks = list(range(max(1, math.floor(math.log2(low / 1.4)) + 1),
                    math.floor(math.log2(high * 1.4)) + 1))
    ax.grid(False, axis="x", which="both")
    for k in ks:
        ax.axvline(2.0 ** k, **POWER_LINE)
    step = max(1, math.ceil(len(ks) / MAX_X_LABELS))
    labelled = [k for k in ks if k % step == 0] or ks[:1]
    ax.xaxis.set_major_locator(FixedLocator([2.0 ** k for k in labelled]))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"$2^{{{round(math.log2(v))}}}$"))
    ax.set_xlabel("buckets N (log scale; grey lines at the powers of two)")
