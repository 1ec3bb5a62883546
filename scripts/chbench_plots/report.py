"""report.md: the run's machine and build, ratios, goals, SIMD targets, how
to read each plot, a table per family, and the checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from . import (bounded, dense, first_screen, floors, goals_report, inflight, noise, nodes, profiles,
               ratios, removals, rounds, targets, threads, tokens)
from .families import CONTEXT_KEY as FAMILIES_KEY
from .families import Segment
from .goal_specs import Goals
from .hashed import lookup_only
from .load import Run, number
from .numeric import binary_size, cv_cell, integer, sig3, si
from .registry import CONTEXT_KEY
from .rings import ring_points
from .rounds import BLOCKED_ORDER, round_order

# Above this coefficient of variation a figure is flagged as noisy.
NOISY_CV = 0.05

CONTEXT_ROWS = (
    ("CPU", "chbench_cpu_model"),
    ("Hardware threads", "chbench_hardware_threads"),
    ("CPUs (Google Benchmark)", "num_cpus"),
    ("MHz per CPU", "mhz_per_cpu"),
    ("CPU frequency scaling", "cpu_scaling_enabled"),
    ("Caches", "caches"),
    ("Load average at start", "load_avg"),
    ("SIMD target that ran (Highway)", "chbench_hwy_target"),
    ("SIMD targets supported", "chbench_hwy_targets_supported"),
    ("SIMD targets compiled", "chbench_hwy_targets_compiled"),
    ("64-bit lane multiplies (AVX3, binomial/simd)", "chbench_mul64"),
    ("Emulated", "chbench_emulated"),
    ("CMake preset", "chbench_preset"),
    ("Toolchain (toolchains/*.cmake)", "chbench_toolchain"),
    ("x86-64 baseline", "chbench_baseline"),
    ("Target architecture", "chbench_target_arch"),
    ("Cross-compiled", "chbench_cross_compiled"),
    ("Compiler", "chbench_compiler"),
    ("Build type", "chbench_build_type"),
    ("C++ flags", "chbench_cxx_flags"),
    ("oneTBB", "chbench_tbb_version"),
    ("Google Benchmark", "chbench_benchmark_version"),
    ("xxHash", "chbench_xxhash_version"),
    ("Commit", "chbench_commit"),
    ("Sweep", "chbench_sweep"),
    ("Repetitions", "chbench_repetitions"),
    ("Comparison groups", rounds.GROUPS_KEY),
    ("Host", "host_name"),
    ("Date", "date"),
    ("Executable", "executable"),
    ("CPU flags", "chbench_cpu_flags"),
)
# Google Benchmark's own build type is Debian's, not ours: never shown.
# The registry is summarised on a row of its own.
CONTEXT_IGNORED = {"library_build_type", CONTEXT_KEY, FAMILIES_KEY, noise.NOISE_KEY,
                   noise.RETRIES_KEY}


@dataclass
class Analyses:
    """What the report and the plots share, computed once per run."""

    goals: Goals
    verdicts: list  # a goals.Verdict per goal of the goals file
    crossover: nodes.NodesAnalysis
    targets: targets.TargetsAnalysis
    inflight: list  # of inflight.InflightLine
    dense: dense.DenseAnalysis
    removals: removals.RemovalsAnalysis


def md_cell(text: Any) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def context_value(key: str, value: Any) -> str:
    """A context field for the table."""
    if key == "caches" and isinstance(value, list):
        parts = []
        for c in value:
            if not isinstance(c, dict):
                continue
            kind = {"Data": "d", "Instruction": "i"}.get(c.get("type"), "")
            shared = c.get("num_sharing")
            text = f"L{c.get('level', '?')}{kind} {binary_size(number(c.get('size')))}"
            if isinstance(shared, int) and shared > 1:
                text += f" (shared by {shared})"
            parts.append(text)
        return ", ".join(parts) or "–"
    if key == "load_avg" and isinstance(value, list):
        return ", ".join(f"{v:.2f}" if number(v) is not None else "?" for v in value)
    if key == rounds.GROUPS_KEY:
        return rounds.groups_summary(value)
    if key == "chbench_cpu_flags":
        return f"`{value}`"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def figure_text(run: Run) -> str:
    """What one figure is: the median over the repetitions with its CV, or,
    for a run timed in rounds, over R interleaved rounds with its interval."""
    if not run.has_rounds:
        return "the median over repetitions, with its coefficient of variation (CV)."
    rounds = run.rounds_text()
    visits = run.visits_count()
    shared = (f", shared between {visits} visits of the run with the tables built anew"
              if visits and visits > 1 else "")
    blocked = round_order(run.timing) == BLOCKED_ORDER
    order = ("in a fresh random order of the group's schemes, each scheme's kernels side by "
             "side in a fresh random order" if blocked else "in a fresh random order")
    return (f"the median over {rounds} (each comparison group's members timed once a "
            f"round, {order}{shared}), with its 95 % interval.")


@dataclass(frozen=True)
class PlotSection:
    """One plot as the report shows it."""

    title: str
    family: str  # whose results it draws
    text: str  # how to read it, the run's parts filled in
    shown: Optional[str]  # the file the page shows; None: not drawn
    missing: str = "in this run"  # where usable results were missing, when not drawn


def report(run: Run, analyses: Analyses, plots: list) -> str:
    """The whole report.md text; plots: PlotSection, in the order shown."""
    ctx = run.context
    lines = ["# chbench report", "", "```text"] + first_screen.lines(run, []) + ["```", ""]
    lines += noise.first_lines(run)
    cpu = ctx.get("chbench_cpu_model") or "unknown CPU"
    when = ctx.get("date", "unknown date")
    lines += [f"Run of {when} on {cpu} ({ctx.get('num_cpus', '?')} CPUs), "
              f"sweep `{ctx.get('chbench_sweep', '?')}`, "
              f"commit `{ctx.get('chbench_commit', '?')}`. "
              "Figures are nanoseconds per key for a batch of K precomputed key hashes "
              "(lookups only) unless the family says it includes hashing; each figure is "
              + figure_text(run), ""]
    emulated = str(ctx.get("chbench_emulated", "no"))
    if emulated != "no":
        lines += [f"**Emulated run: these timings mean nothing about any CPU** "
                  f"({md_cell(emulated)}).", ""]
    lines += machine_section(run)
    lines += ratios.section(run, analyses.goals, analyses.crossover)
    lines += goals_report.section(run, analyses.goals, analyses.verdicts)
    lines += ring_kernels_section(run, analyses)
    lines += profiles.section(run)
    lines += targets.section(analyses.targets)
    lines += dense.section(analyses.dense)
    lines += removals.section(analyses.removals)
    lines += bounded.section(run)
    lines += plots_section(plots)
    lines += tables_section(run)
    lines += checks_section(run)
    lines += appendix(noise.section(run))
    return "\n".join(lines).rstrip() + "\n"


def appendix(section: list) -> list:
    """A section moved to the end as an appendix: '## Noise' becomes
    '## Appendix: noise'."""
    if section and section[0].startswith("## "):
        title = section[0][3:]
        return [f"## Appendix: {title[:1].lower() + title[1:]}"] + section[1:]
    return section


def machine_section(run: Run) -> list:
    """The run's context, known fields first, and the registry it carries."""
    ctx = run.context
    lines = ["## Machine and build", "", "| | |", "|---|---|"]
    shown = set()
    for title, key in CONTEXT_ROWS:
        if key in ctx:
            lines.append(f"| {title} | {md_cell(context_value(key, ctx[key]))} |")
            shown.add(key)
    if run.registry is not None:
        kernels = [k for k in run.registry.kernels.values() if not k.stream]
        lines.append(f"| Kernel registry | {len(run.registry.schemes)} schemes, "
                     f"{len(kernels)} kernels ({sum(k.simd for k in kernels)} SIMD) |")
    for key in sorted(set(ctx) - shown - CONTEXT_IGNORED):
        lines.append(f"| {md_cell(key)} | {md_cell(context_value(key, ctx[key]))} |")
    return lines + [""]


