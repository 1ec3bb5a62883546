"""The one evaluator every goal of goals.toml goes through (the records
themselves are read by goal_specs.py).

A goal compares medians measured side by side in one run (goals.toml's header
gives the record format): on the rings of one family, the numerator's ns/key
÷ the denominator's, judged on one ring, on every ring up to a size, or for
each of several kernels on every ring; at the node counts of one family, each
SIMD kernel against its scalar rival, one kernel against another, a
scheme's best kernel's ns/key itself, each of several kernels at its slowest
N against its fastest, or each against the stream floor; for one kernel of family
"replicas", its replica sets of one size R ÷ those of another. Each goal has an at-least or at-most
threshold, one number or one per SIMD target (the target the run's SIMD
kernels ran picks it). evaluate() turns a goal and a run into a Verdict: the
figures that decide it, in words, with their 95 % intervals where the run was
timed in rounds (intervals.py), and goal met / goal not met / inconclusive
(an interval straddles the threshold) / not measured; the worst figure
decides. A run without rounds keeps the point verdicts of its medians.
goals_report.py prints verdicts and the tables behind them; ratios.py prints
the [[ratio]] records.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Optional

from . import floors, intervals, rounds
from .goal_specs import NODE_KINDS, REPLICA_KINDS, GoalSpec
from .load import Result, Run
from .node_points import NodePoint, node_points
from .numeric import integer, sig3
from .rings import NEAR_FACTOR, RingPoint, nearest_ring, ring_points


@dataclass
class Judged:
    """One figure behind a verdict: numerator ÷ denominator on one ring or at
    one N, or, without a denominator, the numerator's ns/key itself."""

    point: Any  # a RingPoint (ring kinds) or a NodePoint (node kinds)
    numerator: Result
    denominator: Optional[Result]
    # Results the numerator was picked from (best_at_most_every_n: every
    # kernel of the scheme at that N); their SIMD targets count too.
    pool: tuple = ()
    # The operand "best" when the fastest is not separated from the others:
    # every kernel tied with it, the one whose median is lowest first.
    tied: tuple = ()

    @property
    def ratio(self) -> float:
        """Median ns/key of the numerator ÷ that of the denominator, or the
        numerator's median ns/key when there is no denominator."""
        if self.denominator is None:
            return self.numerator.ns
        return self.numerator.ns / self.denominator.ns

    @property
    def estimate(self) -> intervals.Estimate:
        """The figure with its interval: the ratio paired over the rounds
        (or unpaired across groups), the numerator's ns/key alone without a
        denominator; a point for a run without rounds (rounds.py). Rounds on
        one side only give the value with no interval."""
        if self.denominator is None:
            return rounds.ns_estimate(self.numerator)
        got = rounds.ratio(self.numerator, self.denominator)
        return got if got is not None else intervals.Estimate(self.ratio, basis="unpaired")

    @property
    def wide(self) -> bool:
        """Whether the figure takes the wider run-to-run margin
        (intervals.run_to_run): an absolute time (no denominator), a ratio
        of two comparison groups (an unpaired estimate: the groups were timed
        apart), or the numerator's or the denominator's lookup structure is
        larger than the core's L2."""
        return self.denominator is None or self.estimate.basis == "unpaired" or any(
            r is not None and r.beyond_l2 for r in (self.numerator, self.denominator))

    def outcome(self, spec: GoalSpec) -> str:
        """MET, NOT_MET or INCONCLUSIVE of this figure against the goal `spec`."""
        return spec.outcome(self.estimate, self.wide)

    @property
    def results(self) -> list:
        """Every Result behind this figure."""
        return [r for r in (self.numerator, self.denominator, *self.pool) if r is not None]


