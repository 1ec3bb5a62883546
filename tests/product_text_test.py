"""The product speaks only of the product: no tracker numbers, no paths of a
development machine, no words about who wrote it or how, no run of an
uncommitted tree among the committed runs.

Scans every file git tracks in REPO_DIR (git ls-files) that is text: a file
with a NUL byte or that is not UTF-8 is binary and skipped, and so are images
(.png, .svg, .jpg, .jpeg, .gif, .pdf), the test vector files
(tests/vectors/, .csv) and this file, whose examples are what the rules
find; a committed run's bench.json.gz is read gunzipped for the dirty-run
rule. Six rules, each finding printed as `path:line: rule: the line`:

- issue number: the word "issue" or "issues", any case, then a number, with
  at most spaces and one "#" between ("issue 15", "Issue #15", "issues 3"),
  also when a line break falls between the word and the number. A citation
  of another project's issue by its address is allowed: in a URL the number
  follows "/issues/", which this rule does not match.
- local path: an absolute path under the work or root directory of a
  development machine ("/work" or "/root" followed by a slash) or under a
  user's home ("/home", a slash, a name, a slash). Absolute means the path
  starts the text or follows a space, a quote, a bracket, "=", ":", ",",
  "<", ">", "|" or a backtick, or "file://"; after a letter, digit, ".",
  "-", "_", "}", ")" or another slash it is the tail of another path (say, a
  temporary directory's "$tmp" then "/work/") and allowed.
- how it was written: a word about the making of the code rather than the
  code, any case, as a whole word: "session", "developer", "agent" (not
  "user agent"), "helper" for a person (not "helpers", nor a helper function,
  script, file, class, module or program), "throwaway", "worktree" or a
  work-tree folder "wt-<name>", and "the issue", "this issue", "that issue".
- run path: a committed run's command.txt holds an absolute path (a word
  starting with "/"): the command of a run is given from the checkout.
- dirty run: a committed run under results/ (its command.txt, console.txt
  and report.md, and the chbench_commit of its bench.json's or
  bench.json.gz's context) names a commit with "-dirty" after it: the run was
  of uncommitted changes, which no one can check out again.
- spec section: a section sign and a number ("§6") names a section of the
  placement contract, docs/spec.md, that is there: one of its "## §N"
  headings (sections keep their numbers, so a citation never goes stale
  unless it was wrong).

Before the scan the rules are checked on examples (self_check), so a broken
pattern fails instead of passing everything.

Usage: product_text_test.py REPO_DIR
Exit status: 0 clean, 1 findings (or a failed self-check), 2 usage error,
77 (ctest: skipped) when REPO_DIR is not a git work tree or git is missing.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path, PurePosixPath

SKIP_SUFFIXES = {".png", ".svg", ".jpg", ".jpeg", ".gif", ".pdf", ".csv"}
SKIP_DIRS = ("tests/vectors/",)
SELF = "tests/product_text_test.py"

ISSUE = re.compile(r"\bissues?[ \t]*(?:\n[^\S\n]*(?:#|//|\*|;|--)?[^\S\n]*)?#?[ \t]*\d+\b",
                   re.IGNORECASE)
LOCAL_PATH = re.compile(r"(?:(?<![\w.\-}\)/])|(?<=file://))/(?:(?:work|root)/|home/[^/\s]+/)")
DIRTY = re.compile(r"\b[0-9a-f]{7,40}-dirty\b")
WRITTEN = re.compile(
    r"\b(?:sessions?|developers?|throwaway|worktrees?|(?:the|this|that)[ \t]+issue)\b"
    r"|(?<!user )\bagents?\b|\bwt-\w"
    r"|\bhelper\b(?![ \t]+(?:function|script|file|class|module|program)s?\b)",
    re.IGNORECASE)
RUN_PATH = re.compile(r"(?:^|(?<=[\s='\"]))/[^\s/]", re.MULTILINE)
RUN_TEXTS = {"command.txt", "console.txt", "report.md"}
SECTION = re.compile(r"§(\d+)")
SPEC = "docs/spec.md"
HEADING = re.compile(r"^## §(\d+) ", re.MULTILINE)


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def findings_in(path: str, text: str, sections: set[str]) -> list[tuple[int, str]]:
    """(line, rule) of every finding in one file's text; `sections` are the
    numbers of docs/spec.md's sections."""
    found: list[tuple[int, str]] = []
    if "§" in text:
        found += [(line_of(text, m.start()), "spec section") for m in SECTION.finditer(text)
                  if m.group(1) not in sections]
    lower = text.lower()
    if "issue" in lower:
        found += [(line_of(text, m.start()), "issue number") for m in ISSUE.finditer(text)]
    if "/work/" in text or "/root/" in text or "/home/" in text:
        found += [(line_of(text, m.start()), "local path") for m in LOCAL_PATH.finditer(text)]
    found += [(line_of(text, m.start()), "how it was written") for m in WRITTEN.finditer(text)]
    parts = PurePosixPath(path).parts
    if parts and parts[0] == "results" and parts[-1] == "command.txt":
        found += [(line_of(text, m.start()), "run path") for m in RUN_PATH.finditer(text)]
    if parts and parts[0] == "results" and "-dirty" in text:
        name = parts[-1]
        if name in RUN_TEXTS:
            found += [(line_of(text, m.start()), "dirty run") for m in DIRTY.finditer(text)]
        elif name in ("bench.json", "bench.json.gz"):
            found += dirty_context(text)
    return sorted(set(found))


