"""The guide's decision list: each line a rule read off a measured figure in
the situation it names, with the configuration it comes from."""

from __future__ import annotations

from . import guide_balance, guide_removals, intervals, rounds
from .guide import Guide, n_text, ns_text, size_text
from .guide_page import Parts

# A leave that moves more than this share of the keys is no consistent hashing.
REMAP_SHARE = 0.5


def named(results: list, titles: dict, config, caveats: dict) -> str:
    """'X (1.20 [1.1-1.3] ns/key, `config`)' for one, 'a tie of A (...) and B
    (...), which the rounds do not separate' for several; a scheme with a
    caveat (caveats: scheme -> [text]) carries it."""
    parts = [f"{titles[r.scheme]} ({ns_text(r)} ns/key, `{config(r)}`"
             + "".join(f"; caveat: {c}" for c in caveats.get(r.scheme, [])) + ")"
             for r in results]
    if len(parts) == 1:
        return parts[0]
    return ("a tie of " + ", ".join(parts[:-1]) + " and " + parts[-1]
            + ", which the rounds do not separate")


def nodes_config(r) -> str:
    return f"nodes/{r.label}/N:{r.nodes}"


def latency_config(r) -> str:
    return f"latency/{r.label}/N:{r.nodes}"


def lookup_lines(g: Guide, parts: Parts, titles: dict) -> list:
    out = []
    if g.advice_n is not None:
        best = g.fastest.get(g.advice_n, [])
        out.append(f"- Fastest batch lookup at N = {n_text(g.advice_n)}, nothing removed: "
                   f"{named(best, titles, nodes_config, parts.caveats)}.")
    if parts.latency:
        best = intervals.fastest(list(parts.latency.values()), lambda r: r.ns, rounds.ratio)
        out.append(f"- Fastest one key at a time at N = {n_text(parts.latency_n)} (what a "
                   "client doing one lookup per request pays): "
                   f"{named(best, titles, latency_config, parts.caveats)}.")
    return out


def removal_lines(parts: Parts, titles: dict) -> list:
    rem = parts.removals
    out = []
    for pct in guide_removals.ADVICE_FRACTIONS:
        best = rem.fastest.get(pct)
        if not best:
            continue
        mem = "; memory after removal: " + ", ".join(
            f"{titles[r.scheme]} {size_text(r.memory_bytes)}" for r in best)
        out.append(f"- Any node may leave or fail, {pct:g} % of N = {n_text(rem.nodes)} "
                   f"removed: {named(best, titles, guide_removals.config_name, parts.caveats)}"
                   f"{mem}.")
    return out


def balance_lines(parts: Parts, titles: dict) -> list:
    scores = {s: row.busiest_over_mean for s, row in parts.lab.items()}
    kind, schemes = guide_balance.most_even(scores, parts.floors)
    if kind == "none":
        return []
    groups: dict = {}
    for s in sorted(schemes, key=lambda s: (scores[s], titles[s])):
        groups.setdefault(parts.floors[s], []).append(f"{titles[s]} {scores[s]:.3f}")
    figures = "; ".join(f"from {f.keys:,} keys (a uniform random placement: "
                        f"{guide_balance.floor_text(f)}): {', '.join(names)}"
                        for f, names in groups.items())
    if kind == "floor":
        return [f"- Most even load: a tie at the noise floor, {figures}: their busiest ÷ mean "
                "is within what a perfectly uniform random placement of the same keys gives."]
    if kind == "tie":
        return [f"- Most even load: a tie (closer than the floor's spread), {figures}."]
    return [f"- Most even load: {figures}."]


def change_lines(g: Guide, parts: Parts) -> list:
    out = []
    remap = [r.title for r in g.rows if r.scheme in parts.lab
             and (parts.lab[r.scheme].leave_moved or 0) > REMAP_SHARE]
    if remap:
        out.append(f"- Avoid where nodes change: {', '.join(remap)} (one leave moves more than "
                   f"{REMAP_SHARE:.0%} of the keys).")
    moving = [r.title for r in g.rows if r.scheme in parts.lab and r.title not in remap
              and (parts.lab[r.scheme].leave_between or 0) > 0]
    if moving:
        out.append(f"- Keys also move between surviving nodes on a leave: {', '.join(moving)}.")
    return out


def lines(g: Guide, parts: Parts) -> list:
    titles = {r.scheme: r.title for r in g.rows}
    return (lookup_lines(g, parts, titles) + removal_lines(parts, titles)
            + balance_lines(parts, titles) + change_lines(g, parts))
