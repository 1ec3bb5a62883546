"""The guide's balance: busiest node's keys ÷ the mean, from the lab, beside
the noise floor of the same measurement: what a perfectly uniform random
placement of the same K keys into the same N nodes scores (a multinomial
draw, simulated with numpy, seeded), as its mean and its 95 % range over
FLOOR_DRAWS draws. A scheme within the floor's range scores "at the floor":
its imbalance is not told apart from sampling noise, and such schemes tie.
Above the floor, the lowest is named only when it is ahead of the next by
more than the floor's range is wide; otherwise the tie is named.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy

FLOOR_DRAWS = 200
FLOOR_SEED = 20261203


@dataclass(frozen=True)
class Floor:
    """busiest ÷ mean of uniform random placement of `keys` keys into `nodes`
    nodes: its mean and 2.5th to 97.5th percentile over the draws."""

    keys: int
    nodes: int
    mean: float
    lo: float
    hi: float

    @property
    def width(self) -> float:
        return self.hi - self.lo


def floor(keys: int, nodes: int, draws: int = FLOOR_DRAWS, seed: int = FLOOR_SEED) -> Floor:
    """The noise floor of busiest ÷ mean for K = keys and N = nodes (K ≥ 1,
    N ≥ 1). Seeded: the same K and N give the same floor. Cost: draws × N
    binomial draws (1,000 nodes: milliseconds)."""
    rng = numpy.random.default_rng(seed)
    counts = rng.multinomial(keys, numpy.full(nodes, 1.0 / nodes), size=draws)
    ratios = counts.max(axis=1) / (keys / nodes)
    lo, hi = numpy.percentile(ratios, [2.5, 97.5])
    return Floor(keys, nodes, float(ratios.mean()), float(lo), float(hi))


def at_floor(value: float, f: Floor) -> bool:
    """Whether busiest ÷ mean `value` lies within the floor's 95 % range (or below)."""
    return value <= f.hi


def most_even(scores: dict, floors: dict) -> tuple:
    """(kind, schemes): scores: scheme -> busiest ÷ mean; floors: scheme ->
    its Floor. kind "floor": the schemes at their floor (a tie there); "one":
    the lowest, ahead of the next by more than the floor's width; "tie": the
    lowest and those within that width of it. ("none", []) for no score."""
    if not scores:
        return "none", []
    low = sorted(s for s in scores if at_floor(scores[s], floors[s]))
    if low:
        return "floor", low
    ranked = sorted(scores, key=lambda s: (scores[s], s))
    best = ranked[0]
    width = floors[best].width
    tied = [s for s in ranked if scores[s] - scores[best] <= width]
    return ("one", [best]) if len(tied) == 1 else ("tie", tied)


def floor_text(f: Optional[Floor]) -> str:
    """'1.10 (95 % 1.08–1.13)'; '–' without."""
    if f is None:
        return "–"
    return f"{f.mean:.3f} (95 % {f.lo:.3f}–{f.hi:.3f})"
