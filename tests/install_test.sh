#!/usr/bin/env bash
# chbench as an installed library: `cmake --install` of a build into a
# temporary prefix, then the consumer (tests/consumer, the example of docs/builds.md)
# configured and built out of tree against it with find_package(chbench
# CONFIG), run, and checked; then the same program built with the flags of
# `pkg-config --cflags --libs chbench`, with every installed header.
#
# Usage: install_test.sh [OPTIONS] SOURCE_DIR BUILD_DIR
#   --version V       the project version the package must report
#   --libdir DIR      CMAKE_INSTALL_LIBDIR of the build (lib)
#   --cmake-arg ARG   passed to the consumer's configure step (the compiler,
#                     the toolchain file, the ccache launcher, flags); repeatable
#   --cxx CXX         the C++ compiler of the pkg-config build (c++)
#   --cxxflags FLAGS  extra flags for the pkg-config build (sanitizers)
#   --emulator CMD    runs the consumer (a cross build's qemu); no pkg-config build
# Exit status: 0 when every check passed, 1 otherwise, 2 on a usage error.
set -uo pipefail

version="" libdir=lib cmake_args=() cxx=c++ cxxflags="" emulator=()
while (($# > 2)); do
  case $1 in
    --version) version=$2 ;;
    --libdir) libdir=$2 ;;
    --cmake-arg) cmake_args+=("$2") ;;
    --cxx) cxx=$2 ;;
    --cxxflags) cxxflags=$2 ;;
    --emulator) read -r -a emulator <<<"$2" ;;
    *) break ;;
  esac
  shift 2
done
(($# == 2)) || {
  echo "usage: install_test.sh [OPTIONS] SOURCE_DIR BUILD_DIR (see the script's header)" >&2
  exit 2
}
readonly src=$1 build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
readonly prefix=$tmp/prefix
failed=0

fail() {
  echo "install_test.sh: FAILED: $*" >&2
  failed=1
}

# Runs a step quietly; on failure prints its output and stops the test.
step() {
  local what=$1
  shift
  if ! "$@" >"$tmp/step.log" 2>&1; then
    cat "$tmp/step.log" >&2
    echo "install_test.sh: FAILED: $what" >&2
    exit 1
  fi
}

# check_owners FILE: the consumer's output in FILE has one line per scheme of
# kernels.def and fleet size, all equal to the reference, and the owners of
# user:1 that this script knows on its own: XXH3_64bits("user:1") is
# 0x3b577afd7fed9501 (tests/test_schemes.cc), mod-N takes it modulo N, and
# jump is the paper's loop (Lamping & Veach 2014, figure 1) on it.
check_owners() {
  local out=$1 schemes lines h=0x3b577afd7fed9501 n want
  schemes=$(grep -c '^CHBENCH_SCHEME(' "$src/kernels/chbench/kernels.def")
  lines=$(grep -c ' the reference$' "$out")
  ((lines == 3 * schemes)) || fail "$out: $lines lines, expected 3 fleets x $schemes schemes"
  ! grep -q 'NOT AS' "$out" || fail "a kernel differs from its reference: $(grep 'NOT AS' "$out")"
  for n in 1 10 1000; do
    want=$((h % n))
    grep -q "^modn/[a-z_]* N=$n: user:1 on node-$want," "$out" ||
      fail "modn N=$n: expected user:1 on node-$want"
    want=$(/usr/bin/python3 -c "
key, b, j = $h, -1, 0
while j < $n:
    b, key = j, (key * 2862933555777941757 + 1) % 2**64
    j = int((b + 1) * (float(1 << 31) / float((key >> 33) + 1)))
print(b)")
    grep -q "^jump/[a-z_]* N=$n: user:1 on node-$want," "$out" ||
      fail "jump N=$n: expected user:1 on node-$want"
  done
}

step "cmake --install $build --prefix $prefix" cmake --install "$build" --prefix "$prefix"
for file in "$libdir/libchbench_kernels.a" include/chbench/registry.h include/chbench/kernels.def \
  "$libdir/cmake/chbench/chbenchConfig.cmake" "$libdir/cmake/chbench/chbenchConfigVersion.cmake" \
  "$libdir/pkgconfig/chbench.pc"; do
  [[ -f $prefix/$file ]] || fail "not installed: $file"
done
if find "$prefix/include" -name '*-inl.h' | grep -q .; then
  fail "internal Highway headers installed: $(find "$prefix/include" -name '*-inl.h')"
fi

# find_package(chbench CONFIG) must take the temporary prefix, not another copy.
step "configure tests/consumer" cmake -S "$src/tests/consumer" -B "$tmp/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" "${cmake_args[@]}"
found=$(sed -n 's/^chbench_DIR:PATH=//p' "$tmp/consumer/CMakeCache.txt")
[[ $found == "$prefix/$libdir/cmake/chbench" ]] || fail "find_package took chbench from '$found'"
step "build tests/consumer" cmake --build "$tmp/consumer"
"${emulator[@]}" "$tmp/consumer/consumer" >"$tmp/cmake.out" || fail "the consumer exited with $?"
check_owners "$tmp/cmake.out"

command -v pkg-config >/dev/null 2>&1 ||
  fail "pkg-config is not installed (scripts/install-deps.sh installs it)"
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
got=$(pkg-config --modversion chbench) || fail "pkg-config does not find chbench.pc"
[[ $got == "$version" ]] || fail "pkg-config --modversion chbench: '$got', expected '$version'"
if ((${#emulator[@]} == 0)); then
  read -r -a cflags <<<"$(pkg-config --cflags chbench) $cxxflags"
  read -r -a libs <<<"$(pkg-config --libs chbench)"
  # Every installed header in one translation unit: none needs a file left out.
  find "$prefix/include/chbench" -name '*.h' -printf '#include "chbench/%P"\n' \
    >"$tmp/all_headers.cc"
  step "compile every installed header" "$cxx" -fsyntax-only "$tmp/all_headers.cc" "${cflags[@]}"
  step "build the consumer with pkg-config's flags" \
    "$cxx" -o "$tmp/consumer-pc" "$src/tests/consumer/main.cc" "${cflags[@]}" "${libs[@]}"
  "$tmp/consumer-pc" >"$tmp/pc.out" || fail "the pkg-config consumer exited with $?"
  cmp -s "$tmp/cmake.out" "$tmp/pc.out" || fail "the pkg-config build prints other owners"
fi

((failed == 0)) && echo "install_test.sh: passed (prefix, find_package, pkg-config)"
exit "$failed"
