"""One palette for the pages that draw schemes: a colour per scheme, the
same on every page and plot that shows it. The schemes themselves come from
the registry (the lab's or the bench's, in its order); each is coloured by
its place there (a fixed cycle). A page names a scheme by the registry's
title (the bench's chbench_registry, the lab's report head)."""

from __future__ import annotations

# A fixed colour cycle by the scheme's place in the registry, so that a scheme
# keeps its colour on every page and plot; sixteen, one for each scheme of the
# registry (more schemes start the cycle again).
CYCLE = ("tab:red", "tab:blue", "tab:green", "tab:orange", "tab:purple", "tab:brown",
         "tab:pink", "tab:olive", "tab:cyan", "tab:gray", "#b8860b", "#4b0082", "#006d6d",
         "#8b0000", "#556b2f", "#000080")


def color(place: int) -> str:
    """The matplotlib colour of the scheme at `place` (0 = first) in registry order."""
    return CYCLE[place % len(CYCLE)]


def colors(schemes: tuple) -> dict:
    """{scheme: matplotlib colour} for `schemes`: every scheme of the registry,
    in its order (the lab's or the bench's), each coloured by its place."""
    return {s: color(i) for i, s in enumerate(schemes)}
