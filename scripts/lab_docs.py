#!/usr/bin/python3
"""Regenerates docs/placement.md and its plots from runs of chbench-lab.

Every figure on the page comes from running the built lab with --format json
on this machine; nothing is typed in by hand. Writes into --out (default
docs/ of the repository):

  placement.md               the page: the classic results as measured, theory
                             beside them, plots, the machine
  placement_commands.md      every lab command the page ran, in order
  lab_moved_vs_n.png         fraction of keys moved, N -> N + 1, per scheme
  lab_share_std_vs_v.png     ring share std (% of fair) vs V, log-log, 1/sqrt(V)
  lab_busiest_vs_v.png       ring busiest / mean vs V
  lab_load_vs_s, lab_bounded_max_vs_c, lab_tokens_spread
                             requests vs Zipf S, bounded loads vs c, token allocation
                             vs node count (lab_load_docs.py: their runs and sections)

Each plot in the formats of --format (default png,svg: lab_moved_vs_n.svg
beside lab_moved_vs_n.png), in the light theme, or with --theme dark as
lab_moved_vs_n-dark.png etc. (chbench_plots/output.py: text as paths, no date
in the files).

Usage: scripts/lab_docs.py [--lab PATH/TO/chbench-lab] [--out DIR]
                           [--keys K] [--rings R] [--format LIST] [--theme T]
Default lab: build/release/lab/chbench-lab. Run it with Debian's interpreter,
/usr/bin/python3, which sees python3-matplotlib. Takes about a minute on 2
cores (most of it the 10^7-key timings).

Exit status: 0 ok; 1 a lab run failed or matplotlib is missing; 2 bad
arguments (no lab binary, output folder missing). On failure nothing is
written.
"""

from __future__ import annotations

import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cli
import lab_load_docs
from chbench_plots import output
from chbench_plots.palette import colors
from lab_docs_plots import (DPI, GROWTH_N, PLOTS, RING_V, plot_busiest, plot_moved,
                            plot_std)

PROG = "lab_docs.py"
COMMANDS_PAGE = "placement_commands.md"
REPO = Path(__file__).resolve().parent.parent
SWEEP_V = (1, 2, 4, 8, 16, 32, 64, 100, 200, 500, 1000)
FLEETS = (2, 3, 5, 10, 20)
BIG_KEYS = 10_000_000
MAX_KEYS = 100_000_000  # --keys: beyond, the page's lab runs take hours
MAX_RINGS = 100_000  # --rings: chbench-lab balance's own limit


def die(status: int, message: str) -> None:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    sys.exit(status)


def parse_output(cmd: list, stdout: str) -> dict:
    """The JSON object a lab run printed; exits 1 with one line if it is none."""
    try:
        data = json.loads(stdout)
    except ValueError as err:
        die(1, f"{' '.join(cmd)} printed no JSON ({err}); is --lab chbench-lab?")
    if not isinstance(data, dict):
        die(1, f"{' '.join(cmd)} printed JSON that is not an object; is --lab chbench-lab?")
    return data


