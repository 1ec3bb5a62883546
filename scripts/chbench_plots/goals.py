"""The goals and ratios of goals.toml: reading the file, and the one
evaluator every goal goes through.

A goal is a ratio of two medians measured side by side on the rings of one
family (goals.toml's header gives the record format): the numerator's ns/key
÷ the denominator's, judged on one ring, on every ring up to a size, or for
each of several kernels on every ring, against an at-least or at-most
threshold. evaluate() turns a goal and a run into a Verdict: the figures that
decide it, in words, and met / not met / not measured. goals_report.py prints
verdicts and the tables behind them; ratios.py prints the [[ratio]] records.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from .errors import InputError
from .load import Result, Run
from .numeric import integer, sig3
from .rings import NEAR_FACTOR, RingPoint, nearest_ring, ring_points

GOALS_FILE = Path(__file__).resolve().with_name("goals.toml")
ROLES = ("best", "floor")  # operands that are not a kernel name
GOAL_KINDS = ("ratio_at_ring", "ratio_up_to", "each_vs_reference")
RATIO_KINDS = ("pair", "simd")
NUMBER = (int, float)
# Every key a record may have, with its type; `required` per kind below.
GOAL_KEYS = {"title": str, "family": str, "kind": str, "numerator": (str, list),
             "denominator": str, "tokens": int, "at_least": NUMBER, "at_most": NUMBER,
             "table": str, "note": str, "reference_name": str}
GOAL_REQUIRED = {"ratio_at_ring": ("title", "family", "numerator", "denominator", "tokens",
                                   "table"),
                 "ratio_up_to": ("title", "family", "numerator", "denominator", "tokens",
                                 "table"),
                 "each_vs_reference": ("title", "family", "numerator", "denominator", "table")}
RATIO_KEYS = {"kind": str, "title": str, "family": str, "numerator": str, "denominator": str,
              "min_tokens": int, "rival": str, "families": list, "min_nodes": int,
              "nodes": list}
RATIO_REQUIRED = {"pair": ("title", "family", "numerator", "denominator", "min_tokens"),
                  "simd": ("title", "rival", "families")}


@dataclass(frozen=True)
class GoalSpec:
    """One [[goal]] record."""

    title: str
    family: str
    kind: str  # one of GOAL_KINDS
    numerator: tuple  # operands: kernel names or ROLES (each_vs_reference: several)
    denominator: str
    table: str
    tokens: Optional[int] = None
    at_least: Optional[float] = None
    at_most: Optional[float] = None
    note: str = ""
    reference_name: str = ""

    def satisfied(self, ratio: float) -> bool:
        """Whether one ratio meets the threshold."""
        return ratio >= self.at_least if self.at_least is not None else ratio <= self.at_most

    def bound(self, short: bool = False) -> str:
        """'at least 20×' ('≥ 20×' when short)."""
        if self.at_least is not None:
            return f"{'≥' if short else 'at least'} {self.at_least:g}×"
        return f"{'≤' if short else 'at most'} {self.at_most:g}×"


@dataclass(frozen=True)
class RatioSpec:
    """One [[ratio]] record (fields by kind; the others keep their defaults)."""

    kind: str
    title: str
    family: str = ""
    numerator: str = ""
    denominator: str = ""
    min_tokens: int = 0
    rival: str = ""
    families: tuple = ()
    min_nodes: Optional[int] = None
    nodes: tuple = ()

    def wants(self, nodes: Optional[int]) -> bool:
        """kind "simd": whether a configuration with this N is compared."""
        if self.nodes:
            return nodes in self.nodes
        return (nodes or 0) >= (self.min_nodes or 0)


@dataclass(frozen=True)
class Goals:
    """Everything one goals file holds, in its order."""

    goals: tuple  # of GoalSpec
    ratios: tuple  # of RatioSpec
    source: str = str(GOALS_FILE)


def load_goals(path: Path = GOALS_FILE) -> Goals:
    """Reads and checks a goals file. Raises InputError (one line) when it
    cannot be read, is not TOML, or a record is malformed."""
    try:
        data = tomllib.loads(path.read_text())
    except OSError as err:
        raise InputError(f"cannot read goals file {path}: {err.strerror or err}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise InputError(f"goals file {path} is not valid TOML ({err})") from None
    unknown = sorted(set(data) - {"goal", "ratio"})
    if unknown:
        raise InputError(f"goals file {path}: unknown table {unknown[0]!r} "
                         "(it holds [[goal]] and [[ratio]] records)")
    goals = tuple(goal_spec(i, r, path) for i, r in enumerate(records(data, "goal", path)))
    check_tables(goals, path)
    ratios = tuple(ratio_spec(i, r, path) for i, r in enumerate(records(data, "ratio", path)))
    return Goals(goals, ratios, str(path))


def records(data: dict, key: str, path: Path) -> list:
    """data[key], an array of tables (absent: none)."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
        raise InputError(f"goals file {path}: {key!r} must be an array of tables ([[{key}]])")
    return value