@dataclass
class Verdict:
    """A goal as one run measured it."""

    spec: GoalSpec
    measured: str  # the figures that decide it, or why there are none
    outcome: Optional[str]  # intervals.MET, NOT_MET, INCONCLUSIVE; None: not measured
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
                if r is not None and r.noisy:
                    seen.setdefault(r.run_name, r)
        return list(seen.values())

    @property
    def verdict(self) -> str:
        """'goal met', 'goal not met', 'inconclusive' or 'not measured'."""
        if self.outcome is None:
            return "not measured"
        return "inconclusive" if self.outcome == intervals.INCONCLUSIVE \
            else f"goal {self.outcome}"

    @property
    def without_rounds(self) -> bool:
        """Whether its figures are medians with no interval (a run without rounds)."""
        return bool(self.judged) and all(j.estimate.basis == "point" for j in self.judged)


def outcome_of(spec: GoalSpec, judged: list) -> Optional[str]:
    """The verdict of the figures `judged`, the worst deciding (intervals.combine)."""
    return intervals.combine([j.outcome(spec) for j in judged])


def worst_of(spec: GoalSpec, judged: list) -> Judged:
    """The figure that decides: not met before inconclusive before met, then
    the lowest value against an at-least bound, the highest against at-most."""
    rank = {intervals.NOT_MET: 0, intervals.INCONCLUSIVE: 1, intervals.MET: 2}
    sign = 1 if spec.least else -1
    return min(judged, key=lambda j: (rank[j.outcome(spec)], sign * j.ratio))


def figure(spec: GoalSpec, j: Judged) -> str:
    """One figure with its unit and interval: '2.41× (95 % interval 2.33–2.50)'."""
    return intervals.figure_text(j.estimate, spec.unit)


def resolve(operand: str, point: RingPoint) -> Optional[Result]:
    """An operand's result on one ring: a kernel by name, the best kernel, or
    the stream floor; None when the ring lacks it."""
    if operand == "best":
        tie = point.best_tie()
        return tie[0] if tie else None
    if operand == "floor":
        return next((r for r in point.kernels.values() if floors.kind_of(r) == "stream"), None)
    return point.kernels.get(operand)


def needs(spec: GoalSpec, run: Run) -> str:
    """The operands a ring must have, named for a 'not measured' line
    ("best" is any kernel, so it is not named)."""
    streams = run.registry.floors() if run.registry else []
    names = []
    for op in spec.numerator + (spec.denominator,):
        if op == "floor":
            names.append(f"`{streams[0]}`" if streams else "the stream floor")
        elif op != "best":
            names.append(f"`{op}`")
    return " and ".join(names) or "a kernel"


def judged_targets(run: Run, judged: list) -> list:
    """The Highway targets the SIMD kernels behind `judged` ran (their
    entries' label), else the one the run's dispatch picked (context
    chbench_hwy_target); [] when neither is known."""
    ran = sorted({r.hwy_label for j in judged for r in j.results if r.hwy_label})
    dispatched = str(run.context.get("chbench_hwy_target") or "").strip()
    return ran or ([dispatched] if dispatched else [])


def measured_target(run: Run, judged: list) -> str:
    """The SIMD target a verdict was measured on (judged_targets); a verdict
    from one target is not comparable with one from another (an AVX2 CPU's
    with an AVX-512 one's)."""
    return " / ".join(judged_targets(run, judged)) or "unknown"


def evaluate(spec: GoalSpec, run: Run) -> Verdict:
    """Computes one goal from a run, and the SIMD target it was measured on;
    a goal with a threshold per target takes the one of the targets its
    SIMD kernels ran."""
    if spec.by_target:
        kind = "at_least" if spec.least else "at_most"
        probe = judge(dataclasses.replace(spec, **{kind: spec.by_target[0][1]}), run)
        if probe.outcome is None:
            return Verdict(spec, probe.measured, None, points=probe.points,
                           target=measured_target(run, []))
        resolved, why = spec.for_target(judged_targets(run, probe.judged))
        if resolved is None:
            return Verdict(spec, why, None, candidates=probe.candidates, points=probe.points,
                           target=measured_target(run, probe.judged))
        spec = resolved
    verdict = judge(spec, run)
    verdict.target = measured_target(run, verdict.judged)
    return verdict


