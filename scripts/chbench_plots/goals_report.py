"""The report's "Goals" section: every goal of the goals file with its
verdict, then the tables behind them, one per `table` heading."""

from __future__ import annotations

from . import intervals, noise, rounds
from .goal_specs import NODE_KINDS, REPLICA_KINDS, RING_KINDS, Goals
from .goals import Verdict, best_name, reference_name
from .load import Run
from .numeric import approx_count, cv_cell, integer, sig3
from .rings import NEAR_FACTOR


def goal_line(v: Verdict) -> str:
    """A goal as a list item: what it asks, the figures, the verdict, the
    SIMD target it was measured on."""
    noisy = len(v.noisy)
    return (f"- {v.spec.title}, {v.spec.bound()}: {v.measured} — **{v.verdict}**."
            + (f" {intervals.NO_INTERVAL_NOTE[0].upper()}{intervals.NO_INTERVAL_NOTE[1:]}."
               if v.without_rounds else "")
            + (f" Measured on {v.target}." if v.target else "")
            + (f" {noisy} of the configurations behind it flagged noisy (see Noise)."
               if noisy else ""))


def section(run: Run, goals: Goals, verdicts: list) -> list:
    """The whole section; nothing when the goals file holds no goal."""
    if not verdicts:
        return []
    floors = run.registry.floors() if run.registry else []
    lines = ["## Goals", "",
             f"The goals of `{goals_file_name(goals)}`, computed from this run: medians "
             "measured in one run, one thread, side by side but where a goal compares a "
             "kernel at two N (its slowest ÷ its fastest)."
             + ring_text(verdicts, floors) + node_text(verdicts) + replica_text(verdicts)
             + " CV = standard deviation ÷ mean of ns/key over the repetitions. "
             + interval_text(run) + target_text(run, verdicts), "",
             "| goal | measured | verdict |", "|---|---|---|"]
    lines += [f"| {v.spec.title}, {v.spec.bound()} | {cell(v.measured)} | **{v.verdict}** |"
              for v in verdicts]
    lines.append("")
    tables: dict = {}
    for v in verdicts:
        tables.setdefault(v.spec.table, []).append(v)
    for group in tables.values():
        if group[0].spec.kind == "each_vs_reference":
            lines += reference_table(group)
        elif group[0].spec.kind in NODE_KINDS:
            lines += nodes_table(group)
        elif group[0].spec.kind in REPLICA_KINDS:
            lines += replicas_table(group)
        else:
            lines += pair_table(group, floors)
    return lines


def interval_text(run: Run) -> str:
    """How the figures are judged: on their 95 % intervals over the rounds,
    or, for a run without rounds, on the medians alone."""
    if not run.has_rounds:
        return ("This run was timed without rounds: each figure is a ratio of medians with "
                "no interval, judged on its value. ")
    return (f"Each figure is a median over {run.rounds_text()} with its "
            f"{intervals.LEVEL} interval; a ratio of two kernels of one comparison group is "
            "the median of their per-round ratios (kernels of two groups: the ratio of "
            "medians, bootstrap interval). A figure meets its threshold when its whole "
            "interval does, misses it when none of it does, and is inconclusive when the "
            "interval straddles it or comes within "
            f"{intervals.RUN_TO_RUN * 100:g} % of it, {intervals.RUN_TO_RUN_WIDE * 100:g} % for a "
            "time per key, a ratio of two groups, or where a configuration's lookup structure "
            "is larger than the core's L2 (two runs' figures differ by that much beyond their "
            "intervals; "
            "docs/measurement.md); the worst figure decides the goal. ")


def outcome_cell(v: Verdict, j) -> str:
    """A table's threshold cell: '≥ 4×: met', '≥ 4×: **not met**', '≥ 4×: inconclusive'."""
    outcome = j.outcome(v.spec)
    return f"{v.spec.bound(True)}: " + (f"**{outcome}**" if outcome == intervals.NOT_MET
                                          else outcome)


