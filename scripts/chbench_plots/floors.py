"""The floors a run times beside its kernels, as the bench's registry marks
them ("floor": the kind; a run from before the kind marked only the stream
floor, "stream": true): the stream floor (reads each key hash, writes one
owner), the compute floor (one multiply-xorshift and a multiply-shift a key)
and the random-read floor (one random 64-byte line a key from a table of the
ring's size). Here: their names, the floor of each kind in a result's
comparison point, and each result's ratio to it, for the report's tables
and the plots' subtitles."""

from __future__ import annotations

from typing import Optional

from .numeric import sig3

# The kinds in the order tables and legends show them.
KINDS = ("stream", "compute", "random_read")
TITLES = {"stream": "stream floor", "compute": "compute floor",
          "random_read": "random-read floor"}
# How the plots draw each kind: thick grey lines, no marker, no colour taken
# from the kernels; the stream floor dashed, the others dashed apart from it
# (the word names the pattern in subtitles). An unknown kind as the stream's.
LINES = {"stream": ((0, (6, 3)), "dashed"), "compute": ((0, (2, 2)), "short dashes"),
         "random_read": ((0, (8, 3, 2, 3)), "dash-dot")}


def line_kw(kind: str) -> dict:
    """Plot keyword arguments of a floor of `kind`."""
    pattern = LINES.get(kind, LINES["stream"])[0]
    return {"color": "0.3", "marker": None, "linestyle": pattern, "linewidth": 2.2}


def kind_of(r) -> Optional[str]:
    """A Result's floor kind, None for a kernel (a floor without a recorded
    kind is the stream floor, the only one older runs have)."""
    if not r.is_floor:
        return None
    return r.floor_kind or "stream"


def title(kind: str) -> str:
    """'random-read floor' for 'random_read'; an unknown kind as it is."""
    return TITLES.get(kind, f"{kind} floor")


def point_key(r) -> tuple:
    """Where a result was timed beside its floors: its comparison group in a
    run timed in rounds, else the family and the fleet, batch and threads
    (an older run's floors carried no removals, so its fleets after
    removals share the floors of the fleet of the same N)."""
    if r.group is not None:
        return (r.family, "group", r.group)
    return (r.family, r.nodes, r.vnodes, r.keys, r.threads)


def by_point(results: list) -> dict:
    """point_key -> {kind: the first floor Result of that kind there}."""
    out: dict = {}
    for r in results:
        kind = kind_of(r)
        if kind is not None:
            out.setdefault(point_key(r), {}).setdefault(kind, r)
    return out


def kinds(results: list) -> list:
    """The floor kinds among `results`, in KINDS order (unknown ones after)."""
    present = {kind_of(r) for r in results} - {None}
    return [k for k in KINDS if k in present] + sorted(present - set(KINDS))


def ratio(r, kind: str, index: dict) -> Optional[float]:
    """r's median ÷ the median of the floor of `kind` in r's point (index:
    by_point); None for that floor itself, or where the point has none."""
    floor = index.get(point_key(r), {}).get(kind)
    if floor is None or floor is r or not floor.ns or r.ns is None:
        return None
    return r.ns / floor.ns


def ratio_cell(r, kind: str, index: dict) -> str:
    """'3.21×', or '–' without a ratio."""
    value = ratio(r, kind, index)
    return "–" if value is None else f"{sig3(value)}×"


def subtitle(results: list) -> str:
    """'; grey: stream floor (dashed), random-read floor (dash-dot)' for the
    floors among the results, '' without any."""
    present = kinds(results)
    if not present:
        return ""
    return "; grey: " + ", ".join(f"{title(k)} ({LINES.get(k, LINES['stream'])[1]})"
                                  for k in present)
