#!/usr/bin/env python3
"""Rewrites the generated regions of the Markdown pages from the build itself,
so that no page lists a scheme, kernel, family or option the build does not
have.

A region is the lines between `<!-- generated: NAME -->` and
`<!-- end generated -->`; NAME says what goes there:

  schemes        every scheme: name, title, source, its pages, kernels (the default bold)
  kernels        every kernel: full name, SIMD, scalar rival, knob, summary
  families       every bench family: name, what it measures, quick budget
  bench-options  chbench_bench --help, its options
  lab-help       chbench-lab --help
  run-options    scripts/run.sh --help, its options
  presets        every configure preset of CMakePresets.json: toolchain, what it builds
  profile-changes  every production profile: keys moved when a server leaves or
                 joins or a weight changes, the busiest server (profile_changes.py)

The registry and the families are the JSON context (`chbench_registry`,
`chbench_families`) of a bench run of one key on one node (milliseconds,
nothing timed that matters);
the options are the binaries' --help; the presets CMakePresets.json.

Usage: gen_docs.py [--bench PATH] [--lab PATH] [--check] [FILE ...]
  (default files: README.md and docs/**/*.md under the repository)
Exit status: 0 written (or, with --check, every region as generated),
1 with --check: a region differs (each named on stderr), 2 bad input or a
binary that failed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

import cli
import profile_changes

REPO = Path(__file__).resolve().parent.parent
REGION = re.compile(r"(^<!-- generated: ([a-z-]+) -->\n)(.*?)(^<!-- end generated -->$)",
                    re.M | re.S)
START = re.compile(r"^<!-- generated: ", re.M)
ONE_KEY_RUN = ["--kernels", "ring/stream", "--nodes", "1", "--vnodes", "1", "--keys", "1",
               "--rounds", "1", "--min-time", "0", "--benchmark_out_format=json"]


class Failure(Exception):
    """Bad input or a binary that failed: one line for stderr."""


def run_binary(args: list[str]) -> str:
    """The standard output of a command; Failure with its last error line."""
    try:
        done = subprocess.run(args, capture_output=True, text=True, check=False, timeout=120)
    except OSError as err:
        raise Failure(f"cannot run {args[0]}: {err.strerror}") from err
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise Failure(f"{Path(args[0]).name} exited {done.returncode}: {last}")
    return done.stdout


def read_registry(bench: str) -> dict:
    """The registry the bench writes into its JSON context (chbench_registry),
    with the families of chbench_families as its "families"."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.json"
        run_binary([bench, *ONE_KEY_RUN, f"--benchmark_out={out}"])
        try:
            context = json.loads(out.read_text())["context"]
            registry = json.loads(context["chbench_registry"])
            registry["families"] = json.loads(context["chbench_families"])["families"]
            return registry
        except (OSError, ValueError, KeyError) as err:
            raise Failure(f"{bench} wrote no registry or families into its JSON: {err}") from err


def cell(text) -> str:
    """A Markdown table cell: pipes escaped, no line breaks."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(head: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def scheme_kernels(registry: dict, scheme: str) -> str:
    """A scheme's kernels in registry order, its default (lowest rank) in bold."""
    kernels = [k for k in registry["kernels"]
               if k["scheme"] == scheme and not k["stream"] and not k.get("floor")]
    if not kernels:
        return ""
    best = min(kernels, key=lambda k: k["rank"])["kernel"]
    return ", ".join(f"**{k['kernel']}**" if k["kernel"] == best else k["kernel"]
                     for k in kernels)


PAGE = re.compile(r"(\S+\.md)(?: (§\d+))?")


def page_link(page: str, page_dir: Path) -> str:
    """A repository file named by the registry (`FILE.md`, or `FILE.md §N`
    for a section of it), linked from the page's folder when it exists, else
    as code."""
    path, section = PAGE.fullmatch(page).groups()
    text = Path(path).name + (f" {section}" if section else "")
    if (REPO / path).is_file():
        return f"[{text}]({Path(page_dir, path).as_posix()})"
    return f"`{page}`"


