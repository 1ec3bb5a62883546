"""The goals file against the run's registry: every scheme and kernel a goal
or ratio names must be one the bench that measured the run knows, so that a
misspelt name is an error and not a goal quietly "not measured" (a name the
registry knows but the run did not measure still is)."""

from __future__ import annotations

import difflib
from typing import Any

from . import floors
from .errors import InputError
from .goal_specs import ROLES, Goals


def named(record: Any) -> list:
    """(field, kernel name) and (field, scheme name) pairs of one GoalSpec or
    RatioSpec, in field order; roles ("best", "floor") are no kernel."""
    kernels = [("numerator", n) for n in getattr(record, "numerator", ()) or ()]
    if isinstance(getattr(record, "numerator", None), str):
        kernels = [("numerator", record.numerator)]
    kernels += [(f, getattr(record, f, "")) for f in ("denominator", "kernel", "rival")]
    out = [("kernel", f, n) for f, n in kernels if n and n not in ROLES]
    scheme = getattr(record, "scheme", "")
    return out + ([("scheme", "scheme", scheme)] if scheme else [])


def predates_floors(registry: Any) -> bool:
    """True for a registry that marks no floor but the stream floor: a bench
    from before the floors were listed by kind, which lacks the others."""
    return not any(registry.floors(kind) for kind in floors.KINDS if kind != "stream")


def check_kernels(goals: Goals, run: Any, source: Any) -> None:
    """Raises InputError, one line, for the first goal or ratio of `goals` that
    names a scheme or kernel the run's registry lacks; source names the goals
    file. Only a run that describes itself (families.py) and lists its floors
    by kind (a bench as new as this check) is checked: an older run's registry
    may predate a scheme or floor the goals name, which is then "not
    measured" there, as without a registry."""
    registry = run.registry
    if registry is None or not run.described.described or predates_floors(registry):
        return
    known = {"kernel": list(registry.kernels), "scheme": [s.name for s in registry.schemes]}
    for what, records in (("goal", goals.goals), ("ratio", goals.ratios)):
        for record in records:
            for kind, field, name in named(record):
                if name not in known[kind]:
                    close = difflib.get_close_matches(name, known[kind], n=1)
                    hint = f"; did you mean \"{close[0]}\"?" if close else ""
                    raise InputError(f"goals file {source}: {what} \"{record.title}\" names "
                                     f"{field} \"{name}\", which is no {kind} of the run's "
                                     f"registry{hint}")
