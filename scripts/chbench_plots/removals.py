"""Family "removals": lookups after a share of the fleet left (removed
fraction 0 to 0.9, N = 1,000 and 10^6): removals.png (ns/key against the
removed fraction, one panel per N, one line per kernel), removals_memory.png
(the table's bytes against N), and the report's section on them (each
kernel's ns/key at every fraction; at the largest fraction its bytes, build
time and the rebuilds after one more removal and one re-add).

Which schemes are in the family, and in which removal order, come from the
run (the bench's names: `/removed:<percent>/order:<order>`), so a scheme
added to the library is drawn with no edit here. Kernels removed in an order
other than random (jump hash and its successors: LIFO) are labelled so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .load import Result, Run
from .numeric import binary_size, integer, sig3
from .series import Series
from .style import (Style, draw_series, machine_line, new_axes, new_panels, place_legend,
                    plain_log_y, shared_legend, spread_note)

FAMILY = "removals"


def family_results(run: Run) -> list:
    """The family's one-thread results as Highway's dispatch runs them."""
    return [r for r in run.family(FAMILY) if not r.forced_target and (r.threads or 1) == 1
            and r.nodes and r.removed_pct is not None]


@dataclass
class KernelLine:
    """One kernel (with its removal order) at one N: its results by removed
    percent, ascending."""

    label: str  # Result.order_label: `scheme/kernel`, `scheme/kernel (LIFO)`
    scheme: str
    nodes: int
    points: list  # of Result

    def at(self, percent: float) -> Optional[Result]:
        """The result at `percent` removed, if measured."""
        return next((p for p in self.points if p.removed_pct == percent), None)


@dataclass
class RemovalsAnalysis:
    """What the report's section on family "removals" prints."""

    lines: list = field(default_factory=list)  # of KernelLine: by kernel, then N
    percents: list = field(default_factory=list)  # every removed percent measured
    nodes: list = field(default_factory=list)  # every N measured
    keys: list = field(default_factory=list)  # every K measured


def analyse(run: Run) -> RemovalsAnalysis:
    """Each kernel's line at each N."""
    results = family_results(run)
    out = RemovalsAnalysis(percents=sorted({r.removed_pct for r in results}),
                           nodes=sorted({r.nodes for r in results}),
                           keys=sorted({r.keys for r in results if r.keys}))
    groups: dict = {}
    for r in results:  # in Result.sort_key order: schemes, kernels, then N
        key = (r.order_label, r.nodes)
        groups.setdefault(key, KernelLine(r.order_label, r.scheme, r.nodes, [])).points.append(r)
    for line in groups.values():
        line.points.sort(key=lambda p: p.removed_pct)
    out.lines = sorted(groups.values(), key=lambda g: (g.points[0].sort_key()[:3], g.nodes))
    return out


def percent_text(percent: float) -> str:
    """'50 %', '12.5 %'."""
    return f"{percent:g} %"


def ns_cell(r: Optional[Result]) -> str:
    """A median ns/key, marked where the bench flagged it noisy."""
    if r is None:
        return "–"
    return sig3(r.ns) + (" **noisy**" if r.noisy else "")


def section(analysis: RemovalsAnalysis) -> list:
    """The report's section: ns/key at every fraction, then the largest
    fraction's bytes, build and rebuild times."""
    lines = [f"## Removals (family `{FAMILY}`)", ""]
    if not analysis.lines:
        return lines + [f"No `{FAMILY}` results in this run.", ""]
    keys = ", ".join(integer(k) for k in analysis.keys) or "?"
    lines += ["Lookups after a share of the N nodes left, one thread, K = " + keys + ", SIMD "
              "kernels as Highway's dispatch runs them. The schemes that let any node leave "
              "lose theirs in a seeded random order (the ring, rendezvous and Maglev are "
              "rebuilt from the survivors; the others replay the fleet's history); those that "
              "let only the last node leave (marked LIFO) lose the last ones first. "
              "**noisy**: a configuration the bench flagged (see Noise).", ""]
    head = ["kernel", "N"] + [f"{percent_text(p)} removed ns/key" for p in analysis.percents]
    lines += ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for line in analysis.lines:
        cells = [f"`{line.label}`", integer(line.nodes)]
        cells += [ns_cell(line.at(p)) for p in analysis.percents]
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""] + cost_lines(analysis)


