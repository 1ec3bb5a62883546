"""Family "batch": ns/key against the batch size K (batch.png)."""

from __future__ import annotations

from .load import Run
from .series import split_series
from .style import Style, draw_series, new_axes, place_legend, spread_note


def results_of(run: Run) -> list:
    """The family's results that name a batch size."""
    return [r for r in run.family("batch") if r.keys]


def log_y(results: list) -> bool:
    """Whether the y axis is logarithmic: the figures span more than 10×."""
    values = [r.ns for r in results]
    return bool(values) and max(values) / min(values) > 10


def axis_note(run: Run) -> str:
    """The report's sentence on the y axis of batch.png."""
    return " The y axis is logarithmic." if log_y(results_of(run)) else " The y axis starts at 0."


def figure(run: Run, figure_cls, style: Style):
    """batch.png: ns/key vs batch size K, log x (log y past 10×); None
    without results."""
    results = results_of(run)
    if not results:
        return None
    split = split_series(results, "keys", set())
    fig, ax = new_axes(figure_cls, "Batch size: cost per key vs keys per call",
                       f"{split.subtitle()}; {spread_note(results, 'band')}")
    for s in split.series:
        draw_series(ax, s, lambda p: p.keys, style)
    ax.set_xscale("log")
    if log_y(results):
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlabel("batch size K [keys per call]")
    ax.set_ylabel("time per key [ns] (median)")
    place_legend(ax, "scheme/kernel")
    return fig
