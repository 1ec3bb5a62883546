"""The generated region `profile-changes` of docs/profiles/compared.md: what a change of
the fleet does under each production profile, measured with the built lab.

For every profile the lab offers (its --help), on ten servers named
10.0.0.1:8080 ... 10.0.0.10:8080 and the keys user:1 ... user:K:

  leave     keys whose owner changes when the last server leaves, and how many
            of them moved between two servers that stayed
  join      keys whose owner changes when an eleventh server joins
  weight    keys whose owner changes when the first server's weight goes from
            1 to 2 (profiles that take weights; the others show a dash)
  busiest   the busiest server's keys over the mean

A change the profile refuses (Kafka never loses a partition) shows the lab's
reason. Every figure is an exact count of this run, not a sample of timings:
the same build gives the same table.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from typing import Callable

KEYS = 200_000
SERVERS = [f"10.0.0.{i}:8080" for i in range(1, 11)]
JOINER = "10.0.0.11:8080"


class LabError(Exception):
    """The lab refused a request: its last error line."""


def profiles(lab_help: str) -> list[str]:
    """The profile names of the lab's --profile option, in its order."""
    match = re.search(r"--profile TEXT\s+.*?real system does: (.*)", lab_help)
    if not match:
        raise LabError("the lab's --help has no --profile option")
    names = re.findall(r"(?:^|, )([a-z][a-z0-9_]*)(?= \(|,|;|$)", match.group(1))
    return [n for n in names if n != "see"]


def run_lab(lab: str, args: list[str]) -> str:
    """The lab's standard output; LabError with its message when it exits non-zero."""
    done = subprocess.run([lab, *args], capture_output=True, text=True, check=False,
                          timeout=300)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no message"]
        raise LabError(re.sub(r"^chbench-lab: (error: )?", "", lines[-1]))
    return done.stdout


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f} %"


def leave_cell(lab: str, profile: str) -> str:
    out = json.loads(run_lab(lab, ["move", "--profile", profile, "--nodes", ",".join(SERVERS),
                                   "--remove", SERVERS[-1], "--keys", str(KEYS),
                                   "--format", "json"]))
    return f"{percent(out['moved'], KEYS)} ({percent(out['between_old'], KEYS)} between stayers)"


def join_cell(lab: str, profile: str) -> str:
    out = json.loads(run_lab(lab, ["move", "--profile", profile, "--nodes", ",".join(SERVERS),
                                   "--add", JOINER, "--keys", str(KEYS), "--format", "json"]))
    return percent(out["moved"], KEYS)


def owners(lab: str, profile: str, weights: list[int]) -> list[str]:
    text = run_lab(lab, ["owners", "--profile", profile, "--nodes", ",".join(SERVERS),
                         "--weights", ",".join(map(str, weights)), "--keys", str(KEYS),
                         "--format", "csv"])
    rows = csv.DictReader(io.StringIO(text))
    return [row["owner"] for row in rows]


def weight_cell(lab: str, profile: str) -> str:
    before = owners(lab, profile, [1] * len(SERVERS))
    after = owners(lab, profile, [2] + [1] * (len(SERVERS) - 1))
    return percent(sum(a != b for a, b in zip(before, after)), KEYS)


def busiest_cell(lab: str, profile: str) -> str:
    out = json.loads(run_lab(lab, ["balance", "--profile", profile, "--nodes", ",".join(SERVERS),
                                   "--keys", str(KEYS), "--format", "json"]))
    counts = [node["keys"] for node in out["per_ring"][0]["nodes"]]
    return f"{max(counts) * len(counts) / sum(counts):.3f}"


def cell(measure: Callable[[str, str], str], lab: str, profile: str, refused: str) -> str:
    """The measured cell, or `refused` (a dash, or the lab's reason) when the lab says no."""
    try:
        return measure(lab, profile)
    except LabError as err:
        return refused if refused else f"refused: {err}"


def render(lab: str, lab_help: str) -> str:
    """The region's Markdown: a sentence on the set-up and one row a profile."""
    lines = [f"Ten servers `10.0.0.1:8080` ... `10.0.0.10:8080`, keys `user:1` ... "
             f"`user:{KEYS}`, every figure counted by the lab (`chbench-lab move` / "
             "`owners` / `balance`). A change that keeps every other server's share moves "
             "10 % of the keys when one of ten leaves and 9.09 % when an eleventh joins; "
             "with 20,000 keys a server, a perfectly uniform placement's busiest ÷ mean is "
             "itself about 1.01 (sampling noise), so only differences larger than that "
             "are the profile's.", "",
             "| profile | one of ten leaves | an eleventh joins | one weight 1 → 2 | busiest ÷ mean |",
             "|---|---:|---:|---:|---:|"]
    for profile in profiles(lab_help):
        lines.append(f"| `{profile}` | {cell(leave_cell, lab, profile, '')} | "
                     f"{cell(join_cell, lab, profile, '')} | {cell(weight_cell, lab, profile, '–')} | "
                     f"{cell(busiest_cell, lab, profile, '')} |")
    return "\n".join(lines) + "\n"
