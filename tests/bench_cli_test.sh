#!/usr/bin/env bash
# Table-driven checks of chbench_bench's command line: bad input gets one clear
# message and exit status 2, an ownership mismatch fails the run with status 1,
# and a small real run writes JSON that records the machine and build.
# Usage: bench_cli_test.sh PATH/TO/chbench_bench
set -u
bench=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# expect STATUS PATTERN ARGS...: the run exits STATUS and stderr matches PATTERN.
expect() {
  local want=$1 pattern=$2
  shift 2
  "$bench" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [[ $got -eq $want ]] && grep -Eq -- "$pattern" "$tmp/err"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: chbench_bench $* -> exit $got (want $want), stderr:" >&2
    sed 's/^/    /' "$tmp/err" >&2
  fi
}

expect 2 "unknown option '--bogus'" --bogus
expect 2 "unknown option '--benchmark_bogus=1'" --benchmark_bogus=1
expect 2 "unknown scheme 'foo'" --schemes foo
expect 2 "unknown kernel 'nope' for scheme ring" --kernels ring/nope
expect 2 "must be written scheme/kernel" --kernels eytzinger
expect 2 "unknown family 'bogus'" --families bogus
expect 2 "N = 0" --nodes 0
expect 2 "V = 0" --vnodes 0
expect 2 "K = 0" --keys 0
expect 2 "thread count|--threads must be at least 1" --threads 0
expect 2 "Could not convert" --nodes -3
expect 2 "exceeds the 2\^32 - 1" --schemes ring --nodes 4000000000 --vnodes 4000
expect 2 "GiB of memory is available" --schemes ring --nodes 100000000 --vnodes 40
expect 2 "GiB of memory is available" --keys 100000000000
expect 2 "quick|full|sweep" --sweep medium
expect 2 "not in range" --threads 100000
expect 2 "not in range" --keys -1
expect 2 "bad value in '--benchmark_format=xml'" --benchmark_format=xml
expect 2 "bad value in '--benchmark_time_unit=parsec'" --benchmark_time_unit=parsec
expect 2 "unknown family 'foo' \(known: .*targets, profiles\)" --families foo
expect 2 "--kernels was given an empty list" --kernels ""
expect 2 "--families was given an empty list" --families ,
expect 1 "ownership mismatch in custom/jump/scalar" --kernels jump/scalar --nodes 7 --keys 1000 \
  --repetitions 1 --min-time 0 --corrupt-one-owner

expect 2 "--in-flight: Value 0 not in range" --in-flight 0
expect 2 "--in-flight for ring/stree must be 1 to 256" --kernels ring/stree --in-flight 300
expect 2 "--cluster-window: Value 64 not in range" --cluster-window 64
expect 1 "ownership mismatch in custom/ring/bucketed/N:40/V:30/K:1000/threads:1/inflight:3/window:20" \
  --kernels ring/bucketed --nodes 40 --vnodes 30 --keys 1000 --in-flight 3 --cluster-window 20 \
  --repetitions 1 --min-time 0 --corrupt-one-owner
# The latency family and the stream baseline, on a small ring, checked and timed.
expect 0 "4 configurations" --families latency --kernels ring/stree,ring/bucketed,ring/eytzinger,ring/stream \
  --benchmark_filter='N:10/V:1/' --repetitions 1 --min-time 0
expect 2 "no configuration matches --benchmark_filter=zzz" --benchmark_filter=zzz
expect 2 "not a valid regular expression" '--benchmark_filter=(('
expect 0 "configurations" --families latency,clustered --kernels ring/bucketed,ring/stream \
  --benchmark_filter='N:655/' --repetitions 1 --min-time 0

# --sweep may be given twice (run.sh passes one): the last wins.
expect 0 "1 configurations" --sweep full --sweep quick --kernels jump/scalar --nodes 5 --keys 100 \
  --repetitions 1 --min-time 0

# A real run: every kernel of every scheme, tiny, into a JSON file.
expect 0 "configurations" --nodes 13 --vnodes 3 --keys 2000 --repetitions 2 --min-time 0 \
  --benchmark_out="$tmp/run.json" --benchmark_out_format=json
# has_fields FILE FIELD...: every FIELD occurs in FILE.
has_fields() {
  local file=$1 field
  shift
  for field in "$@"; do
    if grep -q "$field" "$file"; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAIL: $file has no $field" >&2
    fi
  done
}
has_fields "$tmp/run.json" chbench_commit chbench_cpu_model chbench_hwy_target chbench_build_type \
  ns_per_key threads_ran real_time_cv build_ms bytes_per_token

# The profiles family: ketama through our kernels and through libmemcached, on
# the same keys, each checked against the profile's reference before timing.
expect 0 "configurations" --families profiles --repetitions 1 --min-time 0 \
  --benchmark_filter='ketama/.*/N:10/' --benchmark_out="$tmp/profiles.json" \
  --benchmark_out_format=json
has_fields "$tmp/profiles.json" chbench_libmemcached_version profiles/ketama/libmemcached/N:10 \
  profiles/ketama/eytzinger/N:10

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