def ring_kernels_section(run: Run, analyses: Analyses) -> list:
    """Keys in flight, bytes per token and build time of the ring kernels."""
    body = inflight.report_lines(analyses.inflight) + tokens.memory_lines(
        ring_points(run, "tokens"))
    return ["## Ring kernels", ""] + body


def plots_section(plots: list) -> list:
    """One subsection per plot (PlotSection): image and how to read it, or
    why it is missing."""
    lines = ["## Plots", ""]
    for p in plots:
        lines += [f"### {p.title}", ""]
        if p.shown is None:
            lines += [f"Not drawn: no usable `{p.family}` results {p.missing}.", ""]
            continue
        lines += [f"![{p.title}]({p.shown})", "", p.text, ""]
    return lines


def tables_section(run: Run) -> list:
    """One table per family: median ns/key, keys/s, CV, repetitions."""
    over = "rounds" if run.has_rounds else "repetitions"
    lines = ["## Tables", "",
             f"Median ns/key and keys/s over the {over}; CV = standard deviation ÷ mean "
             f"of ns/key across {over}. Parameters that are the same for every row are "
             "listed above the table. A family with configurations flagged noisy (see Noise) "
             "has a noise column: **noisy** and the canary ratio where the canary strayed. "
             "A family timed beside floors has a column a floor (× stream floor, × compute "
             "floor, × random-read floor): the row's median ÷ that floor's in the same "
             "comparison group, how far the kernel is above the bound (the stream floor: "
             "memory alone; the compute floor: the cheapest hash-then-bucket; the random-read "
             "floor: one random line a key from a table of the ring's size).", ""]
    for family in run.families():
        results = run.family(family)
        if not results:
            continue
        lines += [f"### Family `{family}`", ""]
        if family == "hashed":
            lines += ["Key hashing included in the timed loop.", ""]
        cols, fixed = split_columns(results, table_columns(run, family))
        if fixed:
            lines += ["Fixed: " + ", ".join(f"{c.title} = {column_cell(c, v)}"
                                            for c, v in fixed) + ".", ""]
        show_ran = any(r.threads_ran is not None and r.threads_ran != r.threads for r in results) \
            or family == "threads"
        show_mem = any(r.memory_bytes for r in results)
        show_base = family == "hashed"
        show_noise = any(r.noisy for r in results)
        floor_index, floor_kinds = floors.by_point(results), floors.kinds(results)
        head = ["kernel"] + [c.title for c in cols]
        if show_ran:
            head.append("threads ran")
        head += ["ns/key", "keys/s", "CV %", "reps"] + (["noise"] if show_noise else [])
        head += [f"× {floors.title(k)}" for k in floor_kinds]
        if show_base:
            head += ["lookup only ns/key", "hashing ns/key"]
        if show_mem:
            head.append("memory")
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|---|" + "---:|" * (len(head) - 1))
        for r in results:
            row = [f"`{r.label}`"] + [
                "–" if c is TOKENS and not r.takes_vnodes else column_cell(c, cell_value(r, c))
                for c in cols]
            if show_ran:
                row.append(integer(r.threads_ran))
            row += [sig3(r.ns), si(r.keys_per_second),
                    cv_cell(r), str(r.repetitions or "–")]
            if show_noise:
                row.append(noise.table_cell(r))
            row += [floors.ratio_cell(r, k, floor_index) for k in floor_kinds]
            if show_base:
                base = lookup_only(run, r)
                row += [sig3(base.ns), sig3(r.ns - base.ns)] if base else ["–", "–"]
            if show_mem:
                row.append(binary_size(r.memory_bytes))
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
        if family == "threads":
            lines += threads.cpu_lines(run)
    return lines