def cost_lines(analysis: RemovalsAnalysis) -> list:
    """At the largest removed fraction: ns/key, bytes, build ms, and the
    rebuilds after one more removal and one re-add."""
    top = analysis.percents[-1]
    lines = [f"### At {percent_text(top)} removed: memory, build and rebuild (family "
             f"`{FAMILY}`)", "",
             "Memory: the table's bytes (`memory_bytes`). Build: the table from the fleet, "
             "once. Remove and re-add: the table built again over the fleet with one more "
             "node removed and with the last removed node back (tables are immutable, so "
             "each change is a rebuild; incremental updates are not modelled).", "",
             "| kernel | N | ns/key | memory | build ms | remove µs | re-add µs |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for line in analysis.lines:
        r = line.at(top)
        if r is None:
            continue
        lines.append(f"| `{line.label}` | {integer(line.nodes)} | {ns_cell(r)} | "
                     f"{binary_size(r.memory_bytes)} | {sig3(r.build_ms)} | "
                     f"{sig3(r.remove_us)} | {sig3(r.readd_us)} |")
    return lines + [""]


def series_at(line: KernelLine) -> Series:
    """A KernelLine as a plot Series (x: the removed fraction)."""
    return Series(line.label, line.scheme, line.points)


def figure(run: Run, figure_cls, style: Style):
    """removals.png: ns/key against the removed fraction, one panel per N,
    one line per kernel; None without family "removals"."""
    analysis = analyse(run)
    if not analysis.lines:
        return None
    results = family_results(run)
    keys = ", ".join(integer(k) for k in analysis.keys)
    fig, axes = new_panels(
        figure_cls, len(analysis.nodes),
        "Lookup cost after removals: ns/key vs share of the nodes removed\n"
        f"K = {keys}, 1 thread; {machine_line(run.context)}; "
        f"{spread_note(results, 'band')}; random removal order, LIFO where marked", width=5.0)
    for ax, n in zip(axes, analysis.nodes):
        for line in (g for g in analysis.lines if g.nodes == n):
            draw_series(ax, series_at(line), lambda p: p.removed_pct / 100, style,
                        markersize=4, linewidth=1.4)
        ax.set_title(f"N = {integer(n)}", fontsize=10)
        ax.set_xlabel("share of the N nodes removed")
        ax.set_xlim(-0.03, 0.93)
        ax.set_yscale("log")
    plain_log_y(axes[0])
    axes[0].set_ylabel("time per key [ns] (median, log scale)")
    shared_legend(axes, "scheme/kernel")
    return fig


def memory_percent(run: Run) -> Optional[float]:
    """The removed percent the memory plot is drawn at: the one with a table
    of some bytes at the most (kernel, N), of equal counts the largest (the
    full sweep measures every percent at every N; the quick one the most at
    90 %)."""
    counts: dict = {}
    for r in family_results(run):
        if r.memory_bytes:
            counts.setdefault(r.removed_pct, set()).add((r.order_label, r.nodes))
    if not counts:
        return None
    return max(counts, key=lambda p: (len(counts[p]), p))


def memory_series(run: Run, percent: float) -> list:
    """Per kernel (with its order), its bytes at each N at `percent` removed,
    ascending in N; kernels without a table of some bytes left out."""
    groups: dict = {}
    for r in sorted(family_results(run), key=lambda r: (r.sort_key()[:3], r.nodes)):
        if r.memory_bytes and r.removed_pct == percent:
            groups.setdefault(r.order_label, Series(r.order_label, r.scheme, [])).points.append(r)
    return list(groups.values())


def memory_figure(run: Run, figure_cls, style: Style):
    """removals_memory.png: the table's bytes against N, log-log, one line
    per kernel at one removed percent (memory_percent); None without family
    "removals" or without a table of any bytes."""
    percent = memory_percent(run)
    if percent is None:
        return None
    fig, ax = new_axes(figure_cls, "After removals: memory of the lookup structure vs node "
                       "count N", f"at {percent_text(percent)} of the N nodes removed; kernels "
                       "that hold no table (0 bytes) are not drawn")
    for s in memory_series(run, percent):
        xs = [p.nodes for p in s.points]
        ys = [p.memory_bytes for p in s.points]
        ax.plot(xs, ys, label=style.legend(s.label), **style.kw(s.label, s.scheme))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("initial nodes N (log scale)")
    ax.set_ylabel("memory_bytes (log scale)")
    place_legend(ax, "scheme/kernel", outside=True)
    return fig
