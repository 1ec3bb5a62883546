"""Family "bounded": the ring's default kernel with bounded loads (balance
factor c) beside the same kernel without them, one group of bars per thread
count (bounded.png), and the report's table of each c's cost over the plain
lookup."""

from __future__ import annotations

from typing import Optional

from .load import Run
from .numeric import sig3
from .style import mark_noisy, new_axes, ramp_colors, spread_note


def groups(run: Run) -> dict:
    """{(kernel label, threads): {c or None (no bound): Result}}, in run order."""
    out: dict = {}
    for r in run.family("bounded"):
        out.setdefault((r.label, r.threads), {})[r.balance_factor] = r
    return out


def factor_text(c: Optional[float]) -> str:
    """'c = 1.25', or 'no bound' for the plain lookup."""
    return "no bound" if c is None else f"c = {c:g}"


def figure(run: Run, figure_cls, style=None):
    """bounded.png: ns per request, one bar per c beside the plain lookup, one
    group per kernel and thread count; each bounded bar labelled with its
    time ÷ the plain lookup's."""
    found = groups(run)
    if not found:
        return None
    results = run.family("bounded")
    factors = sorted({c for g in found.values() for c in g if c is not None})
    colors = ramp_colors([None] + factors, light=0.8)
    fig, ax = new_axes(figure_cls, "Bounded loads on the ring: cost per request",
                       f"{spread_note(results)}; × = time ÷ the same lookup without a bound")
    width = 0.8 / (len(factors) + 1)
    for i, ((label, threads), bars) in enumerate(found.items()):
        plain = bars.get(None)
        for j, c in enumerate([None] + factors):
            r = bars.get(c)
            if r is None:
                continue
            x = i + (j - len(factors) / 2) * width
            ax.bar(x, r.ns, width=width, color=colors[c], label=factor_text(c) if i == 0 else None)
            mark_noisy(ax, [x], [r.ns], [r], colors[c])
            text = f"{sig3(r.ns)}"
            if c is not None and plain is not None and plain.ns:
                text += f"\n{sig3(r.ns / plain.ns)}×"
            ax.annotate(text, (x, r.ns), xytext=(0, 3), textcoords="offset points",
                        ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(found)))
    ax.set_xticklabels([f"{label}\n{threads} thread{'s' if threads != 1 else ''}"
                        for label, threads in found])
    ax.set_ylim(bottom=0)
    ax.set_ylabel("time per request [ns] (median)")
    ax.grid(False, axis="x")
    ax.legend(fontsize=9, title="balance factor")
    return fig


def section(run: Run) -> list:
    """The report's "Bounded loads" table: each c's ns per request and its
    ratio over the plain lookup, per kernel and thread count; [] without the
    family."""
    found = groups(run)
    if not found:
        return []
    factors = sorted({c for g in found.values() for c in g if c is not None})
    lines = ["## Bounded loads", "",
             "Family `bounded`: ns per request with bounded loads (each batch one stream of K "
             "requests, capacity ⌈c K / N⌉ a node), and ÷ the same lookup without a bound.",
             "",
             "| kernel | threads | no bound | " + " | ".join(factor_text(c) for c in factors)
             + " |", "|---|---:|---:|" + "---:|" * len(factors)]
    for (label, threads), bars in found.items():
        plain = bars.get(None)
        cells = []
        for c in factors:
            r = bars.get(c)
            ratio = f" ({sig3(r.ns / plain.ns)}×)" if r and plain and plain.ns else ""
            cells.append(f"{sig3(r.ns)}{ratio}" if r else "–")
        lines.append(f"| `{label}` | {threads} | {sig3(plain.ns) if plain else '–'} | "
                     + " | ".join(cells) + " |")
    return lines + [""]
