"""Family "threads": speed-up over one thread against the oneTBB arena size
(threads.png), and the 2 ÷ 1 thread table."""

from __future__ import annotations

from typing import Optional

from . import rounds
from .load import Result, Run
from .numeric import integer, sig3
from .series import split_series
from .style import Style, hardware_threads, mark_noisy, new_axes, place_legend


def thread_speedups(run: Run) -> list:
    """(series, {threads: (result, speed-up)}) for family "threads"."""
    out = []
    for s in split_series(run.family("threads"), "threads", {"threads_ran"}).series:
        one = next((p for p in s.points if p.threads == 1), None)
        if one is None:
            continue
        out.append((s, {p.threads: (p, one.ns / p.ns) for p in s.points}))
    return out


def speedup_span(one: Result, r: Result) -> Optional[tuple]:
    """The spread of one thread's ns/key ÷ r's: the 95 % interval of that
    ratio for a run timed in rounds (rounds.ratio), else the extremes of
    the two spreads (min–max of the repetitions); None if unknown."""
    if one.rounds and r.rounds:
        ratio = rounds.ratio(one, r)
        return (ratio.lo, ratio.hi) if ratio is not None and ratio.has_interval else None
    if None in (one.ns_lo, one.ns_hi, r.ns_lo, r.ns_hi) or r.ns_lo <= 0:
        return None
    return one.ns_lo / r.ns_hi, one.ns_hi / r.ns_lo


def figure(run: Run, figure_cls, style: Style):
    """threads.png: speed-up over one thread vs thread count, with the ideal."""
    speedups = thread_speedups(run)
    if not speedups:
        return None
    results = run.family("threads")
    split = split_series(results, "threads", {"threads_ran"})
    fig, ax = new_axes(figure_cls, "Thread scaling: speed-up over one thread",
                       f"{split.subtitle()}; " + ("ratio of medians, bars = its 95 % "
                                                  "interval over the rounds" if run.has_rounds
                                                  else "ratio of medians, bars = min–max"))
    max_t = max(t for _, by_t in speedups for t in by_t)
    ax.plot([1, max_t], [1, max_t], color="0.5", linestyle="--", linewidth=1.2,
            label="ideal (= threads)")
    for s, by_t in speedups:
        ts = sorted(by_t)
        ys = [by_t[t][1] for t in ts]
        kw = style.kw(s.label, s.scheme)
        ax.plot(ts, ys, label=s.label, **kw)
        mark_noisy(ax, ts, ys, [by_t[t][0] for t in ts], kw["color"], kw.get("marker"))
        spans = [speedup_span(by_t[1][0], by_t[t][0]) for t in ts]
        if all(span is not None for span in spans):
            lo, hi = [span[0] for span in spans], [span[1] for span in spans]
            ax.errorbar(ts, ys, yerr=[[max(0.0, y - low) for y, low in zip(ys, lo)],
                                      [max(0.0, high - y) for y, high in zip(ys, hi)]],
                        fmt="none", ecolor=kw["color"], alpha=0.6, capsize=3)
    hw = hardware_threads(run.context)
    if hw and 1 < hw <= max_t:
        ax.axvline(hw, color="0.4", linestyle=":", linewidth=1)
        ax.annotate(f"{hw} hardware threads", (hw, 0.02), xycoords=("data", "axes fraction"),
                    xytext=(-4, 0), textcoords="offset points", ha="right", fontsize=8)
    short = sorted({(t, p.threads_ran) for _, by_t in speedups for t, (p, _) in by_t.items()
                    if p.threads_ran is not None and p.threads_ran < t})
    if short:
        ax.text(0.98, 0.10, "fewer threads ran than asked: "
                + ", ".join(f"{ran} of {t}" for t, ran in short) + " (see report, Checks)",
                transform=ax.transAxes, ha="right", fontsize=9, color="C3",
                bbox={"fc": "white", "ec": "C3", "alpha": 0.9})
    all_t = sorted({t for _, by_t in speedups for t in by_t})
    ax.set_xticks(all_t)
    ax.set_xlabel("threads (oneTBB arena size)")
    ax.set_ylabel("speed-up [×] = median time at 1 thread ÷ at t threads")
    ax.set_ylim(bottom=0)
    place_legend(ax, "kernel")
    return fig


def report_lines(run: Run) -> list:
    """The Ratios subsection on 2 threads ÷ 1 thread."""
    lines = ["### 2 threads ÷ 1 thread (family `threads`)", "",
             "Speed-up = median time per key at 1 thread ÷ at 2 threads (2 would be ideal).", ""]
    rows = [(s, by_t) for s, by_t in thread_speedups(run) if 2 in by_t]
    if not rows:
        return lines + ["No kernel with both 1- and 2-thread results in this run.", ""]
    lines += ["| kernel | N | K | 1 thread ns/key | 2 threads ns/key | speed-up "
              "| threads that ran |", "|---|---:|---:|---:|---:|---:|---:|"]
    for s, by_t in rows:
        two, speedup = by_t[2]
        ran = two.threads_ran if two.threads_ran is not None else "–"
        lines.append(f"| `{s.label}` | {integer(two.nodes)} | {integer(two.keys)} | "
                     f"{sig3(by_t[1][0].ns)} | {sig3(two.ns)} | {sig3(speedup)}× | {ran} |")
    return lines + [""]


# A thread whose CPU time is below this share of the timed wall time was
# descheduled (another process on its core) or idle (a short chunk).
BUSY_SHARE = 0.9


def cpu_lines(run: Run) -> list:
    """Per configuration of family threads: the threads asked for and those
    that ran, the repetition's timed wall time, and each thread's CPU time in
    it (counters thread_cpu_ms_<slot>, medians over the repetitions)."""
    results = [r for r in run.family("threads") if r.thread_cpu_ms]
    if not results:
        return []
    lines = ["Threads that ran and the CPU time each got: per arena slot (slot 0 is the "
             "thread that starts the batch), the median CPU "
             "time its thread spent in the kernel during one repetition's timed iterations "
             "(`CLOCK_THREAD_CPUTIME_ID`), and that ÷ the repetition's wall time; a share "
             f"below {BUSY_SHARE:.0%} means the thread waited: descheduled for another "
             "process, or done with its chunk early.", "",
             "| kernel | threads | ran | wall ms | CPU ms per thread | CPU ÷ wall |",
             "|---|---:|---:|---:|---|---|"]
    short = []
    for r in results:
        cpu = [r.thread_cpu_ms[slot] for slot in sorted(r.thread_cpu_ms)]
        shares = [c / r.wall_ms for c in cpu] if r.wall_ms else []
        if shares and min(shares) < BUSY_SHARE and (r.threads or 1) > 1:
            short.append(r)
        lines.append(f"| `{r.label}` | {integer(r.threads)} | {integer(r.threads_ran)} | "
                     f"{sig3(r.wall_ms)} | {', '.join(sig3(c) for c in cpu)} | "
                     + (", ".join(f"{x:.0%}" for x in shares) if shares else "–") + " |")
    lines.append("")
    if short:
        lines += [f"- {len(short)} configuration{'s' if len(short) > 1 else ''} with a thread "
                  f"below {BUSY_SHARE:.0%} of the wall time: the speed-up there is bounded by "
                  "the CPU the threads got, not by the kernel.", ""]
    return lines
