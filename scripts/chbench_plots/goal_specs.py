"""The records of goals.toml: the [[goal]] and [[ratio]] specifications,
read and checked (load_goals), each goal's threshold (one number, or one per
SIMD target) and kind. goals.py evaluates the goals on a run; the file's
header gives the record format.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from . import intervals
from .errors import InputError

GOALS_FILE = Path(__file__).resolve().with_name("goals.toml")
ROLES = ("best", "floor")  # operands that are not a kernel name
RING_KINDS = ("ratio_at_ring", "ratio_up_to", "each_vs_reference")
NODE_KINDS = ("simd_vs_rival_at_nodes", "pair_at_nodes", "best_at_most_every_n",
              "worst_over_best_n", "each_vs_floor_at_nodes")
# The kinds whose numerator is a list of kernels, each judged on its own.
EACH_KINDS = ("each_vs_reference", "worst_over_best_n", "each_vs_floor_at_nodes")
REPLICA_KINDS = ("replicas_ratio",)
GOAL_KINDS = RING_KINDS + NODE_KINDS + REPLICA_KINDS
RATIO_KINDS = ("pair", "simd")
NUMBER = (int, float)
# Every key a record may have, with its type; `required` per kind below.
GOAL_KEYS = {"title": str, "family": str, "kind": str, "numerator": (str, list),
             "denominator": str, "tokens": int, "at_least": NUMBER + (dict,),
             "at_most": NUMBER + (dict,), "table": str, "note": str, "reference_name": str,
             "nodes": list, "scheme": str, "kernel": str, "r_num": int, "r_den": int}
GOAL_REQUIRED = {"ratio_at_ring": ("title", "family", "numerator", "denominator", "tokens",
                                   "table"),
                 "ratio_up_to": ("title", "family", "numerator", "denominator", "tokens",
                                 "table"),
                 "each_vs_reference": ("title", "family", "numerator", "denominator", "table"),
                 "simd_vs_rival_at_nodes": ("title", "family", "nodes", "table"),
                 "pair_at_nodes": ("title", "family", "numerator", "denominator", "nodes",
                                   "table"),
                 "best_at_most_every_n": ("title", "family", "scheme", "table"),
                 "worst_over_best_n": ("title", "family", "numerator", "table"),
                 "each_vs_floor_at_nodes": ("title", "family", "numerator", "nodes", "table"),
                 "replicas_ratio": ("title", "family", "kernel", "r_num", "r_den", "nodes",
                                    "table")}
# The fields a kind takes beyond its required ones (and the thresholds).
GOAL_OPTIONAL = {"ratio_at_ring": ("note",), "ratio_up_to": ("note",),
                 "each_vs_reference": ("note", "reference_name"),
                 "simd_vs_rival_at_nodes": ("note",), "pair_at_nodes": ("note",),
                 "best_at_most_every_n": ("note", "nodes"), "worst_over_best_n": ("note", "nodes"),
                 "each_vs_floor_at_nodes": ("note",), "replicas_ratio": ("note", "tokens")}
RATIO_KEYS = {"kind": str, "title": str, "family": str, "numerator": str, "denominator": str,
              "min_tokens": int, "rival": str, "families": list, "min_nodes": int,
              "nodes": list}
RATIO_REQUIRED = {"pair": ("title", "family", "numerator", "denominator", "min_tokens"),
                  "simd": ("title", "rival", "families")}


@dataclass(frozen=True)
class GoalSpec:
    """One [[goal]] record. A threshold given per SIMD target is kept in
    by_target ((target, threshold), ...) with at_least / at_most None until
    for_target() picks one."""

    title: str
    family: str
    kind: str  # one of GOAL_KINDS
    table: str
    numerator: tuple = ()  # operands: kernel names or ROLES (EACH_KINDS: several kernels)
    denominator: str = ""  # none for worst_over_best_n and each_vs_floor_at_nodes
    tokens: Optional[int] = None
    at_least: Optional[float] = None
    at_most: Optional[float] = None
    note: str = ""
    reference_name: str = ""
    nodes: tuple = ()  # node kinds: the N judged (best_at_most_every_n: all when empty)
    scheme: str = ""  # best_at_most_every_n: the scheme whose best kernel is judged
    kernel: str = ""  # replicas_ratio: the kernel whose replica sets are compared
    r_num: int = 0  # replicas_ratio: R of the numerator
    r_den: int = 0  # replicas_ratio: R of the denominator
    by_target: tuple = ()  # ((Highway target, threshold), ...) when given per target
    least: bool = True  # the threshold is a lower bound (at_least)
    target_key: str = ""  # the by_target entry for_target() picked

    def __post_init__(self):
        # A spec built with at_most alone is an upper bound.
        if self.at_most is not None and self.at_least is None:
            object.__setattr__(self, "least", False)

    @property
    def unit(self) -> str:
        """What the judged figures are: a ratio, or ns/key for best_at_most_every_n."""
        return " ns/key" if self.kind == "best_at_most_every_n" else "×"

    @property
    def threshold(self) -> Optional[float]:
        """The threshold in force (None: per target and not picked yet)."""
        return self.at_least if self.least else self.at_most

    def outcome(self, estimate: intervals.Estimate, wide: bool = False) -> str:
        """intervals.MET, NOT_MET or INCONCLUSIVE of one figure (intervals.judge),
        widened as intervals.run_to_run(wide) says."""
        return intervals.judge(estimate, self.threshold, self.least, intervals.run_to_run(wide))

    def bound(self, short: bool = False) -> str:
        """'at least 20×' ('≥ 20×' when short); per target 'at least 4× on
        AVX3, 2× on AVX2', or, once picked, 'at least 4× (the AVX3
        threshold; AVX2: 2×)'."""
        word = ("≥" if short else "at least") if self.least else ("≤" if short else "at most")
        if self.threshold is None:
            return f"{word} " + ", ".join(f"{v:g}{self.unit} on {t}" for t, v in self.by_target)
        text = f"{word} {self.threshold:g}{self.unit}"
        if self.target_key and not short:
            others = "; ".join(f"{t}: {v:g}{self.unit}" for t, v in self.by_target
                               if t != self.target_key)
            text += f" (the {self.target_key} threshold" + (f"; {others})" if others else ")")
        return text

    def for_target(self, targets: list) -> tuple:
        """(this goal with the threshold of the SIMD targets `targets`, '') or
        (None, why not). A by_target key names a Highway target and the
        targets whose name starts with it and "_" (AVX3: AVX3_ZEN4,
        AVX3_SPR, ...); the longest key that matches wins."""
        if not self.by_target:
            return self, ""
        keys = {match_target(t, self.by_target) for t in targets}
        named = " and ".join(targets) or "unknown"
        given = ", ".join(t for t, _ in self.by_target)
        if not keys or None in keys:
            return None, f"no threshold for SIMD target {named} (the goal gives {given})"
        if len(keys) > 1:
            return None, (f"its SIMD kernels ran on {named}, whose thresholds differ "
                          f"({', '.join(sorted(keys))})")
        key = keys.pop()
        value = dict(self.by_target)[key]
        kind = "at_least" if self.least else "at_most"
        return dataclasses.replace(self, target_key=key, **{kind: value}), ""


