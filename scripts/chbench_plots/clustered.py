"""Family "clustered": every ring kernel on tokens and keys squeezed into one
narrow window of hash values (clustered.png). The reference kernel drawn
across each ring is the one the goals file compares this family with."""

from __future__ import annotations

from typing import Optional

from .numeric import integer, sig3
from .style import Style, mark_noisy, new_axes, place_legend, plain_log_y, spread_note


def figure(figure_cls, style: Style, points: list, reference: Optional[str]):
    """ns/key of every kernel, one group of bars per ring (RingPoints of the
    family), the reference's time drawn across each group and every other
    bar's time ÷ the reference's above it; None without results."""
    points = [p for p in points if p.best() is not None]
    if not points:
        return None
    labels = kernel_labels(points, style)
    members = [r for p in points for r in p.kernels.values()]
    windows = sorted({r.window_bits for r in members if r.window_bits})
    where = (f"tokens and keys in one window of 2^{'/'.join(map(str, windows))} hash values"
             if windows else "clustered tokens")
    keys = sorted({p.keys for p in points if p.keys})
    ratio = (f"; above each bar: its time ÷ {reference}'s (red: slower)"
             if reference and any(reference in p.kernels for p in points) else "")
    fig, ax = new_axes(figure_cls, "Clustered tokens: cost per key, every ring kernel",
                       f"{where}; K = {'/'.join(integer(k) for k in keys)}, 1 thread\n"
                       f"{spread_note(members, 'whiskers')}{ratio}")
    values, shown = [], set()
    for gi, p in enumerate(points):
        values += draw_group(ax, gi, p, labels, style, reference, shown)
    log_y = max(values) / min(values) > 10
    if log_y:
        ax.set_yscale("log")
        ax.set_ylim(min(values) / 1.5, max(values) * 3)
        plain_log_y(ax)
    else:
        ax.set_ylim(0, max(values) * 1.25)
    finish_groups(ax, [f"{integer(p.tokens)} tokens\nN = {integer(p.nodes)}, "
                       f"V = {integer(p.vnodes)}" for p in points], log_y)
    return fig


def kernel_labels(points: list, style: Style) -> list:
    """The kernels of the points (their floors left out), in the run's order."""
    return sorted({label for p in points for label, r in p.kernels.items() if not r.is_floor},
                  key=lambda label: style.index.get(label, len(style.index)))


def finish_groups(ax, captions: list, log_y: bool) -> None:
    """The x axis of one group of bars per caption, the y label, the legend."""
    ax.set_xticks(range(len(captions)))
    ax.set_xticklabels(captions, fontsize=9)
    ax.tick_params(axis="x", length=0)
    ax.set_xlim(-0.5, len(captions) - 0.5)
    ax.grid(False, axis="x", which="both")
    ax.set_ylabel("time per key [ns] (median" + (", log scale)" if log_y else ")"))
    place_legend(ax, "kernel")


def draw_group(ax, gi: int, p, labels: list, style: Style, reference: Optional[str],
               shown: set) -> list:
    """The bars of one ring at x = gi, the reference line across them and the
    ratios above them; returns the positive values drawn. `shown`: the
    kernels already in the legend."""
    width = 0.84 / len(labels)
    ref = p.kernels.get(reference) if reference else None
    values = []
    for li, label in enumerate(labels):
        r = p.kernels.get(label)
        if r is None:
            continue
        x = gi + (li - (len(labels) - 1) / 2) * width
        is_ref = label == reference
        ax.bar(x, r.ns, width=width, color=style.kw(label, r.scheme)["color"], zorder=2,
               edgecolor="black" if is_ref else "white", linewidth=1.4 if is_ref else 0.4,
               label=None if label in shown else label)
        shown.add(label)
        mark_noisy(ax, [x], [r.ns], [r], style.kw(label, r.scheme)["color"])
        top = r.ns_hi if r.ns_hi is not None else r.ns
        # A spread from a stddev aggregate may reach below 0: not on a log axis.
        values += [v for v in (r.ns, r.ns_lo, top) if v is not None and v > 0]
        if r.ns_lo is not None:
            ax.errorbar([x], [r.ns], yerr=[[r.ns - r.ns_lo], [r.ns_hi - r.ns]], fmt="none",
                        ecolor="0.15", elinewidth=0.8, capsize=1.5, zorder=3)
        if ref is not None and not is_ref:
            ratio = r.ns / ref.ns
            ax.annotate(f"{sig3(ratio)}×", (x, top), xytext=(0, 3),
                        textcoords="offset points", ha="center", va="bottom", rotation=90,
                        fontsize=7, color="C3" if ratio > 1 else "0.15",
                        fontweight="bold" if ratio > 1 else "normal", zorder=4,
                        bbox={"fc": "white", "ec": "none", "alpha": 0.85, "pad": 0.5})
    if ref is not None:
        ax.hlines(ref.ns, gi - 0.46, gi + 0.46, colors="black", linestyles="--",
                  linewidth=1.3, zorder=3.5, label=f"{reference} (reference)" if gi == 0 else None)
    return values
