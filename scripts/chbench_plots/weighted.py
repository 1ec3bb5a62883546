"""Family "weighted": weighted rendezvous' kernels over nodes of weights
1 + n mod 4, one group of bars per N, each SIMD bar labelled with its
speed-up over its scalar rival in the same run (weighted.png)."""

from __future__ import annotations

from typing import Optional

from .load import Run
from .numeric import sig3
from .style import Style, mark_noisy, new_axes, spread_note


def speedup(run: Run, r, results: list) -> Optional[float]:
    """Rival ns/key ÷ r's ns/key at r's N, when the registry names a rival
    measured there."""
    rival = run.registry.rival(r.label) if run.registry else None
    base = next((x for x in results if x.label == rival and x.nodes == r.nodes), None)
    return base.ns / r.ns if base is not None and r.ns else None


def figure(run: Run, figure_cls, style: Style):
    """weighted.png: ns/key per kernel at each N (log y), SIMD ÷ scalar above."""
    results = run.family("weighted")
    if not results:
        return None
    fig, ax = new_axes(figure_cls, "Weighted rendezvous: cost per key (weights 1 + n mod 4)",
                       f"{spread_note(results)}; × = speed-up over the scalar rival")
    ns = sorted({r.nodes for r in results})
    labels = list(dict.fromkeys(r.label for r in results))
    width = 0.8 / len(labels)
    for j, label in enumerate(labels):
        for i, n in enumerate(ns):
            r = next((x for x in results if x.label == label and x.nodes == n), None)
            if r is None:
                continue
            x = i + (j - (len(labels) - 1) / 2) * width
            color = style.kw(r.label, r.scheme)["color"]
            ax.bar(x, r.ns, width=width, color=color, label=label if i == 0 else None)
            mark_noisy(ax, [x], [r.ns], [r], color)
            up = speedup(run, r, results)
            text = f"{sig3(r.ns)} ns" + (f"\n{sig3(up)}×" if up is not None else "")
            ax.annotate(text, (x, r.ns), xytext=(0, 3), textcoords="offset points",
                        ha="center", va="bottom", fontsize=8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(ns)))
    ax.set_xticklabels([f"N = {n:,}" for n in ns])
    ax.set_ylabel("time per key [ns] (median, log scale)")
    ax.grid(False, axis="x")
    ax.legend(fontsize=9)
    return fig
