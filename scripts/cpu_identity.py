"""The CPU identity of a run, read from its bench.json context, so that
index.py and compare.py never put runs of two different CPUs into one set.

A context holds it in up to three forms, used in this order:

- `chbench_cpu`: the output of `scripts/machine-name.sh --json` (a JSON string
  that scripts/run.sh adds to the context): vendor, family, model, stepping or
  Arm implementer, part, variant, revision; the microarchitecture; the SIMD
  level; caches; CPU count; and the folder name it gave.
- `chbench_cpu_vendor`, `chbench_cpu_family`, `chbench_cpu_model_number`,
  `chbench_cpu_stepping`, `chbench_cpu_implementer`, `chbench_cpu_part`,
  `chbench_cpu_variant`, `chbench_cpu_revision`: the bench's own reading of
  /proc/cpuinfo ("unknown" where the CPU has no such field).
- Always, in every run so far: `chbench_cpu_model` (the model name),
  `chbench_cpu_flags` (the flags or Arm Features line), Google Benchmark's
  `caches` and `num_cpus`. Runs from before the bench recorded the family and
  model hold only these; their identity is the model name, the flags that
  matter (IDENTITY_FLAGS), the cache sizes and the CPU count.

Two identities agree when every field both of them know is equal (a field one
of them lacks is no evidence either way; cache sizes are known only where
sysfs shows them, see _caches); runs whose identities do not agree
are different CPUs. The flags compared are those of IDENTITY_FLAGS present in
the run's flags line, so a kernel that lists more or fewer other flags does
not split a CPU in two.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Optional

# The flags that decide Highway's SIMD target or change what the kernels may
# use; the same list as scripts/machine-name.sh's `matter` (a test checks).
IDENTITY_FLAGS = (
    "sse4_1 sse4_2 popcnt aes pclmulqdq avx avx2 bmi1 bmi2 fma f16c avx512f avx512dq "
    "avx512cd avx512bw avx512vl avx512ifma avx512vbmi avx512_vbmi2 avx512_vnni avx512_bitalg "
    "avx512_vpopcntdq avx512_bf16 avx512_fp16 avx512_vp2intersect avx_vnni gfni vaes vpclmulqdq "
    "sha_ni amx_tile asimd asimddp asimdhp atomics crc32 sha3 sve sve2 svebf16 svei8mm bf16 i8mm"
).split()

# The fields compared, in the order the text shows them.
FIELDS = ("vendor", "family", "model", "stepping", "implementer", "part", "variant", "revision",
          "model_name", "isa", "vector_bits", "flags", "l1d", "l1i", "l2", "l3", "cpus")
CACHE_LEVELS = ("l1d", "l1i", "l2", "l3")


@dataclass(frozen=True)
class Identity:
    """What a run says about its CPU: `values` holds (field, value) pairs for
    the FIELDS it knows; `microarchitecture` and `name` (machine-name.sh's
    folder name) are shown, not compared (a newer table may name more)."""

    values: tuple = ()
    microarchitecture: Optional[str] = None
    name: Optional[str] = None

    def get(self, key: str) -> Any:
        """The value of one field, or None when the run does not record it."""
        return dict(self.values).get(key)

    @property
    def recorded(self) -> bool:
        """Whether the run recorded the CPU's family and model (or Arm part)."""
        return self.get("family") is not None or self.get("part") is not None

    def differences(self, other: "Identity") -> list:
        """The fields both know and that differ, as `field a ≠ b` texts (for
        the flags, those only one of them has: `flags avx512f ... ≠ –`)."""
        mine, theirs = dict(self.values), dict(other.values)
        out = []
        for key in FIELDS:
            if key not in mine or key not in theirs or mine[key] == theirs[key]:
                continue
            a, b = mine[key], theirs[key]
            if key == "flags":
                a, b = a - b, b - a
            out.append(f"{key} {show(key, a)} ≠ {show(key, b)}")
        return out

    def agrees(self, other: "Identity") -> bool:
        """True unless a field both know differs."""
        return not self.differences(other)

    def merged(self, other: "Identity") -> "Identity":
        """This identity with the fields only `other` knows added."""
        values = dict(other.values)
        values.update(dict(self.values))
        return Identity(tuple((k, values[k]) for k in FIELDS if k in values),
                        self.microarchitecture or other.microarchitecture,
                        self.name or other.name)

    def text(self, flags: bool = False) -> str:
        """One line for a reader, e.g. `AuthenticAMD family 26 model 2
        stepping 1 (zen5); "AMD EPYC"; avx512; L1d 48 KiB, L2 1 MiB; 2 CPUs`;
        with flags=True the flags that matter follow the SIMD level."""
        v = dict(self.values)
        if not v:
            return "nothing recorded about the CPU"
        parts = []
        if "family" in v or "model" in v:
            cpu = " ".join(f"{k} {v[k]}" for k in ("family", "model", "stepping") if k in v)
            parts.append(f"{v.get('vendor', '?')} {cpu}")
        elif "part" in v:
            cpu = f"implementer {v.get('implementer', '?')} part {v['part']}"
            if "variant" in v and "revision" in v:
                cpu += f" r{int(v['variant'], 16)}p{v['revision']}"
            parts.append(f"Arm {cpu}")
        if parts and self.microarchitecture:
            parts[-1] += f" ({self.microarchitecture})"
        if "model_name" in v:
            parts.append(f'"{v["model_name"]}"')
        if "isa" in v:
            isa = v["isa"] + (f" {v['vector_bits']}-bit" if "vector_bits" in v else "")
            if flags and v.get("flags"):
                isa += f" ({' '.join(f for f in IDENTITY_FLAGS if f in v['flags'])})"
            parts.append(isa)
        caches = [f"{level[:2].upper()}{level[2:]} {binary_size(v[level])}"
                  for level in CACHE_LEVELS if level in v]
        if caches:
            parts.append(", ".join(caches))
        if "cpus" in v:
            parts.append(f"{v['cpus']} CPUs")
        if not self.recorded:
            parts.append("family and model not recorded (identity from the CPU flags and "
                         "cache sizes in bench.json)")
        return "; ".join(parts)


