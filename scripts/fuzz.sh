#!/usr/bin/env bash
# Runs the differential fuzzer (tests/fuzz/differential.cc): every kernel of
# every scheme against its reference, under libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer. See usage() or `scripts/fuzz.sh --help`.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/fuzz.sh [--time SECONDS] [--jobs N] [--work DIR] [--fresh]
                       [--regress] [--merge] [--fuzzer PATH] [--help] [-- FLAGS...]

Builds the `fuzz` preset (Clang, libFuzzer, ASan + UBSan; build/fuzz/) and runs
the differential harness: inputs decode into node sets, key hashes and Highway
targets, every kernel of the registry is compared with its scheme's reference,
and the first differing owner, out-of-bounds access or undefined behaviour
stops the run with the input saved.

Options:
  --time SECONDS  how long to fuzz, wall clock (default 600)
  --jobs N        fuzzing processes (libFuzzer -fork=N; default 1)
  --work DIR      the growing corpus (default build/fuzz/corpus); the committed
                  seeds in tests/fuzz/corpus/ are read, never written
  --fresh         empty the work corpus first
  --regress       run every committed seed once, then exit (no fuzzing)
  --merge         add the work corpus's inputs that reach code the seeds do
                  not to the committed seeds (libFuzzer -merge=1, counting
                  edges only, which keeps the seeds few), then exit
  --fuzzer PATH   use this harness binary instead of building one
  --help          this text
  -- FLAGS        passed to libFuzzer unchanged, e.g. -- -max_len=4096

An input that failed is written to build/fuzz/tests/fuzz/artifacts/ (crash-*,
leak-*, timeout-*); reproduce it with `build/fuzz/tests/fuzz/chbench_fuzz FILE`.
Fuzzing is CPU-bound: on a shared machine run it as `nice -n 19 scripts/fuzz.sh`.

Exit status: 0 when the time ran out with nothing found; 1 when the harness
found a mismatch or crash (libFuzzer's message says which input); 2 on a
usage error or when Clang is missing.
EOF
}

die() {
  echo "fuzz.sh: error: $1" >&2
  exit "${2:-2}"
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
seeds="$repo/tests/fuzz/corpus"

seconds=600
jobs=1
work=""
fresh=0
mode=fuzz
fuzzer=""
extra=()
while (($# > 0)); do
  case $1 in
    --time | --jobs | --work | --fuzzer)
      (($# >= 2)) || die "$1 needs a value (see --help)"
      case $1 in
        --time) seconds=$2 ;;
        --jobs) jobs=$2 ;;
        --work) work=$2 ;;
        --fuzzer) fuzzer=$2 ;;
      esac
      shift
      ;;
    --fresh) fresh=1 ;;
    --regress) mode=regress ;;
    --merge) mode=merge ;;
    -h | --help)
      usage
      exit 0
      ;;
    --)
      shift
      extra=("$@")
      break
      ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done
[[ $seconds =~ ^[1-9][0-9]{0,6}$ ]] || die "--time takes 1 to 9999999 seconds, not '$seconds'"
[[ $jobs =~ ^[1-9][0-9]{0,2}$ ]] || die "--jobs takes a positive number below 1000, not '$jobs'"

build=""
if [[ -z $fuzzer ]]; then
  build=1
  fuzzer="$repo/build/fuzz/tests/fuzz/chbench_fuzz"
elif [[ ! -x $fuzzer || -d $fuzzer ]]; then
  die "fuzzer binary '$fuzzer' is missing or not executable"
fi
# Folders first, so that a bad --work fails before minutes of building.
work=${work:-$repo/build/fuzz/corpus}
artifacts="$(dirname "$fuzzer")/artifacts"
for dir in "$work" "$artifacts"; do
  if ! mkdir -p -- "$dir" 2>/dev/null || [[ ! -w $dir ]]; then
    die "cannot create or write the folder '$dir'"
  fi
done
if [[ -n $build ]]; then
  command -v clang++ >/dev/null 2>&1 || die "clang++ not found: run scripts/install-deps.sh"
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz
fi

# libFuzzer exits 77 on a crash and 70 on a timeout by default; the status
# this script documents is 1 for either.
exits=(-error_exitcode=1 -timeout_exitcode=1)
case $mode in
  regress)
    # Each seed once: libFuzzer runs the files it is given and exits.
    seed_files=("$seeds"/*)
    [[ -e ${seed_files[0]} ]] || die "no seeds in $seeds"
    exec "$fuzzer" "${exits[@]}" "${extra[@]}" "${seed_files[@]}"
    ;;
  merge)
    exec "$fuzzer" -merge=1 -use_counters=0 "${extra[@]}" "$seeds" "$work"
    ;;
esac

if ((fresh)); then
  find "$work" -mindepth 1 -delete
fi
args=(-max_total_time="$seconds" -artifact_prefix="$artifacts/" -print_final_stats=1 "${exits[@]}")
((jobs == 1)) || args+=(-fork="$jobs")
echo "fuzz.sh: fuzzing for $seconds s with $jobs process(es); corpus $work, seeds $seeds" >&2
# The first folder receives new inputs; the seeds are only read.
exec "$fuzzer" "${args[@]}" "${extra[@]}" "$work" "$seeds"