def checked(record: dict, keys: dict, required: tuple, where: str) -> dict:
    """The record's fields after checking names, types and the required ones."""
    for key, value in record.items():
        if key not in keys:
            raise InputError(f"{where}: unknown field {key!r}")
        kinds = keys[key] if isinstance(keys[key], tuple) else (keys[key],)
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise InputError(f"{where}: {key!r} has the wrong type")
    missing = [k for k in required if k not in record]
    if missing:
        raise InputError(f"{where}: missing field {missing[0]!r}")
    return record


def goal_spec(index: int, record: dict, path: Path) -> GoalSpec:
    """One [[goal]] record, checked."""
    where = f"goals file {path}, goal {index + 1}"
    kind = record.get("kind")
    if kind not in GOAL_KINDS:
        raise InputError(f"{where}: kind {kind!r} is not one of {', '.join(GOAL_KINDS)}")
    record = checked(record, GOAL_KEYS, GOAL_REQUIRED[kind], where)
    if ("at_least" in record) == ("at_most" in record):
        raise InputError(f"{where}: give exactly one of 'at_least' and 'at_most'")
    if kind == "each_vs_reference" and "tokens" in record:
        raise InputError(f"{where}: 'tokens' means nothing to each_vs_reference (every ring)")
    numerator = record["numerator"]
    numerator = (numerator,) if isinstance(numerator, str) else tuple(numerator)
    several = kind == "each_vs_reference"
    if not numerator or not all(isinstance(n, str) and n for n in numerator) \
            or (len(numerator) > 1 and not several):
        raise InputError(f"{where}: 'numerator' must be " + (
            "a list of kernel names" if several else "one operand"))
    operands = numerator + (record["denominator"],)
    if several and any(op in ROLES for op in operands):
        raise InputError(f"{where}: each_vs_reference compares kernels named in full")
    for op in operands:
        if op not in ROLES and op.count("/") != 1:
            raise InputError(f"{where}: operand {op!r} is neither scheme/kernel nor one of "
                             f"{', '.join(ROLES)}")
    fields = {k: v for k, v in record.items() if k not in ("numerator", "kind")}
    return GoalSpec(kind=kind, numerator=numerator, **fields)


def check_tables(goals: tuple, path: Path) -> None:
    """Goals that share a table must compare the same thing."""
    seen: dict = {}
    for g in goals:
        shape = (g.family, g.kind, g.numerator, g.denominator)
        if seen.setdefault(g.table, shape) != shape:
            raise InputError(f"goals file {path}: goals of table {g.table!r} differ in family, "
                             "kind or operands")


def ratio_spec(index: int, record: dict, path: Path) -> RatioSpec:
    """One [[ratio]] record, checked."""
    where = f"goals file {path}, ratio {index + 1}"
    kind = record.get("kind")
    if kind not in RATIO_KINDS:
        raise InputError(f"{where}: kind {kind!r} is not one of {', '.join(RATIO_KINDS)}")
    record = checked(record, RATIO_KEYS, RATIO_REQUIRED[kind], where)
    fields = dict(record)
    for key, kind_of in (("families", str), ("nodes", int)):
        values = fields.get(key, [])
        if not all(isinstance(v, kind_of) and not isinstance(v, bool) for v in values):
            raise InputError(f"{where}: {key!r} must list {kind_of.__name__} values")
        if key in fields:
            fields[key] = tuple(values)
    return RatioSpec(**fields)


# --------------------------------------------------------------------------
# The evaluator


@dataclass
class Judged:
    """One ratio behind a verdict: numerator ÷ denominator on one ring."""

    point: RingPoint
    numerator: Result
    denominator: Result

    @property
    def ratio(self) -> float:
        """Median ns/key of the numerator ÷ that of the denominator."""
        return self.numerator.ns / self.denominator.ns


@dataclass
class Verdict:
    """A goal as one run measured it."""

    spec: GoalSpec
    measured: str  # the figures that decide it, or why there are none
    met: Optional[bool]  # None: not measured in this run
    judged: list = field(default_factory=list)  # the Judged ratios that decide it
    candidates: list = field(default_factory=list)  # every ring with both operands
    points: list = field(default_factory=list)  # the family's RingPoints
    limit: Optional[int] = None  # ratio_up_to: rings up to this many tokens
    target: str = ""  # the SIMD target it was measured on (measured_target)

    @property
    def noisy(self) -> list:
        """The configurations behind the verdict the bench flagged noisy."""
        seen = {}
        for j in self.judged:
            for r in (j.numerator, j.denominator):
                if r.noisy:
                    seen.setdefault(r.run_name, r)
        return list(seen.values())

    @property
    def verdict(self) -> str:
        """'goal met', 'goal not met' or 'not measured'."""
        if self.met is None:
            return "not measured"
        return "goal met" if self.met else "goal not met"


def resolve(operand: str, point: RingPoint) -> Optional[Result]:
    """An operand's result on one ring: a kernel by name, the best kernel, or
    the stream floor; None when the ring lacks it."""
    if operand == "best":
        return point.best()
    if operand == "floor":
        return next((r for r in point.kernels.values() if r.is_floor), None)
    return point.kernels.get(operand)


