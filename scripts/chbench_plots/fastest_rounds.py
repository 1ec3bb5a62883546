"""The rounds a figure keeps: those the host ran in its fastest state, by
the pace of the group's members the figure is not of, as the bench chooses
them (bench/fastest_rounds.h, whose rule this mirrors; docs/measurement.md).

A round's pace is the geometric mean, over the members that count, of the
member's time that round ÷ its median; the rounds kept are those whose pace
is within the margin (the run's chbench_timing "state_margin") of the second
fastest round's, or the MIN_VALUES fastest-paced when fewer are. Every round
is kept when the margin is 0 or missing (runs from before the rule), there
are MIN_VALUES rounds or fewer, or fewer than MIN_MEMBERS members count.
"""

from __future__ import annotations

import math
import statistics
from typing import Optional

from .intervals import MIN_VALUES

MIN_MEMBERS = 2  # the fewest members a round's pace needs (kMinStateMembers)


def usable(values: list) -> list:
    """The rounds that are numbers (None marks one that was not)."""
    return [v for v in values if v is not None]


def counting(rounds: list, leave_out: set) -> list:
    """The members' round lists that count in the paces: not in leave_out
    (indices into rounds), as many rounds as the first member with any, and
    a median above 0."""
    count = next((len(x) for x in rounds if x), 0)
    return [x for m, x in enumerate(rounds)
            if m not in leave_out and x and len(x) == count and usable(x)
            and statistics.median(usable(x)) > 0]


def paces(members: list) -> list:
    """Each round's pace over `members` (lists of equal length): the
    geometric mean of each member's time ÷ its median, rounds that are not
    above 0 left out of that round's mean (1.0 when none is left); [] without
    members."""
    if not members:
        return []
    medians = [statistics.median(usable(x)) for x in members]
    out = []
    for r in range(len(members[0])):
        logs = [math.log(x[r] / m) for x, m in zip(members, medians)
                if x[r] is not None and x[r] > 0]
        out.append(math.exp(sum(logs) / len(logs)) if logs else 1.0)
    return out


def places(rounds: list, margin: Optional[float], leave_out: set) -> Optional[list]:
    """The places (0-based, ascending) of the rounds kept, chosen by the
    members not in leave_out; None when every round is kept."""
    members = counting(rounds, leave_out)
    pace = paces(members)
    if not margin or margin <= 0 or len(pace) <= MIN_VALUES or len(members) < MIN_MEMBERS:
        return None
    order = sorted(range(len(pace)), key=lambda r: pace[r])
    bar = pace[order[1]] * (1 + margin)
    keep = MIN_VALUES
    while keep < len(order) and pace[order[keep]] <= bar:
        keep += 1
    return sorted(order[:keep])


def at(values: list, kept: Optional[list]) -> list:
    """values at the places kept, all of them for None (or a list of another
    length than the places allow)."""
    if kept is None or (kept and kept[-1] >= len(values)):
        return values
    return [values[p] for p in kept]
