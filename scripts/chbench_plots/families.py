"""The run's families and name segments, as the bench that measured them
describes them.

The bench writes into its Google Benchmark context, under CONTEXT_KEY, a
JSON *string*:

  {"segments": [{"key": "N", "field": "nodes", "kind": "int", "title": "N"}, ...],
   "families": [{"name": "tokens", "title": "...", "quick_budget_s": 32,
                 "params": ["N", "V", "K", "threads"]}, ...]}

Segments are in the order a configuration's name writes them, after
`family/scheme/kernel`: `/<key>:<value>`, the value an "int", a "number"
(need not be whole) or a "word"; `field` is what the scripts call the
parameter (Result's attribute of that name, and Result.params). Families
are in the order the bench runs them, each with the keys of the segments its
names carry.

A run from before the bench wrote this (every run committed before it) is
read by the documented fallback: the segments the bench wrote then
(LEGACY_SEGMENTS), the families' names and titles from its registry
("families" of chbench_registry) where it has them, else in the order the
run's names first show them, titled by name; a family's params are then the
segments its names carry.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Optional

from .errors import InputError

CONTEXT_KEY = "chbench_families"
KINDS = ("int", "number", "word")


@dataclass(frozen=True)
class Segment:
    """One parameter a name may carry."""

    key: str  # in the name: "N" of "/N:1000"
    field: str  # the scripts' name of it: "nodes"
    kind: str  # "int", "number" or "word"
    title: str  # for a table's heading

    def value(self, text: str) -> Any:
        """The segment's value from its text; None when it does not parse."""
        if self.kind == "word":
            return text or None
        try:
            return int(text) if self.kind == "int" else float(text)
        except ValueError:
            return None


@dataclass(frozen=True)
class Family:
    """One family of the bench."""

    name: str
    title: str
    params: tuple = ()  # segment keys, in name order


# The segments as the bench wrote them before it described them.
LEGACY_SEGMENTS = (
    Segment("N", "nodes", "int", "N"), Segment("V", "vnodes", "int", "V"),
    Segment("K", "keys", "int", "K"), Segment("threads", "threads", "int", "threads"),
    Segment("inflight", "in_flight", "int", "in flight"),
    Segment("window", "window_bits", "int", "window bits"),
    Segment("M", "table_size", "int", "M"), Segment("c", "balance_factor", "number", "c"),
    Segment("removed", "removed_pct", "number", "removed %"),
    Segment("order", "removal_order", "word", "order"),
    Segment("capacity", "fleet_capacity", "int", "capacity"),
    Segment("change", "change", "word", "change"),
    Segment("weights", "weights", "word", "weights"),
    Segment("R", "replicas", "int", "R"))


@dataclass
class Families:
    """The run's segments (by key, in name order) and families (in run order)."""

    segments: dict  # key -> Segment
    families: list  # of Family
    described: bool = True  # False: the fallback of a run from before

    def order(self, present: list) -> list:
        """The family names of `present` (in the run's first-seen order): the
        bench's order, then any it does not list (a custom run) as they came."""
        listed = [f.name for f in self.families if f.name in present]
        return listed + [f for f in present if f not in listed]

    def completed(self, results: list) -> "Families":
        """These families with those only the results show (in first-seen
        order), and, where a family lists no params, the segments its
        results' names carry. results: load.Result, each with params by field."""
        keys = {s.field: s.key for s in self.segments.values()}
        seen: dict = {}
        for r in results:
            seen.setdefault(r.family, set()).update(keys[f] for f in r.params if f in keys)
        families = list(self.families)
        families += [Family(name, name) for name in seen if self.family(name) is None]
        families = [f if f.params or f.name not in seen else
                    Family(f.name, f.title, tuple(k for k in self.segments if k in seen[f.name]))
                    for f in families]
        return Families(self.segments, families, self.described)

    def family(self, name: str) -> Optional[Family]:
        """The family of that name, or None."""
        return next((f for f in self.families if f.name == name), None)

    def title(self, name: str) -> str:
        """The family's title, else its name."""
        family = self.family(name)
        return family.title if family and family.title else name

    def params(self, name: str) -> tuple:
        """The segments the family's names carry (Segment, in name order)."""
        family = self.family(name)
        return tuple(self.segments[k] for k in family.params if k in self.segments) \
            if family else ()


def from_context(context: dict, source: Any) -> Families:
    """The run's description, or the fallback (module docstring) when it has
    none. Raises InputError, naming `source`, for a corrupt description."""
    text = context.get(CONTEXT_KEY)
    if text is None:
        return Families({s.key: s for s in LEGACY_SEGMENTS}, legacy_families(context), False)
    where = f"{source}: context {CONTEXT_KEY}"
    try:
        data = json.loads(text) if isinstance(text, str) else None
    except ValueError as err:
        raise InputError(f"{where} is not valid JSON ({err})") from None
    if not isinstance(data, dict):
        raise InputError(f"{where} is not a JSON object")
    segments = [parse_segment(i, e, where) for i, e in enumerate(entries(data, "segments", where))]
    families = [parse_family(i, e, where) for i, e in enumerate(entries(data, "families", where))]
    return Families({s.key: s for s in segments}, families)


def legacy_families(context: dict) -> list:
    """The families of an older run's registry (names and titles), or []."""
    try:
        data = json.loads(context.get("chbench_registry") or "{}")
    except (TypeError, ValueError):
        return []
    listed = data.get("families") if isinstance(data, dict) else None
    return [Family(f["name"], str(f.get("title") or f["name"]))
            for f in listed or () if isinstance(f, dict) and isinstance(f.get("name"), str)]


def entries(data: dict, key: str, where: str) -> list:
    """data[key], a list. Raises InputError."""
    value = data.get(key)
    if not isinstance(value, list):
        raise InputError(f"{where} has no \"{key}\" list")
    return value


def text_field(entry: Any, key: str, what: str) -> str:
    """entry[key], a non-empty string. Raises InputError."""
    value = entry.get(key) if isinstance(entry, dict) else None
    if not isinstance(value, str) or not value:
        raise InputError(f"{what} has no \"{key}\" string")
    return value


def parse_segment(index: int, entry: Any, where: str) -> Segment:
    """One entry of "segments". Raises InputError."""
    what = f"{where}: segment {index}"
    kind = text_field(entry, "kind", what)
    if kind not in KINDS:
        raise InputError(f"{what} has kind \"{kind}\", not one of {', '.join(KINDS)}")
    return Segment(text_field(entry, "key", what), text_field(entry, "field", what), kind,
                   text_field(entry, "title", what))


def parse_family(index: int, entry: Any, where: str) -> Family:
    """One entry of "families". Raises InputError."""
    what = f"{where}: family {index}"
    params = entry.get("params", []) if isinstance(entry, dict) else None
    if not isinstance(params, list) or not all(isinstance(p, str) for p in params):
        raise InputError(f"{what} has no \"params\" list of segment keys")
    return Family(text_field(entry, "name", what), text_field(entry, "title", what),
                  tuple(params))