# The ring's tokens N × V (a counter, not a name segment): a column after V.
TOKENS = Segment("", "tokens", "int", "tokens")


def table_columns(run: Run, family: str) -> list:
    """The candidate columns of a family's table: the segments its names
    carry (the run's description, families.py), tokens after V."""
    params = list(run.family_params(family))
    at = next((i + 1 for i, c in enumerate(params) if c.field == "vnodes"), None)
    return params if at is None else params[:at] + [TOKENS] + params[at:]


def cell_value(r, column: Segment) -> Any:
    """A result's value of a column: its parameter, or its tokens."""
    return r.tokens if column is TOKENS else r.params.get(column.field)


def split_columns(results: list, columns: list) -> tuple:
    """(the columns whose value differs between rows, [(column, value)] of
    those the same in every row and set)."""
    varying, fixed = [], []
    for c in columns:
        values = {cell_value(r, c) for r in results}
        if len(values) > 1:
            varying.append(c)
            continue
        v = values.pop()
        if v is not None and not (c is TOKENS and v == 0):
            fixed.append((c, v))
    return varying, fixed


def column_cell(column: Segment, value: Any) -> str:
    """A parameter in the family tables: counts with separators, a number
    that need not be whole as written (12.5), a word as it is."""
    if value is None:
        return "–"
    if column.kind == "number":
        return f"{value:g}"
    if column.kind == "word":
        return str(value)
    return integer(value)


def checks_section(run: Run) -> list:
    """Errors, warnings, fewer threads than asked, noisy figures."""
    items = []
    for r in run.results:
        if r.error:
            items.append(f"`{r.config_name}` failed: {r.error}")
    for r in run.results:
        if r.threads_ran is not None and r.threads and r.threads_ran != r.threads:
            items.append(f"`{r.config_name}`: asked for {r.threads} threads, "
                         f"{r.threads_ran} ran")
    noisy = [r for r in run.results if r.cv is not None and r.cv > NOISY_CV]
    if noisy:
        worst = max(noisy, key=lambda r: r.cv)
        items.append(f"{len(noisy)} of {len(run.results)} figures have a CV above "
                     f"{sig3(NOISY_CV * 100)} % (worst: `{worst.config_name}`, "
                     f"{sig3(worst.cv * 100)} %); "
                     "treat small differences there as noise")
    single = [r for r in run.results if r.ns is not None and (r.repetitions or 1) < 2]
    if single:
        items.append(f"{len(single)} figures come from a single repetition (no spread)")
    items += run.warnings
    lines = ["## Checks", ""]
    lines += [f"- {item}" for item in items] if items else ["Nothing to report: every benchmark "
                                                            "ran, with the threads it asked for."]
    return lines + [""]

