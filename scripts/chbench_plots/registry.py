"""The run's kernel registry: what each scheme and kernel is, as the bench
that measured them says.

The bench writes the library's registry (kernels/chbench/scheme.h:
SchemeInfo, KernelInfo) into its Google Benchmark context under the key
CONTEXT_KEY, as a JSON *string*:

  {"schemes":  [{"name": "ring", "title": "...", "source": "...", "aliases": [],
                 "params": ["vnodes"], "removal": "any", "max_nodes": 4294967295,
                 "buckets_only": false, "scores_every_node": false}, ...],
   "params":   [{"name": "vnodes", "kind": "int", "option": "--vnodes", "symbol": "V",
                 "help": "...", "min": 1, "max": 4294967295, "default": 100,
                 "segment": "V", "field": "vnodes", "counter": true}, ...],
   "kernels":  [{"name": "ring/<kernel>", "scheme": "ring", "kernel": "<kernel>",
                 "summary": "...", "simd": true, "rival": "ring/<scalar kernel>",
                 "baseline": false, "rank": 1, "stream": false, "floor": null,
                 "knob": {"name": "lockstep group", "default": "...", "min": 1,
                          "max": 256, "sweep": [1, 2, 4]}}, ...]}

(A run from before chbench_families also lists its "families" here; the
family list is families.py's.)

Schemes and kernels are in registry order. A scheme's `removal` says which
nodes may leave ("any", "last": only the last bucket, as jump hash, "none");
`buckets_only` that it places keys by the bucket count alone (no node names,
no table); `scores_every_node` that its lookup scores every node (rendezvous and
weighted rendezvous; for a run from before the bench wrote the field, every run
committed before it, the documented fallback LEGACY_SCORES_EVERY_NODE). `rival`
is the full name of the scalar kernel of the same scheme a SIMD kernel is
measured against (null: none); a floor (`floor`: "stream", "compute" or
"random_read", rank null) is one of the bench's floors, not a library kernel:
the stream baseline (also `stream: true`, all an older run marks), the compute
floor and the random-read floor (floors.py). Only the names are required; every other field
has the default a kernel without it would have (not SIMD, no rival, no knob).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Optional

from .errors import InputError

CONTEXT_KEY = "chbench_registry"
# The schemes whose lookup scored every node when the bench did not yet write
# "scores_every_node": the fallback for a run from before it.
LEGACY_SCORES_EVERY_NODE = ("hrw", "hrw_weighted")


@dataclass(frozen=True)
class Knob:
    """A kernel's tuning parameter (family "inflight" sweeps it)."""

    name: str  # "lockstep group"
    default: str  # the rule the kernel uses when it is not set, in words
    minimum: Optional[int]
    maximum: Optional[int]
    sweep: tuple  # the values a sweep tries


@dataclass(frozen=True)
class Kernel:
    """One registry entry: a kernel of a scheme, or the stream baseline."""

    label: str  # "scheme/kernel", as benchmark names carry it
    scheme: str
    kernel: str
    summary: str = ""
    simd: bool = False  # dispatches through Highway (family "targets" forces each target)
    rival: Optional[str] = None  # full name of the scalar kernel it is compared with
    baseline: bool = False  # a slow baseline kept for comparison
    rank: Optional[int] = None  # lowest = the scheme's default (fastest)
    stream: bool = False  # the stream baseline: a memory floor, never a kernel
    knob: Optional[Knob] = None
    floor: Optional[str] = None  # a floor's kind ("stream", "compute", "random_read")


@dataclass(frozen=True)
class Scheme:
    """One scheme of the registry."""

    name: str
    title: str  # "rendezvous (HRW)"
    params: tuple = ()  # what it takes beyond the nodes: "vnodes", "table_size", ...
    removal: str = "any"  # which nodes may leave: "any", "last" (the last bucket), "none"
    buckets_only: bool = False  # places keys by the bucket count alone
    scores_every_node: bool = False  # its lookup scores every node: O(N) a key

    @property
    def jump_like(self) -> bool:
        """Places by the bucket count alone and lets only the last bucket
        leave: jump hash and its successors (the bench's family "dense")."""
        return self.buckets_only and self.removal == "last"


