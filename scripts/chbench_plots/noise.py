"""Interference as the run recorded it: which configurations the bench
flagged noisy (its canary strayed from the run's best, or the host stole too
much of a repetition; bench/canary.h), the load average and the steal time
over the run, and what `run.sh --retry-noisy` re-timed. The report's first
lines and its "Noise" section; the plots mark the flagged points with
style.mark_noisy."""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from typing import Optional

from .load import Run
from .numeric import integer, sig3

# The context keys: the bench's canary and rule, run.sh's retries.
NOISE_KEY = "chbench_noise"
RETRIES_KEY = "chbench_retries"


def context_json(run: Run, key: str) -> Optional[dict]:
    """A context field that holds a JSON object as a string, or None."""
    text = run.context.get(key)
    if not isinstance(text, str):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


@dataclass
class NoiseSummary:
    """The noise of one run, over its configurations with a noise record."""

    recorded: list  # Results with a noise record, in JSON order
    flagged: list  # those flagged noisy
    loads: list = field(default_factory=list)  # 1-minute load averages at the canaries
    steal_ms: float = 0.0  # over the run
    worst_steal: Optional[object] = None  # the Result with the most steal
    rule: Optional[dict] = None  # context chbench_noise
    retries: Optional[dict] = None  # context chbench_retries
    per_group = False  # steal counted once per comparison group (a run timed in rounds)

    @property
    def margin(self) -> Optional[float]:
        """--noise-margin as a fraction."""
        value = (self.rule or {}).get("margin")
        return float(value) if isinstance(value, (int, float)) else None


def summarise(run: Run) -> NoiseSummary:
    """The run's noise record, configuration by configuration."""
    recorded = [r for r in run.results if r.noisy is not None]
    summary = NoiseSummary(recorded, [r for r in recorded if r.noisy])
    summary.loads = [r.load_avg for r in recorded if r.load_avg is not None]
    steals = steal_units(recorded)
    summary.steal_ms = sum(r.steal_ms for r in steals)
    summary.per_group = any(r.group is not None for r in steals)
    if steals:
        worst = max(steals, key=lambda r: r.steal_ms)
        summary.worst_steal = worst if worst.steal_ms > 0 else None
    summary.rule = context_json(run, NOISE_KEY)
    summary.retries = context_json(run, RETRIES_KEY)
    return summary


def steal_units(recorded: list, key: str = "steal_ms") -> list:
    """The Results whose `key` (steal_ms, canary_ms) adds up to the run's:
    every configuration, but in a run timed in rounds one member per
    comparison group (each member carries its group's figure, the group
    being timed, and judged, at once), the one with the most."""
    out, by_group = [], {}
    for r in recorded:
        value = getattr(r, key)
        if value is None:
            continue
        if r.group is None:
            out.append(r)
        elif r.group not in by_group or value > getattr(by_group[r.group], key):
            by_group[r.group] = r
    return out + list(by_group.values())


def load_text(loads: list) -> str:
    """'0.10 / 0.15 / 0.40 (min / median / max over 596 configurations)'."""
    if not loads:
        return "not recorded"
    return (f"{min(loads):.2f} / {statistics.median(loads):.2f} / {max(loads):.2f} "
            f"(min / median / max over {integer(len(loads))} configurations)")


def retries_text(retries: Optional[dict]) -> str:
    """What run.sh --retry-noisy did, in a sentence; '' when it did not run."""
    if not retries:
        return ""
    rounds = retries.get("rounds_run", 0)
    retried, still = retries.get("retried", 0), retries.get("still_noisy", 0)
    replaced = retries.get("replaced", 0)
    if not retried:
        return (f" `--retry-noisy {retries.get('max_rounds', '?')}`: nothing was flagged "
                "after the sweep, nothing re-timed.")
    return (f" `--retry-noisy {retries.get('max_rounds', '?')}` re-timed {integer(retried)} "
            f"configuration{'s' if retried != 1 else ''} in {rounds} round"
            f"{'s' if rounds != 1 else ''}, {integer(replaced)} replaced by a quieter "
            f"measurement; {integer(still)} still flagged (`retries.json`).")


