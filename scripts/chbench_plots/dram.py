"""Family "dram": batches of 10^7 keys, each point's kernels beside the
stream floor at that batch (dram.png): one group of bars per fleet, the floor
drawn across it and every bar's time ÷ the floor's above it; the point's other
floors (the compute floor) drawn across it too, in their own dashes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from . import floors
from .clustered import draw_group, finish_groups, kernel_labels
from .load import Run
from .numeric import integer
from .palette import colors
from .style import Style, new_axes, plain_log_y, spread_note

FAMILY = "dram"


@dataclass
class DramPoint:
    """One fleet of the family: N, the share removed (None for none) and
    its results by label, the stream floor among them."""

    nodes: int
    removed_pct: Optional[float]
    keys: Optional[int]
    kernels: dict = field(default_factory=dict)

    def floor(self):
        """The stream floor's Result here, if measured."""
        return next((r for r in self.kernels.values() if floors.kind_of(r) == "stream"), None)

    def other_floors(self) -> list:
        """The point's floors other than the stream floor's (the compute floor)."""
        return [r for r in self.kernels.values()
                if r.is_floor and floors.kind_of(r) != "stream"]

    def caption(self) -> str:
        removed = (f"\n{integer(self.removed_pct)} % removed" if self.removed_pct else "")
        return f"N = {integer(self.nodes)}{removed}"


class BarColours:
    """A colour per bar label, all different (the palette's cycle by place):
    the run's style cycles its colours over every kernel of the registry, so
    two schemes' default kernels can share one, which a line's marker tells
    apart and a bar cannot."""

    def __init__(self, labels: list):
        self.colours = colors(tuple(labels))

    def kw(self, label: str, _scheme: str) -> dict:
        """draw_group's colour of the bar `label`."""
        return {"color": self.colours[label]}


def dram_points(run: Run) -> list:
    """The family's one-thread results as dispatch runs them, one DramPoint
    per (N, share removed), fleets without removals first, N ascending."""
    points: dict = {}
    for r in run.family(FAMILY):
        if not r.nodes or (r.threads or 1) != 1 or r.forced_target or r.ns is None:
            continue
        key = (r.removed_pct or 0, r.nodes)
        point = points.setdefault(key, DramPoint(r.nodes, r.removed_pct, r.keys))
        point.kernels.setdefault(r.label, r)
    return [points[k] for k in sorted(points)]


def figure(figure_cls, style: Style, points: list):
    """ns/key of every kernel at each fleet, the stream floor across each
    group, log y; None without a kernel measured beside its floor."""
    points = [p for p in points if p.floor() is not None and len(p.kernels) > 1]
    if not points:
        return None
    labels = kernel_labels(points, style)
    members = [r for p in points for r in p.kernels.values()]
    keys = sorted({p.keys for p in points if p.keys})
    floor = points[0].floor().label
    fig, ax = new_axes(figure_cls, "Batches from memory: every kernel beside the stream floor",
                       f"K = {'/'.join(integer(k) for k in keys)} keys a batch, 1 thread\n"
                       f"{spread_note(members, 'whiskers')}; above each bar: its time ÷ the "
                       "stream floor's (dashed)" + other_floors_note(points))
    values, shown = [], set()
    bars = BarColours(labels)
    for gi, p in enumerate(points):
        values += draw_group(ax, gi, p, labels, bars, floor, shown) + [p.floor().ns]
        values += draw_other_floors(ax, gi, p, shown)
    ax.set_yscale("log")
    ax.set_ylim(min(values) / 1.5, max(values) * 3)
    plain_log_y(ax)
    finish_groups(ax, [p.caption() for p in points], True)
    return fig


def draw_other_floors(ax, gi: int, p: DramPoint, shown: set) -> list:
    """The point's other floors across its group of bars at x = gi, in their
    dashes (floors.line_kw), in the legend once; returns their medians."""
    drawn = []
    for r in p.other_floors():
        if not r.ns:
            continue
        kw = floors.line_kw(floors.kind_of(r))
        ax.hlines(r.ns, gi - 0.46, gi + 0.46, colors=kw["color"], linestyles=kw["linestyle"],
                  linewidth=kw["linewidth"], zorder=3.4,
                  label=None if r.label in shown else f"{floors.title(floors.kind_of(r))} "
                  f"({r.label})")
        shown.add(r.label)
        drawn.append(r.ns)
    return drawn


def other_floors_note(points: list) -> str:
    """'\ngrey short dashes: compute floor' for the other floors drawn, or ''."""
    others = floors.kinds([r for p in points for r in p.other_floors()])
    return "".join(f"\ngrey {floors.LINES.get(k, floors.LINES['stream'])[1]}: {floors.title(k)}"
                   for k in others)
