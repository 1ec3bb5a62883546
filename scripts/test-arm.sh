#!/usr/bin/env bash
# The aarch64 check: cross-build with the aarch64 preset and run its
# per-target tests under qemu-aarch64, once per emulated CPU. See usage().
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/test-arm.sh [--cpus LIST] [--jobs N] [--times FILE] [--help]

Cross-compiles chbench's library and tests for aarch64 Linux (CMake preset
aarch64: Debian's g++-aarch64-linux-gnu and the arm64 builds of the
libraries, installed by install-deps.sh --toolchain aarch64 when missing),
then runs the per-target tests (the test cases tagged [targets]: every kernel
against its reference on each Highway target) under qemu-aarch64 once per
emulated CPU, each with its test preset and the targets it adds:

  neon     aarch64-neon     QEMU_CPU=cortex-a72      NEON
  sve128   aarch64-sve128   QEMU_CPU=max,sve128=on   SVE2_128, SVE2, SVE
  sve256   aarch64-sve256   QEMU_CPU=max,sve256=on   SVE_256
  sve512   aarch64-sve512   QEMU_CPU=max,sve512=on   SVE2, SVE (512-bit)

An SVE CPU runs NEON too; the neon run covers it, so the SVE runs skip it,
and at 256 bits only SVE_256 runs, the target of a 256-bit SVE CPU
(CHBENCH_TEST_TARGETS in CMakePresets.json). The tests take emulation-sized
budgets (tests/support.h, kEmulated); everything that does not depend on the
target runs natively (scripts/test.sh). Before each run the script prints
the Highway targets the emulated CPU supports; at the end, a summary with
the targets, the result and the time of every configuration.

Options:
  --cpus LIST  comma list of the configurations above (default: neon,sve128,sve256)
  --jobs N     parallel build jobs and parallel tests (default: 2)
  --times FILE also write the build and each configuration's time to FILE,
               one tab-separated line each: step, build, tests, result
               (scripts/test.sh's closing table)
  --help       this text

Exit status: 0 when every configuration passed; 1 when the build or a test
failed; 2 on a usage error.
EOF
}

die() {
  echo "test-arm.sh: error: $1" >&2
  exit "${2:-1}"
}

cpus=neon,sve128,sve256
jobs=2
times=/dev/null
while (($# > 0)); do
  arg=$1
  shift
  case $arg in
    -h | --help) usage && exit 0 ;;
    --cpus=*) cpus=${arg#*=} ;;
    --jobs=*) jobs=${arg#*=} ;;
    --times=*) times=${arg#*=} ;;
    --cpus | --jobs | --times)
      (($# >= 1)) || die "$arg needs a value (see --help)" 2
      case $arg in
        --cpus) cpus=$1 ;;
        --jobs) jobs=$1 ;;
        *) times=$1 ;;
      esac
      shift
      ;;
    *) die "unknown option '$arg' (see --help)" 2 ;;
  esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs takes a positive number, not '$jobs'" 2
IFS=, read -r -a configs <<<"$cpus"
((${#configs[@]} > 0)) || die "--cpus needs at least one configuration" 2
for cpu in "${configs[@]}"; do
  case $cpu in
    neon | sve128 | sve256 | sve512) ;;
    *) die "unknown CPU configuration '$cpu' (known: neon sve128 sve256 sve512)" 2 ;;
  esac
done

# The emulated CPU of each test preset, as CMakePresets.json sets QEMU_CPU.
qemu_cpu() {
  case $1 in
    neon) echo cortex-a72 ;;
    *) echo "max,${1}=on" ;;
  esac
}

cd "$(dirname "${BASH_SOURCE[0]}")/.."
started=$SECONDS
bash scripts/install-deps.sh --toolchain aarch64
# shellcheck source=SCRIPTDIR/ccache-env.sh
source scripts/ccache-env.sh
echo "test-arm.sh: building the aarch64 preset" >&2
: >"$times"
cmake --preset aarch64 >/dev/null
if ! cmake --build --preset aarch64 --parallel "$jobs"; then
  printf 'aarch64 build\t%d s\t-\tbuild FAILED\n' $((SECONDS - started)) >>"$times"
  exit 1
fi
build_seconds=$((SECONDS - started))
printf 'aarch64 build\t%d s\t-\tpassed\n' "$build_seconds" >>"$times"
print_targets=build/aarch64/tests/chbench_targets
qemu=$(sed -n 's/^CMAKE_CROSSCOMPILING_EMULATOR:[A-Z]*=//p' build/aarch64/CMakeCache.txt)
if [[ -z $qemu ]]; then
  qemu=$(sed -n 's/^CHBENCH_QEMU_AARCH64:[A-Z]*=//p' build/aarch64/CMakeCache.txt)
fi
[[ -x $qemu ]] || die "qemu-aarch64 not found (bash scripts/install-deps.sh --toolchain aarch64)"

summary=()
failed=0
for cpu in "${configs[@]}"; do
  targets=$(QEMU_CPU=$(qemu_cpu "$cpu") "$qemu" "$print_targets" |
    sed -n 's/^Highway targets: //p')
  echo "test-arm.sh: $cpu (QEMU_CPU=$(qemu_cpu "$cpu")): Highway targets: $targets" >&2
  t0=$SECONDS
  status=passed
  ctest --preset "aarch64-$cpu" --parallel "$jobs" || status=FAILED
  [[ $status == passed ]] || failed=1
  printf 'qemu %s\t-\t%d s\t%s\n' "$cpu" $((SECONDS - t0)) "$status" >>"$times"
  summary+=("$(printf '%-7s %-22s %-7s %4d s   %s' "$cpu" "$(qemu_cpu "$cpu")" "$status" \
    $((SECONDS - t0)) "$targets")")
done

echo
echo "test-arm.sh: aarch64 under $("$qemu" --version | head -n 1); build ${build_seconds} s"
printf '%-7s %-22s %-7s %6s   %s\n' cpu QEMU_CPU ctest time "Highway targets"
printf '%s\n' "${summary[@]}"
echo "total $((SECONDS - started)) s"
exit "$failed"