def judge(spec: GoalSpec, run: Run) -> Verdict:
    """The verdict of one goal on a run (the threshold known)."""
    if spec.kind in NODE_KINDS:
        return judge_nodes(spec, run)
    if spec.kind in REPLICA_KINDS:
        return judge_replicas(spec, run)
    points = ring_points(run, spec.family)
    if spec.kind == "each_vs_reference":
        return each_vs_reference(spec, points)
    candidates = []
    for p in points:
        num, den = resolve(spec.numerator[0], p), resolve(spec.denominator, p)
        if num is not None and den is not None:
            tied = tuple(p.best_tie()) if "best" in (spec.numerator[0], spec.denominator) else ()
            candidates.append(Judged(p, num, den, tied=tied if len(tied) > 1 else ()))
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
        verdict.outcome = outcome_of(spec, judged)
    return verdict


def measured_text(spec: GoalSpec, judged: list) -> str:
    """'33.3× (`ring/x` at 65,500 tokens)' for one ring; 'worst 6.00× (...)
    over 3 rings' for several. The kernel named is the one "best" stands for."""
    worst = worst_of(spec, judged)
    best = (worst.numerator if spec.numerator[0] == "best"
            else worst.denominator if spec.denominator == "best" else None)
    at = (best_name(worst, best) + " " if best is not None else "") + \
        f"at {integer(worst.point.tokens)} tokens"
    if spec.kind == "ratio_at_ring":
        return f"{figure(spec, worst)} ({at})"
    rings = len(judged)
    return f"worst {figure(spec, worst)} ({at}) over {rings} ring" + ("s" if rings > 1 else "")


def best_name(j: Judged, best: Result) -> str:
    """How a figure names the kernel "best" stands for: '`ring/x`', or, when
    the rounds do not separate the fastest, 'a tie of `ring/x` and `ring/y`'
    (the figure is the lowest median's)."""
    if not j.tied:
        return f"`{best.label}`"
    names = [f"`{r.label}`" for r in j.tied]
    return "a tie of " + ", ".join(names[:-1]) + " and " + names[-1]


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
        failing += [f"`{label}` at {integer(j.point.tokens)} tokens ({figure(spec, j)}"
                    + (", inconclusive)" if j.outcome(spec) == intervals.INCONCLUSIVE
                       else ")")
                    for j in mine if j.outcome(spec) != intervals.MET]
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
    return Verdict(spec, measured, outcome_of(spec, judged), judged, judged, with_reference)


def reference_name(spec: GoalSpec) -> str:
    """How the text names a goal's denominator: its reference_name, else the
    kernel's name in backticks."""
    return spec.reference_name or f"`{spec.denominator}`"


# --------------------------------------------------------------------------
# The node kinds: kernels measured side by side at one N


