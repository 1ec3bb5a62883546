#!/usr/bin/env bash
# Does the bench catch interference while it happens? Runs one short bench
# selection twice, once on the quiet machine and once while a memory hammer
# (random reads and writes over a large buffer) runs on the other core for a
# bounded time, and prints how many configurations each run flagged noisy.
# See usage() or `scripts/noise-check.sh --help`. Run it on an otherwise idle
# machine: its two flagged counts say whether the noise canary catches the hammer.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/noise-check.sh [--bench PATH] [--out DIR] [--hammer-mib M]
                              [--hammer-seconds S] [--tiny] [--help] [-- BENCH_FLAGS...]

Runs the bench twice on the same selection (default: --families tokens, the
quick sweep's points, about half a minute each):
  1. quiet:     nothing else running;
  2. hammered:  a hammer process doing random 8-byte reads and writes over M MiB
                (default 1024) on the other core, started just before the
                bench and killed when the bench ends, or after S seconds
                (default 600), whichever comes first.
With two or more CPUs the bench is pinned to CPU 0 and the hammer to CPU 1
(taskset). Then it prints, per run, the configurations flagged noisy
(counter `noisy`), per family, and the median canary ratio, and keeps both
JSON files in the output folder.

Expected on a quiet machine: almost none flagged in the quiet run, most of
the hammered ones flagged. The re-timing of flagged configurations is
run.sh's: scripts/run.sh --retry-noisy 2 -- --families tokens, with the
hammer of DIR/hammer.c started by hand beside it.

Options:
  --bench PATH      the bench binary (default: $CHBENCH_BENCH, else
                    build/release/bench/chbench_bench of this checkout)
  --out DIR         where quiet.json, hammered.json and hammer.c go (default:
                    a new folder under /tmp, printed)
  --hammer-mib M    the hammer's buffer, 1 to 65536 MiB (default 1024)
  --hammer-seconds S  the hammer's longest life, 1 to 3600 (default 600)
  --tiny            a smoke run: one tiny configuration per kernel of family
                    tokens, one repetition, a 64 MiB hammer (its counts mean
                    nothing)
  --help            this text
  -- FLAGS          the bench selection instead of --families tokens (e.g.
                    -- --families tokens,targets)

Exit status: 0 when both runs finished; 2 on a usage error; 1 when the bench
or the hammer could not run.
EOF
}

