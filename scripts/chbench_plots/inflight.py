"""Family "inflight": ns/key against a kernel's knob (how many lookups are in
flight at once), per ring (inflight.png and the best-setting table). What
the knob is called comes from the run's registry."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .load import Result, Run
from .numeric import cv_cell, integer, sig3
from .style import (Style, mark_noisy, new_panels, plain_log_y, ramp_colors, shared_legend,
                    spread_note)


@dataclass
class InflightLine:
    """One kernel on one ring of family "inflight": its runs per keys in flight."""

    label: str
    tokens: int
    points: list  # of Result, ascending in in_flight
    default: Optional[Result]  # the same kernel and ring in family "tokens"
    knob: str = "keys in flight"  # what keys in flight means for this kernel

    def best(self) -> Result:
        """The fastest setting (median ns/key); on a tie the fewer keys in flight."""
        return min(self.points, key=lambda r: (r.ns, r.in_flight))

    def at(self, in_flight: int) -> Optional[Result]:
        """The run with this many keys in flight, if measured."""
        return next((r for r in self.points if r.in_flight == in_flight), None)


def lines_of(run: Run) -> list:
    """Family "inflight" at one thread as one InflightLine per kernel and
    ring, kernels in bench order, rings ascending; each line's knob named as
    the registry names it."""
    groups: dict = {}
    for r in run.family("inflight"):
        if r.in_flight and r.tokens and (r.threads or 1) == 1:
            groups.setdefault((r.label, r.nodes, r.vnodes, r.keys, r.window_bits), []).append(r)
    defaults = {(r.label, r.nodes, r.vnodes, r.keys): r
                for r in run.family("tokens") if (r.threads or 1) == 1}
    lines = []
    for (label, nodes, vnodes, keys, _), results in groups.items():
        results.sort(key=lambda r: r.in_flight)
        knob = run.registry.knob_name(label) if run.registry else None
        lines.append(InflightLine(label, results[0].tokens, results,
                                  defaults.get((label, nodes, vnodes, keys)),
                                  knob or "keys in flight"))
    return sorted(lines, key=lambda line: (line.points[0].order, line.tokens))




def figure(figure_cls, lines: list):
    """inflight.png: ns/key against keys in flight (log2), one panel per
    kernel, one line per ring; the best setting circled, the kernel's run in
    family "tokens" dotted."""
    if not lines:
        return None
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

    labels = list(dict.fromkeys(line.label for line in lines))
    rings = sorted({line.tokens for line in lines})
    colors = ramp_colors(rings, light=0.7)
    members = [r for line in lines for r in line.points]
    fig, axes = new_panels(figure_cls, len(labels),
                           "Keys in flight: cost per key vs how many lookups overlap\n"
                           f"1 thread; {spread_note(members, 'band')}; circled: "
                           "fastest setting; dotted: the kernel as run in family \"tokens\"")
    for ax, label in zip(axes, labels):
        mine = [line for line in lines if line.label == label]
        for line in mine:
            color = colors[line.tokens]
            marker = Style.MARKERS[rings.index(line.tokens) % len(Style.MARKERS)]
            xs = [r.in_flight for r in line.points]
            ax.plot(xs, [r.ns for r in line.points], color=color, marker=marker, markersize=5,
                    linewidth=1.6, label=f"{integer(line.tokens)} tokens")
            mark_noisy(ax, xs, [r.ns for r in line.points], line.points, color, marker)
            if all(r.ns_lo is not None for r in line.points):
                ax.fill_between(xs, [r.ns_lo for r in line.points],
                                [r.ns_hi for r in line.points], color=color, alpha=0.18,
                                linewidth=0)
            best = line.best()
            ax.plot([best.in_flight], [best.ns], marker="o", markersize=13, markerfacecolor="none",
                    markeredgecolor=color, markeredgewidth=1.8, linestyle="none")
            if line.default is not None:
                ax.axhline(line.default.ns, color=color, linestyle=":", linewidth=1.3)
        ax.set_xscale("log", base=2)
        ticks = sorted({r.in_flight for line in mine for r in line.points})
        ax.xaxis.set_major_locator(FixedLocator(ticks))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.set_yscale("log")
        plain_log_y(ax)
        knob = mine[0].knob
        ax.set_title(f"{label}: {knob}", fontsize=10)
        ax.set_xlabel(f"keys in flight ({knob}, log2 scale)")
    axes[0].set_ylabel("time per key [ns] (median)")
    axes[-1].plot([], [], marker="o", markersize=10, markerfacecolor="none", color="0.3",
                  linestyle="none", label="fastest setting")
    axes[-1].add_line(Line2D([], [], color="0.3", linestyle=":",
                             label="as in family \"tokens\""))
    shared_legend(axes, members[0].scheme)  # the scheme whose rings the lines are
    return fig


def report_lines(inflight: list) -> list:
    """The fastest keys-in-flight setting per kernel and ring."""
    lines = ["### Best keys in flight (family `inflight`)", "",
             "Per kernel and ring, the setting with the lowest median ns/key; gain = ns/key "
             "with 1 key in flight ÷ ns/key at the best setting. The last columns are the "
             "kernel as run in family `tokens` (its built-in setting) on the same ring.", ""]
    if not inflight:
        return lines + ["No `inflight` results in this run.", ""]
    lines += ["| kernel | keys in flight means | tokens | best | ns/key | CV % | 1 in flight "
              "ns/key | gain | family `tokens` ns/key | CV % |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for line in inflight:
        best, one = line.best(), line.at(1)
        gain = f"{sig3(one.ns / best.ns)}×" if one is not None else "–"
        default = line.default
        lines.append(f"| `{line.label}` | {line.knob} | {integer(line.tokens)} | "
                     f"{integer(best.in_flight)} | {sig3(best.ns)} | {cv_cell(best)} | "
                     f"{sig3(one.ns) if one else '–'} | {gain} | "
                     f"{sig3(default.ns) if default else '–'} | {cv_cell(default)} |")
    return lines + [""]

