"""What every plot shares: matplotlib, a colour and marker per kernel, axes,
legends, bands and log-axis ticks."""

from __future__ import annotations

import io
import math
import sys
from typing import Callable, Iterable, Optional

from . import floors as floor_kinds
from .errors import EXIT_NO_MATPLOTLIB
from .load import Result
from .series import Series

DPI = 150


def import_matplotlib(prog: str = "plot.py"):
    """Imports matplotlib with the Agg backend; exits 1 with advice for the
    script `prog` if absent."""
    try:
        import matplotlib
    except ImportError:
        print(f"{prog}: error: matplotlib is not importable by {sys.executable}; "
              f"run /usr/bin/python3 scripts/{prog} (Debian's python3-matplotlib)",
              file=sys.stderr)
        sys.exit(EXIT_NO_MATPLOTLIB)
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    return Figure


class Style:
    """A stable colour and marker per kernel label, the same in every plot,
    and a line style per scheme."""

    # Matplotlib's ten colours and three more, so that 13 kernels each get
    # their own; 12 markers, so that no two kernels share both colour and
    # marker before the 157th. Black and "X" are kept for the crossover mark
    # of schemes_nodes.png.
    COLORS = ("C0", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9",
              "#b8860b", "#4b0082", "#006d6d")
    MARKERS = "osD^v<>ph*Pd"
    # One per scheme, in the order the run first shows the schemes.
    LINES = (("-", "solid"), ("--", "dashed"), ("-.", "dash-dot"), (":", "dotted"),
             ((0, (3, 1, 1, 1, 1, 1)), "dash-dot-dot"))
    # The floors are not kernels: thick grey, a dash pattern a kind
    # (floors.line_kw), no marker, and no colour taken from the kernels.
    FLOOR = floor_kinds.line_kw("stream")

    def __init__(self, results: Iterable):
        results = list(results)
        self.floors = {r.label: floor_kinds.kind_of(r) for r in results if r.is_floor}
        ordered = sorted((r for r in results if not r.is_floor), key=Result.sort_key)
        self.index: dict = {}
        for r in ordered:
            self.index.setdefault(r.label, len(self.index))
        self.schemes: dict = {}  # scheme -> index into LINES
        for r in results:
            if not r.is_floor:
                self.schemes.setdefault(r.scheme, len(self.schemes) % len(self.LINES))

    def is_floor(self, label: str) -> bool:
        """Whether a series label (`scheme/kernel (...)`) is a floor."""
        return label.split(" (")[0] in self.floors

    def kw(self, label: str, scheme: str) -> dict:
        """Plot keyword arguments for one series."""
        if self.is_floor(label):
            return floor_kinds.line_kw(self.floors[label.split(" (")[0]])
        i = self.index.get(label.split(" (")[0], 0)
        return {"color": self.COLORS[i % len(self.COLORS)],
                "marker": self.MARKERS[i % len(self.MARKERS)],
                "linestyle": self.LINES[self.schemes.get(scheme, 0)][0], "markersize": 5,
                "linewidth": 1.6}

    def legend(self, label: str) -> str:
        """A series label for legends: a floor says what it is."""
        base = label.split(" (")[0]
        if base in self.floors:
            title = floor_kinds.title(self.floors[base])
            return label.replace(base, f"{title} ({base}: no lookup)", 1)
        return label

    def line_key(self, titles: Callable) -> str:
        """'solid: ring, dashed: mod-N, ...': which line style is which
        scheme, titles(scheme) naming each."""
        return ", ".join(f"{self.LINES[i][1]}: {titles(scheme)}"
                         for scheme, i in self.schemes.items())


def new_axes(figure_cls, title: str, subtitle: str):
    """A figure with one axes, a title and a smaller second title line."""
    fig = figure_cls(figsize=(8.5, 5.4), dpi=DPI, constrained_layout=True)
    ax = fig.add_subplot()
    ax.set_title(f"{title}\n{subtitle}" if subtitle else title, fontsize=11)
    draw_grid(ax)
    return fig, ax


def new_panels(figure_cls, count: int, title: str, width: float = 6.0):
    """A figure with count axes side by side sharing the y axis, and a title."""
    fig = figure_cls(figsize=(width * count + 1.5, 5.6), dpi=DPI, constrained_layout=True)
    axes = list(fig.subplots(1, count, sharey=True, squeeze=False)[0])
    fig.suptitle(title, fontsize=11)
    for ax in axes:
        draw_grid(ax)
    return fig, axes


