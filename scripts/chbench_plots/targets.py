"""Family "targets": every SIMD kernel as Highway's dispatch runs it and
forced to each target, beside its scalar rival (the report's "SIMD targets"
section; targets_plot.py draws targets.png).

Which kernels are SIMD and what each is compared with comes from the run's
registry (`simd`, `rival`), so a kernel added to the library is covered here
without an edit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from . import rounds
from .load import Result, Run
from .numeric import integer, sig3

# Highway targets, widest first; others (NEON, SVE, ...) follow by name.
TARGET_ORDER = ("AVX10_2", "AVX3_SPR", "AVX3_ZEN4", "AVX3_DL", "AVX3", "AVX2", "SSE4", "SSSE3",
                "SSE2", "SCALAR", "EMU128")


def target_rank(name: str) -> tuple:
    """Sort key of a Highway target name: widest first, unknown ones after."""
    return (TARGET_ORDER.index(name), "") if name in TARGET_ORDER else (len(TARGET_ORDER), name)


@dataclass
class TargetGroup:
    """One SIMD kernel configuration of family "targets": its scalar
    counterpart (the registry's rival), its dispatched run and its runs
    forced to each target."""

    scheme: str
    kernel: str  # without @TARGET
    nodes: Optional[int]
    vnodes: Optional[int]
    keys: Optional[int]
    threads: Optional[int]
    scalar_label: str  # the rival's full name, `scheme/kernel`
    scalar: Optional[Result] = None
    dispatched: Optional[Result] = None
    dispatched_target: Optional[str] = None  # the target Highway's dispatch chose
    forced: dict = field(default_factory=dict)  # target name -> Result, widest first
    order: int = 0
    scheme_rank: int = 0

    @property
    def label(self) -> str:
        """`scheme/kernel`."""
        return f"{self.scheme}/{self.kernel}"

    def speedup(self, r: Optional[Result]) -> Optional[float]:
        """Median ns/key of the scalar counterpart ÷ that of r."""
        if r is None or self.scalar is None or not r.ns or not self.scalar.ns:
            return None
        return self.scalar.ns / r.ns

    def speedup_range(self, r: Result) -> Optional[tuple]:
        """The spread of the speed-up over r: for a run timed in rounds its
        95 % interval (the per-round ratios, rounds.ratio), else (slowest,
        fastest) over the repetitions of both; None if not known."""
        s = self.scalar
        if s is not None and s.rounds and r.rounds:
            ratio = rounds.ratio(s, r)
            return (ratio.lo, ratio.hi) if ratio is not None and ratio.has_interval else None
        if s is None or None in (s.ns_lo, s.ns_hi, r.ns_lo, r.ns_hi) or r.ns_lo <= 0:
            return None
        return s.ns_lo / r.ns_hi, s.ns_hi / r.ns_lo

    def avx2_over_avx3(self) -> Optional[float]:
        """Median ns/key forced to AVX2 ÷ forced to AVX3 (AVX-512); above 1,
        AVX3 is faster."""
        avx2, avx3 = self.forced.get("AVX2"), self.forced.get("AVX3")
        return avx2.ns / avx3.ns if avx2 and avx3 and avx3.ns else None


@dataclass
class TargetsAnalysis:
    """Family "targets" grouped per SIMD kernel configuration."""

    groups: list  # of TargetGroup, in scheme order, kernels in bench order
    targets: list  # every forced target name in the family, widest first
    notes: list


def analyse(run: Run) -> TargetsAnalysis:
    """Pairs each SIMD kernel of family "targets" with its scalar rival."""
    results = run.family("targets")
    by_config: dict = {}
    notes: list = []
    for r in results:
        rival = run.registry.rival(r.base_label) if run.registry else None
        if rival is None:
            kernel = run.registry.kernel(r.base_label) if run.registry else None
            note = f"`{r.base_label}` is SIMD but has no rival in the registry, so no speed-up"
            if kernel is not None and kernel.simd and note not in notes:
                notes.append(note)
            continue
        key = (r.scheme, r.base_kernel, r.nodes, r.vnodes, r.keys, r.threads)
        group = by_config.get(key)
        if group is None:
            group = by_config[key] = TargetGroup(r.scheme, r.base_kernel, r.nodes, r.vnodes,
                                                 r.keys, r.threads, rival, order=r.order,
                                                 scheme_rank=r.scheme_rank)
        group.order = min(group.order, r.order)
        if r.forced_target is None:
            group.dispatched = r
        else:
            group.forced[r.forced_target] = r
    groups = sorted(by_config.values(), key=lambda g: (
        g.scheme_rank, g.order, g.kernel, g.nodes or 0, g.keys or 0, g.vnodes or 0,
        g.threads or 0))
    pair_up(groups, results, run.context, notes)
    targets = sorted({t for g in groups for t in g.forced}, key=target_rank)
    if groups and not any("AVX2" in g.forced and "AVX3" in g.forced for g in groups):
        ran = ", ".join(targets) or "none"
        notes.append(f"no AVX2 : AVX3 ratio: needs both targets, this run forced {ran}")
    return TargetsAnalysis(groups, targets, notes)


def pair_up(groups: list, results: list, context: dict, notes: list) -> None:
    """Finds each group's scalar run and dispatched target, orders its forced
    runs widest first, and notes what is missing or odd."""
    scalars = {(r.label, r.nodes, r.vnodes, r.keys, r.threads): r for r in results}
    for g in groups:
        where = f"`{g.label}` at N = {integer(g.nodes)}, K = {integer(g.keys)}"
        g.forced = dict(sorted(g.forced.items(), key=lambda kv: target_rank(kv[0])))
        g.scalar = scalars.get((g.scalar_label, g.nodes, g.vnodes, g.keys, g.threads))
        if g.scalar is None:
            notes.append(f"{where}: no `{g.scalar_label}` with the same N, V, K and threads "
                         "in family `targets`, so no speed-up")
        for name, r in g.forced.items():
            if r.hwy_label and r.hwy_label != name:
                notes.append(f"`{r.config_name}` was forced to {name} but reports "
                             f"{r.hwy_label} as the target that ran")
        g.dispatched_target = dispatched_target(g, context)


def dispatched_target(group: TargetGroup, context: dict) -> Optional[str]:
    """The target the dispatched run used: its label, else the forced run with
    the same Highway target bit, else the run's context."""
    d = group.dispatched
    if d is None:
        return None
    if d.hwy_label:
        return d.hwy_label
    if d.hwy_target is not None:
        for name, r in group.forced.items():
            if r.hwy_target == d.hwy_target:
                return name
    target = context.get("chbench_hwy_target")
    return target if isinstance(target, str) and target else None


def rivals_text(groups: list) -> str:
    """'`a/x` and `a/y` against `a/s`; `b/z` against `b/s`': each SIMD kernel
    of the groups with its rival, in the groups' order."""
    by_rival: dict = {}
    for g in groups:
        kernels = by_rival.setdefault(g.scalar_label, [])
        if g.label not in kernels:
            kernels.append(g.label)
    return "; ".join(and_list([f"`{k}`" for k in kernels]) + f" against `{rival}`"
                     for rival, kernels in by_rival.items())


def and_list(items: list) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return " and ".join(filter(None, [", ".join(items[:-1]), items[-1]])) if items else ""


def section(analysis: TargetsAnalysis) -> list:
    """Per SIMD kernel configuration: ns/key and speed-up per Highway target."""
    lines = ["## SIMD targets (family `targets`)", ""]
    if not analysis.groups:
        return lines + ["No SIMD kernels in family `targets` in this run.", ""] + (
            [f"- {note}." for note in analysis.notes] + [""] if analysis.notes else [])
    lines += ["Each SIMD kernel as Highway's run-time dispatch runs it and forced to each "
              "target the CPU runs, beside its scalar counterpart, the rival the run's kernel "
              f"registry gives it ({rivals_text(analysis.groups)}), same N, V, K, one thread. "
              "Speed-up = median ns/key of the scalar counterpart ÷ median ns/key of the SIMD "
              "kernel (above 1: SIMD is faster). AVX2 : AVX3 = median ns/key forced to AVX2 ÷ "
              "forced to AVX3 (AVX-512); above 1, the 512-bit target is faster.", ""]
    lines += speedup_table(analysis) + times_table(analysis)
    if analysis.notes:
        lines += [f"- {note}." for note in analysis.notes] + [""]
    return lines


def speedup_table(analysis: TargetsAnalysis) -> list:
    """Speed-up over the scalar counterpart, per group and target."""
    targets = analysis.targets
    lines = ["### Speed-up over the scalar counterpart", ""]
    head = (["kernel", "N", "K", "scalar counterpart", "scalar ns/key", "dispatched"]
            + targets + ["AVX2 : AVX3"])
    lines += ["| " + " | ".join(head) + " |", "|---|---:|---:|---|---:|" + "---:|" * (
        len(head) - 5)]
    for g in analysis.groups:
        chosen = f" ({g.dispatched_target})" if g.dispatched_target else ""
        dispatched = (f"{sig3(g.speedup(g.dispatched))}×{chosen}"
                      if g.speedup(g.dispatched) else "–")
        row = [f"`{g.label}`", integer(g.nodes), integer(g.keys), f"`{g.scalar_label}`",
               sig3(g.scalar.ns) if g.scalar else "–", dispatched]
        row += [f"{sig3(g.speedup(g.forced.get(t)))}×" if g.speedup(g.forced.get(t)) else "–"
                for t in targets]
        ratio = g.avx2_over_avx3()
        row.append(sig3(ratio) if ratio else "–")
        lines.append("| " + " | ".join(row) + " |")
    return lines + [""]


def times_table(analysis: TargetsAnalysis) -> list:
    """Median ns/key, speed-up, CV and repetitions of every run of every group."""
    lines = ["### Median ns/key per target", "",
             "CV = standard deviation ÷ mean of ns/key over the repetitions.", "",
             "| kernel | N | K | target | ns/key | speed-up | CV % | reps |",
             "|---|---:|---:|---|---:|---:|---:|---:|"]
    for g in analysis.groups:
        rows = []
        if g.scalar is not None:
            rows.append((f"`{g.scalar_label}` (scalar counterpart)", g.scalar))
        if g.dispatched is not None:
            rows.append((f"dispatched ({g.dispatched_target or '?'})", g.dispatched))
        rows += [(t, r) for t, r in g.forced.items()]
        for name, r in rows:
            speedup = g.speedup(r)
            lines.append(f"| `{g.label}` | {integer(g.nodes)} | {integer(g.keys)} | {name} | "
                         f"{sig3(r.ns)} | {sig3(speedup) + '×' if speedup else '–'} | "
                         f"{sig3(r.cv * 100) if r.cv is not None else '–'} | "
                         f"{r.repetitions or '–'} |")
    return lines + [""]
