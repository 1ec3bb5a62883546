"""plot.py's --schemes and --kernels: the kernels the per-kernel line plots
draw (plots.py marks them `lines`).

--schemes takes scheme names (`jump,ring`), --kernels full kernel names
(`ring/bucketed,hrw/scalar`), each comma-separated; given both, a kernel is
drawn when either names it. A kernel forced to one Highway target
(`hrw/simd_keys@AVX2`) goes with its kernel, and the stream floor is always
drawn (the lines are read against it). Names are checked against the run's
kernel registry, or, for a run without one, against what it measured.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Optional

from .errors import InputError
from .load import Result, Run


@dataclass(frozen=True)
class Subset:
    """The schemes and kernels (`scheme/kernel`) chosen."""

    schemes: tuple = ()
    kernels: tuple = ()

    def keeps(self, r: Result) -> bool:
        """Whether r is drawn: the floor, or its scheme or kernel was named."""
        return r.is_floor or r.scheme in self.schemes or r.base_label in self.kernels

    def apply(self, run: Run) -> Run:
        """A copy of `run` with only the results kept (the run is unchanged)."""
        return dataclasses.replace(run, results=[r for r in run.results if self.keeps(r)])

    def text(self) -> str:
        """'schemes `jump`, `ring` and kernels `hrw/scalar`' for the report."""
        parts = []
        for kind, names in (("scheme", self.schemes), ("kernel", self.kernels)):
            if names:
                plural = "s" if len(names) > 1 else ""
                parts.append(f"{kind}{plural} " + ", ".join(f"`{n}`" for n in names))
        return " and ".join(parts)


def names(text: Optional[str], option: str) -> tuple:
    """The comma-separated names of one option, in order, once each; () when
    the option was not given. Raises InputError for an empty list."""
    if text is None:
        return ()
    out = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    if not out:
        raise InputError(f"{option} was given an empty list")
    return out


def known(run: Run) -> tuple:
    """(scheme names, kernel full names) the run's registry lists (without
    the stream floor), else those the run measured, in order."""
    if run.registry is not None:
        kernels = [k.label for k in run.registry.kernels.values() if not k.stream]
        return [s.name for s in run.registry.schemes], kernels
    measured = [r for r in run.results if not r.is_floor]
    return (list(dict.fromkeys(r.scheme for r in measured)),
            list(dict.fromkeys(r.base_label for r in measured)))


def check(chosen: tuple, allowed: list, option: str, kind: str) -> None:
    """Raises InputError naming every unknown name and the known ones."""
    unknown = [n for n in chosen if n not in allowed]
    if unknown:
        raise InputError(f"{option}: unknown {kind}{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(unknown)} (known: {', '.join(allowed)})")


def parse(run: Run, schemes: Optional[str], kernels: Optional[str]) -> Optional[Subset]:
    """The Subset of --schemes and --kernels, None when neither was given.
    Raises InputError (an empty list, an unknown name)."""
    chosen = Subset(names(schemes, "--schemes"), names(kernels, "--kernels"))
    if not chosen.schemes and not chosen.kernels:
        return None
    known_schemes, known_kernels = known(run)
    check(chosen.schemes, known_schemes, "--schemes", "scheme")
    check(chosen.kernels, known_kernels, "--kernels", "kernel")
    return chosen
