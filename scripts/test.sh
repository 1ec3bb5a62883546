#!/usr/bin/env bash
# The test command: installs what is missing, then configures, builds and
# tests three presets through ctest:
#   release   GCC Release: every test (the Catch2 suites, the lab's and the
#             bench's command-line checks, the scripts' tests)
#   sanitize  Clang with AddressSanitizer + UndefinedBehaviorSanitizer: every
#             test that runs compiled code, so that an out-of-bounds access,
#             a leak or undefined behaviour fails the run
#   fuzz      Clang with libFuzzer + ASan + UBSan: the differential fuzzer on
#             its committed seeds, then 10 seconds of fuzzing
#
# Usage: bash scripts/test.sh [PRESET...]   (default: release sanitize fuzz)
# Every preset runs even when an earlier one failed; each prints its time.
# Exit status: 0 if every preset built and passed, 1 otherwise, 2 on a
# usage error.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

presets=("$@")
((${#presets[@]} > 0)) || presets=(release sanitize fuzz)
for preset in "${presets[@]}"; do
  case $preset in
    release | sanitize | fuzz) ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "test.sh: error: unknown preset '$preset' (known: release, sanitize, fuzz)" >&2
      exit 2
      ;;
  esac
done

bash scripts/install-deps.sh
failed=()
for preset in "${presets[@]}"; do
  started=$SECONDS
  echo "test.sh: === $preset ===" >&2
  if cmake --preset "$preset" && cmake --build --preset "$preset" &&
    ctest --preset "$preset"; then
    echo "test.sh: $preset passed in $((SECONDS - started)) s" >&2
  else
    echo "test.sh: $preset FAILED after $((SECONDS - started)) s" >&2
    failed+=("$preset")
  fi
done
if ((${#failed[@]} > 0)); then
  echo "test.sh: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test.sh: all presets passed: ${presets[*]}" >&2
