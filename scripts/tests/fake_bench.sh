#!/usr/bin/env bash
# A stand-in for chbench_bench, for testing scripts/run.sh without building:
# writes a JSON file where --benchmark_out= points, prints a console line to
# stdout and a progress line to stderr, and exits with a chosen status.
#
# Environment:
#   FAKE_BENCH_JSON  file to copy as the output (default: fixtures/small_bench.json)
#   FAKE_BENCH_RETRY_JSON  file to copy instead when run.sh re-times noisy
#                    configurations (a --benchmark_filter=^(...)$ among the
#                    arguments); the arguments of each such call are appended
#                    to FAKE_BENCH_RETRY_ARGS, if set, one call per line
#   FAKE_BENCH_EXIT  exit status (default 0); the JSON is written either way
#   FAKE_BENCH_ARGS  if set, the arguments are written there, one per line
#   FAKE_BENCH_SLEEP seconds to wait before exiting (default 0)
#   FAKE_BENCH_PIDFILE  if set, the process id is written there
#   FAKE_BENCH_LIST_EXIT  with --list (run.sh's check of the flags): exit with
#                    this status (default 0) after printing FAKE_BENCH_LIST_ERROR
#                    to stderr, and do nothing else
set -euo pipefail

for arg in "$@"; do
  if [[ $arg == --list ]]; then
    [[ -z ${FAKE_BENCH_LIST_ERROR:-} ]] || echo "$FAKE_BENCH_LIST_ERROR" >&2
    exit "${FAKE_BENCH_LIST_EXIT:-0}"
  fi
done
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
json=${FAKE_BENCH_JSON:-$here/fixtures/small_bench.json}
if [[ -n ${FAKE_BENCH_PIDFILE:-} ]]; then
  echo $$ >"$FAKE_BENCH_PIDFILE"
fi
if [[ -n ${FAKE_BENCH_ARGS:-} ]]; then
  printf '%s\n' "$@" >"$FAKE_BENCH_ARGS"
fi
# Google Benchmark writes where the last --benchmark_out= points.
out=""
for arg in "$@"; do
  case $arg in
    --benchmark_out=*) out=${arg#--benchmark_out=} ;;
    --benchmark_filter=^\(*)
      json=${FAKE_BENCH_RETRY_JSON:-$json}
      if [[ -n ${FAKE_BENCH_RETRY_ARGS:-} ]]; then
        printf '%s\n' "$*" >>"$FAKE_BENCH_RETRY_ARGS"
      fi
      ;;
  esac
done
[[ -z $out ]] || cp -- "$json" "$out"
echo "fake_bench: verifying kernels against the reference" >&2
# Google Benchmark's context block, on stderr as its console reporter prints it.
printf '%s\n' "2026-12-03T11:30:53+00:00" "Running $0" "Run on (2 X 2596.14 MHz CPU s)" \
  "CPU Caches:" "  L1 Data 32 KiB (x2)" "Load Average: 0.10, 0.20, 0.30" \
  "chbench_cpu_model: AMD EPYC" \
  "***WARNING*** Library was built as DEBUG. Timings may be affected." >&2
# Coloured, as Google Benchmark prints it when TERM names a colour terminal.
printf '\033[0;32m%s\033[m\033[0;33m  %s\033[m\n' \
  "tokens/ring/eytzinger/N:1000/V:100/K:300000/threads:1/real_time" "3.9 ms  3.9 ms  180"
# Killed while it waits, it takes its sleep with it, as a real bench dies whole.
# The trap is set before the sleep starts: a SIGTERM between the two would
# otherwise leave the sleep holding run.sh's console pipe open for its length.
trap 'kill "${!:-}" 2>/dev/null; exit 143' TERM
sleep "${FAKE_BENCH_SLEEP:-0}" &
wait $!
exit "${FAKE_BENCH_EXIT:-0}"