def split_source(source: str) -> tuple[str, list[str]]:
    """A registry source: the paper or code it follows, and the pages (the
    `; FILE.md` or `; FILE.md §N` parts) that define the scheme exactly."""
    parts = source.split("; ")
    pages = [p for p in parts if PAGE.fullmatch(p)]
    return "; ".join(p for p in parts if p not in pages), pages


def render_schemes(sources: "Sources") -> str:
    registry, up = sources.registry(), sources.up
    rows = []
    for s in registry["schemes"]:
        source, pages = split_source(s["source"])
        rows.append([f"`{s['name']}`", s["title"], source,
                     ", ".join(page_link(p, up) for p in pages),
                     scheme_kernels(registry, s["name"])])
    return table(["scheme", "title", "source", "defined in", "kernels (default in bold)"], rows)


def render_kernels(sources: "Sources") -> str:
    rows = []
    for k in sources.registry()["kernels"]:
        knob = k["knob"]
        rows.append([f"`{k['name']}`", "yes" if k["simd"] else "",
                     f"`{k['rival']}`" if k["rival"] else "",
                     f"{knob['name']} ({knob['min']}-{knob['max']})" if knob else "",
                     k["summary"]])
    return table(["kernel", "SIMD", "scalar rival", "knob", "what it does"], rows)


def render_families(sources: "Sources") -> str:
    rows = [[f"`{f['name']}`", f["title"], f"{f['quick_budget_s']:g}"]
            for f in sources.registry()["families"]]
    return table(["family", "what it measures", "quick budget (s)"], rows)


def fenced(text: str) -> str:
    return "```text\n" + text.rstrip() + "\n```\n"


def bench_options(help_text: str) -> str:
    """The Options part of the bench's --help (the kernels are a table of their own)."""
    start, end = help_text.find("Options:"), help_text.find("\nKernels:")
    if start < 0:
        raise Failure("the bench's --help has no 'Options:' part")
    return help_text[start:end if end > start else len(help_text)]


def render_bench_options(sources: "Sources") -> str:
    return fenced(bench_options(sources.help(sources.bench)))


def render_run_options(sources: "Sources") -> str:
    text = run_binary(["bash", str(REPO / "scripts/run.sh"), "--help"])
    start, end = text.find("Options:"), text.find("\nExit status:")
    if start < 0:
        raise Failure("scripts/run.sh --help has no 'Options:' part")
    return fenced(text[start:end if end > start else len(text)])


def render_lab_help(sources: "Sources") -> str:
    return fenced(sources.help(sources.lab))


def preset_toolchain(preset: dict, by_name: dict) -> str:
    """A preset's toolchain file (its own or the one it inherits), without the folder."""
    while preset and "toolchainFile" not in preset:
        preset = by_name.get(preset.get("inherits", ""))
    return Path(preset["toolchainFile"]).name if preset else ""


def render_presets(sources: "Sources") -> str:
    try:
        presets = json.loads((REPO / "CMakePresets.json").read_text())["configurePresets"]
    except (OSError, ValueError, KeyError) as err:
        raise Failure(f"cannot read the configure presets of CMakePresets.json: {err}") from err
    by_name = {p["name"]: p for p in presets}
    rows = [[f"`{p['name']}`", f"`{preset_toolchain(p, by_name)}`", p.get("displayName", "")]
            for p in presets if not p.get("hidden")]
    return table(["preset", "toolchain", "what it builds"], rows)


def render_profile_changes(sources: "Sources") -> str:
    try:
        return profile_changes.render(sources.lab, sources.help(sources.lab, "move"))
    except (profile_changes.LabError, OSError, subprocess.TimeoutExpired) as err:
        raise Failure(f"profile-changes: {err}") from err