def ring_text(verdicts: list, floors: list) -> str:
    """What the goals on rings compare ('' without one)."""
    rings = [v for v in verdicts if v.spec.kind in RING_KINDS]
    if not rings:
        return ""
    sizes = sorted({v.spec.tokens for v in rings if v.spec.tokens})
    return (" The ring goals compare ratios of medians on the bench's 64-bit ring tokens. "
            "The best kernel is the fastest kernel of the family on that ring"
            + (f"; `{floors[0]}`, the stream baseline (reads each key hash, writes one "
               "owner, no lookup), is the memory floor and never counts as a kernel, nor "
               "does any other floor (the random-read floor)"
               if floors else "") + ". "
            + "".join(f"{approx_count(t)} tokens is the measured ring closest to "
                      f"{integer(t)} tokens; " for t in sizes)
            + (f"a ring is near a size within a factor of {NEAR_FACTOR:g}." if sizes
               else "")).rstrip()


def node_text(verdicts: list) -> str:
    """What the goals at node counts compare ('' without one)."""
    if not any(v.spec.kind in NODE_KINDS for v in verdicts):
        return ""
    return (" The goals at node counts compare kernels at the same N (or one kernel at its "
            "slowest and fastest N), as Highway's dispatch "
            "runs them; a SIMD kernel's scalar rival is the one the run's kernel registry "
            "names, and a goal with a threshold per SIMD target takes the one of the target "
            "its SIMD kernels ran (named beside the bound).")


def replica_text(verdicts: list) -> str:
    """What the goals on replica sets compare ('' without one)."""
    if not any(v.spec.kind in REPLICA_KINDS for v in verdicts):
        return ""
    return (" The goals on replica sets compare one kernel with itself: its median ns/key "
            "for R distinct owners per key ÷ that for another R, on the same ring (N, V, K).")


def target_text(run: Run, verdicts: list) -> str:
    """Which SIMD target the verdicts come from: the Highway targets their
    SIMD kernels ran, else the run's dispatched target; and that a verdict
    is comparable only with one from the same target."""
    dispatched = str(run.context.get("chbench_hwy_target") or "").strip() or "unknown"
    targets = sorted({v.target for v in verdicts if v.target})
    return (f"Measured on SIMD target {' and '.join(f'`{t}`' for t in targets) or '–'} (Highway; "
            f"this run's dispatch picked `{dispatched}`): a verdict holds for that target "
            "and is not comparable with one measured on another (an AVX2 CPU's against an "
            "AVX-512 one's).")


def goals_file_name(goals: Goals) -> str:
    """The goals file as the report names it: relative to the repository
    when it is the package's own."""
    parts = goals.source.split("/scripts/")
    return "scripts/" + parts[-1] if len(parts) > 1 else goals.source


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def operand_name(operand: str, floors: list, short: bool = False) -> str:
    """How a table names an operand: 'the best kernel', `ring/x` (short: x)."""
    if operand == "best":
        return "best" if short else "the best kernel"
    label = (floors[0] if floors else "stream") if operand == "floor" else operand
    return label.partition("/")[2] or label if short else f"`{label}`"


def ring_key(point) -> tuple:
    """What makes two RingPoints the same ring."""
    return (point.tokens, point.nodes, point.vnodes, point.keys)


def pair_table(group: list, floors: list) -> list:
    """The ratio of a pair of operands on every ring the group's goals look at
    (ratio_at_ring: every ring with both, the judged ones marked; ratio_up_to:
    the judged rings), then each goal's line."""
    spec = group[0].spec
    num, den = spec.numerator[0], spec.denominator
    at_ring = spec.kind == "ratio_at_ring"
    limit = max(v.limit or 0 for v in group)
    text = (f"Ratio = median ns/key of {operand_name(num, floors)} ÷ median ns/key of "
            f"{operand_name(den, floors)} on the same ring"
            + (f" ({spec.note})" if spec.note else "")
            + ("; the goal column marks the rings the goals are judged at." if at_ring
               else f", at every ring up to {integer(limit)} tokens."))
    lines = [f"### {spec.table} (family `{spec.family}`)", "", text, ""]
    # Each verdict has its own RingPoints: rings are matched by what they are.
    rows = group[0].candidates if at_ring else sorted(
        {ring_key(j.point): j for v in group for j in v.judged}.values(),
        key=lambda j: j.point.tokens)
    if not rows:
        named = [operand_name(op, floors) for op in (num, den) if op != "best"]
        return lines + [f"No ring with {' and '.join(named) or 'a kernel'} in family "
                        f"`{spec.family}` in this run.", ""] + [goal_line(v) for v in group] + [
                            ""]
    head = ["tokens", "N", "V"]
    for op in (num, den):
        head += (["best kernel", "ns/key"] if op == "best"
                 else [f"{operand_name(op, floors, short=True)} ns/key"]) + ["CV %"]
    head.append(f"{operand_name(num, floors, True)} ÷ {operand_name(den, floors, True)}")
    head += ["goal"] if at_ring else []
    lines += ["| " + " | ".join(head) + " |",
              "|" + "|".join("---" if h in ("best kernel", "goal") else "---:" for h in head)
              + "|"]
    for j in rows:
        cells = [integer(j.point.tokens), integer(j.point.nodes), integer(j.point.vnodes)]
        for op, r in ((num, j.numerator), (den, j.denominator)):
            cells += ([best_name(j, r)] if op == "best" else []) + [sig3(r.ns), cv_cell(r)]
        cells.append(intervals.figure_text(j.estimate))
        if at_ring:
            cells.append(next((f"{approx_count(v.spec.tokens)}: {v.spec.bound(True)}, "
                               f"{v.verdict}" for v in group
                               if any(ring_key(x.point) == ring_key(j.point)
                                      for x in v.judged)), "–"))
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""] + [goal_line(v) for v in group] + [""]