def draw_grid(ax) -> None:
    """Major and fainter minor grid lines."""
    ax.grid(True, which="major", alpha=0.45)
    ax.grid(True, which="minor", alpha=0.15)


def legend_entries(axes: list) -> tuple:
    """(handles, labels) of the axes, every label once, in the order they
    first show it, the noisy marks' entry (mark_noisy) last."""
    entries: dict = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    if NOISY_LABEL in entries:
        entries[NOISY_LABEL] = entries.pop(NOISY_LABEL)
    return list(entries.values()), list(entries)


# Most entries one legend column holds beside a figure of the default height.
LEGEND_COLUMN_MAX = 18


def shared_legend(axes: list, title: str) -> None:
    """One legend for panels, right of the last one: every label once, in the
    order the panels first show it."""
    handles, labels = legend_entries(axes)
    columns = math.ceil(len(handles) / LEGEND_COLUMN_MAX)
    if columns > 1:  # widen the figure for the extra columns (see place_legend)
        fig = axes[-1].get_figure()
        width, height = fig.get_size_inches()
        fig.set_size_inches(width + 2.4 * (columns - 1), height)
    axes[-1].legend(handles, labels, title=title, fontsize=9, ncol=columns,
                    loc="upper left", bbox_to_anchor=(1.03, 1.0), borderaxespad=0)


# Above this many entries a legend goes to the right of the axes, where it
# cannot hide a line; the figure widens to make room.
LEGEND_INSIDE_MAX = 6


def place_legend(ax, title: str, outside: bool = False) -> None:
    """The legend inside the axes where matplotlib finds room, or, when it
    has many entries or outside is set, beside them."""
    handles, labels = legend_entries([ax])
    if len(handles) <= LEGEND_INSIDE_MAX and not outside:
        ax.legend(handles, labels, title=title, fontsize=9)
        return
    # Beside the axes, in as many columns as it takes for each to fit the
    # figure's height: one tall column would squash the axes to nothing.
    fig = ax.get_figure()
    width, height = fig.get_size_inches()
    columns = math.ceil(len(handles) / LEGEND_COLUMN_MAX)
    fig.set_size_inches(width + 2.4 * columns, height)
    ax.legend(handles, labels, title=title, fontsize=9, loc="upper left", ncol=columns,
              bbox_to_anchor=(1.01, 1.0), borderaxespad=0)


