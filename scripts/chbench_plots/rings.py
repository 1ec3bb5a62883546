"""The ring kernels of a family measured side by side on one ring: what the
goals, the clustered plot and the memory table compare."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from . import intervals, rounds
from .load import Result, Run

NEAR_FACTOR = 2.0  # a ring is "~T tokens" only within this factor of T


@dataclass
class RingPoint:
    """The kernels of one family measured on one ring, at one thread.

    kernels maps `scheme/kernel` to its Result; the floors are among them
    when they ran, but never count as the best kernel.
    """

    tokens: int
    nodes: Optional[int]
    vnodes: Optional[int]
    keys: Optional[int]
    kernels: dict

    def best(self) -> Optional[Result]:
        """The fastest kernel here (median ns/key), every floor excluded."""
        return min((r for r in self.kernels.values() if not r.is_floor),
                   key=lambda r: r.ns, default=None)

    def best_tie(self) -> list:
        """The fastest kernel here alone when its rounds separate it from
        the runner-up, else every kernel tied with it, fastest first
        (intervals.fastest); every floor excluded; [] for none."""
        return intervals.fastest([r for r in self.kernels.values() if not r.is_floor],
                                 lambda r: r.ns, rounds.ratio)


def ring_points(run: Run, family: str) -> list:
    """A family's one-thread results on rings (those with a token count), one
    RingPoint per scheme and ring (N, V, K, cluster window), ascending in
    tokens; runs with keys in flight set are left out (family "inflight"
    varies them)."""
    points: dict = {}
    for r in run.family(family):
        if not r.tokens or (r.threads or 1) != 1 or r.in_flight:
            continue
        key = (r.scheme, r.nodes, r.vnodes, r.keys, r.window_bits)
        point = points.setdefault(key, RingPoint(r.tokens, r.nodes, r.vnodes, r.keys, {}))
        point.kernels.setdefault(r.label, r)
    return sorted(points.values(), key=lambda p: (p.tokens, p.keys or 0, p.nodes or 0))


def nearest_ring(points: list, target: int) -> Optional[RingPoint]:
    """The point whose token count is closest to target (in ratio), if within
    NEAR_FACTOR of it; on a tie the larger ring."""
    near = [p for p in points if abs(math.log(p.tokens / target)) <= math.log(NEAR_FACTOR)]
    return min(near, key=lambda p: (abs(math.log(p.tokens / target)), -p.tokens), default=None)
