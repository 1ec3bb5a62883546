"""docs/guide.md's text from a Guide (chbench_plots/guide.py): the table, the
crossovers, the decision list derived from them, and where each number came
from."""

from __future__ import annotations

from .guide import (GUIDE_N, GUIDE_N_BIG, LEAVE_TEXT, MEMORY_N, TIE, Guide, GuideRow,
                    fastest, ms_text, n_text, pct_text, size_text)
from .numeric import sig3

# A leave that moves more than this share of the keys is no consistent hashing.
REMAP_SHARE = 0.5


def columns(guide: Guide) -> list:
    """The N of the ns/key columns: GUIDE_N, and GUIDE_N_BIG if any row has it."""
    big = any(GUIDE_N_BIG in r.ns for r in guide.rows)
    return list(GUIDE_N) + ([GUIDE_N_BIG] if big else [])


def unmeasured_note(guide: Guide) -> list:
    """A line naming the columns' N that no scheme was measured at."""
    missing = [n_text(n) for n in columns(guide) if not any(n in r.ns for r in guide.rows)]
    return [f"This run measured no scheme at N = {', '.join(missing)}: those columns are "
            "empty (no value is interpolated)."] if missing else []


def table(guide: Guide, target: str) -> list:
    """The Markdown table, one row per scheme."""
    ns_cols = columns(guide)
    head = (["Scheme", "fastest kernel"] + [f"ns/key N = {n_text(n)}" for n in ns_cols]
            + [f"memory N = {n_text(MEMORY_N)}", "build", "moved: join", "moved: leave",
               "between survivors (join / leave)", "busiest ÷ mean", "arbitrary leave",
               "weights", "SIMD target"])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in guide.rows:
        lines.append("| " + " | ".join(row_cells(r, ns_cols, target)) + " |")
    return lines


def row_cells(r: GuideRow, ns_cols: list, target: str) -> list:
    """The cells of one scheme's row."""
    lab = r.lab
    ns = [sig3(r.ns[n]) if n in r.ns else "–" for n in ns_cols]
    leave = "refused" if lab and lab.leave_moved is None else pct_text(lab and lab.leave_moved)
    between = (f"{pct_text(lab.join_between)} / {pct_text(lab.leave_between)}" if lab else "–")
    kernel = f"`{r.kernel}`" + (" (tie: " + ", ".join(f"`{t}`" for t in r.tied) + ")"
                                if r.tied else "")
    return ([r.title, kernel] + ns
            + [size_text(r.memory_bytes), ms_text(r.build_ms),
               pct_text(lab.join_moved) if lab else "–", leave, between,
               f"{lab.busiest_over_mean:.2f}" if lab else "–", LEAVE_TEXT.get(r.removal, r.removal),
               "yes" if r.weights else "no", target if r.simd else "scalar"])


def crossover_lines(guide: Guide, titles: dict) -> list:
    """A table of the crossovers, in N order."""
    if not guide.crossovers:
        return ["No two schemes' best kernels swap order between the N this run measured."]
    out = [f"For each pair of schemes whose best kernels (the lowest median of the scheme's "
           f"kernels at each N) swap order between two measured N, each ahead by more than "
           f"{TIE:.0%} on its side: the N where they cross, interpolated on log N and log ns "
           "between those two points.", "",
           "| cheaper below | cheaper above | N ≈ | measured at (ns/key, below ÷ above) |",
           "|---|---|---|---|"]
    for c in guide.crossovers:
        lo, hi = guide.best_by_n[c.n_low], guide.best_by_n[c.n_high]
        ends = (f"N = {n_text(c.n_low)}: {sig3(lo[c.cheaper_below])} ÷ "
                f"{sig3(lo[c.cheaper_above])}; N = {n_text(c.n_high)}: "
                f"{sig3(hi[c.cheaper_below])} ÷ {sig3(hi[c.cheaper_above])}")
        out.append(f"| {titles[c.cheaper_below]} | {titles[c.cheaper_above]} | "
                   f"{n_text(c.n_cross)} | {ends} |")
    return out


def fastest_at(guide: Guide, n: int) -> list:
    """The Results of the schemes' best kernels at N = n that tie for the
    fastest (one when the rounds separate it; guide.fastest), [] if none."""
    return fastest(list(guide.best_at.get(n, {}).values()))


def tie_text(results: list, titles: dict) -> str:
    """'a tie of A (2.00 ns/key) and B (2.02 ns/key), which the rounds do not separate'."""
    named = [f"{titles[r.scheme]} ({sig3(r.ns)} ns/key)" for r in results]
    return ("a tie of " + ", ".join(named[:-1]) + " and " + named[-1]
            + ", which the rounds do not separate")


def decisions(guide: Guide, titles: dict) -> list:
    """The decision list: each line a rule read off the table's numbers."""
    out = []
    for n in columns(guide):
        best = fastest_at(guide, n)
        count = len(guide.best_by_n.get(n, {}))
        if len(best) == 1:
            out.append(f"- Fastest lookup at N = {n_text(n)}: {titles[best[0].scheme]} "
                       f"({sig3(best[0].ns)} ns/key; of the {count} schemes measured there).")
        elif best:
            out.append(f"- Fastest lookup at N = {n_text(n)}: {tie_text(best, titles)} "
                       f"(of the {count} schemes measured there).")
    rows = [r for r in guide.rows if r.lab is not None]
    anyleave = [r for r in rows if r.removal == "any" and MEMORY_N in r.ns]
    if anyleave:
        out.append(any_leave_line(anyleave, titles))
        r = min(anyleave, key=lambda r: (r.memory_bytes or 0, r.ns[MEMORY_N]))
        out.append(f"- Any node may leave, least memory: {r.title} "
                   f"({size_text(r.memory_bytes)} at N = {n_text(MEMORY_N)}).")
    if rows:
        r = min(rows, key=lambda r: (r.lab.busiest_over_mean, r.scheme))
        out.append(f"- Most even load: {r.title} (busiest ÷ mean {r.lab.busiest_over_mean:.2f} "
                   f"at N = {n_text(MEMORY_N)}).")
    remap = [r.title for r in rows if (r.lab.leave_moved or 0) > REMAP_SHARE]
    if remap:
        out.append(f"- Avoid where nodes change: {', '.join(remap)} (one leave moves more than "
                   f"{REMAP_SHARE:.0%} of the keys).")
    moving = [r.title for r in rows if r.lab.leave_between and r.lab.leave_between > 0
              and r.title not in remap]
    if moving:
        out.append(f"- Keys also move between surviving nodes on a leave: {', '.join(moving)}.")
    return out


def any_leave_line(rows: list, titles: dict) -> str:
    """The fastest of the schemes that let any node leave, at N = MEMORY_N
    (rows: theirs), or their tie."""
    tie = fastest([r.at for r in rows if r.at is not None])
    if len(tie) > 1:
        return (f"- Any node may fail or leave: {tie_text(tie, titles)}, the fastest of the "
                f"schemes that allow it at N = {n_text(MEMORY_N)}.")
    r = min(rows, key=lambda r: r.ns[MEMORY_N])
    return (f"- Any node may fail or leave: {r.title} is the fastest of the schemes that "
            f"allow it at N = {n_text(MEMORY_N)} ({sig3(r.ns[MEMORY_N])} ns/key, "
            f"{size_text(r.memory_bytes)}).")
