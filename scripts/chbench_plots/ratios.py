"""The report's "Ratios" section: the goals file's [[ratio]] records (pair
ratios first, SIMD ratios last), with 2 ÷ 1 threads and the ring vs
rendezvous crossover between them."""

from __future__ import annotations

from dataclasses import dataclass

from . import intervals, nodes, rounds, threads
from .goal_specs import Goals, RatioSpec
from .load import Result, Run
from .numeric import integer, sig3


def section(run: Run, goals: Goals, crossover: nodes.NodesAnalysis) -> list:
    """The whole section."""
    lines = ["## Ratios", ""]
    for spec in goals.ratios:
        if spec.kind == "pair":
            lines += pair_lines(run, spec)
    lines += threads.report_lines(run)
    lines += nodes.report_lines(crossover)
    for spec in goals.ratios:
        if spec.kind == "simd":
            lines += simd_lines(run, spec)
    return lines


def pair_rows(run: Run, spec: RatioSpec) -> list:
    """(numerator, denominator) result pairs of the family with the same N, V,
    K and threads, at rings of at least min_tokens, ascending."""
    results = run.family(spec.family)
    base = {(r.nodes, r.vnodes, r.keys, r.threads): r for r in results
            if r.label == spec.numerator}
    pairs = []
    for r in results:
        other = base.get((r.nodes, r.vnodes, r.keys, r.threads))
        if r.label == spec.denominator and other is not None \
                and (r.tokens or 0) >= spec.min_tokens:
            pairs.append((other, r))
    return sorted(pairs, key=lambda p: (p[1].tokens, p[1].keys or 0))


def pair_lines(run: Run, spec: RatioSpec) -> list:
    """Speed-up of the denominator over the numerator at every ring of at
    least min_tokens."""
    num, den = spec.numerator, spec.denominator
    lines = [f"### {spec.title} (family `{spec.family}`)", "",
             f"Speed-up of `{den}` over `{num}` at every ring of at least "
             f"{integer(spec.min_tokens)} tokens: median ns/key of `{num}` ÷ median ns/key of "
             f"`{den}` (above 1: `{den}` is faster)" + interval_note(run) + ".", ""]
    pairs = pair_rows(run, spec)
    if not pairs:
        biggest = max((r.tokens for r in run.family(spec.family) if r.tokens), default=None)
        return lines + [f"No {spec.family} point of at least {integer(spec.min_tokens)} with "
                        "both kernels in this run"
                        + (f" (largest ring: {integer(biggest)} tokens)." if biggest else "."),
                        ""]
    short = [label.partition("/")[2] for label in (num, den)]
    lines += [f"| tokens | N | V | K | {short[0]} ns/key | {short[1]} ns/key | speed-up |",
              "|---:|---:|---:|---:|---:|---:|---:|"]
    for a, b in pairs:
        lines.append(f"| {integer(b.tokens)} | {integer(b.nodes)} | {integer(b.vnodes)} | "
                     f"{integer(b.keys)} | {sig3(a.ns)} | {sig3(b.ns)} | "
                     f"{speedup_text(a, b)} |")
    return lines + [""]


def interval_note(run: Run) -> str:
    """'; with its 95 % interval over the rounds (the median of the per-round
    ratios within a comparison group)' for a run timed in rounds, else ''."""
    if not run.has_rounds:
        return ""
    return (f"; with its {intervals.LEVEL} interval over the rounds (within a comparison "
            "group the median of the per-round ratios)")


def speedup_text(slow: Result, fast: Result) -> str:
    """slow's ns/key ÷ fast's: '2.41×', with its interval where the rounds give one."""
    estimate = rounds.ratio(slow, fast)
    if estimate is None:
        return f"{sig3(slow.ns / fast.ns)}×"
    return intervals.figure_text(estimate)


@dataclass
class SimdCheck:
    """One row of a SIMD ratio: the fastest dispatched SIMD kernel vs its rival."""

    family: str
    scalar: Result
    simd: Result
    tied: tuple = ()  # the SIMD kernels the rounds do not separate from simd, itself first

    @property
    def speedup(self) -> float:
        """Scalar ns/key ÷ SIMD ns/key."""
        return self.scalar.ns / self.simd.ns


def simd_checks(run: Run, spec: RatioSpec, kernels: set) -> list:
    """Per family of the record: the rival at each wanted N beside the
    fastest dispatched kernel of `kernels` (labels) there."""
    rows = []
    for family in spec.families:
        results = run.family(family)
        for base in results:
            if base.label != spec.rival or not spec.wants(base.nodes):
                continue
            rivals = [r for r in results
                      if r.label in kernels and r.forced_target is None
                      and (r.nodes, r.vnodes, r.keys, r.threads)
                      == (base.nodes, base.vnodes, base.keys, base.threads)]
            tie = intervals.fastest(rivals, lambda r: r.ns, rounds.ratio)
            if tie:
                rows.append(SimdCheck(family, base, tie[0], tuple(tie) if len(tie) > 1 else ()))
    return rows


def tie_text(c: SimdCheck) -> str:
    """'`a/simd`', or 'tie: `a/simd`, `a/simd_keys`' when the rounds do not separate them."""
    if not c.tied:
        return f"`{c.simd.label}`"
    return "tie: " + ", ".join(f"`{r.label}`" for r in c.tied)


def scope_text(spec: RatioSpec) -> str:
    """'N ≥ 64' or 'N = 1,000 and 1,000,000'."""
    if spec.nodes:
        return "N = " + " and ".join(integer(n) for n in spec.nodes)
    return f"N ≥ {integer(spec.min_nodes or 0)}"


def simd_lines(run: Run, spec: RatioSpec) -> list:
    """A SIMD ratio subsection: every row, and their range."""
    kernels = [k.label for k in run.registry.simd_kernels(spec.rival)] if run.registry else []
    names = [f"`{k}`" for k in kernels]
    which = (f"the faster of {', '.join(names[:-1])} and {names[-1]}" if len(names) > 1
             else names[0] if names else "its SIMD kernels")
    scope = scope_text(spec)
    lines = [f"### {spec.title} ({scope})", "",
             f"Speed-up of {which}, as dispatched, over `{spec.rival}` at "
             + (f"every N of at least {integer(spec.min_nodes or 0)}" if not spec.nodes
                else scope) + f": median ns/key of `{spec.rival}` ÷ median ns/key of the SIMD "
             "kernel (above 1: SIMD is faster)" + interval_note(run) + "; SIMD kernels the "
             "rounds do not separate are named as a tie.", ""]
    rows = simd_checks(run, spec, set(kernels))
    if not rows:
        beside = " or ".join(names) if names else "a SIMD kernel whose rival it is"
        return lines + [f"No `{spec.rival}` beside {beside} at {scope} in this run.", ""]
    lines += ["| family | N | K | scalar ns/key | fastest SIMD kernel | SIMD ns/key | speed-up |",
              "|---|---:|---:|---:|---|---:|---:|"]
    for c in rows:
        lines.append(f"| `{c.family}` | {integer(c.scalar.nodes)} | {integer(c.scalar.keys)} | "
                     f"{sig3(c.scalar.ns)} | {tie_text(c)} | {sig3(c.simd.ns)} | "
                     f"{speedup_text(c.scalar, c.simd)} |")
    speedups = [c.speedup for c in rows]
    return lines + ["", f"Range: {sig3(min(speedups))}× to {sig3(max(speedups))}× "
                    f"over {len(rows)} configuration" + ("s." if len(rows) > 1 else "."), ""]
