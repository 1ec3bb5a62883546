#!/usr/bin/env bash
# The test command (CI runs it through .ci/run). See usage().
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash scripts/test.sh [--presets LIST] [--no-arm] [--help]

Installs what is missing, then for each native CMake preset configures,
builds and runs every test through ctest: the Catch2 suites, the lab's and
the bench's command-line checks, and the scripts' own tests. Then the aarch64
check (scripts/test-arm.sh): the aarch64 cross build, its whole ctest suite
under qemu-aarch64 on a NEON CPU and on SVE2 CPUs with 128- and 256-bit
vectors.

Options:
  --presets LIST  comma list of native presets (default: release); e.g.
                  release,clang-release,x86-64-v2,x86-64-v3,x86-64-v4
                  (x86-64-v4 needs a CPU with AVX-512)
  --no-arm        skip the aarch64 check
  --help          this text

Exit status: 0 when everything passed; non-zero when a build or a test failed.
EOF
}

presets=release
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
for preset in "${native[@]}"; do
  case $preset in
    release | debug) toolchains+=(--toolchain gcc) ;;
    clang-release) toolchains+=(--toolchain clang) ;;
    *) toolchains+=(--toolchain "$preset") ;;
  esac
done
((arm == 0)) || toolchains+=(--toolchain aarch64)
bash scripts/install-deps.sh "${toolchains[@]}"

started=$SECONDS
for preset in "${native[@]}"; do
  echo "test.sh: preset $preset" >&2
  cmake --preset "$preset"
  cmake --build --preset "$preset"
  ctest --preset "$preset"
done
echo "test.sh: native presets (${presets}) passed in $((SECONDS - started)) s" >&2
if ((arm)); then
  bash scripts/test-arm.sh
fi