def reference_table(group: list) -> list:
    """Every kernel ÷ the reference on every ring of the family that has it,
    the ones slower than the reference marked, then each goal's line (which
    judges the goal's own kernels against its threshold)."""
    spec = group[0].spec
    reference, name = spec.denominator, reference_name(spec)
    lines = [f"### {spec.table} (family `{spec.family}`)", "",
             (spec.note + " " if spec.note else "")
             + f"Ratio = a kernel's median ns/key ÷ `{reference}`'s on the same ring (above 1: "
             f"slower than {name}).", ""]
    points = group[0].points
    if not points:
        return lines + [f"No ring with `{reference}` in family `{spec.family}` in this run.",
                        ""] + [goal_line(v) for v in group] + [""]
    windows = any(r.window_bits for p in points for r in p.kernels.values())
    lines += ["| tokens | " + ("window bits | " if windows else "")
              + f"kernel | ns/key | CV % | ÷ {name} |",
              "|---:|" + ("---:|" if windows else "") + "---|---:|---:|---:|"]
    marked: dict = {}
    for p in points:
        base = p.kernels[reference]
        for r in p.kernels.values():
            if r.is_floor:
                continue
            ratio = rounds.ratio(r, base) or intervals.Estimate(r.ns / base.ns, basis="unpaired")
            text = intervals.figure_text(ratio)
            if slower(ratio):
                text = f"**{text}** slower"
                marked.setdefault(r.label, []).append(integer(p.tokens))
            lines.append(f"| {integer(p.tokens)} | "
                         + (f"{integer(r.window_bits)} | " if windows else "")
                         + f"`{r.label}` | {sig3(r.ns)} | {cv_cell(r)} | {text} |")
    lines.append("")
    if marked:
        lines.append(f"- Slower than {name}: " + "; ".join(
            f"`{label}` at {', '.join(at)} tokens" for label, at in marked.items()) + ".")
    else:
        lines.append(f"- No kernel is slower than {name} on any ring of the family.")
    return lines + [goal_line(v) for v in group] + [""]


def slower(ratio: intervals.Estimate) -> bool:
    """Whether a time ratio says slower: above 1, its whole interval where it has one."""
    low = ratio.lo if ratio.has_interval else ratio.value
    return low > 1 and (ratio.has_interval or ratio.basis == "point")


