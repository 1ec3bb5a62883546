"""The text beside each plot in report.md: how to read it. The parts that
depend on the run (which kernel has which knob, the clustered plot's
reference, which line style is which scheme) are filled in by texts()."""

from __future__ import annotations

from typing import Optional

# Plot file -> (title, how to read it); {knobs}, {reference}, {lines} and
# {floor} are filled in by texts().
TEXTS = {
    "ring_tokens.png": (
        "Ring lookup cost vs ring size",
        "Each line is one ring kernel, at a fixed batch; x is the number of distinct tokens on "
        "the ring (N × V), y the median time per key, both log scales, with the band spanning "
        "the fastest and slowest repetition. The dashed grey line is the stream floor "
        "({floor}: read each key hash, write one owner, no lookup), work every lookup "
        "does too. A flat stretch means the tokens "
        "still fit a cache; the slope steepens where the search structure leaves a cache level "
        "(dotted lines, from the structure's bytes per token and the caches Google Benchmark "
        "reports). The gap between lines at the right is the layout's effect when every probe "
        "misses the cache."),
    "latency.png": (
        "Throughput beside latency",
        "Left, as in the plot above, independent keys (family `tokens`): lookups overlap, so "
        "the time per key is throughput. Right, each key waits for the previous key's owner "
        "(family `latency`): one lookup at a time, so the time per key is its full latency. "
        "Same colour per kernel in both panels, the same y axis, log-log, bands spanning the "
        "fastest and slowest repetition; the dashed grey line is the stream floor of each "
        "family. A kernel's height on the right over its height on the left is what "
        "overlapping lookups buy."),
    "inflight.png": (
        "Keys in flight",
        "One panel per kernel, one line per ring: time per key against how many lookups are "
        "in flight at once (log2 x, log y), as each kernel's knob sets it ({knobs}). With "
        "one in flight every cache miss is waited for alone; more overlap the misses until "
        "the registers, the line fill buffers or the cache run out. "
        "The circle marks each line's fastest setting; the dotted line in the same colour is "
        "the kernel as run in family `tokens`, with its built-in setting."),
    "clustered.png": (
        "Clustered tokens",
        "Every ring kernel on a ring whose tokens and keys all lie in one narrow window of "
        "hash values, one group of bars per ring size; whiskers span the fastest and slowest "
        "repetition. {reference}"),
    "schemes_nodes.png": (
        "Every scheme vs node count",
        "Each line is one kernel (line style by scheme: {lines}), at a fixed number of "
        "virtual nodes per ring node; log-log. Rendezvous scores every node, so its cost "
        "grows about linearly with N; ring grows with log(N × V), jump with log N, mod-N and "
        "Maglev (one table entry) not at all. The cross marks the N where rendezvous becomes "
        "slower than the fastest ring kernel; below it, rendezvous is the cheaper lookup."),
    "jump_family.png": (
        "Jump hash and its successors vs bucket count",
        "Each line is one kernel of the schemes that place keys by the bucket count alone "
        "and let only the last bucket leave (family `dense`): median time per key against "
        "the bucket count N, log2 x and log y, with the band spanning the fastest and "
        "slowest repetition. The grey vertical lines are the powers of two; the points sit "
        "just below, at and just above each one (2^k - 1, 2^k, 2^k + 1), so on this axis "
        "they stand almost on the line, and a kernel whose cost depends on where N sits "
        "between powers of two shows it as a jump there, from cheapest just below to dearest "
        "just above, then a slope back down to the next line. Jump hash's cost grows with "
        "log N, so its lines climb; its successors' stay flat on average. A vertical gap "
        "between a SIMD kernel and its scalar rival is their speed-up (the same gap is the "
        "same ratio at any height). The report's section \"Jump family\" gives each kernel "
        "at N = 1,000 and 10^6, its worst and best N, and each SIMD kernel's speed-up over "
        "its rival."),
    "removals.png": (
        "Lookup cost after removals",
        "One panel per initial node count N, one line per kernel (family `removals`): median "
        "time per key against the share of the N nodes removed (0 to 0.9), log y, with the "
        "band spanning the fastest and slowest repetition. The schemes that let any node "
        "leave lose theirs in a seeded random order: ring, rendezvous and Maglev are rebuilt "
        "from the survivors, the schemes that replay the fleet's history (AnchorHash, "
        "DxHash, MementoHash, JumpBackAnchor) keep their removed buckets, and a key that lands "
        "on one looks again, so their cost can grow with the share removed where the others' "
        "stays flat or falls (fewer survivors: a smaller ring, fewer scores). Jump hash and its "
        "successors, marked LIFO, can lose only the last nodes, so they are drawn under that "
        "order, beside the others but not the same experiment. The report's section "
        "\"Removals\" gives every figure, and at the largest share removed each table's "
        "bytes, its build time and the time to rebuild it after one more removal and one "
        "re-add."),
    "removals_memory.png": (
        "Memory after removals vs node count",
        "The lookup structure's bytes (`memory_bytes`) against the initial node count N, "
        "log-log, one line per kernel of family `removals`, at one share removed (the one "
        "measured at the most kernels and N, of those the largest; the title says which). A "
        "history-replaying scheme holds its capacity (10 × N buckets) "
        "whatever the share removed; the ring holds N × V tokens of the survivors, Maglev its "
        "M slots. Kernels that hold no table (jump hash and its successors) are not drawn."),
    "threads.png": (
        "Thread scaling",
        "Speed-up of each kernel over its own one-thread time (ratio of medians) against the "
        "oneTBB arena size; the dashed diagonal is perfect scaling. Points below it show the "
        "cost of sharing memory bandwidth, caches or a core (beyond the dotted line, more "
        "threads than the machine has). Bars span the best and worst ratio of repetitions."),
    "batch.png": (
        "Batch size",
        "Time per key against the number of keys per call (log x). Small batches pay the call "
        "and set-up cost over few keys; large ones lose when keys and answers stop fitting in "
        "cache. The flat middle is the kernel's steady state."),
    "hashed.png": (
        "Key hashing included",
        "Time per key when the key strings are hashed (XXH3) inside the timed loop; the pale "
        "hatched bar beside it, where the same configuration was measured without hashing, is "
        "the lookup alone, so the difference is what hashing the key costs (the table gives "
        "it in ns; on a log axis the gap between bars is a ratio, not a difference)."),
    "weighted.png": (
        "Weighted rendezvous",
        "Time per key of weighted rendezvous over nodes of weights 1 + n mod 4: one group of "
        "bars per N, one bar per kernel, log y. Each bar gives its ns/key and, for the SIMD "
        "kernel, its speed-up over the scalar rival measured in the same run (the goals ask "
        "4× on AVX-512, 1.5× on AVX2); a hollow marker on a bar means it was flagged noisy."),
    "replicas.png": (
        "Replica sets",
        "Time per key of a replica set, R distinct owners in preference order, against R "
        "(the ring walks clockwise past tokens of nodes already chosen; rendezvous keeps the R "
        "highest scores): one panel per scheme and ring size, one line per kernel, log y. "
        "Each point's figure is its ns/key ÷ the same kernel's at R = 1 on the same ring (the "
        "R = 1 point gives its ns/key); the goals judge R = 3 against R = 1 at N = 1,000. Bands "
        "span the fastest to the slowest repetition."),
    "targets.png": (
        "SIMD speed-up per Highway target",
        "One group of bars per SIMD kernel configuration (kernel and N), one bar per "
        "Highway target: the speed-up over the kernel's scalar counterpart at the same N, V "
        "and K (median ns/key of the scalar kernel ÷ that of the SIMD kernel). Bars start at "
        "the 1× line: up means the SIMD kernel is faster than scalar, down slower. The hatched "
        "bar with its figure is the kernel as Highway's run-time dispatch runs it, coloured as "
        "the target it picked; it should match that target's forced bar. The other bars force "
        "one target each, widest (darkest) first; SCALAR is the SIMD code with one lane, so "
        "the gap between it and the wider targets is what the vectors buy, and the gap from "
        "AVX2 to AVX3 is the 512-bit width (with AVX-512's gathers and masks). Whiskers span "
        "the slowest to the fastest ratio of repetitions."),
}