def dirty_context(text: str) -> list[tuple[int, str]]:
    """The bench.json context's chbench_commit, when it ends in -dirty."""
    try:
        commit = json.loads(text).get("context", {}).get("chbench_commit", "")
    except (ValueError, AttributeError):
        return []
    if not isinstance(commit, str) or not commit.endswith("-dirty"):
        return []
    at = text.find('"chbench_commit"')
    return [(line_of(text, max(at, 0)), "dirty run")]


def self_check() -> list[str]:
    """The rules on examples: what each must find and what it must allow."""
    must = [
        ("a.md", "see issue 15 for the numbers", "issue number"),
        ("a.md", "Issue #17: a goal", "issue number"),
        ("a.py", "# the fix of issues 3 and 4", "issue number"),
        ("a.cc", "// as asked in the issue\n// 16, defect 2", "issue number"),
        ("a.sh", "cd /work/main && make", "local path"),
        ("a.txt", '"executable": "/work/wt-6/build/bench"', "local path"),
        ("a.md", "logs in `/root/.cache/x`", "local path"),
        ("a.md", "open file:///home/alice/chbench/report.md", "local path"),
        ("a.md", "(/home/bob/src/)", "local path"),
        ("a.cc", "// the ring of docs/spec.md §3", "spec section"),
        ("a.md", "docs/spec.md (§1 to §12)", "spec section"),
        ("results/m/r/report.md", "| Commit | 569d2cdf1973-dirty |", "dirty run"),
        ("results/m/r/command.txt", "bench --commit 4797812-dirty", "dirty run"),
        ("results/m/r/bench.json",
         '{"context": {\n  "chbench_commit": "441d83de582c-dirty"}, "benchmarks": []}',
         "dirty run"),
        ("results/m/r/bench.json.gz", '{"context": {"chbench_commit": "441d83d-dirty"}}',
         "dirty run"),
        ("a.md", "a throwaway transcription of the loop", "how it was written"),
        ("a.md", "written while three other developers worked", "how it was written"),
        ("a.cc", "// this session's fix", "how it was written"),
        ("a.py", "# asked of the helper, then merged", "how it was written"),
        ("a.md", "as The Issue asked", "how it was written"),
        ("a.sh", "cd ../wt-B && make", "how it was written"),
        ("a.md", "each agent took a worktree", "how it was written"),
        ("results/m/r/command.txt", "/opt/ci/build/bench --sweep quick", "run path"),
        ("results/m/r/command.txt", "bench --benchmark_out=/tmp/x.json", "run path"),
    ]
    allow = [
        ("a.md", "fixed upstream: https://github.com/o/r/issues/123", "issue number"),
        ("a.md", "an issue with 64-bit lanes: 2 of them", "issue number"),
        ("a.md", "tissue 4", "issue number"),
        ("a.sh", 'rm -rf "${tmp:?}/work/"*', "local path"),
        ("a.sh", "out=$(mktemp -d /tmp/chbench.XXXXXX)", "local path"),
        ("a.md", "https://example.org/home/alice/page", "local path"),
        ("a.md", "docs/work/notes and src/root/x", "local path"),
        ("a.md", "/home alone, or /homework/", "local path"),
        ("results/m/r/notes.md", "recorded as 569d2cdf1973-dirty because", "dirty run"),
        ("results/m/r/report.md", 'the commit is recorded as "-dirty" when', "dirty run"),
        ("docs/a.md", "| Commit | 569d2cdf1973-dirty |", "dirty run"),
        ("a.cc", "// docs/spec.md §1's rule, §2 to §1", "spec section"),
        ("results/m/r/bench.json", '{"context": {"chbench_commit": "441d83de582c"}}',
         "dirty run"),
        ("a.md", "the scripts' shared helpers; a helper function of the tests", "how it was written"),
        ("a.md", "an HTTP user agent, not a git work tree", "how it was written"),
        ("a.md", "HAProxy's wt6 hash; issued twice; sessionless", "how it was written"),
        ("results/m/r/command.txt", "build/release/bench/chbench_bench --sweep quick "
         "--benchmark_out=results/m/.partial-r/bench.json", "run path"),
        ("docs/a.md", "run /opt/ci/build/bench", "run path"),
    ]
    errors = []
    sections = {"1", "2"}
    for path, text, rule in must:
        if rule not in [r for _, r in findings_in(path, text, sections)]:
            errors.append(f"self-check: {rule} not found in {text!r} ({path})")
    for path, text, rule in allow:
        if rule in [r for _, r in findings_in(path, text, sections)]:
            errors.append(f"self-check: {rule} wrongly found in {text!r} ({path})")
    return errors