RENDERERS: dict[str, Callable[["Sources"], str]] = {
    "schemes": render_schemes,
    "kernels": render_kernels,
    "families": render_families,
    "bench-options": render_bench_options,
    "lab-help": render_lab_help,
    "run-options": render_run_options,
    "presets": render_presets,
    "profile-changes": render_profile_changes,
}


class Sources:
    """What the regions are made from, each read once and only when a region needs it."""

    def __init__(self, bench: str, lab: str):
        self.bench, self.lab = bench, lab
        self.up = Path(".")  # from the page being rewritten to the repository
        self._registry: dict | None = None
        self._help: dict[str, str] = {}

    def registry(self) -> dict:
        if self._registry is None:
            self._registry = read_registry(self.bench)
        return self._registry

    def help(self, binary: str, command: str = "") -> str:
        """`binary --help`, or `binary COMMAND --help`."""
        key = f"{binary} {command}"
        if key not in self._help:
            self._help[key] = run_binary([binary, *([command] if command else []), "--help"])
        return self._help[key]


def up_to_repo(page: Path) -> Path:
    """The repository's root as a link from the folder of `page` ('.' or '..', ...)."""
    try:
        depth = len(page.relative_to(REPO).parts) - 1
    except ValueError:
        return Path(".")
    return Path(*([".."] * depth)) if depth else Path(".")


def rewrite(text: str, sources: Sources, where: str) -> str:
    """`text` with every generated region made again; Failure on an unknown
    name or a start marker without its end."""
    if len(START.findall(text)) != len(REGION.findall(text)):
        raise Failure(f"{where}: a '<!-- generated: NAME -->' line without its "
                      "'<!-- end generated -->' (or a malformed one)")

    def one(match: re.Match) -> str:
        name = match.group(2)
        if name not in RENDERERS:
            raise Failure(f"{where}: unknown generated region '{name}' "
                          f"(known: {', '.join(RENDERERS)})")
        return match.group(1) + RENDERERS[name](sources) + match.group(4)

    return REGION.sub(one, text)


def default_pages() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def changed_regions(old: str, new: str) -> list[str]:
    """The names of the regions whose text differs between two versions of a page."""
    pairs = zip(REGION.findall(old), REGION.findall(new))
    return [a[1] for a, b in pairs if a[2] != b[2]]


def process(page: Path, sources: Sources, check: bool) -> list[str]:
    """Rewrites one page (or, with check, leaves it); the stale regions' descriptions."""
    try:
        old = page.read_text()
    except OSError as err:
        raise Failure(f"cannot read {page}: {err.strerror}") from err
    sources.up = up_to_repo(page)
    new = rewrite(old, sources, str(page))
    if new == old:
        return []
    if not check:
        page.write_text(new)
    return [f"{page.relative_to(REPO) if page.is_relative_to(REPO) else page}: "
            f"region '{name}'" for name in changed_regions(old, new)]


def main() -> int:
    parser = cli.Parser(prog="gen_docs.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", default=str(REPO / "build/release/bench/chbench_bench"))
    parser.add_argument("--lab", default=str(REPO / "build/release/lab/chbench-lab"))
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when a region is not as generated")
    parser.add_argument("pages", nargs="*", type=Path)
    args = parser.parse_args()
    sources = Sources(args.bench, args.lab)
    try:
        stale = [s for page in (args.pages or default_pages())
                 for s in process(page.resolve(), sources, args.check)]
    except Failure as err:
        print(f"gen_docs.py: error: {err}", file=sys.stderr)
        return 2
    for line in stale:
        print(f"gen_docs.py: {'stale' if args.check else 'rewrote'} {line}",
              file=sys.stderr if args.check else sys.stdout)
    if stale and args.check:
        print("gen_docs.py: run /usr/bin/python3 scripts/gen_docs.py after building "
              "to regenerate them", file=sys.stderr)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(cli.exit_status(main))
