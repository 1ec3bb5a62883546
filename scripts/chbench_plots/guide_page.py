"""docs/guide.md's tables from a Guide (chbench_plots/guide.py) and the parts
beside it: every scheme's batch and one-key cost, the removals, fleet
changes and balance, caveats and crossovers. The decision list is
guide_decisions.py. Each figure names the configuration it comes from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from . import guide_balance, guide_removals, guide_schemes
from .guide import LEAVE_TEXT, Guide, GuideRow, ms_text, n_text, ns_text, pct_text, size_text
from .intervals import Estimate
from .numeric import sig3

NOT_MEASURED = "not measured in this run"


@dataclass
class Parts:
    """Everything the page reads besides the Guide."""

    registry: object  # the run's Registry
    target: str  # the Highway target the run dispatched
    lab: dict  # scheme -> guide_lab.LabRow
    floors: dict  # scheme -> guide_balance.Floor
    latency_n: Optional[int]
    latency: dict  # scheme -> Result of family latency
    removals: guide_removals.Removals
    caveats: dict = field(default_factory=dict)  # scheme -> [text]


def row_line(cells: list) -> str:
    return "| " + " | ".join(cells) + " |"


def head(cells: list) -> list:
    return [row_line(cells), "|" + "---|" * len(cells)]


def setup(r: GuideRow, parts: Parts, n: Optional[int]) -> str:
    lab = parts.lab.get(r.scheme)
    return guide_schemes.setup_text(guide_schemes.params_of(parts.registry, r.scheme),
                                    r.at(n) if n else None, lab.setup if lab else None)


def kernel_cell(r: GuideRow, n: Optional[int], registry) -> str:
    best = r.at(n) if n else None
    if best is None:
        return "–"
    kernel = registry.kernel(best.label)
    text = f"`{best.label}`" + ("" if kernel and kernel.simd else " (scalar)")
    return text + (" (tie: " + ", ".join(f"`{t}`" for t in r.tied) + ")" if r.tied else "")


def cost_table(g: Guide, parts: Parts) -> list:
    """Batch ns/key at each N of family nodes, and one key at a time."""
    lat = f"one key at a time, N = {n_text(parts.latency_n)}" if parts.latency_n else \
        "one key at a time"
    lines = head(["scheme", f"fastest kernel at N = {n_text(g.advice_n)}" if g.advice_n
                  else "fastest kernel", "set-up"]
                 + [f"batch N = {n_text(n)}" for n in g.columns] + [lat])
    for r in g.rows:
        title = r.title + (" (caveat below)" if parts.caveats.get(r.scheme) else "")
        if not r.best and r.scheme not in parts.latency:
            lines.append(row_line([title, NOT_MEASURED, setup(r, parts, None)]
                                  + ["–"] * (len(g.columns) + 1)))
            continue
        cells = [ns_text(r.at(n), r.fastest_at.get(n, False)) for n in g.columns]
        lat_r = parts.latency.get(r.scheme)
        lat_text = f"{ns_text(lat_r)} (`{lat_r.kernel}`)" if lat_r else "–"
        lines.append(row_line([title, kernel_cell(r, g.advice_n, parts.registry),
                               setup(r, parts, g.advice_n)] + cells + [lat_text]))
    return lines


def removals_table(g: Guide, parts: Parts) -> list:
    """Each any-leave scheme at 0, 10 and 50 % removed: ns/key and memory."""
    rem = parts.removals
    if rem.nodes is None:
        return ["Family `removals` was not measured in this run: no figure with nodes removed."]
    pcts = [p for p in guide_removals.FRACTIONS if p in rem.by_pct]
    lines = head(["scheme", "kernel"] + [f"ns/key, {p:g} % removed" for p in pcts]
                 + [f"memory, {p:g} % removed" for p in pcts if p])
    for r in g.rows:
        if r.removal != "any":
            continue
        got = [rem.by_pct[p].get(r.scheme) for p in pcts]
        if not any(got):
            lines.append(row_line([r.title, NOT_MEASURED] + ["–"] * (2 * len(pcts) - 1)))
            continue
        fastest = [any(x.scheme == r.scheme for x in rem.fastest.get(p, [])) for p in pcts]
        kernel = next(x for x in got if x).label
        lines.append(row_line([r.title, f"`{kernel}`"]
                              + [ns_text(x, f) for x, f in zip(got, fastest)]
                              + [size_text(x.memory_bytes if x else None)
                                 for x, p in zip(got, pcts) if p]))
    return lines


def changes_table(g: Guide, parts: Parts) -> list:
    """Memory and build at the advice N, the lab's moves and balance."""
    lines = head(["scheme", f"memory N = {n_text(g.advice_n)}" if g.advice_n else "memory",
                  "build", "moved: join", "moved: leave", "between survivors (join / leave)",
                  "busiest ÷ mean", "keys", "uniform placement (noise floor)",
                  "arbitrary leave", "weights", "SIMD target"])
    for r in g.rows:
        best = r.at(g.advice_n) if g.advice_n else None
        lab = parts.lab.get(r.scheme)
        kernel = parts.registry.kernel(best.label) if best else None
        simd = (parts.target if kernel and kernel.simd else "scalar") if best else "–"
        lines.append(row_line([r.title, size_text(best.memory_bytes if best else None),
                               ms_text(best.build_ms if best else None)]
                              + lab_cells(lab, parts.floors.get(r.scheme))
                              + [LEAVE_TEXT.get(r.removal, r.removal),
                                 "yes" if r.weights else "no", simd]))
    return lines


def lab_cells(lab, floor) -> list:
    if lab is None:
        return ["–"] * 7
    leave = "refused" if lab.leave_moved is None else pct_text(lab.leave_moved)
    mark = " (at the floor)" if floor and guide_balance.at_floor(lab.busiest_over_mean,
                                                                 floor) else ""
    return [pct_text(lab.join_moved), leave,
            f"{pct_text(lab.join_between)} / {pct_text(lab.leave_between)}",
            f"{lab.busiest_over_mean:.3f}{mark}", f"{lab.keys:,}",
            guide_balance.floor_text(floor)]


def caveat_lines(g: Guide, parts: Parts) -> list:
    out = []
    for r in g.rows:
        out += [f"- {r.title} (`{r.scheme}`): {text}" for text in parts.caveats.get(r.scheme, [])]
    return out or ["None of the schemes' pages states a caveat."]


def ratio_text(e: Optional[Estimate]) -> str:
    if e is None:
        return "–"
    return f"{sig3(e.value)}x" + (f" [{sig3(e.lo)}-{sig3(e.hi)}]" if e.has_interval else "")


def crossover_lines(g: Guide, titles: dict) -> list:
    """The measured brackets where two schemes' order changes."""
    if not g.crossovers:
        return ["No two schemes' fastest kernels change order between two N this run "
                "measured and decided."]
    out = ["Where the cheaper of two schemes (their fastest kernels, batch) changes: "
           "cheaper at the lower N, the other at the higher, both decided by the rounds "
           "(the ratio's interval clear of 1); the change lies somewhere between, "
           "where nothing was measured.", "",
           *head(["cheaper at the lower N", "cheaper at the higher N", "between",
                  "other ÷ cheaper at the lower N", "at the higher N"])]
    for c in g.crossovers:
        out.append(row_line([titles[c.cheaper_below], titles[c.cheaper_above],
                             f"N = {n_text(c.n_low)} and N = {n_text(c.n_high)}",
                             ratio_text(c.ratio_low), ratio_text(c.ratio_high)]))
    return out
