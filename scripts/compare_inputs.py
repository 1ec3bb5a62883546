"""What compare.py compares: its positional arguments and --baseline made
into result sets, one run each.

An argument is a run folder (it holds bench.json or bench.json.gz: that run
alone is a set) or a results folder (<machine>/<run>/ below it: the newest
run of each CPU and build is a set, or every run with --all-runs). A set is
always one run: an older run of the same CPU and build never fills the
configurations a newer one lacks; it is left out with a note, so every figure
of a set is of the run its line names. Runs of two different CPUs are never
one set (cpu_identity.py). The baseline (a run folder) is the first set, and
a set of the same run is not repeated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import index
from cpu_identity import Identity, identity_of
from chbench_plots import bench_file, noise
from chbench_plots.errors import InputError
from chbench_plots.load import Result, Run, load


@dataclass
class ResultSet:
    """One run, compared as one column."""

    machine: str  # the folder, with ` #n` when it holds runs of several CPUs
    build: str  # the CMake preset (index.build_of), with the run's name where it names it
    run_dir: Path
    context: dict
    identity: Identity = Identity()
    results: dict = field(default_factory=dict)  # config key -> Result
    family_order: list = field(default_factory=list)  # the families as the run orders them
    noise_text: str = "not recorded"  # how many configurations the canary flagged

    @property
    def label(self) -> str:
        """`machine · build` (the build names the run too where sets may share it)."""
        return f"{self.machine} · {self.build}"

    def families(self) -> set:
        """The families this set measured."""
        return {key[0] for key in self.results}


def config_key(r: Result) -> tuple:
    """What makes two results the same benchmark: family, scheme, kernel and
    every parameter the name carries, as ((key, value text), ...) in name order."""
    segments = tuple(tuple(part.partition(":")[::2]) for part in r.config_name.split("/")[3:])
    return (r.family, r.scheme, r.kernel, segments)


def noise_text(run: Run) -> str:
    """'3 of 596 configurations flagged noisy', as the report counts them
    (noise.summarise), or 'not recorded' for a run without a canary."""
    summary = noise.summarise(run)
    if not summary.recorded:
        return "not recorded (a bench from before the noise canary)"
    return f"{len(summary.flagged)} of {len(summary.recorded)} configurations flagged noisy"


def is_run_folder(path: Path) -> bool:
    """Whether `path` holds a bench JSON (bench.json or bench.json.gz)."""
    return bench_file.in_folder(path).exists()


def load_set(run_dir: Path, machine: str, build: Optional[str] = None,
             identity: Optional[Identity] = None) -> tuple:
    """(ResultSet of one run folder, its context); build and identity, when
    not given, are the run's own (index.build_of with the run's name,
    identity_of). Raises InputError for a missing or corrupt bench JSON."""
    loaded = load(bench_file.in_folder(run_dir), need_registry=False)
    context = loaded.context
    if build is None:
        build = f"{index.build_of(context)} · {run_dir.name}"
    identity = identity_of(context) if identity is None else identity
    result_set = ResultSet(machine, build, run_dir, context, identity)
    result_set.results = {config_key(r): r for r in loaded.results if r.ns is not None}
    result_set.family_order = loaded.families()
    result_set.noise_text = noise_text(loaded)
    return result_set, loaded.context


def is_emulated(context: dict) -> bool:
    """Whether the run says it was emulated (chbench_emulated)."""
    return str(context.get("chbench_emulated", "no")) != "no"


def run_set(run_dir: Path, include_emulated: bool, notes: list,
            required: bool = False) -> Optional[ResultSet]:
    """The set of one run folder named on the command line (its label names
    the run), or None for an emulated run left out (a note says so).
    `required` (the baseline): an emulated run is an error then. Raises
    InputError."""
    if not run_dir.is_dir():
        raise InputError(f"{run_dir} is not a folder")
    if not is_run_folder(run_dir):
        raise InputError(f"{run_dir} holds no bench.json or bench.json.gz: not a run folder")
    result_set, context = load_set(run_dir, run_dir.parent.name)
    if is_emulated(context) and not include_emulated:
        if required:
            raise InputError(f"the baseline {run_dir} is an emulated run (its timings mean "
                             "nothing; --include-emulated compares it anyway)")
        notes.append(f"left out {run_dir}: an emulated run (--include-emulated shows it)")
        return None
    return result_set


def folder_sets(root: Path, all_runs: bool, include_emulated: bool, notes: list,
                warnings: list) -> list:
    """The sets of a results folder (index.find_runs: hidden and unnamed
    folders are skipped): per machine folder, CPU identity and build, the
    newest run (every run with all_runs); older runs are left out with a
    note. Adds index.identity_warnings() to `warnings`. Raises InputError
    for a run folder whose bench.json is missing or corrupt."""
    sets: dict = {}
    runs = index.find_runs(root)  # newest first; run.label tells a folder's CPUs apart
    warnings += index.identity_warnings(index.machine_cpus(runs))
    for run in runs:
        run_dir = root / run.machine / run.name
        key = (run.label, run.build, run.name if all_runs else "")
        build = run.build if not all_runs else f"{run.build} · {run.name}"
        result_set, context = load_set(run_dir, run.label, build, run.identity)
        if is_emulated(context) and not include_emulated:
            notes.append(f"left out {run.machine}/{run.name}: an emulated run "
                         "(--include-emulated shows it)")
        elif key in sets:
            notes.append(f"left out {run.machine}/{run.name}: an older run of the same machine "
                         "and build (a set is one run, never filled in from another; "
                         "--all-runs compares every run apart, or name the run)")
        else:
            sets[key] = result_set
    return sorted(sets.values(), key=lambda s: (s.machine, s.build))


def find_sets(paths: list, baseline: Optional[Path], all_runs: bool, include_emulated: bool,
              notes: list, warnings: list) -> list:
    """Every set the arguments name, the baseline's first, each run once, in
    the arguments' order (a results folder's sets sorted by machine and
    build). Raises InputError for a path that is neither a run folder nor a
    results folder, or an unreadable run."""
    sets = [run_set(baseline, include_emulated, notes, required=True)] if baseline else []
    for path in paths:
        if not path.is_dir():
            raise InputError(f"{path} is not a folder")
        if is_run_folder(path):
            found = [run_set(path, include_emulated, notes)]
        elif not index.find_runs(path):
            raise InputError(f"{path} is neither a run folder (no bench.json or bench.json.gz) "
                             "nor a results folder (no <machine>/<run>/ folders)")
        else:
            found = folder_sets(path, all_runs, include_emulated, notes, warnings)
        seen = {s.run_dir.resolve() for s in sets}
        sets += [s for s in found if s is not None and s.run_dir.resolve() not in seen]
    return sets
