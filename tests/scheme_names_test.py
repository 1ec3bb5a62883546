"""No product file outside a scheme's folder names a scheme by string.

What a scheme is lives in its registry entry (kernels/chbench/<scheme>/,
HACKING.md "The one rule"); the bench, the lab and the scripts ask the entry
for a role (the scheme that takes virtual nodes, the one that scores every
node) instead of comparing a name. This test finds a string literal that is
exactly a scheme name of kernels/chbench/kernels.def ("ring", 'hrw') in:

- C++: bench/ and lab/src/ (every .h and .cc below them), kernels/chbench/*.h
  and *.cc (not the scheme folders), kernels/chbench/profiles/; comments are
  text about the code and are skipped;
- Python: scripts/*.py and scripts/chbench_plots/*.py (not scripts/tests/),
  every string token of the file, docstrings included (a docstring is one
  longer string, so a name quoted inside it is not a literal of its own).

ALLOWED lists what must stay, each with how many times and why; a finding
beyond those counts is printed as `path: "name" N times (allowed M)`.

Before the scan the finders are checked on examples (self_check), so a broken
pattern fails instead of passing everything.

Usage: scheme_names_test.py REPO_DIR
Exit status: 0 clean, 1 findings (or a failed self-check), 2 usage error.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from collections import Counter
from pathlib import Path

CPP_GLOBS = ("bench/**/*.h", "bench/**/*.cc", "lab/src/**/*.h", "lab/src/**/*.cc",
             "kernels/chbench/*.h", "kernels/chbench/*.cc", "kernels/chbench/profiles/*")
PY_GLOBS = ("scripts/*.py", "scripts/chbench_plots/*.py")

# (path, name) -> (times, why it stays).
ALLOWED = {
    ("kernels/chbench/profiles/maglev.cc", "maglev"):
        (1, "the Maglev profile's own name, a profile the lab's --profile takes, not the scheme"),
    ("lab/src/writers/tokens.cc", "ring"):
        (1, "the member of the tokens report that says which ring the rows are of (docs/lab.md)"),
    ("scripts/chbench_plots/registry.py", "hrw"):
        (1, "LEGACY_SCORES_EVERY_NODE: runs from before the registry marked the scoring schemes"),
    ("scripts/chbench_plots/registry.py", "hrw_weighted"):
        (1, "LEGACY_SCORES_EVERY_NODE: runs from before the registry marked the scoring schemes"),
}

SCHEME_LINE = re.compile(r"^CHBENCH_SCHEME\((\w+),", re.MULTILINE)
# A comment, a character literal or a string literal (group 1: its text).
CPP_TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|\'(?:[^\'\\\n]|\\.)*\'|"((?:[^"\\\n]|\\.)*)"',
                       re.DOTALL)


def scheme_names(repo: Path) -> set:
    """The scheme names of kernels/chbench/kernels.def."""
    return set(SCHEME_LINE.findall((repo / "kernels/chbench/kernels.def").read_text()))


def cpp_literals(text: str) -> list:
    """The string literals of C++ source `text`, comments and character
    literals left out."""
    return [m.group(1) for m in CPP_TOKEN.finditer(text) if m.group(1) is not None]


def py_literals(text: str) -> list:
    """The values of the plain string tokens of Python source `text` (f-strings
    and strings that are not literals left out)."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.STRING:
            try:
                value = ast.literal_eval(tok.string)
            except (ValueError, SyntaxError):
                continue
            if isinstance(value, str):
                out.append(value)
    return out


def counts(repo: Path, names: set) -> Counter:
    """{(path, name): times} over the scanned files."""
    found: Counter = Counter()
    for globs, literals in ((CPP_GLOBS, cpp_literals), (PY_GLOBS, py_literals)):
        for pattern in globs:
            for path in sorted(repo.glob(pattern)):
                if not path.is_file():
                    continue
                rel = path.relative_to(repo).as_posix()
                for value in literals(path.read_text(encoding="utf-8")):
                    if value in names:
                        found[(rel, value)] += 1
    return found


def findings(found: Counter) -> list:
    """One line per (path, name) found more often than ALLOWED allows."""
    out = []
    for (path, name), times in sorted(found.items()):
        allowed = ALLOWED.get((path, name), (0, ""))[0]
        if times > allowed:
            out.append(f'{path}: "{name}" {times} times (allowed {allowed})')
    return out


def self_check() -> list:
    """What the finders must and must not find; a failure line each."""
    failures = []
    cpp = ('if (s != "ring") x = "hrw"; // "jump" in a comment\n/* "modn" */ y = "a\\"ring";'
           '\nif (c == \'"\') q = "maglev"; z = \'\\\'\';')
    if cpp_literals(cpp) != ["ring", "hrw", 'a\\"ring', "maglev"]:
        failures.append(f"cpp_literals: {cpp_literals(cpp)}")
    py = '"""Doc: "ring" quoted."""\nx = "ring" if s == \'hrw\' else f"{s}"\n# "jump"\n'
    if py_literals(py) != ['Doc: "ring" quoted.', "ring", "hrw"]:
        failures.append(f"py_literals: {py_literals(py)}")
    return failures


def main(argv: list) -> int:
    if len(argv) != 2 or not Path(argv[1]).is_dir():
        print("usage: scheme_names_test.py REPO_DIR", file=sys.stderr)
        return 2
    failures = self_check()
    repo = Path(argv[1])
    names = scheme_names(repo)
    if not {"ring", "hrw"} <= names:
        failures.append(f"kernels.def names {sorted(names)}: the scheme lines were not read")
    failures += findings(counts(repo, names))
    for line in failures:
        print(line)
    if failures:
        print("scheme_names_test: a scheme named by string outside its folder: ask its "
              "registry entry for the role (HACKING.md, \"The one rule\")")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