@dataclass(frozen=True)
class Param:
    """One parameter of the bench's parameter table (kernels/chbench/params.h):
    what a scheme's "params" name, and how the run's names and counters carry it."""

    name: str  # "vnodes", as a scheme's "params" lists it
    kind: str = "int"  # "int": one number for the fleet; "per_node": one per node
    option: str = ""  # the lab's option: "--vnodes"
    symbol: str = ""  # "V", for headings and formulas
    help: str = ""
    minimum: Optional[int] = None
    maximum: Optional[int] = None
    default: Optional[int] = None
    segment: Optional[str] = None  # the name segment's key ("V" of "/V:100"), if any
    field: str = ""  # the results' field (and counter) that holds it


@dataclass(frozen=True)
class Registry:
    """Schemes, kernels and parameters of one run, in registry order."""

    schemes: tuple  # of Scheme
    kernels: dict  # label -> Kernel, in registry order
    params: tuple = ()  # of Param; empty for a run from before the parameter table

    def param(self, name: str) -> Optional[Param]:
        """The parameter `name` ("vnodes") of the run's table, if it has one."""
        return next((p for p in self.params if p.name == name), None)

    def scheme_rank(self, scheme: str) -> int:
        """Where the scheme stands in registry order; unknown ones after all."""
        names = [s.name for s in self.schemes]
        return names.index(scheme) if scheme in names else len(names)

    def scheme_title(self, scheme: str) -> str:
        """The scheme's title ("rendezvous (HRW)"), else its name."""
        return next((s.title for s in self.schemes if s.name == scheme), scheme)

    def ring(self) -> Optional[str]:
        """The scheme that places tokens on a ring, the one that takes virtual
        nodes ("vnodes"), first in registry order; None if the run has none."""
        return next((s.name for s in self.schemes if "vnodes" in s.params), None)

    def rendezvous(self) -> Optional[str]:
        """Plain rendezvous: the scheme whose lookup scores every node and takes
        no weights, first in registry order; None if the run has none (or is
        from before the registry marked the scoring schemes)."""
        return next((s.name for s in self.schemes
                     if s.scores_every_node and "weights" not in s.params), None)

    def jump_family(self) -> list:
        """The schemes that place by the bucket count alone with last-bucket
        removal (Scheme.jump_like), in registry order."""
        return [s for s in self.schemes if s.jump_like]

    def takes(self, scheme: str, param: str) -> bool:
        """Whether the scheme takes a parameter ("vnodes": the ring's V)."""
        return any(s.name == scheme and param in s.params for s in self.schemes)

    def kernel(self, label: str) -> Optional[Kernel]:
        """The entry of `scheme/kernel` (a forced `@TARGET` ignored), if any."""
        return self.kernels.get(label.partition("@")[0])

    def rival(self, label: str) -> Optional[str]:
        """The full name of the scalar kernel a SIMD kernel is measured
        against; None for a kernel that is not SIMD or has no rival."""
        k = self.kernel(label)
        return k.rival if k is not None and k.simd else None

    def floor_kind(self, label: str) -> Optional[str]:
        """The floor kind of `label` ("stream", ...), None for a kernel."""
        k = self.kernel(label)
        return k.floor if k is not None else None

    def floors(self, kind: str = "stream") -> list:
        """The labels of the floors of one kind (the stream baseline's by
        default), in registry order."""
        return [k.label for k in self.kernels.values() if k.floor == kind]

    def knob_name(self, label: str) -> Optional[str]:
        """What the kernel's knob is called ("prefetch distance"), if it has one."""
        k = self.kernel(label)
        return k.knob.name if k is not None and k.knob is not None else None

    def simd_kernels(self, rival: Optional[str] = None) -> list:
        """The SIMD kernels with a rival, in registry order; only those
        measured against `rival` when it is given."""
        return [k for k in self.kernels.values() if k.simd and k.rival
                and (rival is None or k.rival == rival)]


def from_context(context: dict, source: Any) -> Registry:
    """Parses context[CONTEXT_KEY] of the run read from `source` (a path, for
    messages). Raises InputError, one line, when it is missing, not a JSON
    string, or not shaped as the module docstring says."""
    where = f"{source}: context \"{CONTEXT_KEY}\""
    if CONTEXT_KEY not in context:
        raise InputError(f"{source} has no kernel registry (context \"{CONTEXT_KEY}\"); "
                         "it was written by an older bench: rerun the bench")
    text = context[CONTEXT_KEY]
    if not isinstance(text, str):
        raise InputError(f"{where} is not a string holding JSON")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        detail = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise InputError(f"{where} is not valid JSON ({detail})") from None
    if not isinstance(data, dict):
        raise InputError(f"{where} is not a JSON object")
    schemes = [parse_scheme(i, s, where) for i, s in enumerate(listed(data, "schemes", where))]
    kernels: dict = {}
    for i, k in enumerate(listed(data, "kernels", where)):
        kernel = parse_kernel(i, k, where)
        if kernel.label in kernels:
            raise InputError(f"{where} lists kernel {kernel.label} twice")
        kernels[kernel.label] = kernel
    if not kernels:
        raise InputError(f"{where} lists no kernels")
    params = [parse_param(i, p, where) for i, p in enumerate(data.get("params") or [])]
    return Registry(tuple(schemes), kernels, tuple(params))


