"""A family's results as plot lines: one Series per kernel, with the
parameters that do not vary held fixed."""

from __future__ import annotations

from dataclasses import dataclass

from .numeric import integer

PARAM_FIELDS = ("nodes", "vnodes", "keys", "threads")
PARAM_LABELS = {"nodes": "N", "vnodes": "V", "keys": "K", "threads": "threads"}


@dataclass
class Series:
    """One line of a plot: a kernel with the parameters that vary held fixed."""

    label: str
    scheme: str
    points: list  # of Result, ascending in x


@dataclass
class Split:
    """A family's results as plot lines, and how its parameters vary.

    fixed: parameters with one value for every result (for the subtitle);
    per_kernel: parameters that differ between kernels but not within one
    (the table shows them); a parameter that varies within a kernel splits it
    into several series and appears in their labels.
    """

    series: list
    fixed: dict
    per_kernel: list

    def subtitle(self) -> str:
        """'N = 1,000, K = 300,000, 1 thread' (+ what differs by kernel)."""
        parts = []
        for f in PARAM_FIELDS:
            if f not in self.fixed:
                continue
            if f == "threads":
                parts.append(f"{self.fixed[f]} thread" + ("s" if self.fixed[f] != 1 else ""))
            else:
                parts.append(f"{PARAM_LABELS[f]} = {integer(self.fixed[f])}")
        if self.per_kernel:
            parts.append(", ".join(PARAM_LABELS[f] for f in self.per_kernel)
                         + " by kernel (see report)")
        return ", ".join(parts)


def split_series(results: list, x_field: str, derived: set) -> Split:
    """Groups a family's results into Series along x_field."""
    others = [f for f in PARAM_FIELDS if f != x_field and f not in derived]
    fixed: dict = {}
    per_kernel, varying = [], []
    for f in others:
        # V matters only where the scheme takes it; elsewhere it must not split series.
        relevant = [r for r in results if not (f == "vnodes" and not r.takes_vnodes)]
        values = {getattr(r, f) for r in relevant}
        if len(values) <= 1:
            if values and None not in values:
                fixed[f] = values.pop()
            continue
        by_label: dict = {}
        for r in relevant:
            by_label.setdefault(r.label, set()).add(getattr(r, f))
        if any(len(v) > 1 for v in by_label.values()):
            varying.append(f)
        else:
            per_kernel.append(f)
    groups: dict = {}
    for r in results:
        extra = [f"{PARAM_LABELS[f]}={getattr(r, f)}" for f in varying
                 if not (f == "vnodes" and not r.takes_vnodes)]
        label = r.label + (f" ({', '.join(extra)})" if extra else "")
        groups.setdefault(label, Series(label, r.scheme, [])).points.append(r)
    for series in groups.values():
        series.points.sort(key=lambda r: getattr(r, x_field) or 0)
        series.points = [p for p in series.points if getattr(p, x_field)]
    return Split([g for g in groups.values() if g.points], fixed, per_kernel)


def envelope(series: list, x_field: str) -> tuple:
    """Lower envelope over series: (xs, ys, labels) at the x values all share."""
    common = None
    for s in series:
        xs = {getattr(p, x_field) for p in s.points}
        common = xs if common is None else common & xs
    xs = sorted(common or [])
    ys, labels = [], []
    for x in xs:
        best = min((p.ns, s.label) for s in series for p in s.points
                   if getattr(p, x_field) == x)
        ys.append(best[0])
        labels.append(best[1])
    return xs, ys, labels



def series_by_label(results: list, x_field: str) -> list:
    """Series per kernel label along x_field (points without an x dropped)."""
    groups: dict = {}
    for r in results:
        if getattr(r, x_field):
            groups.setdefault(r.label, Series(r.label, r.scheme, [])).points.append(r)
    for s in groups.values():
        s.points.sort(key=lambda p: getattr(p, x_field))
    return list(groups.values())
