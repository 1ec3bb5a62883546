"""Family "nodes", one line a scheme (schemes_best_nodes.png): at each node
count the fastest kernel of each scheme, so that sixteen schemes read apart
where the all-kernels view (schemes_nodes.png) draws some forty lines."""

from __future__ import annotations

from .load import Run
from .palette import color
from .style import broken, mark_noisy, new_axes, place_legend, spread_note

# One marker a scheme, in registry order; "X" is left to the crossover mark.
MARKERS = "osD^v<>ph*Pd8H+x"
# The widest step in N a line is drawn across (the quick sweep measures no N
# between 10^3 and 10^6: its points there stand alone).
MAX_DRAWN_GAP = 30.0


def best_by_scheme(results: list) -> dict:
    """{scheme: [(N, fastest Result of that scheme at N)], N ascending} over
    the one-thread results (the family's other thread counts are left out)."""
    best: dict = {}
    for r in results:
        if r.threads not in (None, 1) or not r.nodes or r.ns is None:
            continue
        at = best.setdefault(r.scheme, {})
        if r.nodes not in at or r.ns < at[r.nodes].ns:
            at[r.nodes] = r
    return {s: sorted(at.items()) for s, at in best.items()}


def figure(run: Run, figure_cls, style):
    """schemes_best_nodes.png: the fastest kernel's ns/key of each scheme vs N,
    log-log, a colour and a marker a scheme; None without family "nodes"."""
    results = run.family("nodes")
    best = best_by_scheme(results)
    if not best:
        return None
    rank = {s: min(r.scheme_rank for _, r in best[s]) for s in best}
    order = sorted(best, key=rank.get)
    palette = {s: color(rank[s]) for s in order}
    fig, ax = new_axes(figure_cls, "Each scheme's fastest kernel: cost per key vs node count",
                       f"one thread; {spread_note(results, 'band')}")
    for i, scheme in enumerate(order):
        xs = [n for n, _ in best[scheme]]
        points = [r for _, r in best[scheme]]
        ys = [r.ns for r in points]
        marker = MARKERS[i % len(MARKERS)]
        ax.plot(*broken(xs, ys, MAX_DRAWN_GAP), color=palette[scheme], marker=marker,
                markersize=5, linewidth=1.4, label=scheme)
        mark_noisy(ax, xs, ys, points, palette[scheme], marker, 5)
        if all(r.ns_lo is not None and r.ns_hi is not None for r in points):
            bx, lo = broken(xs, [r.ns_lo for r in points], MAX_DRAWN_GAP)
            _, hi = broken(xs, [r.ns_hi for r in points], MAX_DRAWN_GAP)
            ax.fill_between(bx, lo, hi, color=palette[scheme], alpha=0.08, linewidth=0)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("nodes N")
    ax.set_ylabel("time per key [ns] (median of the fastest kernel)")
    place_legend(ax, "scheme", outside=True)
    return fig
