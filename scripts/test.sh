#!/usr/bin/env bash
# The test command (CI runs it through .ci/run). See usage().
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash scripts/test.sh [--presets LIST] [--no-arm] [--help]

Installs what is missing, checks that every tracked C++ file is formatted
as .clang-format says (clang-format --dry-run --Werror; skipped, with a
message, where clang-format is not installed), then for each native CMake
preset configures, builds and runs its tests through ctest, then the aarch64
check. Default presets:
  release   GCC Release: every test (the Catch2 suites, the lab's and the
            bench's command-line checks, the scripts' tests, the interop tests
            against libmemcached and redis-server), two at a time
  sanitize  Clang with AddressSanitizer + UndefinedBehaviorSanitizer: every
            test that runs compiled code, so that an out-of-bounds access, a
            leak or undefined behaviour fails the run; the kernels' random
            sweeps take fewer cases than in release (tests/support.h). Its
            build also links the differential fuzzer, which runs its
            committed seeds and 10 seconds of fuzzing
The aarch64 check (scripts/test-arm.sh): the aarch64 cross build of the
library and its per-target tests (the test cases tagged [targets]), run
under qemu-aarch64 on a NEON CPU and on SVE2 CPUs with 128- and 256-bit
vectors.

Options:
  --presets LIST  comma list of native presets (default: release,sanitize);
                  also fuzz (the fuzzer with coverage of the whole library,
                  as scripts/fuzz.sh builds it), clang-release, debug,
                  x86-64-v2, x86-64-v3, x86-64-v4 (x86-64-v4 needs a CPU with
                  AVX-512)
  --no-arm        skip the aarch64 check
  --help          this text

Every preset runs even when an earlier one failed. At the end a table gives
each step's build and test time.
Exit status: 0 when everything passed; 1 when a build or a test failed; 2 on
a usage error.
EOF
}

presets=release,sanitize
arm=1
while (($# > 0)); do
  case $1 in
    --presets)
      (($# >= 2)) || {
        echo "test.sh: error: --presets needs a list (see --help)" >&2
        exit 2
      }
      presets=$2
      shift
      ;;
    --presets=*) presets=${1#*=} ;;
    --no-arm) arm=0 ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      echo "test.sh: error: unknown option '$1' (see --help)" >&2
      exit 2
      ;;
  esac
  shift
done
cd "$(dirname "${BASH_SOURCE[0]}")/.."

toolchains=()
IFS=, read -r -a native <<<"$presets"
if ((${#native[@]} == 0)); then
  echo "test.sh: error: --presets was given an empty list" >&2
  exit 2
fi
for preset in "${native[@]}"; do
  case $preset in
    release | debug) toolchains+=(--toolchain gcc) ;;
    clang-release | sanitize | fuzz) toolchains+=(--toolchain clang) ;;
    x86-64-v2 | x86-64-v3 | x86-64-v4) toolchains+=(--toolchain "$preset") ;;
    *)
      echo "test.sh: error: unknown preset '$preset' (known: release, sanitize, fuzz," \
        "clang-release, debug, x86-64-v2, x86-64-v3, x86-64-v4)" >&2
      exit 2
      ;;
  esac
done
((arm == 0)) || toolchains+=(--toolchain aarch64)
total_started=$SECONDS
tmp_times=$(mktemp)
trap 'rm -f "$tmp_times"' EXIT
bash scripts/install-deps.sh "${toolchains[@]}"
# shellcheck source=SCRIPTDIR/ccache-env.sh
source scripts/ccache-env.sh

failed=()
steps=()
# Prints one row of the closing table: step, build seconds, test seconds, result.
step_row() { printf '  %-20s %7s %7s   %s\n' "$1" "$2" "$3" "$4"; }
# The formatter: every tracked C++ file as clang-format leaves it.
echo "test.sh: === clang-format ===" >&2
started=$SECONDS
if ! command -v clang-format >/dev/null 2>&1; then
  result="skipped: clang-format not installed"
elif ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  result="skipped: not a git work tree"
else
  result=passed
  git ls-files -z -- '*.cc' '*.h' '*.cpp' '*.hpp' '*.c' |
    xargs -0 -r clang-format --dry-run --Werror || result=FAILED
fi
steps+=("$(step_row clang-format - "$((SECONDS - started)) s" "$result")")
echo "test.sh: clang-format $result" >&2
[[ $result != FAILED ]] || failed+=(clang-format)
for preset in "${native[@]}"; do
  echo "test.sh: === $preset ===" >&2
  started=$SECONDS
  if cmake --preset "$preset" && cmake --build --preset "$preset"; then
    built=$((SECONDS - started))
    started=$SECONDS
    result=passed
    ctest --preset "$preset" || result=FAILED
    steps+=("$(step_row "$preset" "$built s" "$((SECONDS - started)) s" "$result")")
  else
    result=FAILED
    steps+=("$(step_row "$preset" "$((SECONDS - started)) s" - "build FAILED")")
  fi
  echo "test.sh: $preset $result" >&2
  [[ $result == passed ]] || failed+=("$preset")
done
if ((arm)); then
  started=$SECONDS
  echo "test.sh: === aarch64 under qemu ===" >&2
  result=passed
  bash scripts/test-arm.sh --times "$tmp_times" || result=FAILED
  while IFS=$'\t' read -r what build tests outcome; do
    steps+=("$(step_row "$what" "$build" "$tests" "$outcome")")
  done <"$tmp_times"
  echo "test.sh: aarch64 $result in $((SECONDS - started)) s" >&2
  [[ $result == passed ]] || failed+=(aarch64)
fi
echo "test.sh: step times (seconds on this machine: $(nproc) cores)" >&2
step_row step build tests result >&2
printf '%s\n' "${steps[@]}" >&2
echo "  total                $((SECONDS - total_started)) s" >&2
if ((${#failed[@]} > 0)); then
  echo "test.sh: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test.sh: all passed: ${native[*]}$( ((arm)) && echo " aarch64")" >&2
