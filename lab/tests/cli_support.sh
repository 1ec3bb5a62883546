# shellcheck shell=bash
# What every command-line test of chbench-lab (cli_*_test.sh) shares: the lab
# to run, a temporary folder, and the checks' helpers. Sourced with the
# script's arguments: [EMULATOR [ARGS...]] PATH/TO/chbench-lab (a cross build
# passes its emulator, e.g. qemu-aarch64, before the lab).
# Bad input is one line "chbench-lab: error: ..." on stderr, nothing on
# stdout, exit status 2 (bad).
set -u
(($# >= 1)) || {
  echo "usage: $(basename "$0") [EMULATOR [ARGS...]] PATH/TO/chbench-lab" >&2
  exit 2
}
lab=("$@")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
# The expected values' Python models (jumphash.py) are imported from here.
export PYTHONPATH
PYTHONPATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# run ARGS...: runs the lab, leaves status in $status, output in files.
run() {
  "${lab[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
  status=$?
}

# bad WHAT PATTERN ARGS...: expects exit 2, empty stdout, one stderr line
# starting "chbench-lab: error: " and containing PATTERN.
bad() {
  local what=$1 pattern=$2
  shift 2
  run "$@"
  [[ $status -eq 2 ]] || fail "$what: exit status $status, want 2"
  [[ ! -s $tmp/out ]] || fail "$what: wrote to stdout: $(head -c 200 "$tmp/out")"
  [[ $(wc -l <"$tmp/err") -eq 1 ]] || fail "$what: stderr is not one line: $(cat "$tmp/err")"
  grep -q '^chbench-lab: error: ' "$tmp/err" || fail "$what: no 'chbench-lab: error:' prefix"
  grep -qi -- "$pattern" "$tmp/err" || fail "$what: message lacks '$pattern': $(cat "$tmp/err")"
}

# finish TOPIC: the script's exit status, 1 when a check failed.
finish() {
  if [[ $failures -ne 0 ]]; then
    echo "$failures check(s) failed" >&2
    exit 1
  fi
  echo "all command-line checks of $1 passed"
}
