"""The configuration a benchmark's name stands for: the name without the
segments Google Benchmark appends to the bench's own (`real_time`,
`manual_time`, `process_time`, `iterations:<n>`, `repeats:<n>`,
`min_time:<x>`, `min_warmup_time:<x>`). The bench's comparison groups
(chbench_groups) and its --benchmark_filter use these bare names.

No dependency beyond the standard library: retry_noisy.py imports it too.
"""

from __future__ import annotations

import re

# One trailing segment Google Benchmark appends; stripped until none is left.
APPENDED = re.compile(r"/(?:real_time|manual_time|process_time|iterations:\d+|repeats:\d+"
                      r"|min_time:[^/]+|min_warmup_time:[^/]+)$")


def config_name(run_name: str) -> str:
    """`run_name` without the trailing segments Google Benchmark appends:
    `clustered/ring/branchless/N:655/V:100/K:300000/threads:1/window:36/
    iterations:1/repeats:10/manual_time` -> `.../threads:1/window:36`."""
    name = run_name
    while True:
        stripped = APPENDED.sub("", name)
        if stripped == name:
            return name
        name = stripped
