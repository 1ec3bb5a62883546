"""The committed form of a run's bench JSON (`bench.json.gz`): Google
Benchmark's JSON without the rows its readers recompute, with no absolute
path of the machine it ran on, gzipped byte-stably.

What is kept, read from the readers (load.py, rounds.py, retry_noisy.py,
compare.py, index.py, Google Benchmark's compare.py):
- the whole context (the registry, the CPU identity, chbench_groups: each
  comparison group's per-round ns/key), its local paths made relative;
- every repetition row (a run from before the rounds: the samples its
  median, min–max spread and CV come from);
- every configuration's median row: in a run timed in rounds its only
  source of the bench's own counters (group, ns_per_key_lo/_hi, ratio,
  ratio_lo/_hi, the noise record; each constant over the rounds, so the
  same in every aggregate row), and the row Google Benchmark's compare.py
  -a compares;
- every row of a configuration without a median row, and every error row.
What is left out: the mean, stddev and cv rows of a configuration that has a
median row. Their times are statistics of the repetitions, or of the rounds
that chbench_groups holds (rounds.settle_cv takes the CV from there); their
other counters are the median row's (constants) or zeros.
"""

from __future__ import annotations

import gzip
import json
import re

LEFT_OUT = ("mean", "stddev", "cv")
MARK_KEY = "chbench_compacted"
MARK = ("mean, stddev and cv aggregate rows left out: statistics of the repetitions "
        "or of chbench_groups' rounds")
# An absolute path up to the repository's build/ or results/ folder, which
# begins a path as it reads from the repository's root.
LOCAL_PREFIX = re.compile(r"(?<![\w./-])/(?:[^\s/\"'\\|]+/)*?(?=(?:build|results)/)")


def relative_paths(text: str) -> str:
    """`text` with every absolute path into a checkout's build/ or results/
    folder made relative to the checkout ('/srv/chbench/build/release/x'
    -> 'build/release/x'); other paths (/proc/cpuinfo) are kept."""
    return LOCAL_PREFIX.sub("", text)


def kept_rows(entries: list) -> list:
    """The benchmark rows the committed form keeps (see the module text),
    in their order."""
    with_median = {e.get("run_name") for e in entries
                   if isinstance(e, dict) and e.get("aggregate_name") == "median"}

    def kept(e) -> bool:
        if not isinstance(e, dict) or e.get("error_occurred"):
            return True
        return not (e.get("run_type") == "aggregate" and e.get("aggregate_name") in LEFT_OUT
                    and e.get("run_name") in with_median)

    return [e for e in entries if kept(e)]


def compact(data: dict) -> dict:
    """The committed form of a bench JSON object ({"context", "benchmarks"}):
    the rows kept_rows keeps, context strings with relative_paths, and the
    context key chbench_compacted saying what was left out. Compacting the
    committed form again returns it unchanged."""
    context = data.get("context") if isinstance(data.get("context"), dict) else {}
    context = {k: relative_paths(v) if isinstance(v, str) else v for k, v in context.items()}
    context[MARK_KEY] = MARK
    out = {k: v for k, v in data.items() if k not in ("context", "benchmarks")}
    return {"context": context, **out, "benchmarks": kept_rows(data.get("benchmarks") or [])}


def encode(data: dict) -> bytes:
    """gzip bytes of the JSON of `data`, one benchmark row a line; the same
    data gives the same bytes (no name or time in the gzip header)."""
    rows = ",\n".join(json.dumps(e, separators=(", ", ": ")) for e in data.get("benchmarks", []))
    head = {k: v for k, v in data.items() if k != "benchmarks"}
    text = json.dumps(head, indent=1)[:-2] + ',\n "benchmarks": [\n' + rows + "\n ]\n}\n"
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)
