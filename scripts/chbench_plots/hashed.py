"""Family "hashed": ns/key with the key strings hashed inside the timed loop,
beside the lookup alone where the same configuration ran without hashing
(hashed.png)."""

from __future__ import annotations

from typing import Optional

from .load import Result, Run
from .numeric import sig3
from .series import split_series
from .style import Style, legend_entries, mark_noisy, new_axes, spread_note

# The families that time the lookup alone, where a hashed run's baseline is.
LOOKUP_FAMILIES = ("nodes", "tokens", "batch", "threads")


def lookup_only(run: Run, r: Result) -> Optional[Result]:
    """The lookup-only result for the same kernel and configuration, if any."""
    for family in LOOKUP_FAMILIES:
        for other in run.family(family):
            if (other.label == r.label and other.nodes == r.nodes and other.keys == r.keys
                    and other.threads == r.threads
                    and (not r.takes_vnodes or other.vnodes == r.vnodes)):
                return other
    return None


def figure(run: Run, figure_cls, style: Style):
    """hashed.png: bars of ns/key with hashing, beside lookup only where measured."""
    results = run.family("hashed")
    if not results:
        return None
    split = split_series(results, "keys", set())
    fig, ax = new_axes(figure_cls, "Key hashing included: cost per key",
                       f"{split.subtitle()}; {spread_note(results, 'bars')}")
    labels = [r.label + ("" if len(results) == len({x.label for x in results})
                         else f" (N={r.nodes}, K={r.keys})") for r in results]
    ys = list(range(len(results)))[::-1]
    height = 0.38
    for y, r, label in zip(ys, results, labels):
        color = style.kw(r.label, r.scheme)["color"]
        err = None
        if r.ns_lo is not None:
            err = [[r.ns - r.ns_lo], [r.ns_hi - r.ns]]
        ax.barh(y + height / 2, r.ns, height=height, color=color, xerr=err, capsize=3,
                label="hash + lookup" if y == ys[0] else None)
        mark_noisy(ax, [r.ns], [y + height / 2], [r], color)
        base = lookup_only(run, r)
        if base is not None:
            ax.barh(y - height / 2, base.ns, height=height, color=color, alpha=0.35,
                    hatch="//", label="lookup only" if y == ys[0] else None)
    values = [r.ns for r in results]
    if max(values) / min(values) > 20:
        ax.set_xscale("log")
    for y, r in zip(ys, results):
        ax.annotate(f"{sig3(r.ns)} ns", (r.ns_hi or r.ns, y + height / 2), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=9)
    log_note = ", log scale" if ax.get_xscale() == "log" else ""
    unpaired = sum(1 for r in results if lookup_only(run, r) is None)
    ax.set_xlabel(f"time per key [ns] (median{log_note})"
                  + ("\nno pale bar: no lookup-only run at the same N and K in this run"
                     if 0 < unpaired < len(results) else ""))
    ax.grid(False, axis="y")
    ax.legend(*legend_entries([ax]), fontsize=9)
    return fig
