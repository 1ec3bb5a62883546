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
    """[(profile, N, own Result or None, fastest kernel Result)], by profile
    in the run's order, then N. In the JSON a profile stands for the scheme."""
    groups: dict = {}
    for r in run.family("profiles"):
        groups.setdefault((r.scheme, r.nodes), []).append(r)
    out = []
    for (profile, n), results in groups.items():
        own = next((r for r in results if r.kernel in OWN_LOOKUPS), None)
        kernels = [r for r in results if r.kernel not in OWN_LOOKUPS and r.ns]
        if kernels:
            out.append((profile, n, own, min(kernels, key=lambda r: r.ns)))
    return out


def section(run: Run) -> list:
    """Markdown lines: a heading, what the figures are, one row a profile and N."""
    found = rows(run)
    if not found:
        return []
    lines = ["## Production profiles", "",
             "A proxy or client places keys its own way (docs/profiles.md defines each, with "
             "the keys a fleet change moves). Per profile of this run's family `profiles`: "
             "its own lookup (`libmemcached` itself; `own_lookup`, the system's own search "
             "as reproduced from its source) beside the library's fastest kernel over the "
             "same points, owners checked equal, ns per key from key strings with key hashing "
             "included, one thread; the speed-up with its 95 % interval where the rounds give "
             "one.", "",
             "| profile | N | own lookup (ns/key) | fastest kernel | its ns/key | speed-up |",
             "|---|---:|---:|---|---:|---:|"]
    for profile, n, own, best in found:
        speed = rounds.ratio(own, best) if own else None
        lines.append(f"| `{profile}` | {integer(n)} | {sig3(own.ns) if own else '–'} | "
                     f"`{best.kernel}` | {sig3(best.ns)} | "
                     f"{intervals.figure_text(speed) if speed else '–'} |")
    return lines + [""]
