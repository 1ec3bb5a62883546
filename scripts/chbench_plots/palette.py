"""One palette for the pages that draw schemes: a colour per scheme, the
same on every page and plot that shows it, and the short title a page names
it by. The schemes themselves come from the registry (the lab's or the
bench's, in its order); one this palette does not know yet is drawn in a
colour of its own and named by the registry's title when one is given, else
by its name."""

from __future__ import annotations

from typing import Optional

# The short titles pages use for the classic schemes (the registry's are
# longer: "ring (consistent hashing)", "jump hash").
TITLES = {"modn": "mod-N", "ring": "ring", "hrw": "rendezvous (HRW)", "jump": "jump",
          "maglev": "Maglev"}
COLORS = {"modn": "tab:red", "ring": "tab:blue", "hrw": "tab:green", "jump": "tab:orange",
          "maglev": "tab:purple"}
# Eleven more, so that the sixteen schemes of the registry each get their own.
SPARE_COLORS = ("tab:brown", "tab:pink", "tab:olive", "tab:cyan", "tab:gray", "#b8860b",
                "#4b0082", "#006d6d", "#8b0000", "#556b2f", "#000080")


def title(scheme: str, registry_title: Optional[str] = None) -> str:
    """The scheme's short title, else the registry's title (registry_title),
    else its name."""
    return TITLES.get(scheme) or registry_title or scheme


def colors(schemes: tuple) -> dict:
    """{scheme: matplotlib colour} for `schemes` (names, in order): the
    palette's own colour for a scheme it knows, the spare colours in turn for
    the others."""
    spare = iter(SPARE_COLORS * (1 + len(schemes) // len(SPARE_COLORS)))
    return {s: COLORS[s] if s in COLORS else next(spare) for s in schemes}
