"""guide.py's runs of chbench-lab: per scheme, at the fleet size asked for,
the keys moved when one node joins and when one leaves, and busiest ÷ mean
from as many keys as the time budget allows.

The key count of a scheme's balance run is chosen from two timed probe runs
(PROBE_KEYS: a fixed cost, building the fleet, and a cost per key, fitted
through both): the largest of KEY_CHOICES whose estimated time is at most
RUN_SECONDS (rendezvous and weighted rendezvous
score every node for every key, so they get fewer keys at large N); --keys
fixes it instead. The move runs (two placements each) use a tenth of
those keys, at least the smallest choice. Every command is
kept for the page."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

PROBE_KEYS = (10_000, 100_000)
KEY_CHOICES = (10_000_000, 1_000_000, 100_000)
RUN_SECONDS = 2.5


class LabFailed(Exception):
    """A lab run exited with an error (not a refusal of the change)."""


@dataclass(frozen=True)
class LabRow:
    """What chbench-lab measured for one scheme at N nodes: fractions of the
    keys moved on one join and one leave, those moved between nodes present
    before and after (survivors), busiest ÷ mean from `keys` keys, and the
    lab's JSON of the balance run (its parameters: vnodes, capacity, ...)."""

    join_moved: float
    join_between: float
    leave_moved: Optional[float]  # None: the lab refused the leave
    leave_between: Optional[float]
    leave_node: str
    busiest_over_mean: float
    keys: int  # keys of the balance run
    move_keys: int
    setup: dict


class Lab:
    """chbench-lab --format json at N nodes, every command kept."""

    def __init__(self, path: Path, nodes: int, keys: Optional[int] = None):
        self.path, self.nodes, self.fixed_keys, self.commands = path, nodes, keys, []

    def json(self, *args: str, refusable: bool = False) -> tuple:
        """(JSON or None if refused, seconds) of one lab run."""
        self.commands.append("chbench-lab " + " ".join(args))
        start = time.monotonic()
        done = subprocess.run([str(self.path), *args, "--format", "json"], capture_output=True,
                              text=True)
        seconds = time.monotonic() - start
        if done.returncode == 2 and refusable:
            return None, seconds
        if done.returncode != 0:
            raise LabFailed(f"chbench-lab {' '.join(args)} failed ({done.returncode}): "
                            f"{done.stderr.strip()}")
        return json.loads(done.stdout), seconds

    def base(self, scheme: str, keys: int) -> tuple:
        return ("--scheme", scheme, "--nodes", str(self.nodes), "--keys", str(keys))

    def balance_keys(self, scheme: str) -> int:
        """The key count of the balance run: --keys, else the choice from a probe."""
        if self.fixed_keys:
            return self.fixed_keys
        self.commands.append(f"# the timing probes of {scheme}, to choose its key count:")
        (small, large), seconds = PROBE_KEYS, []
        for keys in PROBE_KEYS:
            seconds.append(self.json("balance", *self.base(scheme, keys))[1])
        per_key = max(seconds[1] - seconds[0], 0.0) / (large - small)
        fixed = max(seconds[0] - per_key * small, 0.0)
        return next((k for k in KEY_CHOICES if fixed + k * per_key <= RUN_SECONDS),
                    KEY_CHOICES[-1])

    def row(self, scheme: str, removal: str) -> LabRow:
        """Join, leave and balance of one scheme."""
        keys = self.balance_keys(scheme)
        balance, _ = self.json("balance", *self.base(scheme, keys))
        move_keys = max(KEY_CHOICES[-1], keys // 10)
        n = self.nodes
        join, _ = self.json("move", *self.base(scheme, move_keys), "--add", f"node-{n}")
        node = f"node-{n - 1}" if removal == "last" else f"node-{n // 2}"
        leave, _ = self.json("move", *self.base(scheme, move_keys), "--remove", node,
                             refusable=True)
        return LabRow(join["moved_fraction"], join["between_old_fraction"],
                      leave["moved_fraction"] if leave else None,
                      leave["between_old_fraction"] if leave else None, node,
                      balance["summary"]["keys"]["busiest_over_mean"]["mean"], keys, move_keys,
                      {k: v for k, v in balance.items() if not isinstance(v, (dict, list))})


def rows(lab: Lab, schemes: list, progress) -> dict:
    """scheme -> LabRow for each (name, removal) of `schemes`; progress(text)
    is called once a scheme."""
    out = {}
    for i, (name, removal) in enumerate(schemes, 1):
        start = time.monotonic()
        out[name] = lab.row(name, removal)
        progress(f"lab {i}/{len(schemes)}: {name}, {out[name].keys:,} keys, "
                 f"{time.monotonic() - start:.1f} s")
    return out


def stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
