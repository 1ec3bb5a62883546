"""Family "replicas": the cost of a key's replica set (R distinct owners in
preference order, Dynamo's preference list: DeCandia et al., SOSP 2007,
section 4.3) against R, one panel per scheme and ring (N, V), each point
labelled with its ns/key ÷ the same kernel's at R = 1 (replicas.png)."""

from __future__ import annotations

from typing import Optional

from .load import Result, Run
from .numeric import integer, sig3
from .style import DPI, Style, draw_grid, mark_noisy, spread_note

# One panel's size in inches.
PANEL_WIDTH, PANEL_HEIGHT = 4.6, 5.2


def panels(results: list) -> dict:
    """(scheme, N, V) -> {kernel label: [Result ascending in R]}; V only
    where the scheme takes it (ring tokens), None elsewhere."""
    out: dict = {}
    for r in results:
        if not r.replicas or (r.threads or 1) != 1 or r.forced_target:
            continue
        key = (r.scheme, r.nodes, r.vnodes if r.takes_vnodes else None)
        out.setdefault(key, {}).setdefault(r.label, []).append(r)
    for lines in out.values():
        for points in lines.values():
            points.sort(key=lambda p: p.replicas)
    rank = {r.scheme: r.scheme_rank for r in results}
    return dict(sorted(out.items(), key=lambda kv: (rank[kv[0][0]], kv[0][1] or 0)))


def cost_ratio(points: list, r: Result) -> Optional[float]:
    """r's ns/key ÷ the ns/key at R = 1 of the same kernel and ring (points:
    one kernel's results at one N and V); None without R = 1."""
    base = next((p for p in points if p.replicas == 1), None)
    return r.ns / base.ns if base is not None and base.ns else None


def point_label(points: list, r: Result) -> str:
    """'30.9 ns' at R = 1, else r's cost ratio to R = 1 ('1.24×'); '' when
    the kernel has no R = 1 on this ring."""
    if r.replicas == 1:
        return f"{sig3(r.ns)} ns"
    ratio = cost_ratio(points, r)
    return f"{sig3(ratio)}×" if ratio is not None else ""


def panel_title(key: tuple) -> str:
    """'ring, N = 1,000, V = 100 (100,000 tokens)' or 'hrw, N = 100'."""
    scheme, n, v = key
    text = f"{scheme}, N = {integer(n)}"
    return text + (f", V = {integer(v)} ({integer(n * v)} tokens)" if v and n else "")


def draw_panel(ax, lines: dict, style: Style) -> None:
    """Every kernel of one panel: ns/key against R, its spread as a band,
    noisy points hollow, each point's cost ratio to R = 1 above it."""
    for label, points in lines.items():
        kw = style.kw(label, points[0].scheme)
        xs, ys = [p.replicas for p in points], [p.ns for p in points]
        ax.plot(xs, ys, label=label, **kw)
        mark_noisy(ax, xs, ys, points, kw["color"], kw["marker"], kw["markersize"])
        if all(p.ns_lo is not None for p in points):
            ax.fill_between(xs, [p.ns_lo for p in points], [p.ns_hi for p in points],
                            color=kw["color"], alpha=0.18, linewidth=0)
        for p in points:
            text = point_label(points, p)
            if text:
                ax.annotate(text, (p.replicas, p.ns), xytext=(0, 6), textcoords="offset points",
                            ha="center", va="bottom", fontsize=8, color=kw["color"])


def figure(run: Run, figure_cls, style: Style):
    """replicas.png: one panel per scheme and ring, ns/key (log y) against
    R; None without family "replicas" results that carry R."""
    results = run.family("replicas")
    groups = panels(results)
    if not groups:
        return None
    fig = figure_cls(figsize=(PANEL_WIDTH * len(groups) + 1.0, PANEL_HEIGHT), dpi=DPI,
                     constrained_layout=True)
    axes = list(fig.subplots(1, len(groups), sharey=True, squeeze=False)[0])
    fig.suptitle("Replica sets: cost per key against R distinct owners\n"
                 f"{spread_note(results, 'band')}; × = ns/key ÷ the same kernel's "
                 "at R = 1", fontsize=11)
    rs = sorted({p.replicas for lines in groups.values() for ps in lines.values() for p in ps})
    for ax, (key, lines) in zip(axes, groups.items()):
        draw_grid(ax)
        draw_panel(ax, lines, style)
        ax.set_title(panel_title(key), fontsize=10)
        ax.set_yscale("log")
        ax.set_xticks(rs)
        ax.set_xlabel("replicas R (distinct owners per key)")
        ax.margins(x=0.12, y=0.15)
        ax.legend(fontsize=8, loc="lower right")
    axes[0].set_ylabel("time per key [ns] (median, log scale)")
    return fig
