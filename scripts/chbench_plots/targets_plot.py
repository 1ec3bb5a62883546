"""targets.png: each SIMD kernel's speed-up over its scalar rival, one bar per
Highway target (family "targets"; targets.py pairs the runs)."""

from __future__ import annotations

from .load import Run
from .numeric import integer, sig3
from .style import (DPI, NOISY_LABEL, machine_line, mark_noisy, ramp_colors, spread_note,
                    ticks_125)
from .targets import TargetsAnalysis


def figure(run: Run, figure_cls, analysis: TargetsAnalysis):
    """Speed-up over the scalar counterpart, one group of bars per SIMD
    kernel configuration, one bar per target; None without a pair."""
    groups = [g for g in analysis.groups if g.scalar is not None
              and (g.dispatched is not None or g.forced)]
    if not groups:
        return None
    targets = [t for t in analysis.targets if any(t in g.forced for g in groups)]
    colors = ramp_colors(targets)
    slots = ["dispatched"] * any(g.dispatched for g in groups) + targets
    chosen = sorted({g.dispatched_target or "?" for g in groups if g.dispatched})
    members = [r for g in groups for r in [g.scalar, g.dispatched, *g.forced.values()] if r]
    fig = figure_cls(figsize=(max(12, 1.05 * len(groups) + 2), 6.2), dpi=DPI,
                     constrained_layout=True)
    ax = fig.add_subplot()
    fig.suptitle("SIMD kernels: speed-up over their scalar counterpart, per Highway target\n"
                 f"{machine_line(run.context)}; dispatch picks {' / '.join(chosen) or '–'}; "
                 f"one thread, {spread_note(members, 'whiskers')}", fontsize=11)
    values = draw_bars(ax, groups, slots, colors)
    log_y = y_axis(ax, values)
    x_axis(ax, groups)
    ax.set_ylabel("speed-up [×] = scalar ns/key ÷ SIMD ns/key"
                  + (" (log scale)" if log_y else ""))
    legend(ax, slots, targets, colors)
    return fig


def draw_bars(ax, groups: list, slots: list, colors: dict) -> list:
    """The bars from the 1× line, their whiskers and the dispatched figures;
    returns every value drawn (for the y range)."""
    width = 0.84 / len(slots)
    values = []
    for gi, g in enumerate(groups):
        for slot_i, slot in enumerate(slots):
            r = g.dispatched if slot == "dispatched" else g.forced.get(slot)
            speedup = g.speedup(r)
            if speedup is None:
                continue
            x = gi + (slot_i - (len(slots) - 1) / 2) * width
            values.append(speedup)
            if slot == "dispatched":
                kw = {"facecolor": colors.get(g.dispatched_target, (0.6, 0.6, 0.6, 1.0))[:3]
                      + (0.45,), "hatch": "///", "edgecolor": "black", "linewidth": 0.8}
            else:
                kw = {"color": colors[slot], "edgecolor": "white", "linewidth": 0.4}
            ax.bar(x, speedup - 1, bottom=1, width=width, zorder=2, **kw)
            if r.noisy or (g.scalar is not None and g.scalar.noisy):
                mark_noisy(ax, [x], [speedup], [g.scalar if not r.noisy else r], "0.15")
            spread = g.speedup_range(r)
            if spread is not None:
                values += list(spread)
                ax.errorbar([x], [speedup], yerr=[[max(0.0, speedup - spread[0])],
                                                  [max(0.0, spread[1] - speedup)]],
                            fmt="none", ecolor="0.15", elinewidth=0.8, capsize=1.5, zorder=3)
            if slot == "dispatched":
                annotate(ax, x, speedup, spread)
    return values


def annotate(ax, x: float, speedup: float, spread) -> None:
    """The dispatched bar's figure, above its whisker (below when slower)."""
    top = max(speedup, spread[1] if spread else speedup)
    low = min(speedup, spread[0] if spread else speedup)
    above = speedup >= 1
    ax.annotate(f"{sig3(speedup)}×", (x, top if above else low),
                xytext=(0, 3 if above else -3), textcoords="offset points",
                ha="center", va="bottom" if above else "top", fontsize=8,
                fontweight="bold", zorder=4)


def y_axis(ax, values: list) -> bool:
    """The 1× line and a linear or (beyond 10×) log y axis; returns log_y."""
    from matplotlib.ticker import FuncFormatter

    ax.axhline(1, color="black", linewidth=1.2, zorder=2.5)
    lo, hi = min(values + [1.0]), max(values + [1.0])
    log_y = hi / lo > 10
    if log_y:
        ax.set_yscale("log")
        ax.set_ylim(lo / 1.6, hi * 1.6)
        ticks_125(ax.yaxis, *ax.get_ylim())
    else:
        ax.set_ylim(0, hi * 1.12)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}×"))
    ax.grid(True, axis="y", which="major", alpha=0.45, zorder=0)
    return log_y


def x_axis(ax, groups: list) -> None:
    """One label per group (kernel, N, and K when it differs), with a line
    between groups, darker between schemes."""
    same_k = len({g.keys for g in groups}) == 1
    labels = []
    for g in groups:
        text = f"{g.scheme}/\n{g.kernel}\nN = {integer(g.nodes)}"
        if not same_k:
            text += f"\nK = {integer(g.keys)}"
        labels.append(text)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(labels, fontsize=9)
    ax.tick_params(axis="x", length=0)
    for gi in range(1, len(groups)):
        boundary = groups[gi].scheme != groups[gi - 1].scheme
        ax.axvline(gi - 0.5, color="0.35" if boundary else "0.8",
                   linewidth=1.0 if boundary else 0.6, zorder=1)
    ax.set_xlim(-0.5, len(groups) - 0.5)


def legend(ax, slots: list, targets: list, colors: dict) -> None:
    """The targets' colours, the dispatched hatch and the 1× line, above the axes."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = []
    if "dispatched" in slots:
        handles.append(Patch(facecolor=(0.6, 0.6, 0.6, 0.45), edgecolor="black", hatch="///",
                             label="dispatched"))
    handles += [Patch(facecolor=colors[t], label=t) for t in targets]
    handles.append(Line2D([], [], color="black", linewidth=1.2, label="1× = scalar speed"))
    if getattr(ax, "_chbench_noisy", False):
        handles.append(Line2D([], [], linestyle="none", marker="o", markersize=8,
                              markerfacecolor="white", markeredgecolor="0.2",
                              markeredgewidth=1.5, label=NOISY_LABEL))
    ax.legend(handles=handles, fontsize=9, ncol=len(handles), loc="lower center",
              bbox_to_anchor=(0.5, 1.0), frameon=False, title_fontsize=9,
              title="Highway target: forced, or hatched = as dispatched (tinted as the target "
                    "dispatch picked)")