def judge_nodes(spec: GoalSpec, run: Run) -> Verdict:
    """The verdict of a goal of NODE_KINDS: its figure at every wanted N of
    the family (spec.nodes; best_at_most_every_n without them: every N)."""
    points = node_points(run, spec.family)
    wanted = [p for p in points if not spec.nodes or p.nodes in spec.nodes]
    where = f"family `{spec.family}`"
    at = " at " + nodes_text(spec.nodes) if spec.nodes else ""
    if spec.kind == "simd_vs_rival_at_nodes":
        judged = simd_pairs(run, wanted)
        missing = f"no SIMD kernel of {where} beside its scalar rival{at}"
    elif spec.kind == "pair_at_nodes":
        num, den = spec.numerator[0], spec.denominator
        judged = [Judged(p, p.kernels[num], p.kernels[den]) for p in wanted
                  if num in p.kernels and den in p.kernels]
        missing = f"no {nodes_text(spec.nodes)} in {where} with `{num}` and `{den}`"
    elif spec.kind == "worst_over_best_n":
        judged = [j for j in (worst_over_best(wanted, label) for label in spec.numerator) if j]
        missing = f"no {kernels_text(spec.numerator)} at two N or more in {where}"
    elif spec.kind == "each_vs_floor_at_nodes":
        index = floors.by_point(run.results)
        judged = [Judged(p, p.kernels[label], stream) for p in wanted
                  for label in spec.numerator if label in p.kernels
                  if (stream := stream_floor_beside(index, p, p.kernels[label])) is not None]
        missing = (f"no {nodes_text(spec.nodes)} in {where} with the stream floor beside "
                   f"{kernels_text(spec.numerator)}")
    else:
        judged = [best_judged(p, spec.scheme) for p in wanted if p.best_of(spec.scheme)]
        missing = f"no `{spec.scheme}` kernel in {where}{at}"
    verdict = Verdict(spec, missing, None, judged, judged, points)
    if judged:
        verdict.measured = nodes_measured(spec, judged)
        verdict.outcome = outcome_of(spec, judged)
    return verdict


def best_judged(p: NodePoint, scheme: str) -> Judged:
    """The fastest kernel of `scheme` at one N as a figure, with the kernels
    tied with it (NodePoint.best_tie_of)."""
    tie = p.best_tie_of(scheme)
    return Judged(p, tie[0], None, tuple(r for r in p.kernels.values() if r.scheme == scheme),
                  tuple(tie) if len(tie) > 1 else ())


def worst_over_best(points: list, label: str) -> Optional[Judged]:
    """The kernel `label` at the N where its median ns/key is highest ÷ at
    the N where it is lowest, over `points`; None below two N. The two are
    of two comparison groups (an unpaired estimate, the wider margin)."""
    mine = [(p, p.kernels[label]) for p in points if label in p.kernels]
    if len(mine) < 2:
        return None
    point, worst = max(mine, key=lambda t: t[1].ns)
    return Judged(point, worst, min(mine, key=lambda t: t[1].ns)[1])


def stream_floor_beside(index: dict, p: NodePoint, r: Result) -> Optional[Result]:
    """The stream floor timed with r (index: floors.by_point of the run):
    the one of r's comparison group in a run timed in rounds (a point may
    hold several groups, such as family dram's at one N and K in the full
    sweep), else the one measured at r's point (then of another group: an
    unpaired ratio); None if there is none."""
    same = index.get(floors.point_key(r), {}).get("stream")
    return same or next((f for f in p.kernels.values() if floors.kind_of(f) == "stream"), None)


def kernels_text(labels: tuple) -> str:
    """'`a/simd` or `b/simd`'."""
    return " or ".join(f"`{label}`" for label in labels)


def simd_pairs(run: Run, points: list) -> list:
    """Judged(point, scalar rival, SIMD kernel) for every SIMD kernel with a
    registry rival measured beside it, at each point."""
    if run.registry is None:
        return []
    out = []
    for p in points:
        for r in p.kernels.values():
            rival = run.registry.rival(r.label)
            if rival is not None and rival in p.kernels:
                out.append(Judged(p, p.kernels[rival], r))
    return out


def nodes_text(nodes: tuple) -> str:
    """'N = 1,000 or 1,000,000'."""
    return "N = " + " or ".join(integer(n) for n in nodes) if nodes else "any N"


def judged_name(spec: GoalSpec, j: Judged) -> str:
    """How a verdict names the kernels behind one figure: '`a/simd` over
    `a/scalar`', the best kernel, or nothing for a named pair."""
    if spec.kind == "simd_vs_rival_at_nodes":
        return f"`{j.denominator.label}` over `{j.numerator.label}`"
    if spec.kind == "best_at_most_every_n":
        return best_name(j, j.numerator)
    if spec.kind in ("worst_over_best_n", "each_vs_floor_at_nodes"):
        return f"`{j.numerator.label}`"
    if spec.kind in REPLICA_KINDS:
        return f"`{spec.kernel}` R = {spec.r_num} ÷ R = {spec.r_den}"
    return ""