def nodes_table(group: list) -> list:
    """The figures behind goals at node counts: one row per N (and pair),
    the rows that miss the threshold marked, then each goal's line."""
    spec = group[0].spec
    absolute = spec.kind == "best_at_most_every_n"
    if absolute:
        text = (f"The fastest `{spec.scheme}` kernel's median ns/key at every N of the family "
                "this run measured.")
    elif spec.kind == "simd_vs_rival_at_nodes":
        text = ("Speed-up = median ns/key of the scalar rival ÷ median ns/key of the SIMD "
                "kernel at the same N (above 1: SIMD is faster).")
    elif spec.kind == "worst_over_best_n":
        text = ("Ratio = a kernel's median ns/key at its slowest N (the row's N) ÷ its median "
                "ns/key at its fastest N; the two come from two comparison groups.")
    elif spec.kind == "each_vs_floor_at_nodes":
        text = ("Ratio = median ns/key of the kernel ÷ median ns/key of the stream floor "
                "(read each key hash, write one owner) at the same N, in one comparison group.")
    else:
        text = (f"Ratio = median ns/key of `{spec.numerator[0]}` ÷ median ns/key of "
                f"`{spec.denominator}` at the same N.")
    if spec.note:
        text = spec.note[0].upper() + spec.note[1:].rstrip(".") + ". " + text
    lines = [f"### {spec.table} (family `{spec.family}`)", "", text, ""]
    rows = [j for v in group for j in v.judged]
    if not rows:
        return lines + [f"Nothing to compare in family `{spec.family}` in this run.", ""] + [
            goal_line(v) for v in group] + [""]
    show_noise = any(r.noisy for j in rows for r in j.results[:2])
    head = ["N", "best kernel" if absolute else "kernel", "ns/key", "CV %"]
    if not absolute:
        head += ["against", "ns/key", "CV %",
                 "speed-up" if spec.kind == "simd_vs_rival_at_nodes" else "ratio"]
    head += ["threshold"] + (["noise"] if show_noise else [])
    lines += ["| " + " | ".join(head) + " |",
              "|" + "|".join("---" if h in ("kernel", "best kernel", "against", "threshold",
                                            "noise") else "---:" for h in head) + "|"]
    for v in group:
        for j in v.judged:
            # The SIMD kernel (the denominator) first: it is what the row is about.
            first, second = ((j.numerator, j.denominator) if spec.kind != "simd_vs_rival_at_nodes"
                             else (j.denominator, j.numerator))
            name = best_name(j, first) if absolute else f"`{first.label}`"
            cells = [integer(j.point.nodes), name, sig3(first.ns), cv_cell(first)]
            if second is not None:
                against = f"`{second.label}`" + (f" at N = {integer(second.nodes)}"
                                                 if spec.kind == "worst_over_best_n" else "")
                cells += [against, sig3(second.ns), cv_cell(second),
                          intervals.figure_text(j.estimate)]
            cells.append(outcome_cell(v, j))
            if show_noise:
                cells.append(noise_cells(first, second))
            lines.append("| " + " | ".join(cells) + " |")
    return lines + [""] + [goal_line(v) for v in group] + [""]


def noise_cells(first, second) -> str:
    """A row's noise cell: each flagged member's mark, once where both members
    ran at one point and read alike (one comparison group, one canary)."""
    marks = [noise.table_cell(r) for r in (first, second) if r]
    if second is not None and first.nodes == second.nodes and marks[0] == marks[1]:
        marks = marks[:1]
    return " ".join(filter(None, marks))


def replicas_table(group: list) -> list:
    """The figures behind the goals on replica sets: one row per kernel and
    ring, the rows that miss their goal's threshold marked, then each goal's
    line."""
    spec = group[0].spec
    num, den = spec.r_num, spec.r_den
    lines = [f"### {spec.table} (family `{spec.family}`)", "",
             (spec.note.rstrip(".") + ". " if spec.note else "")
             + f"Ratio = a kernel's median ns/key for R = {num} owners per key ÷ its median "
             f"ns/key for R = {den} on the same ring.", ""]
    rows = [(v, j) for v in group for j in v.judged]
    if not rows:
        return lines + [f"Nothing to compare in family `{spec.family}` in this run.", ""] + [
            goal_line(v) for v in group] + [""]
    lines += [f"| kernel | N | V | R = {den} ns/key | CV % | R = {num} ns/key | CV % | ratio "
              "| threshold |", "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for v, j in rows:
        r = j.numerator
        vnodes = integer(r.vnodes) if r.takes_vnodes and r.vnodes else "–"
        lines.append(f"| `{r.label}` | {integer(r.nodes)} | {vnodes} | {sig3(j.denominator.ns)} "
                     f"| {cv_cell(j.denominator)} | {sig3(r.ns)} | {cv_cell(r)} | "
                     f"{intervals.figure_text(j.estimate)} | {outcome_cell(v, j)} |")
    return lines + [""] + [goal_line(v) for v in group] + [""]
