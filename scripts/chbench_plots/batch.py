"""Family "batch": ns/key against the batch size K (batch.png)."""

from __future__ import annotations

from .load import Run
from .series import split_series
from .style import Style, draw_series, new_axes, place_legend, spread_note


def figure(run: Run, figure_cls, style: Style) -> tuple:
    """batch.png: ns/key vs batch size K, log x. Returns (figure or None, log_y)."""
    results = [r for r in run.family("batch") if r.keys]
    if not results:
        return None, False
    split = split_series(results, "keys", set())
    fig, ax = new_axes(figure_cls, "Batch size: cost per key vs keys per call",
                       f"{split.subtitle()}; {spread_note(results, 'band')}")
    for s in split.series:
        draw_series(ax, s, lambda p: p.keys, style)
    ax.set_xscale("log")
    values = [r.ns for r in results]
    log_y = max(values) / min(values) > 10
    if log_y:
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlabel("batch size K [keys per call]")
    ax.set_ylabel("time per key [ns] (median)")
    place_legend(ax, "scheme/kernel")
    return fig, log_y

