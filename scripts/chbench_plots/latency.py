"""Family "latency": each key waits for the previous key's owner; drawn
beside family "tokens" (latency.png). The family also times every scheme's
default kernel at one fleet (the one-key cost the guide shows, guide.py):
the plot draws the ring's sweep alone, the points where the stream floor
was timed beside the ring kernels."""

from __future__ import annotations

from . import tokens
from .load import Run
from .series import split_series
from .style import Style, new_panels, room_below, shared_legend, spread_note


def ring_sweep(results: list) -> list:
    """The ring kernels and the stream floor of `results` at the (N, V) where
    the floor was timed: the ring's sweep of family "latency", without the
    one point of every scheme. The ring's kernels are those of the scheme that
    takes virtual nodes (Result.takes_vnodes, from the run's registry)."""
    rings = {(r.nodes, r.vnodes) for r in results if r.is_floor}
    return [r for r in results if (r.is_floor or r.takes_vnodes) and r.tokens
            and (r.nodes, r.vnodes) in rings]


def figure(run: Run, figure_cls, style: Style):
    """latency.png: throughput (family "tokens") beside latency (family
    "latency") against ring tokens, log-log, sharing the y axis."""
    panels = [(family, title, [r for r in run.family(family) if r.tokens]
               if family == "tokens" else ring_sweep(run.family(family)))
              for family, title in (("tokens", "Throughput: independent keys"),
                                    ("latency", "Latency: each key waits for the previous "
                                                "owner"))]
    if not panels[1][2]:
        return None
    panels = [p for p in panels if p[2]]
    members = [r for _, _, results in panels for r in results]
    floor = "; dashed grey: stream floor" if any(r.is_floor for r in members) else ""
    fig, axes = new_panels(figure_cls, len(panels),
                           "Ring lookup: throughput and latency per key vs ring size\n"
                           f"{spread_note(members, 'band')}{floor}")
    marked = False
    for ax, (family, title, results) in zip(axes, panels):
        split = split_series(results, "tokens", {"nodes", "vnodes"})
        marked |= tokens.draw_token_sweep(ax, run, split, results, style)
        ax.set_title(f"{title}\nfamily \"{family}\": {split.subtitle()}", fontsize=10)
    if marked:
        room_below(axes[0])  # the y axis is shared
    axes[0].set_ylabel("time per key [ns] (median)")
    shared_legend(axes, "kernel")
    return fig

