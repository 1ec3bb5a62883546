"""Numbers as the report prints them, and log-log interpolation."""

from __future__ import annotations

import math
from typing import Optional


def sig3(x: Optional[float]) -> str:
    """x rounded to 3 significant digits, plain notation from 0.001 to 10^7."""
    if x is None or not math.isfinite(x):
        return "–"
    if x == 0:
        return "0"
    rounded = float(f"{x:.3g}")
    magnitude = math.floor(math.log10(abs(rounded)))
    if -3 <= magnitude < 7:
        return f"{rounded:,.{max(0, 2 - magnitude)}f}"
    return f"{rounded:.2e}"


def si(x: Optional[float], unit: str = "") -> str:
    """x with an SI prefix and 3 significant digits, e.g. 3.75e9 -> '3.75 G'."""
    if x is None or not math.isfinite(x):
        return "–"
    for factor, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= factor * 0.9995:
            return f"{sig3(x / factor)} {prefix}{unit}"
    return f"{sig3(x)} {unit}".rstrip()


def binary_size(n: Optional[float]) -> str:
    """Bytes as B, KiB, MiB or GiB with 3 significant digits."""
    if n is None or not math.isfinite(n):
        return "–"
    for factor, unit in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= factor:
            return f"{sig3(n / factor)} {unit}"
    return f"{int(n)} B"


def integer(n: Optional[float]) -> str:
    """An exact count with thousands separators."""
    return "–" if n is None else f"{int(n):,}"


def crossovers(xs: list, a: list, b: list) -> list:
    """Where series a and b (same xs, ascending, all > 0) cross.

    Interpolates log(a) - log(b) linearly in log(x), as on a log-log plot.
    Returns (x, a_below_before) per crossing: a_below_before tells whether a
    was the smaller one just before the crossing.
    """
    found = []
    diff = [math.log(p) - math.log(q) for p, q in zip(a, b)]
    for i in range(len(xs) - 1):
        d0, d1 = diff[i], diff[i + 1]
        if d0 == 0 and (i == 0 or diff[i - 1] == 0):
            continue
        if d0 == 0:
            found.append((xs[i], diff[i - 1] < 0))
        elif d0 * d1 < 0:
            t = d0 / (d0 - d1)
            x = math.exp(math.log(xs[i]) + t * (math.log(xs[i + 1]) - math.log(xs[i])))
            found.append((x, d0 < 0))
    if len(diff) >= 2 and diff[-1] == 0 and diff[-2] != 0:
        found.append((xs[-1], diff[-2] < 0))
    return found


def interpolate_loglog(xs: list, ys: list, x: float) -> float:
    """y at x on the piecewise log-log line through (xs, ys), xs ascending."""
    for i in range(len(xs) - 1):
        if xs[i] <= x <= xs[i + 1]:
            t = (math.log(x) - math.log(xs[i])) / (math.log(xs[i + 1]) - math.log(xs[i]))
            return math.exp(math.log(ys[i]) + t * (math.log(ys[i + 1]) - math.log(ys[i])))
    return ys[0] if x < xs[0] else ys[-1]



def approx_count(n: int) -> str:
    """A token count in round units for goal names: powers of 1,024 for a
    binary count (65,536 -> '~64k', 16,777,216 -> '~16M'), else of 1,000
    (1,000,000 -> '~1M', 1,500 -> '~1.5k'); below 1,000 the count itself."""
    base = 1024 if n % 1024 == 0 and n % 1000 else 1000
    for power, unit in ((3, "G"), (2, "M"), (1, "k")):
        if n >= base ** power:
            return f"~{float(f'{n / base ** power:.3g}'):g}{unit}"
    return f"~{n}"


def cv_cell(r) -> str:
    """A Result's CV in percent for a table cell ('–' without one)."""
    return sig3(r.cv * 100) if r is not None and r.cv is not None else "–"