# The family whose results each plot draws (for "Not drawn: no usable ...").
FAMILY_OF = {"ring_tokens.png": "tokens", "latency.png": "latency", "inflight.png": "inflight",
             "clustered.png": "clustered", "schemes_nodes.png": "nodes",
             "jump_family.png": "dense", "removals.png": "removals",
             "removals_memory.png": "removals", "threads.png": "threads", "batch.png": "batch",
             "hashed.png": "hashed", "weighted.png": "weighted",
             "replicas.png": "replicas", "targets.png": "targets"}


def texts(knobs: str, reference: Optional[str], lines: str, floor: Optional[str]) -> dict:
    """TEXTS with the run's parts: knobs ('`a`: lockstep group, ...'), the
    clustered plot's reference kernel (or None), the line key of the nodes
    plot ('solid: ring, ...') and the stream baseline's name (or None)."""
    if reference:
        ref = (f"The dashed line across each group, and the outlined bar, is `{reference}`, "
               "the reference; the figure above every other bar is its time ÷ the "
               "reference's, in red where it is slower.")
    else:
        ref = "No reference kernel: the goals file compares no kernel with this family."
    out = {}
    for name, (title, text) in TEXTS.items():
        out[name] = (title, text.replace("{knobs}", knobs or "none in this run")
                     .replace("{reference}", ref).replace("{lines}", lines)
                     .replace("{floor}", f"`{floor}`" if floor else "the stream baseline"))
    return out