def png(fig) -> bytes:
    """The figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


# The legend entry of the hollow markers mark_noisy draws.
NOISY_LABEL = "hollow: flagged noisy (report, Noise)"


def mark_noisy(ax, xs: list, ys: list, points: list, color, marker: Optional[str] = "o",
               size: float = 5) -> None:
    """Hollow markers (white face, edge in the series' colour) over the
    points whose configuration the bench flagged noisy (Result.noisy), and,
    once per axes, a legend entry that says what they mean."""
    at = [(x, y) for x, y, p in zip(xs, ys, points)
          if getattr(p, "noisy", False) and x is not None and y is not None]
    if not at:
        return
    ax.plot([x for x, _ in at], [y for _, y in at], linestyle="none", marker=marker or "o",
            markersize=size + 3, markerfacecolor="white", markeredgecolor=color,
            markeredgewidth=1.5, zorder=4, label="_nolegend_")
    if not getattr(ax, "_chbench_noisy", False):
        ax._chbench_noisy = True
        ax.plot([], [], linestyle="none", marker="o", markersize=8, markerfacecolor="white",
                markeredgecolor="0.2", markeredgewidth=1.5, label=NOISY_LABEL)


def draw_series(ax, s: Series, x_of: Callable, style: Style, gap: Optional[float] = None,
                **overrides) -> None:
    """A median line with its spread (the median's interval over the rounds,
    else min to max repetition) as a band, the
    points flagged noisy hollow; overrides replace keyword arguments of the
    style's (markersize, linewidth: never the colour, marker or line style).
    With `gap`, the line and band break between two neighbouring points whose
    x differ by more than that factor, so that no line is drawn through x
    never measured."""
    xs = [x_of(p) for p in s.points]
    ys = [p.ns for p in s.points]
    kw = {**style.kw(s.label, s.scheme), **overrides}
    ax.plot(*broken(xs, ys, gap), label=style.legend(s.label), **kw)
    mark_noisy(ax, xs, ys, s.points, kw["color"], kw.get("marker"), kw.get("markersize", 5))
    if all(p.ns_lo is not None for p in s.points):
        bx, lo = broken(xs, [p.ns_lo for p in s.points], gap)
        _, hi = broken(xs, [p.ns_hi for p in s.points], gap)
        ax.fill_between(bx, lo, hi, color=kw["color"], alpha=0.18, linewidth=0)


def broken(xs: list, ys: list, gap: Optional[float]) -> tuple:
    """xs and ys with a NaN pair between neighbours whose x differ by more
    than the factor `gap` (matplotlib breaks a line there); as given without."""
    if gap is None or len(xs) < 2:
        return xs, ys
    bx, by = [xs[0]], [ys[0]]
    for x0, x, y in zip(xs, xs[1:], ys[1:]):
        if x0 > 0 and x / x0 > gap:
            bx.append(math.nan)
            by.append(math.nan)
        bx.append(x)
        by.append(y)
    return bx, by


def spread_note(results: list, shape: str = "") -> str:
    """What a plot's points and their spread are, for subtitles: 'median of
    3 repetitions, band = min–max', or, for a run timed in rounds (Results
    whose ns_lo / ns_hi are the median's interval), 'median and its 95 %
    interval over 21 rounds (band)'; shape names how the spread is drawn
    ("band", "whiskers", "bars"; "" for none)."""
    reps = "/".join(str(n) for n in sorted({r.repetitions for r in results if r.repetitions}))
    if any(r.interval for r in results):
        return (f"median and its 95 % interval over {reps or 'the'} rounds"
                + (f" ({shape})" if shape else ""))
    text = f"median of {reps} repetitions" if reps else "median"
    return text + (f", {shape} = min–max" if shape else "")


def room_below(ax) -> None:
    """Lowers a log y axis by a factor of 3, so that the cache marks' labels
    at the bottom stand below the lowest line (call once all is drawn)."""
    low, high = ax.get_ylim()
    ax.set_ylim(low / 3, high)



def hardware_threads(context: dict) -> Optional[int]:
    """Hardware threads from the bench's context, else Google Benchmark's num_cpus."""
    for key in ("chbench_hardware_threads", "num_cpus"):
        try:
            value = int(str(context.get(key, "")).strip())
        except ValueError:
            continue
        if value > 0:
            return value
    return None



def ramp_colors(keys: list, light: float = 0.9) -> dict:
    """A colour per key, dark (first) to light (last, `light` along viridis):
    Highway targets from the widest, rings from the smallest."""
    from matplotlib import colormaps
    cmap = colormaps["viridis"]
    n = max(1, len(keys) - 1)
    return {t: cmap(0.05 + (light - 0.05) * i / n) for i, t in enumerate(keys)}


def ticks_125(axis, low: float, high: float) -> None:
    """Major ticks at 1, 2 and 5 times each power of ten from low to high, no
    minor ticks, on a log-scaled matplotlib axis (ax.xaxis or ax.yaxis)."""
    from matplotlib.ticker import FixedLocator, NullLocator
    ticks = [m * 10 ** e for e in range(math.floor(math.log10(low)),
                                        math.ceil(math.log10(high)) + 1)
             for m in (1, 2, 5) if low <= m * 10 ** e <= high]
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_minor_locator(NullLocator())


def plain_log_y(ax) -> None:
    """Plain numbers at 1-2-5 ticks on a log y axis spanning at most three
    decades (wider ones keep matplotlib's powers of ten)."""
    from matplotlib.ticker import FuncFormatter
    low, high = ax.get_ylim()
    if high / low <= 1000:
        ticks_125(ax.yaxis, low, high)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))


def machine_line(context: dict) -> str:
    """'AMD EPYC, 2 CPUs' from the run's context."""
    cpu = context.get("chbench_cpu_model") or "unknown CPU"
    cpus = hardware_threads(context)
    return f"{cpu}, {cpus} CPUs" if cpus else str(cpu)