def needs(spec: GoalSpec, run: Run) -> str:
    """The operands a ring must have, named for a 'not measured' line
    ("best" is any kernel, so it is not named)."""
    floors = run.registry.floors() if run.registry else []
    names = []
    for op in spec.numerator + (spec.denominator,):
        if op == "floor":
            names.append(f"`{floors[0]}`" if floors else "the stream floor")
        elif op != "best":
            names.append(f"`{op}`")
    return " and ".join(names) or "a kernel"


def measured_target(run: Run, judged: list) -> str:
    """The SIMD target a verdict was measured on: the Highway targets its
    SIMD kernels ran (their entries' label), else the target the run's
    dispatch picked (context chbench_hwy_target); a verdict from one target
    is not comparable with one from another (an AVX2 CPU's with an
    AVX-512 one's)."""
    ran = sorted({r.hwy_label for j in judged for r in (j.numerator, j.denominator)
                  if r.hwy_label})
    dispatched = str(run.context.get("chbench_hwy_target") or "").strip()
    if ran:
        return " / ".join(ran)
    return dispatched or "unknown"


def evaluate(spec: GoalSpec, run: Run) -> Verdict:
    """Computes one goal from a run, and the SIMD target it was measured on."""
    verdict = judge(spec, run)
    verdict.target = measured_target(run, verdict.judged)
    return verdict


def judge(spec: GoalSpec, run: Run) -> Verdict:
    """The verdict of one goal on a run."""
    points = ring_points(run, spec.family)
    if spec.kind == "each_vs_reference":
        return each_vs_reference(spec, points)
    candidates = []
    for p in points:
        num, den = resolve(spec.numerator[0], p), resolve(spec.denominator, p)
        if num is not None and den is not None:
            candidates.append(Judged(p, num, den))
    where = f"no ring of family `{spec.family}`"
    if spec.kind == "ratio_at_ring":
        point = nearest_ring([c.point for c in candidates], spec.tokens)
        judged = [c for c in candidates if c.point is point]
        limit, missing = None, (f"{where} within {NEAR_FACTOR:g}× of {integer(spec.tokens)} "
                                f"tokens with {needs(spec, run)}")
    else:
        near = nearest_ring(points, spec.tokens)
        limit = near.tokens if near is not None else spec.tokens
        judged = [c for c in candidates if c.point.tokens <= limit]
        missing = f"{where} up to {integer(limit)} tokens with {needs(spec, run)}"
    verdict = Verdict(spec, missing, None, judged, candidates, points, limit)
    if judged:
        verdict.measured = measured_text(spec, judged)
        verdict.met = all(spec.satisfied(j.ratio) for j in judged)
    return verdict


def measured_text(spec: GoalSpec, judged: list) -> str:
    """'33.3× (`ring/x` at 65,500 tokens)' for one ring; 'worst 6.00× (...)
    over 3 rings' for several. The kernel named is the one "best" stands for."""
    worst = (min if spec.at_least is not None else max)(judged, key=lambda j: j.ratio)
    best = (worst.numerator if spec.numerator[0] == "best"
            else worst.denominator if spec.denominator == "best" else None)
    at = (f"`{best.label}` " if best is not None else "") + \
        f"at {integer(worst.point.tokens)} tokens"
    if spec.kind == "ratio_at_ring":
        return f"{sig3(worst.ratio)}× ({at})"
    rings = len(judged)
    return f"worst {sig3(worst.ratio)}× ({at}) over {rings} ring" + ("s" if rings > 1 else "")


def each_vs_reference(spec: GoalSpec, points: list) -> Verdict:
    """Each numerator kernel ÷ the reference on every ring that has both."""
    reference = spec.denominator
    with_reference = [p for p in points if reference in p.kernels]
    ranges, failing, judged = [], [], []
    for label in spec.numerator:
        mine = [Judged(p, p.kernels[label], p.kernels[reference])
                for p in with_reference if label in p.kernels]
        if not mine:
            continue
        judged += mine
        low, high = min(j.ratio for j in mine), max(j.ratio for j in mine)
        ranges.append(f"`{label}` {sig3(low)}×" + (f" to {sig3(high)}×" if high != low else ""))
        failing += [f"`{label}` at {integer(j.point.tokens)} tokens ({sig3(j.ratio)}×)"
                    for j in mine if not spec.satisfied(j.ratio)]
    if not judged:
        either = " or ".join(f"`{label}`" for label in spec.numerator)
        return Verdict(spec, f"no ring of family `{spec.family}` with `{reference}` beside "
                             f"{either}", None, points=with_reference)
    measured = "; ".join(ranges) + f" of {reference_name(spec)}'s time"
    if failing:
        # A time ratio above an at-most bound is a slower kernel; below an
        # at-least bound, a faster one.
        measured += f"; {'slower' if spec.at_most is not None else 'faster'}: " + \
            ", ".join(failing)
    return Verdict(spec, measured, not failing, judged, judged, with_reference)


def reference_name(spec: GoalSpec) -> str:
    """How the text names a goal's denominator: its reference_name, else the
    kernel's name in backticks."""
    return spec.reference_name or f"`{spec.denominator}`"
