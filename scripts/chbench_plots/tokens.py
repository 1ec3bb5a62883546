"""Family "tokens": ns/key against ring size (ring_tokens.png), the cache
marks shared with latency.png, and the memory and build-time tables."""

from __future__ import annotations

import statistics

from . import caches, floors
from .load import Run
from .numeric import binary_size, integer, sig3
from .series import Split, split_series
from .style import Style, draw_series, new_axes, place_legend, room_below, spread_note


def figure(run: Run, figure_cls, style: Style):
    """ring_tokens.png: ns/key vs distinct ring tokens, log-log, with the
    floors dashed; None without results."""
    results = [r for r in run.family("tokens") if r.tokens]
    if not results:
        return None
    split = split_series(results, "tokens", {"nodes", "vnodes"})
    fig, ax = new_axes(figure_cls, "Ring lookup: cost per key vs ring size",
                       f"{split.subtitle()}; {spread_note(results, 'band')}"
                       f"{floors.subtitle(results)}")
    if draw_token_sweep(ax, run, split, results, style):
        room_below(ax)
    ax.set_ylabel("time per key [ns] (median)")
    # Lines fill the plot from corner to corner: the legend goes beside it.
    place_legend(ax, "kernel", outside=True)
    return fig


def draw_token_sweep(ax, run: Run, split: Split, results: list, style: Style) -> bool:
    """Series against ring tokens on log-log axes, with the cache marks;
    returns whether there are marks."""
    for s in split.series:
        draw_series(ax, s, lambda p: p.tokens, style)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("distinct ring tokens (N × V)")
    return mark_caches(ax, run, results)



def mark_caches(ax, run: Run, results: list) -> bool:
    """Dotted lines where the ring's lookup structure outgrows each data
    cache; returns whether it drew any."""
    per_token = [r.memory_bytes / r.tokens for r in results if r.memory_bytes and r.tokens]
    if not per_token:
        return False
    drawn = False
    bytes_per_token = statistics.median(per_token)
    lo = min(r.tokens for r in results)
    hi = max(r.tokens for r in results)
    for level, size in caches.data_caches(run.context):
        x = size / bytes_per_token
        if lo <= x <= hi:
            ax.axvline(x, color="0.4", linestyle=":", linewidth=1)
            ax.annotate(f"L{level if level is not None else '?'} {binary_size(size)}", (x, 0.02),
                        xycoords=("data", "axes fraction"), xytext=(-3, 0),
                        textcoords="offset points", rotation=90, ha="right", va="bottom",
                        fontsize=8, color="0.3",
                        bbox={"fc": "white", "ec": "none", "alpha": 0.8, "pad": 1})
            drawn = True
    return drawn


def memory_lines(points: list) -> list:
    """Bytes per token and build time per kernel and ring, family "tokens"."""
    lines = ["### Memory and build time per kernel (family `tokens`)", "",
             "Bytes per token = the kernel's lookup structure ÷ ring tokens (`bytes_per_token`); "
             "build = milliseconds to build it from the node list (`build_ms`), timed once per "
             "configuration, so without a spread.", ""]
    labels = list(dict.fromkeys(label for p in points for label, r in p.kernels.items()
                                if not r.is_floor))
    if not labels:
        return lines + ["No ring kernels in family `tokens` in this run.", ""]
    for title, value in (("Bytes per token", lambda r: sig3(r.bytes_per_token)),
                         ("Build time [ms]", lambda r: sig3(r.build_ms))):
        lines += [f"{title}:", "", "| tokens | " + " | ".join(f"`{x}`" for x in labels) + " |",
                  "|---:|" + "---:|" * len(labels)]
        for p in points:
            cells = [value(p.kernels[x]) if x in p.kernels else "–" for x in labels]
            lines.append(f"| {integer(p.tokens)} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines

