#!/usr/bin/python3
"""The re-timing of noisy configurations, for `scripts/run.sh --retry-noisy N`.

The bench flags a configuration `noisy` (a counter of every repetition) when
its canary strayed from the run's best or the host stole too much of a
repetition (bench/canary.h). run.sh, after the sweep, asks this script for
the flagged configurations as --benchmark_filter expressions, runs the bench
again on them with the first run's best canary as the standard
(--canary-baseline), and merges what it measured back into bench.json: a
configuration's entries (repetitions and aggregates) are replaced by the
retry's when the retry is quieter: not flagged, or flagged with a smaller
canary ratio. Each replaced entry gets `retry_round`; retries.json records
every configuration retried, before and after, round by round; `finish`
writes the summary into the context as `chbench_retries` for the report.

The filters name bare configuration names (chbench_plots.names.config_name:
without the segments Google Benchmark appends), which the bench matches. A
run timed in comparison groups (context chbench_groups) is re-timed group by
group: a flagged member brings its whole group (its ratios pair rounds within
the group), a filter never splits a group, and a group's rows are replaced
together, when the retry's group (the one of the same member set) is the
quieter: its chbench_groups entry then replaces the run's, and its rows'
`group` counter becomes that entry's index.

Usage: /usr/bin/python3 scripts/retry_noisy.py COMMAND ...
  filters BENCH_JSON [--per-filter N]   one anchored, escaped POSIX ERE per line,
                                        each naming at most N flagged configurations
                                        (bare names; whole groups, a group alone
                                        past N)
  baseline BENCH_JSON                   COMPUTE_NS,MEMORY_NS: the run's best canary
  merge BENCH_JSON RETRY_JSON --round K --record RETRIES_JSON
  finish BENCH_JSON --record RETRIES_JSON --max-rounds N

Google Benchmark writes the "threads" key twice in each entry; the files are
read and written as lists of pairs, so every key survives the merge.
Exit status: 0; 2 on unusable input (one line on stderr), nothing written.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Optional

import cli
from chbench_plots import bench_file
from chbench_plots.errors import InputError as PlotsInputError
from chbench_plots.names import config_name

PROG = "retry_noisy.py"
NOISE_KEY = "chbench_noise"
GROUPS_KEY = "chbench_groups"
RETRIES_KEY = "chbench_retries"
# Characters a POSIX extended regular expression gives a meaning.
ERE_SPECIAL = set("\\.[]()*+?{}|^$")


class InputError(Exception):
    """Unusable input: the message is the one line printed."""


# --------------------------------------------------------------------------
# JSON as lists of pairs (duplicate keys kept)


class Pairs(list):
    """A JSON object as its (key, value) pairs, in order."""

    def get(self, key: str, default: Any = None) -> Any:
        """The last value of `key` (as json.loads would keep), or default."""
        for k, v in reversed(self):
            if k == key:
                return v
        return default

    def set(self, key: str, value: Any) -> None:
        """Replaces every `key` by one pair at the first's place, or appends it."""
        at = next((i for i, (k, _) in enumerate(self) if k == key), None)
        if at is None:
            self.append((key, value))
            return
        self[at] = (key, value)
        self[at + 1:] = [(k, v) for k, v in self[at + 1:] if k != key]


def read(path: Path) -> Pairs:
    """A bench JSON file (plain or gzip) as Pairs, with its "benchmarks"
    list checked."""
    try:
        data = json.loads(bench_file.read_bytes(path), object_pairs_hook=Pairs)
    except PlotsInputError as err:
        raise InputError(str(err)) from None
    except (ValueError, RecursionError) as err:
        detail = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise InputError(f"{path} is not valid JSON ({detail})") from None
    if not isinstance(data, Pairs) or not isinstance(data.get("benchmarks"), list):
        raise InputError(f"{path} is not a Google Benchmark JSON file (no \"benchmarks\" list)")
    return data


def dump(value: Any, indent: int = 0) -> str:
    """JSON text of Pairs, lists and scalars; objects of entries on one line
    each are what the bench's readers take either way."""
    pad = "  " * (indent + 1)
    if isinstance(value, Pairs):
        if not value:
            return "{}"
        inner = ",\n".join(f"{pad}{json.dumps(k)}: {dump(v, indent + 1)}" for k, v in value)
        return "{\n" + inner + "\n" + "  " * indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = ",\n".join(pad + dump(v, indent + 1) for v in value)
        return "[\n" + inner + "\n" + "  " * indent + "]"
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return json.dumps(value)


def write(path: Path, text: str) -> None:
    """Replaces `path` by `text` (gzipped for a name ending in .gz), through a
    temporary file beside it."""
    data = text.encode()
    if path.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


# --------------------------------------------------------------------------
# Configurations and their noise


def number(value: Any) -> Optional[float]:
    """A finite float, or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def run_name(entry: Pairs) -> Optional[str]:
    """The configuration an entry belongs to."""
    name = entry.get("run_name")
    return name if isinstance(name, str) else None


def groups(data: Pairs) -> dict:
    """run_name -> its entries, in the file's order."""
    out: dict = {}
    for e in data.get("benchmarks"):
        if isinstance(e, Pairs) and run_name(e):
            out.setdefault(run_name(e), []).append(e)
    return out


def noise_of(entries: list) -> dict:
    """A configuration's noise: flagged, worst canary ratio, steal, median
    ns/key, and whether it errored."""
    reps = [e for e in entries if e.get("run_type", "iteration") == "iteration"]
    # The committed form has no mean row; in a run timed in rounds the
    # median row's noise counters are the same (constant over the rounds).
    mean = next((e for e in entries if e.get("aggregate_name") == "mean"), None) \
        or next((e for e in entries if e.get("aggregate_name") == "median"), None)
    rows = reps or ([mean] if mean else [])
    flags = [v for v in (number(e.get("noisy")) for e in rows) if v is not None]
    ratios = [v for v in (number(e.get("canary_ratio")) for e in rows) if v is not None]
    steal = [v for v in (number(e.get("steal_ms")) for e in rows) if v is not None]
    ns = [v for v in (number(e.get("ns_per_key")) for e in reps) if v is not None]
    median = next((e for e in entries if e.get("aggregate_name") == "median"), None)
    if not ns and median is not None and number(median.get("ns_per_key")) is not None:
        ns = [number(median.get("ns_per_key"))]
    return {"noisy": any(v > 0 for v in flags), "recorded": bool(flags),
            "canary_ratio": max(ratios) if ratios else None,
            "steal_ms": sum(steal) if steal else None,
            "ns_per_key": statistics.median(ns) if ns else None,
            "error": any(e.get("error_occurred") for e in entries)}


def flagged(data: Pairs) -> list:
    """The run names of the configurations flagged noisy, in order."""
    return [name for name, entries in groups(data).items()
            if noise_of(entries)["noisy"] and not noise_of(entries)["error"]]


def comparison_groups(data: Pairs) -> Optional[dict]:
    """The context's chbench_groups object ({"groups": [{"members": [bare
    name, ...], "ns_per_key": [...]}, ...]}), or None for a run without."""
    context = data.get("context")
    text = context.get(GROUPS_KEY) if isinstance(context, Pairs) else None
    if not isinstance(text, str):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or not isinstance(value.get("groups"), list):
        return None
    return value


def members_of(group: Any) -> list:
    """A chbench_groups entry's members as bare names ([] if malformed)."""
    members = group.get("members") if isinstance(group, dict) else None
    return [config_name(str(m)) for m in members] if isinstance(members, list) else []


def to_retime(data: Pairs) -> list:
    """What to re-time, as lists of bare configuration names that one filter
    must keep together: each flagged configuration alone, or, in a run timed
    in comparison groups, every group with a flagged member, whole."""
    names = [config_name(n) for n in flagged(data)]
    record = comparison_groups(data)
    if record is None:
        return [[n] for n in names]
    wanted, out, seen = set(names), [], set()
    for group in record["groups"]:
        members = members_of(group)
        if wanted & set(members):
            out.append([m for m in members if m not in seen])
            seen.update(members)
    return out + [[n] for n in names if n not in seen]


def ere_escape(text: str) -> str:
    """`text` as a POSIX ERE that matches it literally."""
    return "".join("\\" + ch if ch in ERE_SPECIAL else ch for ch in text)


def filters(batches: list, per_filter: int) -> list:
    """Anchored alternations of the escaped names of `batches` (lists of
    names that stay in one filter, to_retime), at most per_filter names a
    filter unless one batch alone is longer."""
    out, current = [], []
    for batch in batches:
        if current and len(current) + len(batch) > per_filter:
            out.append(current)
            current = []
        current = current + batch
    if current:
        out.append(current)
    return ["^(" + "|".join(ere_escape(n) for n in names) + ")$" for names in out]


def baseline(data: Pairs) -> Optional[str]:
    """'COMPUTE_NS,MEMORY_NS': the best canary of the run, loop by loop (the
    calibration and every configuration's), or None without one."""
    best = [math.inf, math.inf]
    context = data.get("context")
    noise = context.get(NOISE_KEY) if isinstance(context, Pairs) else None
    try:
        rule = json.loads(noise) if isinstance(noise, str) else {}
    except ValueError:
        rule = {}
    for sample in (rule.get("calibration"), rule.get("best_at_start")):
        if isinstance(sample, dict):
            best = [min(best[0], number(sample.get("compute_ns")) or math.inf),
                    min(best[1], number(sample.get("memory_ns")) or math.inf)]
    for e in data.get("benchmarks"):
        if isinstance(e, Pairs) and e.get("run_type", "iteration") == "iteration":
            best = [min(best[0], number(e.get("canary_compute_ns")) or math.inf),
                    min(best[1], number(e.get("canary_memory_ns")) or math.inf)]
    if not all(math.isfinite(b) and b > 0 for b in best):
        return None
    return f"{best[0]:.1f},{best[1]:.1f}"


# --------------------------------------------------------------------------
# Merging a retry


def quieter(new: dict, old: dict) -> bool:
    """Whether a retry's measurement should replace the flagged one."""
    if new["error"] or not new["recorded"]:
        return False
    if not new["noisy"]:
        return True
    return (new["canary_ratio"] is not None and old["canary_ratio"] is not None
            and new["canary_ratio"] < old["canary_ratio"])


BEFORE_KEYS = ("noisy", "canary_ratio", "steal_ms", "ns_per_key")
AFTER_KEYS = BEFORE_KEYS + ("error",)


def retry_record(name: str, round_no: int, swap: bool, old: dict, new: dict,
                 **extra: Any) -> dict:
    """retries.json's record of one configuration retried: its noise (noise_of)
    before and after, and whether the retry replaced it; `extra` after the name."""
    return {"name": name, **extra, "round": round_no, "replaced": swap,
            "before": {k: old[k] for k in BEFORE_KEYS},
            "after": {k: new[k] for k in AFTER_KEYS}}


def splice(data: Pairs, replaced: dict, key: Callable) -> None:
    """Puts each replaced configuration's new entries (replaced: key ->
    entries) where its first old entry was, drops its other old entries, and
    appends those with none; key(run name) names an entry's configuration."""
    out, done = [], set()
    for e in data.get("benchmarks"):
        name = run_name(e) if isinstance(e, Pairs) else None
        k = key(name) if name else None
        if k in replaced:
            if k not in done:
                out += replaced[k]
                done.add(k)
            continue
        out.append(e)
    out += [e for k, entries in replaced.items() if k not in done for e in entries]
    data.set("benchmarks", out)


def merge(data: Pairs, retry: Pairs, round_no: int) -> list:
    """Replaces, in `data`, each flagged configuration the retry measured
    more quietly (merge_groups where both runs have comparison groups);
    returns a record per configuration retried."""
    if comparison_groups(data) is not None and comparison_groups(retry) is not None:
        return merge_groups(data, retry, round_no)
    old_groups, new_groups = groups(data), groups(retry)
    wanted = set(flagged(data))
    records, replaced = [], {}
    for name, new_entries in new_groups.items():
        if name not in wanted:
            continue
        old, new = noise_of(old_groups[name]), noise_of(new_entries)
        swap = quieter(new, old)
        records.append(retry_record(name, round_no, swap, old, new))
        if swap:
            for e in new_entries:
                e.set("retry_round", round_no)
            replaced[name] = new_entries
    splice(data, replaced, lambda name: name)
    return records


def by_config(data: Pairs) -> dict:
    """Bare configuration name -> its entries, in the file's order."""
    out: dict = {}
    for name, entries in groups(data).items():
        out.setdefault(config_name(name), []).extend(entries)
    return out


def group_noise(old: list, new: list) -> tuple:
    """(old, new) noise of one comparison group from its members' entries
    (lists of entry lists, member by member): flagged if any member is, the
    worst canary ratio; the retry errs where a member failed (or is missing)
    that had not failed before."""
    def combine(parts: list) -> dict:
        ratios = [p["canary_ratio"] for p in parts if p["canary_ratio"] is not None]
        return {"noisy": any(p["noisy"] for p in parts),
                "recorded": any(p["recorded"] for p in parts),
                "canary_ratio": max(ratios) if ratios else None}
    before = [noise_of(e) for e in old]
    after = [noise_of(e) for e in new]
    o, n = combine(before), combine(after)
    o["error"] = False
    n["error"] = any((a["error"] or not rows) and not b["error"]
                     for a, b, rows in zip(after, before, new))
    return o, n


def merge_groups(data: Pairs, retry: Pairs, round_no: int) -> list:
    """merge for runs timed in comparison groups: each retry group whose
    member set is that of a group of `data` with a flagged member replaces
    it whole, when quieter: every member's rows (with `retry_round` and
    `group` = the group's index in data's chbench_groups) and the group's
    chbench_groups entry. Returns a record per member retried."""
    old_record, new_record = comparison_groups(data), comparison_groups(retry)
    old_rows, new_rows = by_config(data), by_config(retry)
    wanted = {config_name(n) for n in flagged(data)}
    index_of = {frozenset(members_of(g)): i for i, g in enumerate(old_record["groups"])}
    records, replaced, merged = [], {}, list(old_record["groups"])
    for group in new_record["groups"]:
        members = members_of(group)
        index = index_of.get(frozenset(members))
        if index is None or not wanted & set(members):
            continue
        old = [old_rows.get(m, []) for m in members]
        new = [new_rows.get(m, []) for m in members]
        old_noise, new_noise = group_noise(old, new)
        swap = quieter(new_noise, old_noise)
        for m, o, n in zip(members, old, new):
            before, after = noise_of(o), noise_of(n)
            records.append(retry_record(m, round_no, swap, before, after, group=index))
        if not swap:
            continue
        merged[index] = group
        for m, entries in zip(members, new):
            for e in entries:
                e.set("retry_round", round_no)
                if number(e.get("group")) is not None:
                    e.set("group", float(index))
            replaced[m] = entries
    splice(data, replaced, config_name)
    if replaced:
        old_record["groups"] = merged
        data.get("context").set(GROUPS_KEY, json.dumps(old_record, separators=(",", ":")))
    return records


def read_record(path: Path) -> dict:
    """retries.json as it stands, or a new one."""
    if not path.exists():
        return {"rounds": [], "configurations": []}
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise InputError(f"cannot read the retries record {path}: {err}") from None
    if not isinstance(record, dict) or not isinstance(record.get("rounds"), list):
        raise InputError(f"{path} is not a retries record (no \"rounds\" list)")
    return record


def command_merge(bench: Path, retry: Path, round_no: int, record_path: Path) -> str:
    """Merges one retry file; returns the summary line."""
    data, new = read(bench), read(retry)
    record = read_record(record_path)
    records = merge(data, new, round_no)
    still = flagged(data)
    record["rounds"].append({"round": round_no, "retry_file": retry.name,
                             "retried": [r["name"] for r in records],
                             "replaced": sum(r["replaced"] for r in records),
                             "still_noisy": still})
    record["configurations"] += records
    write(bench, dump(data) + "\n")
    write(record_path, json.dumps(record, indent=2) + "\n")
    return (f"round {round_no}: {len(records)} re-timed, "
            f"{sum(r['replaced'] for r in records)} replaced by a quieter measurement, "
            f"{len(still)} still flagged")


def command_finish(bench: Path, record_path: Path, max_rounds: int) -> str:
    """Writes the context's chbench_retries summary; returns the summary line."""
    data = read(bench)
    record = read_record(record_path)
    record["max_rounds"] = max_rounds
    configurations = record.get("configurations", [])
    retried = {c["name"] for c in configurations}
    replaced = {c["name"] for c in configurations if c.get("replaced")}
    still = flagged(data)
    summary = {"max_rounds": max_rounds,
               "rounds_run": len({r["round"] for r in record["rounds"]}),
               "retried": len(retried), "replaced": len(replaced),
               "still_noisy": len(still), "record": record_path.name}
    record["summary"] = summary
    context = data.get("context")
    if not isinstance(context, Pairs):
        context = Pairs()
        data.insert(0, ("context", context))
    context.set(RETRIES_KEY, json.dumps(summary, separators=(",", ":")))
    write(bench, dump(data) + "\n")
    write(record_path, json.dumps(record, indent=2) + "\n")
    return (f"{len(retried)} configurations re-timed in {summary['rounds_run']} rounds, "
            f"{len(replaced)} replaced, {len(still)} still flagged")


def main(argv: Optional[list] = None) -> int:
    """Command line entry point; returns the exit status."""
    parser = cli.Parser(prog=PROG, description="Re-timing noisy configurations "
                        "(scripts/run.sh --retry-noisy).")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("filters", prog=PROG, help="--benchmark_filter expressions, one per line")
    p.add_argument("bench", type=Path)
    p.add_argument("--per-filter", type=int, default=100, metavar="N")
    p = sub.add_parser("baseline", prog=PROG, help="the run's best canary, COMPUTE_NS,MEMORY_NS")
    p.add_argument("bench", type=Path)
    p = sub.add_parser("merge", prog=PROG, help="merge a retry's JSON into bench.json")
    p.add_argument("bench", type=Path)
    p.add_argument("retry", type=Path)
    p.add_argument("--round", type=int, required=True, dest="round_no")
    p.add_argument("--record", type=Path, required=True)
    p = sub.add_parser("finish", prog=PROG, help="record the retries in bench.json's context")
    p.add_argument("bench", type=Path)
    p.add_argument("--record", type=Path, required=True)
    p.add_argument("--max-rounds", type=int, required=True)
    args = parser.parse_args(argv)
    try:
        if args.command == "filters":
            if args.per_filter < 1:
                raise InputError("--per-filter takes a positive count")
            for line in filters(to_retime(read(args.bench)), args.per_filter):
                print(line)
        elif args.command == "baseline":
            value = baseline(read(args.bench))
            if value:
                print(value)
        elif args.command == "merge":
            print(command_merge(args.bench, args.retry, args.round_no, args.record))
        else:
            print(command_finish(args.bench, args.record, args.max_rounds))
    except InputError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(cli.exit_status(main))
