#!/usr/bin/env bash
# The test command (CI runs it through .ci/run). See usage().
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash scripts/test.sh [--presets LIST] [--no-arm] [--help]

Installs what is missing, then for each native CMake preset configures,
builds and runs its tests through ctest, then the aarch64 check. Default
presets:
  release   GCC Release: every test (the Catch2 suites, the lab's and the
            bench's command-line checks, the scripts' tests, the interop tests
            against libmemcached and redis-server)
  sanitize  Clang with AddressSanitizer + UndefinedBehaviorSanitizer: every
            test that runs compiled code, so that an out-of-bounds access, a
            leak or undefined behaviour fails the run
  fuzz      Clang with libFuzzer + ASan + UBSan: the differential fuzzer on
            its committed seeds, then 10 seconds of fuzzing
The aarch64 check (scripts/test-arm.sh): the aarch64 cross build and its whole
ctest suite under qemu-aarch64 on a NEON CPU and on SVE2 CPUs with 128- and
256-bit vectors.

Options:
  --presets LIST  comma list of native presets (default: release,sanitize,fuzz);
                  also clang-release, debug, x86-64-v2, x86-64-v3, x86-64-v4
                  (x86-64-v4 needs a CPU with AVX-512)
  --no-arm        skip the aarch64 check
  --help          this text

Every preset runs even when an earlier one failed; each prints its time.
Exit status: 0 when everything passed; 1 when a build or a test failed; 2 on
a usage error.
EOF
}

presets=release,sanitize,fuzz
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
bash scripts/install-deps.sh "${toolchains[@]}"
# shellcheck source=SCRIPTDIR/ccache-env.sh
source scripts/ccache-env.sh

failed=()
for preset in "${native[@]}"; do
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
if ((arm)); then
  started=$SECONDS
  echo "test.sh: === aarch64 under qemu ===" >&2
  if bash scripts/test-arm.sh; then
    echo "test.sh: aarch64 passed in $((SECONDS - started)) s" >&2
  else
    echo "test.sh: aarch64 FAILED after $((SECONDS - started)) s" >&2
    failed+=(aarch64)
  fi
fi
if ((${#failed[@]} > 0)); then
  echo "test.sh: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test.sh: all passed: ${native[*]}$( ((arm)) && echo " aarch64")" >&2