die() {
  echo "noise-check.sh: error: $1" >&2
  exit "${2:-1}"
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
python=/usr/bin/python3
bench=${CHBENCH_BENCH:-$repo/build/release/bench/chbench_bench}
out=""
hammer_mib=1024
hammer_seconds=600
tiny=0
selection=(--families tokens)
while (($# > 0)); do
  case $1 in
    --bench)
      (($# >= 2)) || die "--bench needs a path (see --help)" 2
      bench=$2
      shift
      ;;
    --out)
      (($# >= 2)) || die "--out needs a folder (see --help)" 2
      out=$2
      shift
      ;;
    --hammer-mib)
      (($# >= 2)) || die "--hammer-mib needs a number (see --help)" 2
      hammer_mib=$2
      shift
      ;;
    --hammer-seconds)
      (($# >= 2)) || die "--hammer-seconds needs a number (see --help)" 2
      hammer_seconds=$2
      shift
      ;;
    --tiny) tiny=1 ;;
    -h | --help)
      usage
      exit 0
      ;;
    --)
      shift
      selection=("$@")
      break
      ;;
    *) die "unknown option '$1' (see --help)" 2 ;;
  esac
  shift
done
if ! [[ $hammer_mib =~ ^[1-9][0-9]{0,4}$ ]] || ((hammer_mib > 65536)); then
  die "--hammer-mib takes 1 to 65536, not '$hammer_mib'" 2
fi
if ! [[ $hammer_seconds =~ ^[1-9][0-9]{0,3}$ ]] || ((hammer_seconds > 3600)); then
  die "--hammer-seconds takes 1 to 3600, not '$hammer_seconds'" 2
fi
[[ -x $bench ]] || die "bench binary '$bench' is missing or not executable (build it: \
cmake --preset release && cmake --build --preset release)"
command -v cc >/dev/null 2>&1 || die "no C compiler (cc) for the hammer"
if ((tiny)); then
  selection=(--families tokens --benchmark_filter='N:10/V:1/' --rounds 1 --min-time 0)
  hammer_mib=64
fi
if [[ -z $out ]]; then
  out=$(mktemp -d /tmp/chbench-noise-check.XXXXXX)
else
  mkdir -p -- "$out" || die "cannot create '$out'" 2
fi

# Pinning: the bench on CPU 0, the hammer on CPU 1, when there are two.
bench_pin=() hammer_pin=()
if command -v taskset >/dev/null 2>&1 && (($(nproc) >= 2)); then
  bench_pin=(taskset -c 0)
  hammer_pin=(taskset -c 1)
fi

# The hammer: random 8-byte read-modify-writes over the buffer (every page
# touched first), until its deadline; the script kills it earlier.
cat >"$out/hammer.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const size_t words = (size_t)strtoull(argv[1], NULL, 10) * (1u << 20) / 8;
  const double seconds = strtod(argv[2], NULL);
  uint64_t* buf = malloc(words * 8);
  if (!buf) return 1;
  for (size_t i = 0; i < words; i += 512) buf[i] = i;
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  uint64_t x = 88172645463325252ull, sum = 0;
  for (;;) {
    for (int k = 0; k < 1 << 20; ++k) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      uint64_t* p = &buf[x % words];
      sum += *p;
      *p = sum;
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
    if ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 > seconds) break;
  }
  printf("%llu\n", (unsigned long long)(sum & 1));
  return 0;
}
C
cc -O2 -o "$out/hammer" "$out/hammer.c" || die "could not compile the hammer ($out/hammer.c)"

hammer_pid=""
stop_hammer() {
  if [[ -n $hammer_pid ]]; then
    kill "$hammer_pid" 2>/dev/null || true
    wait "$hammer_pid" 2>/dev/null || true
    hammer_pid=""
  fi
}
trap stop_hammer EXIT
trap 'stop_hammer; exit 130' INT
trap 'stop_hammer; exit 143' TERM

run() {
  local name=$1 status=0
  echo "noise-check.sh: $name run: ${bench_pin[*]} $bench ${selection[*]}" >&2
  "${bench_pin[@]}" "$bench" "${selection[@]}" --benchmark_out="$out/$name.json" \
    --benchmark_out_format=json >"$out/$name.txt" 2>"$out/$name.err" || status=$?
  ((status == 0)) || die "the $name bench run failed with exit status $status ($out/$name.err)"
}

run quiet
"${hammer_pin[@]}" "$out/hammer" "$hammer_mib" "$hammer_seconds" >/dev/null &
hammer_pid=$!
sleep 1 # its buffer touched, its loop running
kill -0 "$hammer_pid" 2>/dev/null || die "the hammer did not start"
run hammered
stop_hammer

"$python" - "$out/quiet.json" "$out/hammered.json" "$hammer_mib" <<'PY'
import json, statistics, sys

def flagged(path):
    runs = {}
    # Every repetition's row, or (a run timed in rounds: aggregates only) the
    # median row, whose noise counters are its group's.
    entries = json.load(open(path))["benchmarks"]
    kept = [e for e in entries if e.get("run_type") == "iteration"] or [
        e for e in entries if e.get("aggregate_name") == "median"]
    for e in kept:
        runs.setdefault(e["run_name"], []).append(e)
    out = {}
    for name, reps in runs.items():
        family = name.split("/")[0]
        total, noisy, ratios = out.setdefault(family, [0, 0, []])
        out[family][0] += 1
        out[family][1] += any(r.get("noisy", 0) > 0 for r in reps)
        ratios.append(max(r.get("canary_ratio", 1.0) for r in reps))
    return out

for label, path in (("quiet", sys.argv[1]), (f"hammered ({sys.argv[3]} MiB)", sys.argv[2])):
    by_family = flagged(path)
    total = sum(v[0] for v in by_family.values())
    noisy = sum(v[1] for v in by_family.values())
    ratios = [r for v in by_family.values() for r in v[2]]
    print(f"{label}: {noisy} of {total} configurations flagged noisy; median canary ratio "
          f"{statistics.median(ratios):.2f}, max {max(ratios):.2f}")
    for family, (t, n, r) in by_family.items():
        print(f"  {family}: {n} of {t}")
print(f"files: {sys.argv[1].rsplit('/', 1)[0]}")
PY