def gunzipped(data: bytes) -> bytes:
    """A gzip file's content; a file that is not one is returned as it is."""
    try:
        return gzip.decompress(data)
    except (OSError, EOFError):
        return data


def tracked_files(repo: Path) -> list[str] | None:
    try:
        out = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def skipped(path: str) -> bool:
    return (PurePosixPath(path).suffix.lower() in SKIP_SUFFIXES or path.startswith(SKIP_DIRS)
            or path == SELF)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: product_text_test.py REPO_DIR", file=sys.stderr)
        return 2
    errors = self_check()
    if errors:
        for e in errors:
            print(f"product_text_test.py: {e}", file=sys.stderr)
        return 1
    repo = Path(argv[1])
    files = tracked_files(repo)
    if files is None:
        print(f"product_text_test.py: skipped: {repo} is not a git work tree (or git is missing)")
        return 77
    try:
        sections = set(HEADING.findall((repo / SPEC).read_text(encoding="utf-8")))
    except OSError:
        sections = set()
    count = 0
    findings = []
    for path in files:
        if skipped(path):
            continue
        try:
            data = (repo / path).read_bytes()
        except OSError:  # deleted in the work tree, not yet in the index
            continue
        if path.startswith("results/") and path.endswith("/bench.json.gz"):
            data = gunzipped(data)
        if b"\0" in data:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        count += 1
        lines = text.split("\n")
        for line, rule in findings_in(path, text, sections):
            findings.append(f"{path}:{line}: {rule}: {lines[line - 1].strip()[:160]}")
    for f in findings:
        print(f)
    if findings:
        print(f"product_text_test.py: FAILED: {len(findings)} finding(s) in {count} text files",
              file=sys.stderr)
        return 1
    print(f"product_text_test.py: {count} text files clean")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
