"""The plots of docs/placement.md that lab_docs.py draws from its own lab
runs: keys moved per join, the ring's share spread and its busiest node
against V (lab_load_docs.py draws the load plots)."""

from __future__ import annotations

import math

from chbench_plots.palette import colors

# Where the page does not vary V, the ring's tokens per node, and the node
# counts of the growth sweep (lab_docs.py runs them).
RING_V = 100
GROWTH_N = (1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64)
DPI = 110
PLOTS = ("lab_moved_vs_n", "lab_share_std_vs_v", "lab_busiest_vs_v")


def finish(fig, ax):
    """Grid, legend and layout shared by the page's plots; returns the figure."""
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_moved(plt, sweep: dict, ring: str, title):
    """Keys moved per join against N, one line a scheme of `sweep`, labelled
    title(scheme); `ring` (the scheme that takes virtual nodes) with its V."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ns = GROWTH_N
    color = colors(tuple(sweep))
    for scheme, pts in sweep.items():
        label = title(scheme) + (f" (V = {RING_V})" if scheme == ring else "")
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=color[scheme], ms=4,
                label=label)
    ax.plot(ns, [n / (n + 1) for n in ns], "k--", lw=1, label="N / (N + 1) (mod-N theory)")
    ax.plot(ns, [1 / (n + 1) for n in ns], "k:", lw=1, label="1 / (N + 1) (minimum)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("nodes before the join, N (N -> N + 1)")
    ax.set_ylabel("fraction of keys moved")
    ax.set_title("Keys moved when one node joins")
    return finish(fig, ax)


def plot_std(plt, by_v: dict, rings: int):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    vs = sorted(by_v)
    pooled = [by_v[v]["summary"]["circle"]["share_std_pct"]["pooled"] for v in vs]
    keys = [by_v[v]["summary"]["keys"]["share_std_pct"]["pooled"] for v in vs]
    exact = [by_v[v]["theory"]["circle_share_std_pct"] for v in vs]
    n = by_v[vs[0]]["nodes"]
    ax.plot(vs, pooled, "o", color="tab:blue", label=f"circle, measured ({rings} rings)")
    ax.plot(vs, keys, "x", color="tab:purple", label="keys, measured")
    ax.plot(vs, exact, "-", color="tab:gray", lw=1, label="sqrt((N-1)/(N V + 1)) (theory)")
    line = [100 * math.sqrt((n - 1) / n) / math.sqrt(v) for v in vs]
    ax.plot(vs, line, "k--", lw=1, label="sqrt((N-1)/N) / sqrt(V): slope -1/2")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("tokens per node, V")
    ax.set_ylabel("share std, % of a fair share")
    ax.set_title(f"Ring balance: {n} nodes, std of node shares over {rings} rings")
    return finish(fig, ax)


def plot_busiest(plt, by_v: dict, rings: int):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    vs = sorted(by_v)
    s = [by_v[v]["summary"]["keys"]["busiest_over_mean"] for v in vs]
    mean = [x["mean"] for x in s]
    ax.fill_between(vs, [x["min"] for x in s], [x["max"] for x in s], color="tab:blue",
                    alpha=0.2, label=f"min ... max over {rings} rings")
    ax.plot(vs, mean, "o-", color="tab:blue", label="mean over the rings")
    n = by_v[vs[0]]["nodes"]
    h = by_v[1]["theory"]["busiest_over_mean"] if 1 in by_v else None
    if h:
        ax.plot([1], [h], "k*", ms=10, label=f"H_{n} = {h:.3f} (theory at V = 1)")
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("tokens per node, V")
    ax.set_ylabel("busiest node's keys / mean")
    ax.set_title(f"Ring: load of the busiest of {n} nodes")
    return finish(fig, ax)
