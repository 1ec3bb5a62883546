"""The answer a run gives on its first screen: for each node count N of family
`nodes`, each scheme's fastest kernel with its interval, the fastest scheme
(or the tie), rendezvous ÷ ring and each scheme ÷ the fastest with their
intervals, where rendezvous and ring cross
between measured N (never interpolated), and how many figures noise
disturbed. plot.py writes it as summary.txt and at the top of report.md;
run.sh prints summary.txt when the run ends. At most about 35 lines with the
sixteen schemes of today's registry."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Optional

from . import intervals, nodes_best, noise, rounds
from .intervals import Estimate
from .load import Result, Run
from .nodes import crossing_schemes
from .numeric import integer, sig3

NBSP = "\u00a0"


@dataclass
class Column:
    """One node count: each scheme's fastest one-thread Result there, and the
    schemes that tie for fastest (intervals.fastest)."""

    nodes: int
    best: dict  # scheme -> Result
    fastest: list  # schemes


def best_by_nodes(results: list) -> dict:
    """{N: {scheme: its fastest one-thread Result at N}}."""
    out: dict = {}
    for scheme, points in nodes_best.best_by_scheme(results).items():
        for n, r in points:
            out.setdefault(n, {})[scheme] = r
    return out


def columns(run: Run) -> list:
    """The Columns of family `nodes`, N ascending; [] when it was not measured."""
    out = []
    for n, best in sorted(best_by_nodes(run.family("nodes")).items()):
        tied = intervals.fastest(list(best.values()), lambda r: r.ns, rounds.ratio)
        out.append(Column(n, best, [r.scheme for r in tied]))
    return out


def n_text(n: int) -> str:
    return f"10^{len(str(n)) - 1}" if n >= 10**5 and str(n).strip("0") == "1" else integer(n)


def cell(r: Optional[Result], fastest: bool) -> str:
    """'1.21 [1.18-1.25]*': median ns/key, its interval, * when fastest or tied."""
    if r is None:
        return "–"
    e = rounds.ns_estimate(r)
    text = sig3(e.value) + (f" [{sig3(e.lo)}-{sig3(e.hi)}]" if e.has_interval else "")
    return text + ("*" if fastest else "") + ("~" if r.noisy else "")


def scheme_order(run: Run, cols: list) -> list:
    schemes = {s for c in cols for s in c.best}
    rank = run.registry.scheme_rank if run.registry else (lambda s: 0)
    return sorted(schemes, key=lambda s: (rank(s), s))


def table(run: Run, cols: list) -> list:
    """The schemes × N table as fixed-width text lines, each column as wide
    as its widest cell."""
    schemes = scheme_order(run, cols)
    grid = [["scheme"] + [f"N = {n_text(c.nodes)}" for c in cols]]
    grid += [[s] + [cell(c.best.get(s), s in c.fastest) for c in cols] for s in schemes]
    widths = [max(len(row[i]) for row in grid) + 2 for i in range(len(grid[0]))]
    return ["".join(text.ljust(w) for text, w in zip(row, widths)).rstrip() for row in grid]


def hrw_over_ring(run: Run, cols: list) -> list:
    """[(N, Estimate)] of the best rendezvous kernel's ns/key ÷ the best ring
    kernel's: how many times the ring's cost a rendezvous lookup costs. The
    two schemes are the run's registry's (nodes.crossing_schemes);
    none without them."""
    ring, hrw = crossing_schemes(run)
    out = []
    for c in cols:
        if ring in c.best and hrw in c.best:
            e = rounds.ratio(c.best[hrw], c.best[ring])
            if e is not None:
                out.append((c.nodes, e))
    return out


def widest(cols: list) -> Optional[Column]:
    """The Column with the most schemes (the larger N on a tie): the one
    where each scheme ÷ the fastest says most; None without columns."""
    return max(cols, key=lambda c: (len(c.best), c.nodes), default=None)


def over_fastest(c: Column) -> tuple:
    """(the fastest scheme at c, [(scheme, Estimate of its best kernel's
    ns/key ÷ the fastest one's)]), schemes in the table's order, the
    fastest itself left out; ratios that cannot be formed are left out."""
    top = min(c.fastest, key=lambda s: c.best[s].ns)
    out = []
    for scheme, r in c.best.items():
        e = rounds.ratio(r, c.best[top]) if scheme != top else None
        if e is not None:
            out.append((scheme, e))
    return top, out


def over_fastest_lines(run: Run, cols: list, width: int) -> list:
    """'Each scheme ÷ the fastest (S) at N = n: a 1.5x [1.4-1.6]; ...',
    wrapped to width."""
    c = widest(cols)
    if c is None or len(c.best) < 2:
        return []
    top, ratios = over_fastest(c)
    order = {s: i for i, s in enumerate(scheme_order(run, [c]))}
    ratios.sort(key=lambda item: order[item[0]])
    # A no-break space inside each entry keeps its name, ratio and interval on one line.
    entries = [f"{s} {ratio_text(e)}".replace(" ", NBSP) for s, e in ratios]
    text = f"Each scheme ÷ the fastest ({top}) at N = {n_text(c.nodes)}: " + "; ".join(entries)
    return [line.replace(NBSP, " ") for line in textwrap.wrap(text, width, break_on_hyphens=False)]


def ratio_text(e: Estimate) -> str:
    return f"{sig3(e.value)}x" + (f" [{sig3(e.lo)}-{sig3(e.hi)}]" if e.has_interval else "")


def side(e: Estimate) -> Optional[bool]:
    """True when the ring is decidedly cheaper (rendezvous ÷ ring above 1),
    False when rendezvous is, None when the interval straddles 1."""
    if e.has_interval:
        return True if e.lo > 1 else False if e.hi < 1 else None
    return e.value > 1


def crossover_lines(ratios: list) -> list:
    """Where the cheaper of ring and rendezvous changes between two measured
    N whose verdicts are both decided; else what was measured."""
    decided = [(n, side(e)) for n, e in ratios if side(e) is not None]
    found = [(a, b) for (a, sa), (b, sb) in zip(decided, decided[1:]) if sa != sb]
    if found:
        return [f"Crossover: the cheaper of the two changes between N = {n_text(a)} and "
                f"N = {n_text(b)} (measured there; no N between was)." for a, b in found]
    if not decided:
        return ["Crossover: undecided (every rendezvous ÷ ring interval straddles 1)."]
    cheaper = "the ring" if decided[0][1] else "rendezvous"
    return [f"Crossover: none measured; {cheaper} is cheaper at every decided N "
            f"({n_text(decided[0][0])} ... {n_text(decided[-1][0])})."]


def noise_lines(run: Run) -> list:
    s = noise.summarise(run)
    if not s.recorded:
        return ["Noise: not recorded (no canary in this run)."]
    if not s.flagged:
        return [f"Noise: none of {integer(len(s.recorded))} configurations flagged."]
    return [f"Noise: {integer(len(s.flagged))} of {integer(len(s.recorded))} configurations "
            "flagged (~): their intervals are wider; a tie (*) is figures whose",
            "intervals do not separate them. For tighter figures: scripts/run.sh "
            "--retry-noisy 3, or run when the host is quieter."]


def lines(run: Run, links: list) -> list:
    """The first screen as text lines; links: (what, path) pairs to end with."""
    cols = columns(run)
    out = [f"chbench: how fast each scheme finds a key's owner "
           f"({run.context.get('chbench_cpu_model', 'unknown CPU')}, "
           f"{run.context.get('chbench_hwy_target', '?')}, sweep "
           f"{run.context.get('chbench_sweep', '?')})"]
    if not cols:
        return out + ["This run has no family `nodes`: no scheme comparison to show."] + \
            noise_lines(run) + [f"{what}: {path}" for what, path in links]
    keys = sorted({r.keys for c in cols for r in c.best.values() if r.keys})
    batch = f"batches of K = {'/'.join(integer(k) for k in keys)} key hashes" if keys else "batches"
    out += [f"ns per key, {batch}, one thread: each scheme's fastest kernel,",
            "median [95 % interval]; * fastest or tied, ~ flagged noisy", ""]
    rows = table(run, cols)
    out += rows + [""]
    width = max(100, max(len(row) for row in rows))
    ratios = hrw_over_ring(run, cols)
    if ratios:
        out.append("Rendezvous ÷ ring (best kernels): " + "; ".join(
            f"N = {n_text(n)}: {ratio_text(e)}" for n, e in ratios))
        out += crossover_lines(ratios)
    out += over_fastest_lines(run, cols, width)
    out += noise_lines(run) + [""]
    out += [f"{what}: {path}" for what, path in links]
    return out