class Lab:
    """Runs chbench-lab and keeps every command line for the page."""

    def __init__(self, path: Path):
        self.path = path
        self.commands: list[str] = []
        self._schemes: tuple | None = None
        self._taking: dict = {}
        self._heads: dict = {}

    def schemes(self) -> tuple:
        """The schemes the lab offers, in the registry's order: the "Schemes:" line of
        chbench-lab --help ("modn, ring, hrw (rendezvous), ..."), aliases dropped."""
        if self._schemes is None:
            self._schemes = self._read_schemes()
        return self._schemes

    def taking(self, field: str) -> str | None:
        """The first of schemes() whose report head carries `field` ("vnodes":
        the ring; "table_size": Maglev's table): the lab sets a parameter's
        field for the schemes that take it alone. None if no scheme does. Its
        probe runs are not listed on the page."""
        if field not in self._taking:
            self._taking[field] = next((s for s in self.schemes()
                                        if self._head(s).get(field) is not None), None)
        return self._taking[field]

    def ring(self) -> str:
        """The scheme that places tokens on a ring: the one that takes --vnodes."""
        ring = self.taking("vnodes")
        if ring is None:
            die(1, f"{self.path} offers no scheme that takes --vnodes; is --lab chbench-lab?")
        return ring

    def title(self, scheme: str) -> str:
        """The scheme's registry title from the lab's report head, else its name."""
        return self._head(scheme).get("title") or scheme

    def _head(self, scheme: str) -> dict:
        """The report of one key on one node under `scheme`, for its head."""
        if scheme not in self._heads:
            cmd = [str(self.path), "owners", "--scheme", scheme, "--nodes", "1", "--keys", "1",
                   "--format", "json"]
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                die(1, f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
            self._heads[scheme] = parse_output(cmd, done.stdout)
        return self._heads[scheme]

    def _read_schemes(self) -> tuple:
        cmd = [str(self.path), "--help"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        for line in done.stdout.splitlines():
            if line.startswith("Schemes:"):
                names = [item.split("(")[0].strip() for item in line[8:].split(",")]
                if all(names):
                    return tuple(names)
        die(1, f"{' '.join(cmd)} lists no schemes ('Schemes: ...'); is --lab chbench-lab?")

    def json(self, *args: str) -> dict:
        cmd = [str(self.path), *args, "--format", "json"]
        self.commands.append("chbench-lab " + " ".join(args))
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            die(1, f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
        return parse_output(cmd, done.stdout)

    def timed(self, *args: str) -> tuple[float, int | None, dict]:
        """Wall seconds, peak resident KiB (None without GNU time) and the JSON of one run.

        The peak comes from GNU time, not from this process's wait4(): Linux carries a
        forked child's high-water mark across exec, so wait4 would report this Python
        process's own size."""
        cmd = [str(self.path), *args, "--format", "json"]
        self.commands.append("chbench-lab " + " ".join(args) + "   (timed)")
        gnu_time = Path("/usr/bin/time")
        with tempfile.TemporaryDirectory() as tmp:
            rss_file = Path(tmp) / "rss"
            if gnu_time.is_file():
                cmd = [str(gnu_time), "-f", "%M", "-o", str(rss_file), *cmd]
            start = time.perf_counter()
            done = subprocess.run(cmd, capture_output=True, text=True)
            seconds = time.perf_counter() - start
            if done.returncode != 0:
                die(1, f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
            kib = int(rss_file.read_text().split()[-1]) if rss_file.is_file() else None
            return seconds, kib, parse_output(cmd, done.stdout)


def pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"


def machine() -> dict:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "lab",
                                "kernels"], capture_output=True, text=True).stdout.strip()
        if dirty:
            commit += " plus uncommitted changes in lab/ or kernels/"
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {"cpu": cpu, "cpus": os.cpu_count(), "os": platform.platform(), "commit": commit}


# ---- measurements ----------------------------------------------------------------------


def growth(lab: Lab, schemes: tuple, keys: int) -> dict:
    """4 -> 5 for every scheme (ring at V = 100 and V = 1), and N -> N + 1 sweeps;
    "ring_scheme" names the ring (Lab.ring), "table_scheme" the scheme with a
    lookup table (Maglev)."""
    table = {}
    rows = []
    ring = lab.ring()
    for scheme in schemes:
        rows.append((scheme, RING_V if scheme == ring else 1))
        if scheme == ring:
            rows.append((ring, 1))
    for scheme, v in rows:
        # --vnodes is the ring's alone: the lab refuses it elsewhere.
        vnodes = ["--vnodes", str(v)] if scheme == ring else []
        d = lab.json("move", "--scheme", scheme, *vnodes, "--nodes", "4", "--add",
                     "node-4", "--keys", str(keys))
        # What node-4 owns among node-0 ... node-4, counted by a separate balance run.
        after = lab.json("balance", "--scheme", scheme, *vnodes, "--nodes", "5",
                         "--keys", str(keys))
        d["newcomer_owns"] = after["per_ring"][0]["nodes"][4]["keys"]
        table[(scheme, v)] = d
    sweep = {s: [] for s in schemes}
    for scheme in schemes:
        for n in GROWTH_N:
            vnodes = ["--vnodes", str(RING_V)] if scheme == ring else []
            d = lab.json("move", "--scheme", scheme, *vnodes, "--nodes", str(n),
                         "--add", f"node-{n}", "--keys", str(keys))
            sweep[scheme].append((n, d["moved_fraction"], d["between_old_fraction"]))
    return {"table": table, "sweep": sweep, "ring_scheme": ring,
            "table_scheme": lab.taking("table_size"),
            "titles": {s: lab.title(s) for s in schemes}}


def titled(g: dict):
    """scheme -> its title, from growth()'s "titles" (the lab's), else the name."""
    titles = g.get("titles", {})
    return lambda scheme: titles.get(scheme, scheme)


def balance_sweep(lab: Lab, keys: int, rings: int) -> dict:
    by_v = {}
    for v in SWEEP_V:
        by_v[v] = lab.json("balance", "--scheme", lab.ring(), "--vnodes", str(v), "--nodes", "5",
                           "--rings", str(rings), "--keys", str(keys))
    fleets = {}
    for n in FLEETS:
        fleets[n] = lab.json("balance", "--scheme", lab.ring(), "--vnodes", "1", "--nodes", str(n),
                             "--rings", str(rings), "--keys", str(keys))
    return {"by_v": by_v, "fleets": fleets}


def removals(lab: Lab, keys: int) -> dict:
    out = {}
    for v in (1, 200):
        out[v] = lab.json("move", "--scheme", lab.ring(), "--vnodes", str(v), "--nodes", "10",
                          "--remove", "node-3", "--keys", str(keys))
    return out


def timings(lab: Lab) -> list:
    """The page's timed runs: every scheme the lab offers joined by one node at
    N = 100 and N = 1,000 (the ring at V = 100), then the ring at V = 1,000
    losing a node, the largest table the page builds."""
    ring = lab.ring()
    runs = [(scheme, [*(["--vnodes", str(RING_V)] if scheme == ring else []), "--nodes", str(n),
                      "--add", f"node-{n}"]) for scheme in lab.schemes() for n in (100, 1000)]
    runs.append((ring, ["--vnodes", "1000", "--nodes", "1000", "--remove", "node-7"]))
    out = []
    for scheme, args in runs:
        seconds, kib, d = lab.timed("move", "--scheme", scheme, *args, "--keys", str(BIG_KEYS))
        out.append((lab.title(scheme), " ".join(args), seconds, kib, d["moved"]))
    return out


def std_estimate_rel_sd(n: int, v: int, rings: int) -> float:
    """Relative sd of the pooled share-std estimate: half the relative sd of a
    variance estimate with R (N - 1) degrees of freedom from a Beta(V, (N-1) V)."""
    a, b = v, (n - 1) * v
    excess = 6 * ((a - b) ** 2 * (a + b + 1) - a * b * (a + b + 2)) / (
        a * b * (a + b + 2) * (a + b + 3))
    return 0.5 * math.sqrt((2 + excess) / (rings * (n - 1)))


# ---- plots -----------------------------------------------------------------------------------


# ---- the page --------------------------------------------------------------------------------


def intro_section(g: dict, keys: int) -> list:
    """The page's title and what the lab does."""
    L: list = []
    w = L.append
    w("# Placement lab: keys moved and balance per scheme")
    w("")
    w("<!-- Generated by scripts/lab_docs.py from runs of chbench-lab; do not edit. -->")
    w("")
    w("Lookup speed is half of the choice between schemes; the other half is what a scheme")
    w("does to the data. `chbench-lab` (built as `build/<preset>/lab/chbench-lab`) measures")
    w("both halves of that other half with the library's fast kernels:")
    w("")
    w("- `owners --nodes N|A,B,C --keys K|FILE`: each key's owner;")
    w("- `move --nodes ... --add X[,Y] | --remove X[,Y] [--list]`: keys whose owner changes,")
    w("  how many of them moved between two nodes that were both there before, and where a")
    w("  removed node's keys went (and where an added node's came from);")
    w("- `balance --nodes ... --keys ... [--rings R]`: each node's share of the keys (ring:")
    w("  and of the circle), busiest / mean, and the standard deviation of the shares as a")
    w("  percentage of a fair share, over R independent rings (node names suffixed `@r`).")
    w("")
    w(f"All take `--scheme {'|'.join(g['sweep'])}`, `--vnodes V` (ring; default 100),")
    w("`--table-size M` (Maglev; default 65537), `--format text|csv|json`, `--kernel`")
    w("(default: the scheme's fastest, by the registry's rank; `reference` for the plain")
    w("one) and `--threads` (default: all cores). Keys are `user:1` ...")
    w("`user:K` for a count; nodes `node-0` ... `node-(N-1)`. Placement is [spec.md](spec.md)'s (§5 to §9), bit")
    w("for bit. Jump numbers its buckets by list position, so only the last node(s) can be")
    w("removed; the lab refuses anything else and says so. Bad input gets one line")
    w("`chbench-lab: error: ...` on stderr and exit status 2. `--key-format hash` reads a key")
    w("file as one 64-bit key hash per line (decimal or `0x` hex), given to the scheme unhashed;")
    w("the schemes that place keys by the bucket count alone (mod-N, jump and its successors)")
    w("hold no node names for `--nodes N`, so N goes up to the scheme's limit (2^31 - 1 for")
    w("jump). [lab.md](lab.md) gives every input rule.")
    w("")
    w(f"Figures below: {keys:,} keys unless said; ring at V = {RING_V} unless said.")
    w("")
    return L


def growing_section(g: dict, keys: int, images: dict) -> list:
    L: list = []
    w = L.append
    tab = g["table"]
    title = titled(g)
    w("## The classic results, as measured")
    w("")
    w("### Growing 4 -> 5 nodes")
    w("")
    w("| scheme | keys moved | theory | moved between old nodes | share of the moves | "
      "moved to the newcomer | newcomer now owns |")
    w("|---|---:|---:|---:|---:|---:|---:|")
    for (scheme, v), d in tab.items():
        name = title(scheme) + (f", V = {v}" if scheme == g["ring_scheme"] else "")
        # No closed form where the newcomer does not only take keys (Maglev).
        theory = pct(d["theory"]["moved_fraction"]) if d["theory"] else "n/a"
        owns = d["newcomer_owns"]
        w(f"| {name} | {pct(d['moved_fraction'])} | {theory} | "
          f"{pct(d['between_old_fraction'])} | {pct(d['between_old_share_of_moved'])} | "
          f"{d['to_added']:,} | {owns:,} |")
    w("")
    w("mod-N keeps a key only when `h mod 4 == h mod 5`, i.e. `h mod 20 < 4`: it moves 4/5 of")
    w("the keys, 3/5 of them between old nodes (three quarters of the moves). Rendezvous and")
    w("jump move 1/(N + 1) = 20% on average, all of it to the newcomer. The ring moves exactly")
    w("the keys the newcomer now owns (its share of the circle, which varies from ring to")
    w("ring), none between old nodes. (\"Newcomer now owns\" is counted by a separate")
    w("`balance` run over the five nodes.) The tests assert the exact part key by key.")
    maglev = tab.get((g["table_scheme"], 1))
    if maglev:
        w("Maglev gives the newcomer its share of the lookup table, and refilling the table")
        w("shifts a few entries between old nodes too (the paper's small disruption, not")
        w(f"zero): {pct(maglev['between_old_fraction'])} of the keys moved between old nodes "
          "here.")
    w("")
    w(f"![fraction moved vs N]({images['lab_moved_vs_n']})")
    w("")
    return L


def balance_section(b: dict, keys: int, rings: int, images: dict) -> list:
    L: list = []
    w = L.append
    by_v = b["by_v"]
    w("### Ring balance against tokens per node")
    w("")
    w(f"{rings} independent five-node rings, {keys:,} keys each. Share std is the standard")
    w("deviation of all node shares pooled over the rings, as a percentage of a fair share")
    w("(1/N); busiest / mean is the busiest node's keys over the mean, averaged over the")
    w("rings (min ... max in brackets).")
    w("")
    w("| V | share std, circle | share std, keys | theory sqrt((N-1)/(NV+1)) | "
      "busiest / mean (keys) |")
    w("|---:|---:|---:|---:|---:|")
    for v in sorted(by_v):
        d = by_v[v]
        s = d["summary"]
        bm = s["keys"]["busiest_over_mean"]
        w(f"| {v} | {s['circle']['share_std_pct']['pooled']:.1f}% | "
          f"{s['keys']['share_std_pct']['pooled']:.1f}% | "
          f"{d['theory']['circle_share_std_pct']:.1f}% | "
          f"{bm['mean']:.2f} ({bm['min']:.2f} ... {bm['max']:.2f}) |")
    w("")
    w("With N V tokens placed at random, the arcs between them are uniform spacings, jointly")
    w("Dirichlet(1, ..., 1); a node's share, the sum of V arcs, is Beta(V, (N - 1) V), whose")
    w("standard deviation is sqrt((N - 1) / (N V + 1)) of a fair share: 82% at V = 1, 22% at")
    w("16, 9% at 100, 4% at 500, falling as 1/sqrt(V). The keys add the binomial noise of K")
    n = by_v[min(by_v)]["nodes"]
    w(f"draws, sqrt((N - 1) / K), {100 * math.sqrt((n - 1) / keys):.1f}% here. Over only {rings} "
      "rings the measured")
    w("value has its own spread: the pooled variance has R (N - 1) degrees of freedom, so at")
    w(f"V = 1 the std estimate has a relative sd of about {pct(std_estimate_rel_sd(n, 1, rings))}"
      " (Beta(1, N - 1)")
    w("has excess kurtosis ~0.7), and readings 10% off the theory are ordinary.")
    w("")
    w(f"![share std vs V]({images['lab_share_std_vs_v']})")
    w("")
    w(f"![busiest / mean vs V]({images['lab_busiest_vs_v']})")
    w("")
    return L


def small_fleets_section(b: dict, rings: int) -> list:
    L: list = []
    w = L.append
    w("### One token per node on small fleets")
    w("")
    w("The largest of N uniform spacings is H_N / N on average (H_N = 1 + 1/2 + ... + 1/N),")
    w("so with V = 1 the busiest node carries H_N times its fair share on average.")
    w("")
    w(f"| nodes | busiest / mean, mean over {rings} rings | min ... max | theory H_N |")
    w("|---:|---:|---:|---:|")
    for n, d in sorted(b["fleets"].items()):
        bm = d["summary"]["circle"]["busiest_over_mean"]
        w(f"| {n} | {bm['mean']:.2f} | {bm['min']:.2f} ... {bm['max']:.2f} | "
          f"{d['theory']['busiest_over_mean']:.2f} |")
    w("")
    return L


def removal_section(r: dict) -> list:
    L: list = []
    w = L.append
    w("### Removing a node from a ring of 10")
    w("")
    w("| V | keys of the removed node | receiving nodes | largest receiver's part |")
    w("|---:|---:|---:|---:|")
    for v, d in sorted(r.items()):
        f = d["flows_from_removed"][0]
        top = f["to"][0]["keys"] / f["keys"]
        w(f"| {v} | {f['keys']:,} | {f['receivers']} of {d['nodes_after']} | {pct(top)} |")
    w("")
    w("With one token, a removed node's whole arc falls to the next token clockwise: one")
    w("neighbour takes everything (and its load roughly doubles). With 200 tokens the arcs")
    w("go to 200 different successors, spread over all survivors.")
    w("")
    return L


def speed_section(t: list) -> list:
    L: list = []
    w = L.append
    w("## Speed and memory")
    w("")
    w(f"`move` on {BIG_KEYS:,} keys (`user:1` ...; hashed on the fly in parallel blocks, so no")
    w("key strings are kept and memory does not grow with K), whole process, on this machine:")
    w("")
    w("| scheme | nodes | wall time | peak memory | keys moved |")
    w("|---|---|---:|---:|---:|")
    for name, args, seconds, kib, moved in t:
        mem = f"{kib / 1024:.0f} MiB" if kib is not None else "n/a"
        w(f"| {name} | `{args}` | {seconds:.2f} s | {mem} | "
          f"{moved:,} |")
    w("")
    return L


def provenance_section(m: dict, g: dict, commands: list) -> list:
    L: list = []
    w = L.append
    tab = g["table"]
    w("## Provenance")
    w("")
    w(f"- Machine: {m['cpu']}, {m['cpus']} CPUs, {m['os']}")
    w(f"- Commit: {m['commit']}")
    kernels = sorted({d["kernel"] for d in tab.values()})
    w(f"- Kernels (the lab's defaults, the fastest each scheme has): {', '.join(kernels)}")
    w(f"- Generated: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by "
      "`scripts/lab_docs.py`")
    w("- Regenerate (after building): `/usr/bin/python3 scripts/lab_docs.py --lab "
      "build/release/lab/chbench-lab`")
    w("- Tests: `ctest --test-dir build/release -R 'lab:'` (the exact and statistical properties")
    w("  above, with tolerances derived from the theory quoted here; the command line's bad")
    w("  input)")
    w(f"- Every lab command behind this page, {len(commands)} of them: "
      f"[{COMMANDS_PAGE}]({COMMANDS_PAGE})")
    w("")
    return L


def commands_page(commands: list) -> str:
    """The page COMMANDS_PAGE: every lab command the placement page ran, in order."""
    return "\n".join(["# The lab commands behind the placement page", "",
                      "What `scripts/lab_docs.py` ran to write [placement.md](placement.md), "
                      "in order.", "", "```", *commands, "```", ""])


def page(m: dict, g: dict, b: dict, r: dict, t: list, keys: int, rings: int,
         commands: list, images: dict, load: list) -> str:
    """The whole of docs/placement.md, section by section; images: plot stem ->
    the file the page shows."""
    L = intro_section(g, keys)
    L += growing_section(g, keys, images)
    L += balance_section(b, keys, rings, images)
    L += small_fleets_section(b, rings)
    L += removal_section(r)
    L += speed_section(t)
    L += load  # lab_load_docs.sections()
    L += provenance_section(m, g, commands)
    return "\n".join(L)

def parse_args(argv: list | None = None):
    """The command line, checked: exits 2 with one line on bad input."""
    ap = cli.Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--lab", type=Path, default=REPO / "build/release/lab/chbench-lab")
    ap.add_argument("--out", type=Path, default=REPO / "docs")
    ap.add_argument("--keys", type=int, default=100_000)
    ap.add_argument("--rings", type=int, default=50)
    output.add_arguments(ap)
    a = ap.parse_args(argv)
    if not (a.lab.is_file() and os.access(a.lab, os.X_OK)):
        die(2, f"no chbench-lab at {a.lab} (build it, or pass --lab PATH)")
    if not a.out.is_dir():
        die(2, f"output folder {a.out} does not exist")
    reason = cli.unwritable(a.out)
    if reason:
        die(2, f"output folder {a.out} is not writable ({reason})")
    if not 1 <= a.keys <= MAX_KEYS:
        die(2, f"--keys takes 1 to {MAX_KEYS:,} keys (the page runs the lab about 60 times), "
               f"not {a.keys:,}")
    if not 1 <= a.rings <= MAX_RINGS:
        die(2, f"--rings takes 1 to {MAX_RINGS:,} rings, not {a.rings:,}")
    return a


def plot_files(plt, g: dict, b: dict, a, load: dict | None = None) -> dict:
    """{file name: bytes} of the page's plots in every format asked for: PLOTS,
    and with `load` (lab_load_docs.runs()) lab_load_docs.PLOTS."""
    figures = {"lab_moved_vs_n": lambda: plot_moved(plt, g["sweep"], g["ring_scheme"],
                                                    titled(g)),
               "lab_share_std_vs_v": lambda: plot_std(plt, b["by_v"], a.rings),
               "lab_busiest_vs_v": lambda: plot_busiest(plt, b["by_v"], a.rings)}
    if load is not None:
        figures.update(lab_load_docs.figures(plt, load, colors(tuple(load["schemes"])),
                                             titled(g)))
    files: dict = {}
    with output.theme(a.theme):
        for stem, draw in figures.items():
            fig = draw()
            files.update(output.encode_all(fig, stem, a.formats, DPI, a.theme))
            plt.close(fig)
    return files


def write_files(out: Path, files: dict) -> None:
    """Writes every file next to its final name first, then renames, so that a
    failure leaves the previous page and plots intact."""
    staged = []
    try:
        for name, data in files.items():
            tmp = out / f".partial-{name}"
            staged.append((tmp, out / name))
            tmp.write_bytes(data)
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    for tmp, final in staged:
        os.replace(tmp, final)
    print(f"wrote {', '.join(str(f) for _, f in staged)}")


def main(argv: list | None = None) -> int:
    a = parse_args(argv)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        die(1, "matplotlib is missing (run with /usr/bin/python3 and python3-matplotlib)")

    lab = Lab(a.lab)
    g = growth(lab, lab.schemes(), a.keys)
    b = balance_sweep(lab, a.keys, a.rings)
    r = removals(lab, a.keys)
    load = lab_load_docs.runs(lab, lab.schemes(), a.keys)
    t = timings(lab)
    images = {stem: output.embed_name(stem, a.formats, a.theme)
              for stem in (*PLOTS, *lab_load_docs.PLOTS)}
    files = plot_files(plt, g, b, a, load)
    files[COMMANDS_PAGE] = commands_page(lab.commands).encode()
    files["placement.md"] = page(machine(), g, b, r, t, a.keys, a.rings, lab.commands,
                                 images, lab_load_docs.sections(load, titled(g), images)).encode()
    write_files(a.out, files)
    return 0


if __name__ == "__main__":
    sys.exit(cli.exit_status(main))
