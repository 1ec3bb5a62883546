"""The guide's one-key latency: family "latency" times every scheme's default
kernel one key at a time, each key waiting for the previous key's owner, at
one fleet (bench/families/latency.cc); a client that looks up one key per
request pays this, not the batch figure. Read per scheme at the measured N
nearest the advice N; the ring's token sweep of the family (with the stream
floor) is left to latency.png."""

from __future__ import annotations

from typing import Optional

from .guide import nearest
from .load import Run


def by_scheme(run: Run, nodes: int) -> tuple:
    """(N, {scheme: Result}): the fastest one-key Result of each scheme at the
    measured N nearest `nodes` among the N where the family timed more than
    one scheme; (None, {}) when the run timed none."""
    results = [r for r in run.family("latency") if not r.is_floor and r.nodes
               and r.ns is not None and r.threads in (None, 1)]
    schemes_at: dict = {}
    for r in results:
        schemes_at.setdefault(r.nodes, set()).add(r.scheme)
    n: Optional[int] = nearest([m for m, s in schemes_at.items() if len(s) > 1], nodes)
    if n is None:
        return None, {}
    out: dict = {}
    for r in results:
        if r.nodes == n and (r.scheme not in out or r.ns < out[r.scheme].ns):
            out[r.scheme] = r
    return n, out