def listed(data: dict, key: str, where: str) -> list:
    """data[key], which must be a list."""
    value = data.get(key)
    if not isinstance(value, list):
        raise InputError(f"{where} has no \"{key}\" list")
    return value


def field_of(entry: dict, key: str, kinds: tuple, default: Any, what: str) -> Any:
    """entry[key] if it has one of the types `kinds` (null counts as absent)."""
    value = entry.get(key)
    if value is None:
        return default
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise InputError(f"{what}: \"{key}\" is not a {kinds[0].__name__}")
    return value


def parse_scheme(index: int, entry: Any, where: str) -> Scheme:
    """One "schemes" entry."""
    what = f"{where}, scheme {index + 1}"
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) \
            or not entry["name"]:
        raise InputError(f"{what} has no \"name\"")
    params = field_of(entry, "params", (list,), [], what)
    if not all(isinstance(p, str) for p in params):
        raise InputError(f"{what}: \"params\" holds a value that is not a string")
    return Scheme(entry["name"], field_of(entry, "title", (str,), entry["name"], what),
                  tuple(params), field_of(entry, "removal", (str,), "any", what),
                  field_of(entry, "buckets_only", (bool,), False, what),
                  field_of(entry, "scores_every_node", (bool,),
                           entry["name"] in LEGACY_SCORES_EVERY_NODE, what))


def parse_param(index: int, entry: Any, where: str) -> Param:
    """One "params" entry (a run from before the table has none)."""
    what = f"{where}, param {index + 1}"
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) \
            or not entry["name"]:
        raise InputError(f"{what} has no \"name\"")
    kind = field_of(entry, "kind", (str,), "int", what)
    if kind not in ("int", "per_node"):
        raise InputError(f"{what}: \"kind\" is {kind!r}, not int or per_node")
    return Param(entry["name"], kind, field_of(entry, "option", (str,), "", what),
                 field_of(entry, "symbol", (str,), "", what),
                 field_of(entry, "help", (str,), "", what),
                 field_of(entry, "min", (int,), None, what),
                 field_of(entry, "max", (int,), None, what),
                 field_of(entry, "default", (int,), None, what),
                 field_of(entry, "segment", (str,), None, what) or None,
                 field_of(entry, "field", (str,), entry["name"], what))


def parse_kernel(index: int, entry: Any, where: str) -> Kernel:
    """One "kernels" entry."""
    what = f"{where}, kernel {index + 1}"
    name = entry.get("name") if isinstance(entry, dict) else None
    scheme, _, kernel = name.partition("/") if isinstance(name, str) else ("", "", "")
    if not scheme or not kernel or "/" in kernel:
        raise InputError(f"{what} has no \"name\" of the form scheme/kernel")
    what = f"{where}, kernel {name}"
    knob = field_of(entry, "knob", (dict,), None, what)
    stream = field_of(entry, "stream", (bool,), False, what)
    return Kernel(
        label=name, scheme=scheme, kernel=kernel,
        summary=field_of(entry, "summary", (str,), "", what),
        simd=field_of(entry, "simd", (bool,), False, what),
        rival=field_of(entry, "rival", (str,), None, what) or None,
        baseline=field_of(entry, "baseline", (bool,), False, what),
        rank=field_of(entry, "rank", (int,), None, what),
        stream=stream,
        knob=None if knob is None else parse_knob(knob, what),
        floor=field_of(entry, "floor", (str,), None, what) or ("stream" if stream else None))


def parse_knob(entry: dict, what: str) -> Knob:
    """A kernel's "knob" object."""
    what += ", knob"
    name = field_of(entry, "name", (str,), "", what)
    if not name:
        raise InputError(f"{what} has no \"name\"")
    sweep = field_of(entry, "sweep", (list,), [], what)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in sweep):
        raise InputError(f"{what}: \"sweep\" holds a value that is not an integer")
    return Knob(name, field_of(entry, "default", (str,), "", what),
                field_of(entry, "min", (int,), None, what),
                field_of(entry, "max", (int,), None, what), tuple(sweep))
