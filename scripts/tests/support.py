"""Shared paths and helpers for the tests of scripts/."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SCRIPTS = TESTS.parent
REPO = SCRIPTS.parent
FIXTURE = TESTS / "fixtures" / "small_bench.json"
FAKE_BENCH = TESTS / "fake_bench.sh"
# Debian's interpreter sees python3-matplotlib; fall back to the running one.
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))


def run(args: list, env: dict | None = None, timeout: float = 120,
        **kw) -> subprocess.CompletedProcess:
    """Runs a command, capturing text output."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(args, capture_output=True, text=True, env=full_env,
                          timeout=timeout, check=False, **kw)


def snapshot(root: Path) -> dict:
    """Every entry under root (root included): type, and for files size, mtime
    and content hash. A folder's own mtime is left out: it changes whenever an
    entry is added or removed, which the set of keys shows anyway."""
    state = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames + ([""] if dirpath == str(root) else []):
            path = Path(dirpath) / name
            st = path.lstat()
            if path.is_file():
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                state[str(path.relative_to(root))] = (st.st_mode, st.st_size, st.st_mtime_ns,
                                                      digest)
            else:
                state[str(path.relative_to(root))] = (st.st_mode,)
    return state


def machine_name() -> str:
    """The machine folder name run.sh uses on this machine."""
    out = run(["bash", str(SCRIPTS / "machine-name.sh")])
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def commit_name() -> str:
    """The commit part of run folder names for this checkout."""
    out = run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "nogit"


CPUINFO = TESTS / "fixtures" / "cpuinfo"


def cpu_context(fixture: str, recorded: bool = True) -> dict:
    """The CPU part of a bench context for one of fixtures/cpuinfo/ (e.g.
    "amd-epyc-zen3-2c"), as the bench records it: model name, flags line,
    Google Benchmark's caches and CPU count, and, if `recorded`, the
    chbench_cpu identity run.sh adds (runs from before it lack it)."""
    text = (CPUINFO / f"{fixture}.txt").read_text()
    fields: dict = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    caches = []
    for index in sorted((CPUINFO / f"{fixture}.cache").glob("index*")):
        size = (index / "size").read_text().strip()
        caches.append({"type": (index / "type").read_text().strip(),
                       "level": int((index / "level").read_text()),
                       "size": int(size.rstrip("K")) * 1024, "num_sharing": 1})
    ctx = {"chbench_cpu_model": fields.get("model name", "unknown"),
           "chbench_cpu_flags": fields.get("flags", fields.get("Features", "unknown")),
           "caches": caches, "num_cpus": text.count("processor\t:")}
    if recorded:
        cache = CPUINFO / f"{fixture}.cache"
        out = run(["bash", str(SCRIPTS / "machine-name.sh"), "--json", "--cpuinfo",
                   str(CPUINFO / f"{fixture}.txt")]
                  + (["--sysfs-cache", str(cache)] if cache.is_dir() else []))
        assert out.returncode == 0, out.stderr
        ctx["chbench_cpu"] = out.stdout.strip()
    return ctx


def assert_refused(test, args: list, prog: str, message: str, root: Path):
    """Runs `args` and checks, with the unittest.TestCase `test`, that it is
    refused as every script refuses bad input: exit status 2, one stderr line
    "PROG: error: ..." holding `message`, and nothing under `root` changed.
    Returns the process."""
    before = snapshot(root)
    result = run(args)
    test.assertEqual(result.returncode, 2, result.stderr)
    lines = result.stderr.strip().splitlines()
    test.assertEqual(len(lines), 1, result.stderr)
    test.assertTrue(lines[0].startswith(f"{prog}: error: "), lines[0])
    test.assertIn(message, lines[0])
    test.assertEqual(snapshot(root), before)
    return result
