"""Family "nodes": every scheme against the node count (schemes_nodes.png),
and where rendezvous stops being cheaper than the fastest ring kernel."""

from __future__ import annotations

from dataclasses import dataclass

from .load import Run
from .numeric import crossovers, integer, interpolate_loglog, sig3
from .series import envelope, series_by_label, split_series
from .style import Style, draw_series, new_axes, place_legend, spread_note


def crossing_schemes(run: Run) -> tuple:
    """(searching, scoring): the two schemes whose crossover the family shows,
    from the run's registry: the ring searches its tokens (Registry.ring),
    rendezvous scores every node (Registry.rendezvous). Either is None when the
    run's registry has no such scheme."""
    if run.registry is None:
        return None, None
    return run.registry.ring(), run.registry.rendezvous()


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


def analyse(run: Run) -> NodesAnalysis:
    """Finds where HRW's ns/key passes the best ring kernel's, per (V, K, threads)."""
    analysis = NodesAnalysis([], [])
    groups: dict = {}
    for r in run.family("nodes"):
        groups.setdefault((r.keys, r.threads), {}).setdefault(r.scheme, []).append(r)
    searching, scoring = crossing_schemes(run)
    if groups and (searching is None or scoring is None):
        analysis.notes.append("the run's registry marks no ring (a scheme taking vnodes) "
                              "or no plain rendezvous (scoring every node, unweighted)")
        return analysis
    for (keys, threads), by_scheme in sorted(groups.items(), key=lambda kv: str(kv[0])):
        ring = by_scheme.get(searching, [])
        hrw = by_scheme.get(scoring, [])
        group = f"K = {integer(keys)}, threads = {threads}"
        if not ring or not hrw:
            analysis.notes.append(f"{group}: needs both {searching} and {scoring} results")
            continue
        for v in sorted({r.vnodes for r in ring}):
            sub = group + (f", V = {integer(v)}" if v is not None else "")
            compare(analysis, sub, [r for r in ring if r.vnodes == v], hrw)
    return analysis


def compare(analysis: NodesAnalysis, sub: str, ring: list, hrw: list) -> None:
    """The crossovers (or why there is none) of one group's lower envelopes."""
    xs_r, ys_r, lab_r = envelope(series_by_label(ring, "nodes"), "nodes")
    xs_h, ys_h, lab_h = envelope(series_by_label(hrw, "nodes"), "nodes")
    xs = sorted(set(xs_r) & set(xs_h))
    if len(xs) < 2:
        analysis.notes.append(f"{sub}: fewer than two node counts with both "
                              f"{ring[0].scheme} and {hrw[0].scheme}")
        return
    ring_ns = [ys_r[xs_r.index(x)] for x in xs]
    hrw_ns = [ys_h[xs_h.index(x)] for x in xs]
    found = crossovers(xs, hrw_ns, ring_ns)
    if not found:
        faster = "rendezvous" if hrw_ns[0] < ring_ns[0] else "the best ring kernel"
        analysis.notes.append(f"{sub}: no crossover between N = {integer(xs[0])} and "
                              f"N = {integer(xs[-1])}; {faster} is faster throughout")
    for n, hrw_below in found:
        i = max(j for j in range(len(xs)) if xs[j] <= n)
        j = min(i + 1, len(xs) - 1)
        ring_label = lab_r[xs_r.index(xs[j if hrw_below else i])]
        hrw_label = lab_h[xs_h.index(xs[i])]
        analysis.crossovers.append(Crossover(n, hrw_below, ring_label, hrw_label,
                                             interpolate_loglog(xs, ring_ns, n), sub))


def figure(run: Run, figure_cls, style: Style, analysis: NodesAnalysis):
    """schemes_nodes.png: ns/key vs N for every scheme, log-log, crossover marked."""
    results = run.family("nodes")
    if not results:
        return None
    split = split_series(results, "nodes", {"tokens"})
    fig, ax = new_axes(figure_cls, "Every scheme: cost per key vs node count",
                       f"{split.subtitle()}; {spread_note(results, 'band')}")
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
    return fig


def report_lines(analysis: NodesAnalysis) -> list:
    """The Ratios subsection on the crossover."""
    lines = ["### Ring vs rendezvous crossover (family `nodes`)", "",
             "Node count where rendezvous (HRW) costs as much per key as the fastest ring "
             "kernel at that N, interpolated on the log-log curves.", ""]
    for c in analysis.crossovers:
        hrw, ring = "rendezvous", "the ring"
        before, after = (hrw, ring) if c.hrw_below_before else (ring, hrw)
        lines.append(f"- {c.group}: **N ≈ {sig3(c.nodes)}** (≈ {sig3(c.ns)} ns/key); "
                     f"below it {before} is faster, above it {after} "
                     f"(`{c.hrw_label}` vs `{c.ring_label}`).")
    for note in analysis.notes:
        lines.append(f"- {note}.")
    if not analysis.crossovers and not analysis.notes:
        lines.append("No `nodes` results in this run.")
    return lines + [""]