def match_target(target: str, by_target: tuple) -> Optional[str]:
    """The by_target key that names `target` (itself, or a prefix before "_"), the
    longest if several; None if none does."""
    keys = [k for k, _ in by_target if target == k or target.startswith(k + "_")]
    return max(keys, key=len, default=None)


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
    allowed = set(GOAL_REQUIRED[kind]) | set(GOAL_OPTIONAL[kind]) | {"kind", "at_least",
                                                                       "at_most"}
    extra = sorted(set(record) - allowed)
    if extra:
        raise InputError(f"{where}: {extra[0]!r} means nothing to kind {kind}")
    fields = {k: v for k, v in record.items()
              if k not in ("numerator", "kind", "at_least", "at_most", "nodes")}
    fields.update(threshold_fields(record, where))
    if "nodes" in record:
        fields["nodes"] = node_list(record["nodes"], where)
    if kind in REPLICA_KINDS:
        check_replicas(record, where)
    if kind in ("simd_vs_rival_at_nodes", "best_at_most_every_n") + REPLICA_KINDS:
        return GoalSpec(kind=kind, **fields)
    return GoalSpec(kind=kind, numerator=numerator_of(record, kind, where), **fields)


def numerator_of(record: dict, kind: str, where: str) -> tuple:
    """The record's operands checked: the numerator as a tuple."""
    numerator = record["numerator"]
    numerator = (numerator,) if isinstance(numerator, str) else tuple(numerator)
    several = kind in EACH_KINDS
    if not numerator or not all(isinstance(n, str) and n for n in numerator) \
            or (len(numerator) > 1 and not several):
        raise InputError(f"{where}: 'numerator' must be " + (
            "a list of kernel names" if several else "one operand"))
    operands = numerator + ((record["denominator"],) if "denominator" in record else ())
    if (several or kind in NODE_KINDS) and any(op in ROLES for op in operands):
        raise InputError(f"{where}: {kind} compares kernels named in full")
    for op in operands:
        if op not in ROLES and op.count("/") != 1:
            raise InputError(f"{where}: operand {op!r} is neither scheme/kernel nor one of "
                             f"{', '.join(ROLES)}")
    return numerator


def check_replicas(record: dict, where: str) -> None:
    """A replicas_ratio record's kernel (scheme/kernel) and its two R
    (positive, different)."""
    if record["kernel"].count("/") != 1 or not all(record["kernel"].split("/")):
        raise InputError(f"{where}: 'kernel' must be scheme/kernel, not {record['kernel']!r}")
    if record["r_num"] < 1 or record["r_den"] < 1 or record["r_num"] == record["r_den"]:
        raise InputError(f"{where}: 'r_num' and 'r_den' must be two different positive "
                         "replica counts")


def threshold_fields(record: dict, where: str) -> dict:
    """GoalSpec's threshold fields from the record's at_least or at_most: a
    number, or a table of numbers by Highway target."""
    least = "at_least" in record
    value = record["at_least" if least else "at_most"]
    if not isinstance(value, dict):
        return {"least": least, ("at_least" if least else "at_most"): value}
    name = "at_least" if least else "at_most"
    if not value or not all(isinstance(v, NUMBER) and not isinstance(v, bool)
                            for v in value.values()):
        raise InputError(f"{where}: {name!r} as a table must map Highway targets to numbers")
    return {"least": least, "by_target": tuple(value.items())}


def node_list(values: list, where: str) -> tuple:
    """A record's 'nodes': positive integers."""
    if not values or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                             for v in values):
        raise InputError(f"{where}: 'nodes' must list positive integers")
    return tuple(values)


def check_tables(goals: tuple, path: Path) -> None:
    """Goals that share a table must compare the same thing."""
    seen: dict = {}
    for g in goals:
        shape = (g.family, g.kind, g.numerator, g.denominator, g.scheme, g.r_num, g.r_den)
        if seen.setdefault(g.table, shape) != shape:
            raise InputError(f"goals file {path}: goals of table {g.table!r} differ in family, "
                             "kind, operands or replica counts")


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
