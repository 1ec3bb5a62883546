"""The kernels of a family measured side by side at one node (bucket) count:
what the goals on family "dense" and its report section compare (rings.py
does the same for ring tokens)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from . import intervals, rounds
from .load import Result, Run


@dataclass
class NodePoint:
    """The kernels of one family measured at one N and K, at one thread, as
    Highway's dispatch runs them; kernels maps `scheme/kernel` to its Result."""

    nodes: int
    keys: Optional[int]
    kernels: dict

    def best_of(self, scheme: str) -> Optional[Result]:
        """The fastest kernel of `scheme` here (median ns/key), if any."""
        return min((r for r in self.kernels.values() if r.scheme == scheme and not r.is_floor),
                   key=lambda r: r.ns, default=None)

    def best_tie_of(self, scheme: str) -> list:
        """The fastest kernel of `scheme` here, alone when separated from
        the runner-up, else with the kernels tied with it (intervals.fastest)."""
        return intervals.fastest([r for r in self.kernels.values()
                                  if r.scheme == scheme and not r.is_floor],
                                 lambda r: r.ns, rounds.ratio)


def node_points(run: Run, family: str) -> list:
    """A family's one-thread results, one NodePoint per (N, K), ascending in
    N; runs forced to one Highway target are left out."""
    points: dict = {}
    for r in run.family(family):
        if not r.nodes or (r.threads or 1) != 1 or r.forced_target:
            continue
        point = points.setdefault((r.nodes, r.keys), NodePoint(r.nodes, r.keys, {}))
        point.kernels.setdefault(r.label, r)
    return sorted(points.values(), key=lambda p: (p.nodes, p.keys or 0))
