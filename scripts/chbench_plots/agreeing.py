"""Do two runs agree beyond their medians? On their hosts (the noise
canary's loops), on the within-group ratios (each member ÷ its reference in
its comparison group, rounds.reference_ratio) and on the goals' verdicts;
agreement.py prints these lines under its shares of medians."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Optional

from . import intervals
from . import registry as registry_mod
from . import rounds as rounds_mod
from .errors import InputError
from .goal_specs import Goals
from .goals import evaluate
from .load import Run, apply_registry
from .numeric import integer, sig3

WIDE = 0.10  # the second, looser tolerance of the ratios
# A host whose canary compute loop reads this much slower in one run than
# in the other: the ratios of kernels that use the core differently (a
# scalar reference against vector kernels) move with it. On the Zen 5 VM, a
# pair of sweeps whose compute loops' medians differed by 2 % agreed on 92.9 %
# of the ratios, pairs that differed by 10 to 24 % on 55 to 67 %
# (docs/measurement.md). The memory loop strays further with no such effect
# (by 34 % in the first pair), so it is printed, not judged.
HOST_DRIFT = 0.05


def attach_registry(run: Run, path: Path) -> None:
    """Gives a run loaded without its registry the one it recorded, if any
    (the references and the goals on SIMD rivals need it)."""
    try:
        run.registry = registry_mod.from_context(run.context, path)
    except InputError:
        return
    apply_registry(run)


def reference_ratios(run: Run) -> dict:
    """(member's configuration name, its reference's) -> Estimate of member
    ÷ reference, for every member of a comparison group that has a
    reference; bare names (names.config_name), so that runs whose Google
    Benchmark segments differ (repeats:N) still pair."""
    out = {}
    for r in run.results:
        got = run.reference_ratio(r) if r.ns else None
        if got is not None:
            ref, estimate = got
            out[(r.config_name, ref.config_name)] = estimate
    return out


def spread(a: float, b: float) -> float:
    """The larger ÷ the smaller of two positive figures."""
    return max(a, b) / min(a, b)


def share(values: list, tolerance: float) -> str:
    """'34 of 35 (97.1%)' of the spreads within 1 + tolerance."""
    agree = sum(v <= 1 + tolerance for v in values)
    return f"{integer(agree)} of {integer(len(values))} ({agree / len(values):.1%})"


def ratio_lines(a: Run, b: Run, tolerance: float) -> list:
    """The within-group ratios both runs have: the shares within the
    tolerance and within WIDE, and the worst; one line when there are none."""
    first, second = reference_ratios(a), reference_ratios(b)
    both = [(key, first[key], second[key]) for key in first if key in second
            and first[key].value > 0 and second[key].value > 0]
    if not both:
        why = "" if a.has_rounds and b.has_rounds else " (a run without rounds has none)"
        return [f"within-group ratios (member ÷ its reference): none in both runs{why}"]
    spreads = [spread(x.value, y.value) for _, x, y in both]
    (member, ref), x, y = max(both, key=lambda t: spread(t[1].value, t[2].value))
    by_table = table_shares(a, both, tolerance)
    return [f"{integer(len(both))} within-group ratios (member ÷ its reference) in both runs:",
            f"  within {tolerance:.0%}: {share(spreads, tolerance)}",
            f"  within {WIDE:.0%}: {share(spreads, WIDE)}",
            f"  within {tolerance:.0%} by family: {family_shares(both, tolerance)}",
            *([f"  within {tolerance:.0%} by table: {by_table}"] if by_table else []),
            f"  worst: {member} ÷ {ref}: {sig3(x.value)}× against {sig3(y.value)}×"]


def table_shares(a: Run, both: list, tolerance: float) -> str:
    """'within the L2 34 of 35 (97.1%), larger than the L2 20 of 30 (66.7%)':
    the ratios whose member and reference both have tables within the core's
    L2 in run a (load.Result.beyond_l2), and those where one is larger (their
    verdicts take the wider margin, intervals.run_to_run); '' when run a
    records no L2. both: ((member, reference), a, b) triples."""
    beyond = {r.config_name: r.beyond_l2 for r in a.results}
    classes: dict = {"within the L2": [], "larger than the L2": []}
    for (member, ref), x, y in both:
        flags = (beyond.get(member), beyond.get(ref))
        if None not in flags:
            classes["larger than the L2" if any(flags) else "within the L2"].append(
                spread(x.value, y.value))
    return ", ".join(f"{name} {share(values, tolerance)}" for name, values in classes.items()
                     if values)


def family_shares(both: list, tolerance: float) -> str:
    """'nodes 70 of 72, tokens 35 of 47': per family (a configuration name's
    first segment), in the order the ratios come, how many of its ratios
    agree within the tolerance; both: ((member, reference), a, b) triples."""
    counts: dict = {}
    for (member, _), x, y in both:
        family = member.split("/", 1)[0]
        agree, total = counts.get(family, (0, 0))
        counts[family] = (agree + (spread(x.value, y.value) <= 1 + tolerance), total + 1)
    return ", ".join(f"{family} {integer(a)} of {integer(t)}" for family, (a, t) in counts.items())


def verdict_pairs(a: Run, b: Run, goals: Goals) -> list:
    """(goal title, outcome in a, outcome in b) for every goal both runs
    measured (intervals.MET, NOT_MET, INCONCLUSIVE)."""
    out = []
    for spec in goals.goals:
        x, y = evaluate(spec, a).outcome, evaluate(spec, b).outcome
        if x is not None and y is not None:
            out.append((spec.title, x, y))
    return out


def verdict_lines(a: Run, b: Run, goals: Goals) -> list:
    """How many goal verdicts agree, flip between met and not met (the bad
    case, each named) or are inconclusive in one run only."""
    pairs = verdict_pairs(a, b, goals)
    if not pairs:
        return ["goal verdicts: no goal measured in both runs"]
    decided = (intervals.MET, intervals.NOT_MET)
    agree = sum(x == y for _, x, y in pairs)
    flips = [(t, x, y) for t, x, y in pairs if x != y and x in decided and y in decided]
    undecided = len(pairs) - agree - len(flips)
    out = [f"{integer(len(pairs))} goal verdicts in both runs: {integer(agree)} agree, "
           f"{integer(len(flips))} flip between met and not met, {integer(undecided)} "
           "inconclusive in one run only"]
    out += [f"  flipped: {t}: goal {x} in the first run, goal {y} in the second"
            for t, x, y in flips]
    return out


def canary_median(run: Run, attribute: str) -> Optional[float]:
    """The median over the run's configurations of a canary loop's time
    (Result.canary_compute_ns or canary_memory_ns), ns; None where none
    recorded it."""
    values = [v for v in (getattr(r, attribute) for r in run.results) if v]
    return statistics.median(values) if values else None


def host_lines(a: Run, b: Run) -> list:
    """How fast each run's host was, by the noise canary timed before every
    comparison group: its loops' median times, and a warning when one run's
    compute loop was more than HOST_DRIFT slower; none when a run has no
    canary."""
    loops = [("compute loop", "canary_compute_ns", 1e3, "µs"),
             ("memory loop", "canary_memory_ns", 1e6, "ms")]
    medians = [(canary_median(a, attr), canary_median(b, attr)) for _, attr, _, _ in loops]
    if any(x is None or y is None for x, y in medians):
        return []
    parts = [f"{label} {sig3(x / unit)} and {sig3(y / unit)} {name} ({sig3(y / x)}×)"
             for (label, _, unit, name), (x, y) in zip(loops, medians)]
    out = ["the hosts, by the noise canary before each group (medians): " + ", ".join(parts)]
    x, y = medians[0]
    if spread(x, y) > 1 + HOST_DRIFT:
        out.append(f"  the compute loop ran {spread(x, y) - 1:.0%} slower in one run: the "
                   "host's cores differed, and ratios of kernels that use the core "
                   "differently (a scalar reference against vector kernels) move with it")
    return out


def order_lines(a: Run, b: Run) -> list:
    """A warning when the runs ordered their rounds differently
    (rounds.round_order): what runs before a slice can change a ratio
    (docs/measurement.md), so such runs differ by more than the host; none
    when both ran in rounds alike."""
    if not (a.has_rounds and b.has_rounds):
        return []
    orders = [rounds_mod.round_order(run.timing) for run in (a, b)]
    if orders[0] == orders[1]:
        return []
    return [f"the runs ordered their rounds differently ({orders[0]}; {orders[1]}): what runs "
            "before a slice can change a ratio, so compare runs of one order"]


def summary(a: Run, b: Run, goals: Optional[Goals], tolerance: float) -> list:
    """order_lines, host_lines, ratio_lines, then verdict_lines when goals are
    given."""
    return (order_lines(a, b) + host_lines(a, b) + ratio_lines(a, b, tolerance) +
            (verdict_lines(a, b, goals) if goals else []))
