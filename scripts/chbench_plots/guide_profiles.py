"""The guide's section on production profiles: for each profile the run's
family `profiles` measured, the system's own lookup (libmemcached for
ketama, the reproduced own search for the others) beside the library's
fastest kernel over the same points, from key strings, key hashing
included, with the speed-up's interval."""

from __future__ import annotations

from . import intervals, rounds
from .load import Run
from .numeric import integer, sig3
from .profiles import OWN_LOOKUPS


def rows(run: Run) -> list:
    """[(profile, N, own Result or None, fastest kernel Result or None)], by
    profile in the run's order, then N (None: a profile no registry kernel
    answers, timed by its own lookup alone). In the JSON a profile stands for
    the scheme."""
    groups: dict = {}
    for r in run.family("profiles"):
        groups.setdefault((r.scheme, r.nodes), []).append(r)
    out = []
    for (profile, n), results in groups.items():
        own = next((r for r in results if r.kernel in OWN_LOOKUPS), None)
        kernels = [r for r in results if r.kernel not in OWN_LOOKUPS and r.ns]
        if kernels or own:
            out.append((profile, n, own, min(kernels, key=lambda r: r.ns) if kernels else None))
    return out


def section(run: Run, source: str = "") -> list:
    """Markdown lines: a heading, what the figures are (from the run at
    `source`, when given), one row a profile and N."""
    found = rows(run)
    if not found:
        return []
    lines = ["## Production profiles", "",
             "A proxy or client places keys its own way (docs/profiles.md defines each, with "
             "the keys a fleet change moves). Per profile of the family `profiles` of the run "
             "named below: "
             "its own lookup (`libmemcached` itself; `own_lookup`, the system's own search "
             "as reproduced from its source) beside the library's fastest kernel over the "
             "same points, owners checked equal, ns per key from key strings with key hashing "
             "included, one thread; the speed-up with its 95 % interval where the rounds give "
             "one." + (f" From `{source}`." if source else ""), "",
             "| profile | N | own lookup (ns/key) | fastest kernel | its ns/key | speed-up |",
             "|---|---:|---:|---|---:|---:|"]
    for profile, n, own, best in found:
        speed = rounds.ratio(own, best) if own and best else None
        kernel = f"`{best.kernel}`" if best else "none (no registry kernel)"
        lines.append(f"| `{profile}` | {integer(n)} | {sig3(own.ns) if own else '–'} | "
                     f"{kernel} | {sig3(best.ns) if best else '–'} | "
                     f"{intervals.figure_text(speed) if speed else '–'} |")
    return lines + [""]