# A verdict lists at most this many of the figures that miss the threshold.
MAX_LISTED = 5


def nodes_measured(spec: GoalSpec, judged: list) -> str:
    """'worst 3.50× (`a/simd` over `a/scalar` at N = 1,000) over 6 pairs;
    below the threshold: ...'; one figure: '64.0× (at N = 1,000,000)'."""
    worst = worst_of(spec, judged)

    def one(j: Judged) -> str:
        name = judged_name(spec, j)
        text = (name + " " if name else "") + f"at N = {integer(j.point.nodes)}"
        if spec.kind == "worst_over_best_n":
            text += f" ÷ at N = {integer(j.denominator.nodes)}"
        return text

    if len(judged) == 1:
        text = f"{figure(spec, worst)} ({one(worst)})"
    else:
        what = {"simd_vs_rival_at_nodes": "pairs", "worst_over_best_n": "kernels",
                "each_vs_floor_at_nodes": "figures"}.get(spec.kind, "node counts")
        text = f"worst {figure(spec, worst)} ({one(worst)}) over {len(judged)} {what}"
    side = "below" if spec.least else "above"
    for outcome, heading in ((intervals.NOT_MET, f"{side} the threshold"),
                             (intervals.INCONCLUSIVE, "inconclusive")):
        failing = [j for j in judged if j.outcome(spec) == outcome]
        if failing and (outcome == intervals.NOT_MET or len(judged) > 1):
            listed = ", ".join(f"{one(j)} ({figure(spec, j)})" for j in failing[:MAX_LISTED])
            more = len(failing) - MAX_LISTED
            text += (f"; {heading}: {listed}"
                     + (f" and {more} more (see the table)" if more > 0 else ""))
    return text


# --------------------------------------------------------------------------
# The replica kind: one kernel's replica sets of two sizes R at one N


def replica_points(spec: GoalSpec, run: Run) -> list:
    """NodePoints of spec.kernel in spec.family, one per (N, V, K) of
    spec.nodes (and, if given, of exactly spec.tokens ring tokens), at one
    thread as Highway's dispatch runs it; kernels maps R to its Result."""
    points: dict = {}
    for r in run.family(spec.family):
        if r.label != spec.kernel or not r.replicas or (r.threads or 1) != 1 \
                or r.forced_target or r.nodes not in spec.nodes \
                or (spec.tokens is not None and r.tokens != spec.tokens):
            continue
        point = points.setdefault((r.nodes, r.vnodes, r.keys), NodePoint(r.nodes, r.keys, {}))
        point.kernels.setdefault(r.replicas, r)
    return [points[k] for k in sorted(points, key=lambda k: tuple(v or 0 for v in k))]


def judge_replicas(spec: GoalSpec, run: Run) -> Verdict:
    """replicas_ratio: ns/key of spec.kernel at R = r_num ÷ at R = r_den on
    the same ring (N, V, K), at every N of spec.nodes; the worst decides."""
    points = replica_points(spec, run)
    judged = [Judged(p, p.kernels[spec.r_num], p.kernels[spec.r_den]) for p in points
              if spec.r_num in p.kernels and spec.r_den in p.kernels]
    ring = f" with {integer(spec.tokens)} tokens" if spec.tokens is not None else ""
    missing = (f"no {nodes_text(spec.nodes)}{ring} in family `{spec.family}` with "
               f"`{spec.kernel}` at R = {spec.r_num} and R = {spec.r_den}")
    verdict = Verdict(spec, missing, None, judged, judged, points)
    if judged:
        verdict.measured = nodes_measured(spec, judged)
        verdict.outcome = outcome_of(spec, judged)
    return verdict
