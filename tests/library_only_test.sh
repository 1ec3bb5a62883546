#!/usr/bin/env bash
# The kernel library alone: chbench configured with
# -DCHBENCH_BUILD_TESTS=OFF -DCHBENCH_BUILD_BENCH=OFF -DCHBENCH_BUILD_LAB=OFF
# and Catch2, Google Benchmark, CLI11 and nlohmann-json made unfindable
# (CMAKE_DISABLE_FIND_PACKAGE_<name>: a find_package(<name> REQUIRED) left in
# the library's path stops the configure step), then built.
#
# Usage: library_only_test.sh SOURCE_DIR BINARY_DIR [CMAKE_ARG...]
#   BINARY_DIR is configured afresh each time (its CMake cache and checks
#   removed) and its objects kept, so a second run compiles nothing. The
#   CMAKE_ARGs (the toolchain file, build type, flags, the ccache launcher)
#   are the outer build's: with ccache and BINARY_DIR as deep as the outer
#   build's folder, even the first run's compiles are cache hits
#   (CCACHE_BASEDIR defaults to SOURCE_DIR here, as in scripts/ccache-env.sh).
# Exit status: 0 when the library configured and built, 1 otherwise, 2 on a
# usage error.
set -uo pipefail

(($# >= 2)) || {
  echo "usage: library_only_test.sh SOURCE_DIR BINARY_DIR [CMAKE_ARG...]" >&2
  exit 2
}
readonly src=$1 dir=$2
shift 2
rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$src} CCACHE_NOHASHDIR=1

# run WHAT COMMAND...: runs quietly; on failure shows the end of its output.
run() {
  local what=$1
  shift
  "$@" >"$log" 2>&1 && return 0
  tail -n 40 "$log" >&2
  echo "library_only_test.sh: FAILED: the library alone does not $what" >&2
  exit 1
}

options=(-DCHBENCH_BUILD_TESTS=OFF -DCHBENCH_BUILD_BENCH=OFF -DCHBENCH_BUILD_LAB=OFF)
for package in Catch2 benchmark CLI11 nlohmann_json; do
  options+=("-DCMAKE_DISABLE_FIND_PACKAGE_$package=ON")
done
run configure cmake -S "$src" -B "$dir" -G Ninja "${options[@]}" "$@"
run build cmake --build "$dir"
if [[ ! -f $dir/kernels/libchbench_kernels.a ]]; then
  echo "library_only_test.sh: FAILED: no kernels/libchbench_kernels.a in $dir" >&2
  exit 1
fi
echo "library_only_test.sh: passed (the library built without Catch2, benchmark, CLI11)"