def first_lines(run: Run) -> list:
    """The report's opening paragraph on noise."""
    s = summarise(run)
    if not s.recorded:
        return ["**Noise: not recorded.** This run has no canary (a bench from before "
                "the noise canary): a loaded or noisy machine cannot be told from the "
                "kernels' own cost here.", ""]
    margin = f"{s.margin * 100:g} %" if s.margin is not None else "the margin"
    unit = "comparison group" if s.per_group else "configuration"
    steal = (f"host steal {sig3(s.steal_ms)} ms in all"
             + (f", at most {sig3(s.worst_steal.steal_ms)} ms in one {unit}"
                if s.worst_steal else "") if s.steal_ms > 0 else "no host steal")
    # A run timed in rounds is judged once per comparison group, over its rounds.
    share = ("of a comparison group's rounds" if run.has_rounds else "of a repetition")
    head = (f"**Noise: {integer(len(s.flagged))} of {integer(len(s.recorded))} configurations "
            f"flagged noisy**" if s.flagged else
            f"**Noise: none of {integer(len(s.recorded))} configurations flagged**")
    return [head + f" (canary more than {margin} slower than the run's best: its compute "
            f"loop, and its memory loop where the working set outgrows L2; or the host "
            f"stealing more than that share {share}; marked in the tables and, "
            f"hollow, in the plots). Load average (1 min) during the run: "
            f"{load_text(s.loads)}; {steal}." + retries_text(s.retries), ""]


def section(run: Run) -> list:
    """The "Noise" section: the canary, then every flagged configuration."""
    s = summarise(run)
    if not s.recorded:
        return []
    lines = ["## Noise", ""]
    rule = s.rule or {}
    calibration = rule.get("calibration") or {}
    if calibration:
        lines += [f"Before every {'comparison group' if run.has_rounds else 'configuration'} "
                  f"the bench timed a canary: "
                  f"{integer(rule.get('compute_steps'))} multiply-xorshift steps"
                  + (f" in {rule['compute_chains']} independent chains"
                     if rule.get("compute_chains") else "") + " and "
                  f"{integer(rule.get('memory_steps'))} dependent random reads over a "
                  f"{sig3((rule.get('buffer_bytes') or 0) / 2 ** 20)} MiB buffer, each the best "
                  f"of {rule.get('rounds', '?')} rounds; calibrated at the start at "
                  f"{sig3(calibration.get('compute_ns', 0) / 1e3)} µs and "
                  f"{sig3(calibration.get('memory_ns', 0) / 1e3)} µs"
                  + (" (judged against an earlier run's best)" if rule.get("baseline") else "")
                  + ". A configuration is flagged when the compute loop, or the memory loop "
                  + (f"where its working set (tables, key hashes, owners) is past the "
                     f"{sig3(rule['private_cache_bytes'] / 2 ** 20)} MiB L2, "
                     if rule.get("private_cache_bytes") else "") + "took more than "
                  f"{(s.margin or 0) * 100:g} % longer than the run's best so far, or "
                  f"the host stole more than that share "
                  + ("of a comparison group's rounds" if run.has_rounds else "of a repetition")
                  + f" (and at least "
                  f"{rule.get('min_steal_ms', 0):g} ms). Canary ratio = the judged loops' "
                  "time ÷ their best: the slower loop's, or the compute loop's alone where "
                  "the memory loop does not judge.", ""]
    costs = [r.canary_ms for r in steal_units(s.recorded, "canary_ms")]
    if costs:
        unit = "comparison group" if s.per_group else "configuration"
        lines += [f"The canaries took {sig3(sum(costs) / 1e3)} s in all, "
                  f"{sig3(statistics.median(costs))} ms per {unit} (median).", ""]
    if not s.flagged:
        return lines + ["No configuration was flagged.", ""]
    lines += ["| configuration | canary ratio | steal ms | load | from retry |",
              "|---|---:|---:|---:|---|"]
    for r in s.flagged:
        name = r.config_name
        lines.append(f"| `{name}` | {ratio_cell(r)} | {sig3(r.steal_ms or 0)} | "
                     f"{load_cell(r)} | {retry_cell(r)} |")
    return lines + [""]


def ratio_cell(r) -> str:
    """'1.32×' or '–'."""
    return f"{sig3(r.canary_ratio)}×" if r.canary_ratio is not None else "–"


def load_cell(r) -> str:
    """'0.42' or '–'."""
    return f"{r.load_avg:.2f}" if r.load_avg is not None else "–"


def retry_cell(r) -> str:
    """'round 2' or '–'."""
    return f"round {r.retry_round}" if r.retry_round else "–"


def table_cell(r) -> str:
    """A family table's noise cell: 'noisy 1.32×' for a flagged row, else ''."""
    if not r.noisy:
        return ""
    return "**noisy**" + (f" {ratio_cell(r)}" if r.canary_ratio and r.canary_ratio > 1 else "")