def show(key: str, value: Any) -> str:
    """A field's value in a difference text."""
    if key == "flags":
        return " ".join(f for f in IDENTITY_FLAGS if f in value) or "–"
    if key in CACHE_LEVELS:
        return binary_size(value)
    return str(value)


def binary_size(size: int) -> str:
    """`48 KiB`, `1 MiB`, `512 B`."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size} B" if size < 1024 else f"{size / 1024:.0f} KiB"


def _known(value: Any) -> Optional[str]:
    """A context string, or None when missing, empty or "unknown"."""
    if value is None or isinstance(value, (dict, list)):
        return None
    text = str(value).strip()
    return None if text in ("", "unknown", "none", "?") else text


def _integer(value: Any, base: int = 10) -> Optional[int]:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    text = _known(value)
    try:
        number = int(text, base) if text is not None else None
    except ValueError:
        return None
    return number if number is None or number >= 0 else None


def _hex(value: Any, digits: int) -> Optional[str]:
    number = _integer(value, 16)
    return None if number is None else f"0x{number:0{digits}x}"


def _isa(flags: set) -> Optional[str]:
    """The SIMD level a flags line gives, as machine-name.sh names it."""
    for flag, isa in (("avx512f", "avx512"), ("avx2", "avx2"), ("sse4_2", "sse4"), ("sse2", "sse2"),
                      ("sve2", "sve2"), ("sve", "sve"), ("asimd", "neon")):
        if flag in flags:
            return isa
    return None


def _caches(context: dict, cpu: dict) -> dict:
    """l1d, l1i, l2, l3 sizes in bytes: Google Benchmark's `caches` list (what
    sysfs shows), else, in a context without that list, machine-name.sh's
    `caches` object. An empty list means a VM that shows no cache in sysfs:
    the sizes are then unknown, and the ones the hypervisor's CPUID gives the
    C library (machine-name.sh's fallback) are not compared: one such Zen 5
    VM reported an L3 of 508 MiB where sysfs on the same CPU showed 32 MiB."""
    out = {}
    listed = context.get("caches")
    if isinstance(listed, list) and not listed:
        return out
    for cache in listed if isinstance(listed, list) else []:
        if not isinstance(cache, dict):
            continue
        level, size = _integer(cache.get("level")), _integer(cache.get("size"))
        kind = {"Data": "d", "Instruction": "i", "Unified": ""}.get(cache.get("type"))
        if level and size and kind is not None and f"l{level}{kind}" in CACHE_LEVELS:
            out[f"l{level}{kind}"] = size
    if not out and isinstance(cpu.get("caches"), dict):
        for level in CACHE_LEVELS:
            size = _integer(cpu["caches"].get(level))
            if size:
                out[level] = size
    return out


def recorded_json(context: dict) -> dict:
    """The context's chbench_cpu (machine-name.sh --json) as a dict, or {}
    when the run has none or it is not a JSON object."""
    cpu = context.get("chbench_cpu")
    if isinstance(cpu, str):
        try:
            cpu = json.loads(cpu)
        except (ValueError, RecursionError):
            return {}
    return cpu if isinstance(cpu, dict) else {}


def identity_of(context: dict) -> Identity:
    """The identity a bench.json context records (see the module text)."""
    if not isinstance(context, dict):
        context = {}
    cpu = recorded_json(context)

    def pick(name: str, key: str) -> Any:
        value = cpu.get(name)
        return value if _known(value) is not None else context.get(key)

    values: dict = {
        "vendor": _known(pick("vendor", "chbench_cpu_vendor")),
        "family": _integer(pick("family", "chbench_cpu_family")),
        "model": _integer(pick("model", "chbench_cpu_model_number")),
        "stepping": _integer(pick("stepping", "chbench_cpu_stepping")),
        "implementer": _hex(pick("implementer", "chbench_cpu_implementer"), 2),
        "part": _hex(pick("part", "chbench_cpu_part"), 3),
        "variant": _hex(pick("variant", "chbench_cpu_variant"), 1),
        "revision": _integer(pick("revision", "chbench_cpu_revision")),
        "model_name": _known(context.get("chbench_cpu_model")) or _known(cpu.get("model_name")),
        "cpus": _integer(context.get("num_cpus")) or _integer(cpu.get("cpus")),
    }
    line = context.get("chbench_cpu_flags")
    if isinstance(line, str) and _known(line):
        raw = set(line.split())
    elif isinstance(cpu.get("flags"), list):
        raw = {str(f) for f in cpu["flags"]}
    else:
        raw = set()
    if raw:
        values["flags"] = frozenset(raw & set(IDENTITY_FLAGS))
        values["isa"] = _isa(raw)
    if (values.get("isa") or "").startswith("sve"):
        values["vector_bits"] = _integer(cpu.get("vector_bits"))
    values.update(_caches(context, cpu))
    return Identity(tuple((k, values[k]) for k in FIELDS if values.get(k) is not None),
                    _known(cpu.get("microarchitecture")), _known(cpu.get("name")))


def group(items: list) -> list:
    """Groups (key, Identity) pairs, in the given order, by agreeing
    identity: [(merged Identity, [keys])], a key joining the first group whose
    identity (all its members' fields together) it agrees with."""
    groups: list = []
    for key, identity in items:
        for i, (known, keys) in enumerate(groups):
            if known.agrees(identity):
                groups[i] = (known.merged(identity), keys + [key])
                break
        else:
            groups.append((identity, [key]))
    return groups
