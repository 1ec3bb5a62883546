"""The plots of plot.py, one table: each plot's file stem, the family whose
results it draws, its title and the text beside it in report.md, and how it
is drawn. plot.py draws every plot whose family the run measured, and the
report lists them in the run's family order (families.py).

A text's {knobs}, {reference}, {lines} and {floor} are the run's parts
(plot_text.py fills them in).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from . import (batch, bounded, clustered, dense, dram, hashed, inflight, latency, nodes,
               nodes_best, removals, replicas, targets_plot, threads, tokens, weighted)
from .load import Run
from .rings import ring_points


@dataclass
class Canvas:
    """What a plot is drawn from."""

    run: Run
    figure_cls: Any  # matplotlib's Figure
    style: Any  # style.Style of the run
    analyses: Any  # report.Analyses


@dataclass(frozen=True)
class Plot:
    """One plot."""

    stem: str  # the file's name without its format: <stem>.png, <stem>-dark.svg
    family: str  # the family whose results it draws ("Not drawn: no usable ...")
    title: str
    text: str  # how to read it
    draw: Callable  # (Canvas) -> matplotlib Figure, or None without usable results
    note: Optional[Callable] = None  # (Run) -> what the report adds to the text


def clustered_reference(goals) -> Optional[str]:
    """The kernel the clustered plot is drawn against: the reference of the
    first goal that compares family "clustered" with one."""
    return next((g.denominator for g in goals.goals
                 if g.family == "clustered" and g.kind == "each_vs_reference"), None)


PLOTS = (
    Plot("ring_tokens", "tokens", "Ring lookup cost vs ring size",
         "Each line is one ring kernel, at a fixed batch; x is the number of distinct tokens on "
         "the ring (N × V), y the median time per key, both log scales, with the band spanning "
         "the fastest and slowest repetition. The dashed grey line is the stream floor ({floor}: "
         "read each key hash, write one owner, no lookup), work every lookup does too; the "
         "dash-dot one the random-read floor (one 64-byte line a key read at a random place in a "
         "table of the ring's size), what a kernel that misses one line a key cannot beat. A flat "
         "stretch means the tokens still fit a cache; the slope steepens where the search "
         "structure leaves a cache level (dotted lines, from the structure's bytes per token and "
         "the caches Google Benchmark reports). The gap between lines at the right is the "
         "layout's effect when every probe misses the cache.",
         lambda c: tokens.figure(c.run, c.figure_cls, c.style)),
    Plot("latency", "latency", "Throughput beside latency",
         "Left, as in the plot above, independent keys (family `tokens`): lookups overlap, so "
         "the time per key is throughput. Right, each key waits for the previous key's owner "
         "(family `latency`): one lookup at a time, so the time per key is its full latency. "
         "Same colour per kernel in both panels, the same y axis, log-log, bands spanning the "
         "fastest and slowest repetition; the dashed grey line is the stream floor of each "
         "family. A kernel's height on the right over its height on the left is what overlapping "
         "lookups buy.",
         lambda c: latency.figure(c.run, c.figure_cls, c.style)),
    Plot("inflight", "inflight", "Keys in flight",
         "One panel per kernel, one line per ring: time per key against how many lookups are in "
         "flight at once (log2 x, log y), as each kernel's knob sets it ({knobs}). With one in "
         "flight every cache miss is waited for alone; more overlap the misses until the "
         "registers, the line fill buffers or the cache run out. The circle marks each line's "
         "fastest setting; the dotted line in the same colour is the kernel as run in family "
         "`tokens`, with its built-in setting.",
         lambda c: inflight.figure(c.figure_cls, c.analyses.inflight)),
    Plot("clustered", "clustered", "Clustered tokens",
         "Every ring kernel on a ring whose tokens and keys all lie in one narrow window of hash "
         "values, one group of bars per ring size; whiskers span the fastest and slowest "
         "repetition. {reference}",
         lambda c: clustered.figure(c.figure_cls, c.style, ring_points(c.run, "clustered"),
                                   clustered_reference(c.analyses.goals))),
    Plot("schemes_nodes", "nodes", "Every scheme vs node count",
         "Each line is one kernel (line style by scheme: {lines}), at a fixed number of virtual "
         "nodes per ring node; log-log. Rendezvous scores every node, so its cost grows about "
         "linearly with N; ring grows with log(N × V), jump with log N, mod-N and Maglev (one "
         "table entry) not at all. The cross marks the N where rendezvous becomes slower than "
         "the fastest ring kernel; below it, rendezvous is the cheaper lookup.",
         lambda c: nodes.figure(c.run, c.figure_cls, c.style, c.analyses.crossover)),
    Plot("schemes_best_nodes", "nodes", "Every scheme, its fastest kernel, vs node count",
         "One line a scheme, each in its own colour and marker: at each node count the median "
         "time per key of the scheme's fastest kernel there (which kernel that is can change "
         "with N; the all-kernels view above names them), one thread, log-log, with its band. "
         "Read it for which scheme is cheapest at your fleet size; a scheme whose line stops "
         "was not measured past that N.",
         lambda c: nodes_best.figure(c.run, c.figure_cls, c.style)),
    Plot("jump_family", "dense", "Jump hash and its successors vs bucket count",
         "Each line is one kernel of the schemes that place keys by the bucket count alone and "
         "let only the last bucket leave (family `dense`): median time per key against the "
         "bucket count N, log2 x and log y, with the band spanning the fastest and slowest "
         "repetition. The grey vertical lines are the powers of two; the points sit just below, "
         "at and just above each one (2^k - 1, 2^k, 2^k + 1), so on this axis they stand almost "
         "on the line, and a kernel whose cost depends on where N sits between powers of two "
         "shows it as a jump there, from cheapest just below to dearest just above, then a slope "
         "back down to the next line. Jump hash's cost grows with log N, so its lines climb; its "
         "successors' stay flat on average. A vertical gap between a SIMD kernel and its scalar "
         "rival is their speed-up (the same gap is the same ratio at any height). The report's "
         "section \"Jump family\" gives each kernel at N = 1,000 and 10^6, its worst and best N, "
         "and each SIMD kernel's speed-up over its rival, and its time ÷ the compute floor's. "
         "The grey line of short dashes is the compute floor (one multiply-xorshift and a "
         "multiply-shift into [0, N) a key, keys in lanes): the cheapest hash-then-bucket, no "
         "scheme's work.",
         lambda c: dense.figure(c.run, c.figure_cls, c.style)),
    Plot("removals", "removals", "Lookup cost after removals",
         "One panel per initial node count N, one line per kernel (family `removals`): median "
         "time per key against the share of the N nodes removed (0 to 0.9), log y, with the band "
         "spanning the fastest and slowest repetition. The schemes that let any node leave lose "
         "theirs in a seeded random order: ring, rendezvous and Maglev are rebuilt from the "
         "survivors, the schemes that replay the fleet's history (AnchorHash, DxHash, "
         "MementoHash, JumpBackAnchor) keep their removed buckets, and a key that lands on one "
         "looks again, so their cost can grow with the share removed where the others' stays "
         "flat or falls (fewer survivors: a smaller ring, fewer scores). Jump hash and its "
         "successors, marked LIFO, can lose only the last nodes, so they are drawn under that "
         "order, beside the others but not the same experiment. The report's section "
         "\"Removals\" gives every figure, and at the largest share removed each table's bytes, "
         "its build time and the time to rebuild it after one more removal and one re-add.",
         lambda c: removals.figure(c.run, c.figure_cls, c.style)),
    Plot("removals_memory", "removals", "Memory after removals vs node count",
         "The lookup structure's bytes (`memory_bytes`) against the initial node count N, "
         "log-log, one line per kernel of family `removals`, at one share removed (the one "
         "measured at the most kernels and N, of those the largest; the title says which). A "
         "history-replaying scheme holds its capacity (10 × N buckets) whatever the share "
         "removed; the ring holds N × V tokens of the survivors, Maglev its M slots. Kernels "
         "that hold no table (jump hash and its successors) are not drawn.",
         lambda c: removals.memory_figure(c.run, c.figure_cls, c.style)),
    Plot("dram", "dram", "Batches from memory, beside the stream floor",
         "Family `dram`: batches of 10^7 keys, as the public implementations' own harnesses "
         "stream them from memory. One group of bars per fleet: jump hash and its successors at "
         "N buckets, and the schemes that replay a fleet's history with half of 10^6 buckets "
         "removed at a capacity of 10^6; whiskers span each median's interval. The dashed line "
         "across a group is the stream floor at the same batch (read each key hash, write one "
         "owner, no lookup), and the figure above each bar is its time ÷ that floor: near 1 the "
         "kernel is as fast as memory lets any lookup be, far above it the kernel's own work "
         "limits it. The grey line of short dashes is the compute floor (one multiply-xorshift "
         "and a multiply-shift a key, in lanes): above both floors, a kernel is bound by its own "
         "work; the report's table of the family gives each bar ÷ each floor.",
         lambda c: dram.figure(c.figure_cls, c.style, dram.dram_points(c.run))),
    Plot("threads", "threads", "Thread scaling",
         "Speed-up of each kernel over its own one-thread time (ratio of medians) against the "
         "oneTBB arena size; the dashed diagonal is perfect scaling. Points below it show the "
         "cost of sharing memory bandwidth, caches or a core (beyond the dotted line, more "
         "threads than the machine has). Bars span the best and worst ratio of repetitions.",
         lambda c: threads.figure(c.run, c.figure_cls, c.style)),
    Plot("batch", "batch", "Batch size",
         "Time per key against the number of keys per call (log x). Small batches pay the call "
         "and set-up cost over few keys; large ones lose when keys and answers stop fitting in "
         "cache. The flat middle is the kernel's steady state.",
         lambda c: batch.figure(c.run, c.figure_cls, c.style),
         note=batch.axis_note),
    Plot("hashed", "hashed", "Key hashing included",
         "Time per key when the key strings are hashed (XXH3) inside the timed loop; the pale "
         "hatched bar beside it, where the same configuration was measured without hashing, is "
         "the lookup alone, so the difference is what hashing the key costs (the table gives it "
         "in ns; on a log axis the gap between bars is a ratio, not a difference).",
         lambda c: hashed.figure(c.run, c.figure_cls, c.style)),
    Plot("bounded", "bounded", "Bounded loads",
         "Consistent hashing with bounded loads on the ring's default kernel (family `bounded`): "
         "one group of bars per thread count, one bar per balance factor c beside the same "
         "lookup without a bound, ns per request from 0. A bounded request walks clockwise past "
         "nodes already holding ⌈c K / N⌉ requests of the batch, so the smaller c, the longer "
         "the walks; the figure under each bounded bar's time is that time ÷ the plain lookup's. "
         "On more threads every node tried costs an atomic add on a shared counter. A hollow "
         "marker on a bar means it was flagged noisy.",
         lambda c: bounded.figure(c.run, c.figure_cls, c.style)),
    Plot("weighted", "weighted", "Weighted rendezvous",
         "Time per key of weighted rendezvous over nodes of weights 1 + n mod 4: one group of "
         "bars per N, one bar per kernel, log y. Each bar gives its ns/key and, for the SIMD "
         "kernel, its speed-up over the scalar rival measured in the same run (the goals ask 4× "
         "on AVX-512, 1.5× on AVX2); a hollow marker on a bar means it was flagged noisy.",
         lambda c: weighted.figure(c.run, c.figure_cls, c.style)),
    Plot("replicas", "replicas", "Replica sets",
         "Time per key of a replica set, R distinct owners in preference order, against R (the "
         "ring walks clockwise past tokens of nodes already chosen; rendezvous keeps the R "
         "highest scores): one panel per scheme and ring size, one line per kernel, log y. Each "
         "point's figure is its ns/key ÷ the same kernel's at R = 1 on the same ring (the R = 1 "
         "point gives its ns/key); the goals judge R = 3 against R = 1 at N = 1,000. Bands span "
         "the fastest to the slowest repetition.",
         lambda c: replicas.figure(c.run, c.figure_cls, c.style)),
    Plot("targets", "targets", "SIMD speed-up per Highway target",
         "One group of bars per SIMD kernel configuration (kernel and N), one bar per Highway "
         "target: the speed-up over the kernel's scalar counterpart at the same N, V and K "
         "(median ns/key of the scalar kernel ÷ that of the SIMD kernel). Bars start at the 1× "
         "line: up means the SIMD kernel is faster than scalar, down slower. The hatched bar "
         "with its figure is the kernel as Highway's run-time dispatch runs it, coloured as the "
         "target it picked; it should match that target's forced bar. The other bars force one "
         "target each, widest (darkest) first; SCALAR is the SIMD code with one lane, so the gap "
         "between it and the wider targets is what the vectors buy, and the gap from AVX2 to "
         "AVX3 is the 512-bit width (with AVX-512's gathers and masks). Whiskers span the "
         "slowest to the fastest ratio of repetitions.",
         lambda c: targets_plot.figure(c.run, c.figure_cls, c.analyses.targets)),
)


# The plots that draw a line (or a panel) per kernel: plot.py --schemes and
# --kernels choose the kernels they draw (subset.py); the others draw
# ratios to a reference kernel, or one kernel, and always draw the run whole.
PER_KERNEL = frozenset({"ring_tokens", "latency", "inflight", "schemes_nodes",
                        "schemes_best_nodes", "jump_family", "removals", "removals_memory",
                        "threads", "batch", "replicas"})


def in_run_order(run: Run) -> list:
    """PLOTS in the run's family order (every family the run describes, also
    those it did not measure; a family it does not list last), each family's
    plots in table order."""
    order = [f.name for f in run.described.families]
    rank = {f: i for i, f in enumerate(order)}
    return sorted(PLOTS, key=lambda p: rank.get(p.family, len(order) + PLOTS.index(p)))
