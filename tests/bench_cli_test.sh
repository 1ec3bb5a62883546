#!/usr/bin/env bash
# Table-driven checks of chbench_bench's command line: bad input gets one clear
# message and exit status 2, an ownership mismatch fails the run with status 1,
# a small real run writes JSON that records the machine and build, and an
# emulated CPU is refused (exit status 3) unless --allow-emulated.
# Usage: bench_cli_test.sh [EMULATOR [ARGS...]] PATH/TO/chbench_bench
#   (a cross build passes its emulator, e.g. qemu-aarch64, before the bench;
#   the runs that time something then need --allow-emulated)
set -u
(($# >= 1)) || {
  echo "usage: bench_cli_test.sh [EMULATOR [ARGS...]] PATH/TO/chbench_bench" >&2
  exit 2
}
bench=("$@")
run_flags=()
((${#bench[@]} == 1)) || run_flags=(--allow-emulated)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# expect STATUS PATTERN ARGS...: the run exits STATUS and stderr matches
# PATTERN. Bad input (STATUS 2) must also print exactly one stderr line,
# "chbench_bench: error: ...", nothing on stdout, and write no file: the bench
# runs in an empty folder, where the cases point --benchmark_out.
mkdir "$tmp/work"
expect() {
  local want=$1 pattern=$2 problem=""
  shift 2
  (cd "$tmp/work" && "${bench[@]}" "$@") >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [[ $got -eq $want ]] || problem="exit $got (want $want)"
  grep -Eq -- "$pattern" "$tmp/err" || problem+=" stderr lacks '$pattern'"
  if [[ $want -eq 2 ]]; then
    [[ $(wc -l <"$tmp/err") -eq 1 ]] || problem+=" stderr is not one line"
    grep -q '^chbench_bench: error: ' "$tmp/err" || problem+=" no 'chbench_bench: error:' prefix"
    [[ ! -s $tmp/out ]] || problem+=" wrote to stdout"
    [[ -z $(ls -A "$tmp/work") ]] || problem+=" wrote files: $(ls -A "$tmp/work")"
  fi
  rm -rf "${tmp:?}/work/"* "$tmp/work/".[!.]* 2>/dev/null
  if [[ -z $problem ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: chbench_bench $* -> $problem; stderr:" >&2
    sed 's/^/    /' "$tmp/err" >&2
  fi
}

# has FILE REGEX WHAT: one check that the file has a line matching REGEX.
has() {
  if grep -Eq -- "$2" "$1"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $3 (no match for '$2' in $1)" >&2
  fi
}

# lacks FILE REGEX WHAT: one check that no line of the file matches REGEX.
lacks() {
  if grep -Eq -- "$2" "$1"; then
    failed=$((failed + 1))
    echo "FAIL: $3 (a match for '$2' in $1)" >&2
  else
    passed=$((passed + 1))
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
# A ring past 2^32 - 1 tokens: its node names alone would not fit here, and
# memory is checked before the registry's limits (which validate every name).
expect 2 "would need about .* GiB, more than 90% of the" --schemes ring --nodes 4000000000 --vnodes 4000
expect 2 "GiB of memory available" --schemes ring --nodes 10000000 --vnodes 400
expect 2 "GiB of memory available" --keys 100000000000
expect 2 "quick|full|sweep" --sweep medium
expect 2 "not in range" --threads 100000
expect 2 "not in range" --keys -1
expect 2 "bad value in '--benchmark_format=xml'" --benchmark_format=xml
expect 2 "bad value in '--benchmark_time_unit=parsec'" --benchmark_time_unit=parsec
expect 2 "unknown family 'foo' \(known: .*targets, profiles, weighted\)" --families foo
expect 2 "--kernels was given an empty list" --kernels ""
expect 2 "--families was given an empty list" --families ,
# Negative, zero and enormous counts.
expect 2 "Could not convert: --nodes = 99999999999" --nodes 99999999999
expect 2 "Could not convert: --vnodes = -1" --vnodes -1
expect 2 "Could not convert: --vnodes = 99999999999" --vnodes 99999999999
expect 2 "--threads: Value -1 not in range" --threads -1
expect 2 "--max-threads: Value 0 not in range" --max-threads 0
expect 2 "--max-threads: Value 99999 not in range" --max-threads 99999
expect 2 "--rounds: Value 0 not in range" --rounds 0
expect 2 "--rounds: Value -2 not in range" --repetitions -2
expect 2 "--rounds: Value 1001 not in range" --rounds 1001
expect 2 "--min-time: Value -1 not in range" --min-time -1
expect 2 "--visits: Value 0 not in range" --visits 0
expect 2 "--visits: Value 11 not in range" --visits 11
# Google Benchmark's own timing does not apply: the rounds replace it.
expect 2 "--benchmark_repetitions does not apply: .* use --rounds" --benchmark_repetitions=3
expect 2 "--benchmark_min_time does not apply: .* use --min-time" --benchmark_min_time=0.5
expect 2 "--benchmark_enable_random_interleaving does not apply" \
  --benchmark_enable_random_interleaving=true
expect 2 "--benchmark_enable_random_interleaving does not apply" \
  --benchmark_enable_random_interleaving
expect 2 "--benchmark_list_tests does not apply: .* use --list" --benchmark_list_tests
# The noise canary's margin and an earlier run's baseline.
expect 2 "--noise-margin: Value 0 not in range" --noise-margin 0
expect 2 "--noise-margin: Value -0.1 not in range" --noise-margin -0.1
expect 2 "--noise-margin: Value 11 not in range" --noise-margin 11
expect 2 "--noise-margin: Value lots not in range" --noise-margin lots
expect 2 "--noise-margin" --noise-margin
expect 2 "--canary-baseline takes COMPUTE_NS,MEMORY_NS .* not 'fast'" --canary-baseline fast
expect 2 "--canary-baseline takes COMPUTE_NS,MEMORY_NS .* not '1000'" --canary-baseline 1000
expect 2 "--canary-baseline takes COMPUTE_NS,MEMORY_NS .* not '1000,'" --canary-baseline 1000,
expect 2 "--canary-baseline takes COMPUTE_NS,MEMORY_NS .* not '0,5'" --canary-baseline 0,5
expect 2 "--canary-baseline takes COMPUTE_NS,MEMORY_NS .* not '1,2,3'" --canary-baseline 1,2,3
# Sweeps and configurations that need more memory than the machine has:
# refused before anything is allocated.
expect 2 "would need about .* GiB, more than 90% of the" --schemes ring --nodes 4294967295 --vnodes 1
expect 2 "would need about .* GiB, more than 90% of the" --kernels hrw/scalar --nodes 4294967295 --keys 10
expect 2 "would need about .* GiB, more than 90% of the" --sweep full --keys 1000000000000
# A custom run times its kernels at one configuration: a family does not apply.
expect 2 "--families selects the sweep's families; a custom run" --families weighted --nodes 100
# A results file that cannot be written (as root too: a path under a regular
# file, /proc, a folder): refused before the sweep, not after it.
printf 'not a folder\n' >"$tmp/regular"
expect 2 "cannot write the results file .*: Not a directory" \
  --benchmark_out="$tmp/regular/run.json" --kernels jump/scalar --nodes 3 --keys 10
expect 2 "cannot write the results file" --benchmark_out=/proc/chbench.json --kernels jump/scalar
expect 2 "is a folder, not a file" --benchmark_out=. --kernels jump/scalar
expect 2 "needs a file name" --benchmark_out= --kernels jump/scalar
expect 2 "unknown scheme 'ring ' \(known" --schemes "ring ,hrw"

expect 1 "ownership mismatch in custom/jump/scalar" --kernels jump/scalar --nodes 7 --keys 1000 \
  --rounds 1 --min-time 0 --corrupt-one-owner "${run_flags[@]}"

expect 2 "--in-flight: Value 0 not in range" --in-flight 0
expect 2 "--in-flight for ring/stree must be 1 to 256 \(its lockstep group\)" --kernels ring/stree --in-flight 300
# A kernel named with --kernels that has no knob is refused; with --schemes
# the knob goes to the kernels that have one.
expect 2 "--in-flight: ring/eytzinger has no knob" --kernels ring/bucketed,ring/eytzinger --in-flight 4
expect 2 "--in-flight: jump/scalar has no knob" --kernels jump/scalar --in-flight 1
expect 2 "--cluster-window: Value 64 not in range" --cluster-window 64
expect 1 "ownership mismatch in custom/ring/bucketed/N:40/V:30/K:1000/threads:1/inflight:3/window:20" \
  --kernels ring/bucketed --nodes 40 --vnodes 30 --keys 1000 --in-flight 3 --cluster-window 20 \
  --rounds 1 --min-time 0 --corrupt-one-owner "${run_flags[@]}"
# The latency family and the stream baseline, on a small ring, checked and timed.
expect 0 "4 configurations" --families latency --kernels ring/stree,ring/bucketed,ring/eytzinger,ring/stream \
  --benchmark_filter='N:10/V:1/' --rounds 1 --min-time 0 "${run_flags[@]}"
# The random-read floor beside the ring (family tokens) and the compute floor
# beside jump's kernels (family dense), timed, never checked.
expect 0 "3 configurations" --families tokens --kernels ring/bucketed,ring/stream,ring/random_read \
  --benchmark_filter='N:10/V:1/' --rounds 1 --min-time 0 "${run_flags[@]}"
expect 0 "2 configurations" --families dense --kernels jump/simd,modn/compute \
  --benchmark_filter='N:1000/' --rounds 1 --min-time 0 "${run_flags[@]}"
expect 2 "no configuration matches --benchmark_filter=zzz" --benchmark_filter=zzz
expect 2 "not a valid regular expression" '--benchmark_filter=(('
expect 0 "configurations?," --families latency,clustered --kernels ring/bucketed,ring/stream \
  --benchmark_filter='N:655/' --rounds 1 --min-time 0 "${run_flags[@]}"

# Removals (family removals, --removed-fraction): the fleet after a share of
# its nodes left, each table checked against its scheme's reference over the
# same fleet before it is timed, and rebuilt once with one more removal and
# once with one re-add (remove_us, readd_us). A scheme whose removal kind
# cannot honour the order is refused when named (jump: LIFO only).
expect 0 "2 configurations," --kernels ring/eytzinger,hrw/scalar --nodes 60 --vnodes 10 --keys 1000 \
  --removed-fraction 0.5 --rounds 1 --min-time 0 --benchmark_out="$tmp/removed.json" \
  --benchmark_out_format=json "${run_flags[@]}"
has "$tmp/removed.json" '"name": "custom/ring/eytzinger/N:60/V:10/K:1000/threads:1/removed:50/order:random/' \
  "a removals run names the share removed and the order"
has "$tmp/removed.json" '"name": "custom/hrw/scalar/N:60/V:10/K:1000/threads:1/removed:50/order:random/' \
  "rendezvous runs after removals"
for field in remove_us readd_us; do
  has "$tmp/removed.json" "\"$field\": [0-9]" "a removals run records $field"
done
has "$tmp/removed.json" '"survivors": 3\.0+e\+01' "a removals run records the nodes left"
# Two visits of four rounds: the tables built again for the second, which
# times its two rounds after the first's; the change builds of the first stay
# the record, and each member has its four rounds.
expect 0 "in 2 visits" --kernels ring/eytzinger,hrw/scalar --nodes 60 --vnodes 10 --keys 1000 \
  --removed-fraction 0.5 --rounds 4 --visits 2 --min-time 0 --benchmark_out="$tmp/visits.json" \
  --benchmark_out_format=json "${run_flags[@]}"
has "$tmp/err" "^\[ +2/2 visit 2/2\] " "the progress names the second visit"
for field in remove_us readd_us; do
  has "$tmp/visits.json" "\"$field\": [0-9]" "a run of two visits records $field of the first"
done
has "$tmp/visits.json" 'ns_per_key\\": ?\[\[[0-9.e+-]+(,[0-9.e+-]+){3}\],\[' \
  "each member of a run of two visits has its four rounds"
expect 0 "in 1 visit," --kernels hrw/scalar --nodes 60 --vnodes 10 --keys 1000 --rounds 1 \
  --visits 2 --min-time 0 "${run_flags[@]}"
lacks "$tmp/err" "visit 2/" "a group of one round is visited once"
# A margin no two visits stay within: the slower visit is timed again, the
# run says so, and the group's record in chbench_groups names it; its twelve
# rounds stay twelve. With six rounds a visit, the slower one is left out.
expect 0 "in 2 visits" --kernels ring/eytzinger,hrw/scalar --nodes 60 --vnodes 10 --keys 1000 \
  --rounds 12 --visits 2 --min-time 0 --revisit-margin 0.000001 \
  --benchmark_out="$tmp/revisit.json" --benchmark_out_format=json "${run_flags[@]}"
has "$tmp/err" "^\[revisit 1/1\] .* visit [12] again \([0-9.]+x its fastest\)" \
  "the slower visit is timed again"
has "$tmp/err" "timed 1 visit again that ran more than 0.0001 % slower" "the run counts its revisits"
has "$tmp/revisit.json" 'revisit\\": ?\{\\"replaced' "chbench_groups records the revisit"
has "$tmp/revisit.json" 'kept_visits\\": ?\[[12]\]' "chbench_groups names the visit kept"
has "$tmp/revisit.json" '"rounds_kept": 6\.0' "the figures come from the six rounds kept"
has "$tmp/revisit.json" 'revisit_budget\\": ?0\.08' "chbench_timing records the revisits' time budget"
expect 2 "--revisit-margin: Value 11 not in range" --revisit-margin 11
# A state margin no two rounds' paces stay within: each figure keeps the six
# rounds the other members ran fastest (chbench_timing records the margin),
# and the plot scripts, choosing the rounds from chbench_groups as the bench
# does, get the bench's medians and ratios; a margin of 0 keeps all twelve.
four=ring/eytzinger,ring/lower_bound,ring/branchless,hrw/scalar
expect 0 "in 1 visit" --kernels "$four" --nodes 60 --vnodes 10 --keys 1000 \
  --rounds 12 --visits 1 --min-time 0 --state-margin 0.000001 \
  --benchmark_out="$tmp/state.json" --benchmark_out_format=json "${run_flags[@]}"
has "$tmp/state.json" '"rounds_kept": 6\.0' "the figures come from the six fastest-paced rounds"
lacks "$tmp/state.json" '"rounds_kept": 1\.20*e\+01' "no member keeps all twelve rounds"
has "$tmp/state.json" 'state_margin\\": ?1e-06' "chbench_timing records the state margin"
if /usr/bin/python3 "$(dirname "$0")/rounds_agree.py" "$tmp/state.json" \
  "$(dirname "$0")/../scripts" 2>"$tmp/py-err"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: the scripts' rounds give the bench's medians and ratios: $(tail -n 1 "$tmp/py-err")" >&2
fi
expect 0 "in 1 visit" --kernels "$four" --nodes 60 --vnodes 10 --keys 1000 \
  --rounds 12 --visits 1 --min-time 0 --state-margin 0 \
  --benchmark_out="$tmp/state0.json" --benchmark_out_format=json "${run_flags[@]}"
lacks "$tmp/state0.json" '"rounds_kept": 6\.0' "a state margin of 0 keeps every round"
has "$tmp/state0.json" '"rounds_kept": 1\.20*e\+01' "a state margin of 0 keeps all twelve rounds"
expect 2 "--state-margin: Value -1 not in range" --state-margin -1
has "$tmp/removed.json" '"tokens": 3\.0+e\+02' "a ring after removals counts the survivors' tokens"
expect 1 "ownership mismatch in custom/hrw/scalar/N:60/V:10/K:1000/threads:1/removed:50/order:random" \
  --kernels hrw/scalar --nodes 60 --vnodes 10 --keys 1000 --removed-fraction 0.5 --rounds 1 \
  --min-time 0 --corrupt-one-owner "${run_flags[@]}"
expect 0 "1 configuration," --kernels jump/scalar --nodes 60 --keys 1000 --removed-fraction 0.5 \
  --removal-order lifo --rounds 1 --min-time 0 "${run_flags[@]}"
expect 2 "--removed-fraction for jump/scalar: jump hash lets only the last node leave: it takes --removal-order lifo, not random$" \
  --kernels jump/scalar --removed-fraction 0.5
expect 2 "--removed-fraction for jump/scalar: .* not fifo$" --schemes jump --removed-fraction 0.5 \
  --removal-order fifo
expect 2 "--removed-fraction for modn/scalar: mod-N cannot lose a node" --schemes modn --removed-fraction 0.1
expect 2 "--removed-fraction must be at least 0 and below 1 .*, not 1$" --removed-fraction 1
expect 2 "--removed-fraction must be at least 0 and below 1 .*, not -0.1$" --removed-fraction -0.1
expect 2 "--removal-order needs --removed-fraction" --removal-order lifo
# --capacity: the bucket capacity of the schemes that keep one, for the
# public implementations' setting (capacity = N); refused for the others.
expect 0 "2 configurations," --kernels anchor/scalar,dx/simd --nodes 60 --keys 1000 --capacity 60 \
  --removed-fraction 0.5 --rounds 1 --min-time 0 --benchmark_out="$tmp/capacity.json" \
  --benchmark_out_format=json "${run_flags[@]}"
has "$tmp/capacity.json" '"name": "custom/anchor/scalar/N:60/V:100/K:1000/threads:1/removed:50/order:random/capacity:60/' \
  "a run at a chosen capacity names it"
# None removed at capacity N: timed, with no re-add build (no room for a new node).
expect 0 "2 configurations," --kernels anchor/scalar,dx/simd --nodes 60 --keys 1000 --capacity 60 \
  --rounds 1 --min-time 0 --benchmark_out="$tmp/full.json" --benchmark_out_format=json \
  "${run_flags[@]}"
lacks "$tmp/full.json" '"error_occurred": true' "a full anchor at capacity N times its lookups"
has "$tmp/full.json" '"ns_per_key"' "a full anchor at capacity N reports ns per key"
expect 2 "--capacity: jump hash takes no A .the schemes that take it: [a-z, ]*anchor" \
  --kernels jump/scalar --capacity 10
expect 2 "--capacity must be at least 1" --kernels anchor/scalar --capacity 0
expect 2 "--removal-order: fifth not in" --removed-fraction 0.1 --removal-order fifth
"${bench[@]}" --list --families removals,tokens >"$tmp/list" 2>"$tmp/err"
has "$tmp/list" "^removals/ring/bucketed/N:1000/V:100/K:100000/threads:1/removed:50/order:random " \
  "family removals removes nodes in random order"
has "$tmp/list" "^removals/jump/simd/N:1000/V:100/K:100000/threads:1/removed:50/order:lifo " \
  "family removals runs jump hash under LIFO"
lacks "$tmp/list" "^removals/jump/scalar/" "the quick removals time each scheme's default kernel"
for percent in 0 10 50 90; do
  has "$tmp/list" "^removals/ring/bucketed/N:1000/V:100/K:100000/threads:1/removed:$percent/" \
    "the quick removals keep $percent % removed at N = 1,000"
done
"${bench[@]}" --list --families removals --kernels jump/scalar >"$tmp/list-chosen" 2>"$tmp/err"
has "$tmp/list-chosen" "^removals/jump/scalar/N:1000/V:100/K:100000/threads:1/removed:50/order:lifo " \
  "a kernel chosen on the command line is timed in the quick removals"
"${bench[@]}" --list --families threads >"$tmp/list-threads" 2>"$tmp/err"
has "$tmp/list-threads" "^threads/jump/simd/N:1000/V:100/K:1000000/threads:1 " \
  "the quick threads time one thread"
has "$tmp/list-threads" "^threads/jump/simd/N:1000/V:100/K:1000000/threads:$(nproc) " \
  "the quick threads time all hardware threads"
has "$tmp/list" "^tokens/ring/eytzinger/N:655/V:100/K:100000/threads:1 " \
  "the quick tokens look up batches of 10^5 keys"
# Results are keyed by configuration name (the plot scripts merge rows of one
# name): no sweep may name two configurations alike, a floor of a point after
# removals included.
for sweep in quick full; do
  "${bench[@]}" --list --sweep "$sweep" >"$tmp/list-$sweep" 2>"$tmp/err"
  awk '$1 ~ /\// { print $1 }' "$tmp/list-$sweep" | sort | uniq -d >"$tmp/list-twice"
  lacks "$tmp/list-twice" "." "the $sweep sweep names each configuration once"
done
has "$tmp/list-full" "^dram/ring/stream/N:1000000/V:1/K:10000000/threads:1/removed:50/order:random " \
  "the full dram sweep times the stream floor beside the history readers after removals"
# The schemes that score every node for every key stay at N = 1,000 (a key
# at 10^6 would cost a millisecond, the reference check hours).
lacks "$tmp/list" "^removals/hrw(_weighted)?/[a-z_]+/N:1000000/" \
  "family removals leaves rendezvous and weighted rendezvous out at 10^6"

# listed_seconds FILE PATTERN: the estimated seconds --list gives the first
# configuration whose line matches PATTERN (its last field but one).
listed_seconds() { awk -v p="$2" '$0 ~ p { print $(NF - 1); exit }' "$1"; }
# holds AWK_CONDITION A B MESSAGE: the condition over a and b holds.
holds() {
  if awk -v a="$2" -v b="$3" "BEGIN { exit !($1) }"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $4 (a = '$2', b = '$3')" >&2
  fi
}

# The estimate's terms (plan.cc). Each configuration's line gives its seconds.
"${bench[@]}" --list --kernels jump/scalar --nodes 5 --keys 100 >"$tmp/list" 2>"$tmp/err"
has "$tmp/list" "^custom/jump/scalar/N:5/V:100/K:100/threads:1 +[0-9.]+ MiB +[0-9.]+ s$" \
  "--list gives each configuration's memory and estimated seconds"
# A scheme that scores every node pays N scores a key, in its timed
# rounds, its check and its reference: weighted rendezvous's scalar kernel at
# 4,096 nodes (12 ns a score: a batch of 100,003 keys takes about 5 s, so its
# group runs the fewest rounds, 10, then the check and the reference of one
# pool, about 75 s), its SIMD kernel a tenth of that.
"${bench[@]}" --list --kernels hrw_weighted/scalar,hrw_weighted/simd --nodes 4096 --keys 100003 \
  >"$tmp/list" 2>"$tmp/err"
scalar_s=$(listed_seconds "$tmp/list" "^custom/hrw_weighted/scalar/")
simd_s=$(listed_seconds "$tmp/list" "^custom/hrw_weighted/simd/")
holds "a >= 60 && a <= 90" "$scalar_s" 0 "the estimate counts hrw_weighted/scalar's 4,096 scores a key"
holds "b <= 15 && b * 5 < a" "$scalar_s" "$simd_s" "the estimate counts SIMD scores as a tenth of scalar ones"
# Building from a fleet of named nodes costs per node (a scenario's history
# replayed, names hashed): AnchorHash at 10^6 nodes, half removed, builds its
# reference, its table and the two change builds, about a second each; jump
# hash at 10^6 buckets (no names) builds nothing by node.
"${bench[@]}" --list --kernels anchor/scalar --nodes 1000000 --removed-fraction 0.5 --keys 100000 \
  >"$tmp/list" 2>"$tmp/err"
anchor_s=$(listed_seconds "$tmp/list" "^custom/anchor/scalar/")
"${bench[@]}" --list --kernels jump/scalar --nodes 1000000 --removed-fraction 0.5 \
  --removal-order lifo --keys 100000 >"$tmp/list" 2>"$tmp/err"
jump_s=$(listed_seconds "$tmp/list" "^custom/jump/scalar/")
holds "a >= 3 && b < 1" "$anchor_s" "$jump_s" "the estimate counts builds from 10^6 named nodes"
# The rounds: each member times a slice of at least --min-time a round, in
# whole batches: a batch of 10^5 keys at 25 ns a key is 2.5 ms, two to the
# quick sweep's 5 ms slice, so twice the rounds take about twice the time.
# A batch of 10^6 keys (25 ms) is longer than the slice: its group runs the
# fewest rounds, 10.
"${bench[@]}" --list --kernels jump/scalar --nodes 1000 --keys 100000 >"$tmp/list" 2>"$tmp/err"
r30_s=$(listed_seconds "$tmp/list" "^custom/jump/scalar/")
"${bench[@]}" --list --kernels jump/scalar --nodes 1000 --keys 100000 --rounds 60 \
  >"$tmp/list" 2>"$tmp/err"
r60_s=$(listed_seconds "$tmp/list" "^custom/jump/scalar/")
holds "a > 0.15 && a < 0.4 && b > 1.6 * a && b < 2.2 * a" "$r30_s" "$r60_s" \
  "the estimate counts 30 and 60 rounds of two 2.5 ms batches"
"${bench[@]}" --list --kernels jump/scalar --nodes 1000 --keys 1000000 >"$tmp/list" 2>"$tmp/err"
slow_s=$(listed_seconds "$tmp/list" "^custom/jump/scalar/")
holds "a > 0.25 && a < 0.5" "$slow_s" 0 "the estimate counts 10 rounds of one 25 ms batch"
"${bench[@]}" --list --kernels jump/scalar --nodes 1000 --keys 1000 --min-time 0.01 \
  >"$tmp/list" 2>"$tmp/err"
slice_s=$(listed_seconds "$tmp/list" "^custom/jump/scalar/")
holds "a > 0.3 && a < 0.45" "$slice_s" 0 "the estimate counts 30 slices of 10 ms for a short batch"

# --list: each family's count and estimated time, and the total; the quick
# sweep's estimate stays within 4:30 (five minutes on a slower host); the
# full sweep times Maglev's SIMD kernel beside its rival in family targets.
"${bench[@]}" --list >"$tmp/list" 2>"$tmp/err"
echo "exit $?" >>"$tmp/list"
has "$tmp/list" "^exit 0$" "--list runs"
has "$tmp/list" "^family tokens +[0-9]+ configurations, estimated +[0-9]+:[0-9]{2} \(quick budget [0-9]+:[0-9]{2} for one visit; budget kept [0-9]+ of [0-9]+ points\)$" \
  "--list gives each family's count, estimate and budget"
has "$tmp/list" "^estimated time [0-9]+:[0-9]{2} for [0-9]+ configurations in [0-9]+ comparison groups: 30 rounds in 2 visits, each member at least 0.005 s a round" \
  "--list gives the total estimate, the groups and the model's rounds"
quick_total=$(sed -n 's/^estimated time \([0-9]*\):\([0-9]*\) .*/\1 \2/p' "$tmp/list")
if [[ -n $quick_total ]] && (($(cut -d' ' -f1 <<<"$quick_total") * 60 + 10#$(cut -d' ' -f2 <<<"$quick_total") <= 270)); then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: the quick sweep's estimate '$quick_total' (min sec) is over 4:30" >&2
fi
"${bench[@]}" --sweep full --list --families targets --schemes maglev >"$tmp/list" 2>"$tmp/err"
# The fallback target is SCALAR under GCC, EMU128 under Clang; NEON is the lowest on aarch64.
has "$tmp/list" "^targets/maglev/simd@[A-Z0-9_]*/" "the full targets family forces maglev/simd to each target"
has "$tmp/list" "^targets/maglev/scalar/" "the full targets family times maglev/simd's rival"
has "$tmp/list" "^family targets +[0-9]+ configurations, estimated +[0-9:]+$" "--list of the full sweep names no budget"

"${bench[@]}" --list --families tokens >"$tmp/list" 2>"$tmp/err"
has "$tmp/list" "^noise canary: about [0-9.]+ s of it \(4 ms before each visit of a comparison group\)$" \
  "--list gives the noise canary's share of the estimate"

# --sweep may be given twice (run.sh passes one): the last wins.
expect 0 "1 configuration," --sweep full --sweep quick --kernels jump/scalar --nodes 5 --keys 100 \
  --rounds 1 --min-time 0 "${run_flags[@]}"

# run.sh with this bench: a sweep that needs more memory than the machine has
# is refused by the bench's own check (--list) before a results folder exists.
# Native builds only: run.sh takes one bench binary, and refuses to time an
# emulated one anyway.
run_sh="$(dirname "$0")/../scripts/run.sh"
if ((${#bench[@]} == 1)); then
  CHBENCH_BENCH=${bench[0]} bash "$run_sh" --out "$tmp/results" -- --keys 100000000000 \
    >"$tmp/out" 2>"$tmp/err"
  status=$?
  if [[ $status -eq 2 && $(wc -l <"$tmp/err") -eq 1 && ! -e $tmp/results ]] &&
    grep -q "^chbench_bench: error: .* would need about .* GiB" "$tmp/err"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: run.sh with a sweep too big for memory -> exit $status; stderr:" >&2
    sed 's/^/    /' "$tmp/err" >&2
  fi
fi

# A real run: every kernel of every scheme, tiny, into a JSON file.
expect 0 "configurations?," --nodes 13 --vnodes 3 --keys 2000 --rounds 2 --min-time 0 \
  --benchmark_out="$tmp/run.json" --benchmark_out_format=json "${run_flags[@]}"
for field in ns_per_key threads_ran manual_time_cv build_ms bytes_per_token; do
  has "$tmp/run.json" "$field" "the results JSON has no $field"
done
# The noise record of every repetition, and the canary's calibration.
for field in canary_compute_ns canary_memory_ns canary_ratio canary_ms steal_ms load_avg_1m \
  noisy; do
  has "$tmp/run.json" "\"$field\": [0-9]" "the results JSON has no $field"
done
if /usr/bin/python3 - "$tmp/run.json" <<'PY'; then
import json, sys
data = json.load(open(sys.argv[1]))
noise = json.loads(data["context"]["chbench_noise"])
assert noise["margin"] == 0.15 and noise["buffer_bytes"] >= 1 << 20, noise
assert noise["calibration"]["compute_ns"] > 0 and noise["calibration"]["memory_ns"] > 0, noise
assert noise["baseline"] is None, noise
runs = [b for b in data["benchmarks"] if b.get("aggregate_name") == "median"]
assert runs and all(b["noisy"] in (0, 1) and b["canary_compute_ns"] > 0
                    and b["canary_memory_ns"] > 0 and b["steal_ms"] >= 0
                    and b["canary_ratio"] > 0 for b in runs), runs[0]
# Aggregates only, each over the rounds; the rounds themselves in chbench_groups.
assert all(b["run_type"] == "aggregate" for b in data["benchmarks"])
timing = json.loads(data["context"]["chbench_timing"])
assert timing["method"] == "interleaved rounds" and timing["rounds"] == 2, timing
assert timing["order"] == "schemes as blocks", timing
assert timing["visits"] == 2, timing
groups = json.loads(data["context"]["chbench_groups"])["groups"]
assert len(groups) == 1, len(groups)  # a custom run is one comparison group
names = {b["run_name"].split("/iterations:")[0] for b in runs}
assert set(groups[0]["members"]) == names, (groups[0]["members"], names)
for name, ns in zip(groups[0]["members"], groups[0]["ns_per_key"]):
    median = next(b for b in runs if b["run_name"].startswith(name + "/iterations:"))
    assert len(ns) == 2 and all(x > 0 for x in ns), (name, ns)
    assert abs(median["ns_per_key"] - sorted(ns)[0] / 2 - sorted(ns)[1] / 2) <= 1e-3 * max(ns), name
    assert median["rounds"] == 2 and median["group"] == 0, median
    assert "ns_per_key_lo" not in median, median  # two rounds give no 95 % interval
# A SIMD kernel is compared with its scalar rival, round by round.
simd = next(b for b in runs if b["run_name"].startswith("custom/jump/simd/"))
assert simd["ratio"] > 0, simd
PY
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: the results JSON has no sound chbench_noise and noise counters" >&2
fi
# An earlier run's baseline, recorded; family threads records each thread's
# CPU time.
expect 0 "1 configuration," --families threads --kernels jump/scalar --benchmark_filter='threads:1$' \
  --rounds 1 --min-time 0 --noise-margin 0.5 --canary-baseline 250000.5,400000 \
  --benchmark_out="$tmp/threads.json" --benchmark_out_format=json "${run_flags[@]}"
has "$tmp/threads.json" '"thread_cpu_ms_0": [0-9]' "family threads records the CPU time of thread 0"
has "$tmp/threads.json" 'chbench_noise.*margin\\": ?0.5' "the JSON records --noise-margin"
has "$tmp/threads.json" 'chbench_noise.*baseline\\": ?\{\\"compute_ns\\": ?250000.5' \
  "the JSON records --canary-baseline"
# Each thread's CPU time is per timed batch, over both visits' rounds, so that
# it compares with the time of a batch (one thread: about equal). A slice of
# 50 ms holds two batches of 10^6 keys even in the sanitizers' build on a busy
# host (11 ms a batch there).
expect 0 "in 2 visits" --families threads --kernels jump/simd --benchmark_filter='threads:1$' \
  --rounds 4 --visits 2 --min-time 0.05 --benchmark_out="$tmp/cpu.json" \
  --benchmark_out_format=json "${run_flags[@]}"
if /usr/bin/python3 - "$tmp/cpu.json" <<'PY'; then
import json, sys
data = json.load(open(sys.argv[1]))
runs = [b for b in data["benchmarks"] if b.get("aggregate_name") == "median"]
assert len(runs) == 1 and runs[0]["batches"] >= 2, runs
wall_ms = runs[0]["real_time"] * {"ms": 1, "us": 1e-3, "ns": 1e-6}[runs[0]["time_unit"]]
share = runs[0]["thread_cpu_ms_0"] / wall_ms
assert 0.7 < share < 1.3, (runs[0]["thread_cpu_ms_0"], wall_ms)
assert json.loads(data["context"]["chbench_timing"])["visits"] == 2
PY
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: thread_cpu_ms_0 is not the CPU time of one timed batch" >&2
fi
expect 0 "in 3 visits" --kernels jump/scalar --nodes 10 --keys 100 --rounds 3 --visits 10 \
  --min-time 0 --benchmark_out="$tmp/capped.json" --benchmark_out_format=json "${run_flags[@]}"
has "$tmp/capped.json" 'chbench_timing.*visits\\": ?3[,}]' \
  "the JSON records the visits made, no more than the rounds"
# The registry, as the plot scripts read it: a JSON string in the context.
if /usr/bin/python3 - "$tmp/run.json" <<'PY'; then
import json, sys
registry = json.loads(json.load(open(sys.argv[1]))["context"]["chbench_registry"])
schemes = [s["name"] for s in registry["schemes"]]
kernels = {k["name"]: k for k in registry["kernels"]}
assert schemes[:5] == ["modn", "ring", "hrw", "jump", "maglev"], schemes
assert all(set(s) >= {"title", "source", "aliases", "params", "removal", "max_nodes"}
           for s in registry["schemes"])
assert kernels["ring/stream"]["stream"] and kernels["ring/stream"]["rank"] is None
# The floors: "floor" their kind, last in the list; only the stream floor "stream".
floors = {k["name"]: k["floor"] for k in registry["kernels"] if k["floor"] is not None}
assert floors == {"ring/stream": "stream", "modn/compute": "compute",
                  "ring/random_read": "random_read"}, floors
assert [k["name"] for k in registry["kernels"][-3:]] == list(floors), registry["kernels"][-3:]
assert all(kernels[f]["rank"] is None and not kernels[f]["stream"]
           for f in ("modn/compute", "ring/random_read"))
# Every parameter a scheme reads, named (multi-probe's probes were once left out).
params = {s["name"]: s["params"] for s in registry["schemes"]}
assert params["ring"] == ["vnodes", "weights"] and params["maglev"] == ["table_size"], params
assert params["anchor"] == ["capacity"] and params["multiprobe"] == ["probes"], params
assert params["jump"] == [], params
# The scripts find rendezvous by the lookup that scores every node (and no weights).
scoring = [s["name"] for s in registry["schemes"] if s["scores_every_node"]]
assert scoring == ["hrw", "hrw_weighted"], scoring
for k in kernels.values():
    assert k["scheme"] in schemes and k["name"] == k["scheme"] + "/" + k["kernel"], k
    assert k["rival"] is None or k["rival"] in kernels, k
    assert k["knob"] is None or k["knob"]["min"] <= min(k["knob"]["sweep"]), k
    assert k["floor"] is not None or isinstance(k["rank"], int), k
assert any(k["simd"] and k["rival"] for k in kernels.values())
assert "families" not in registry, sorted(registry)
listed = json.loads(json.load(open(sys.argv[1]))["context"]["chbench_families"])
families = [f["name"] for f in listed["families"]]
assert families[-3:] == ["targets", "profiles", "weighted"] and "tokens" in families, families
assert 0 < sum(f["quick_budget_s"] for f in listed["families"]) <= 300
keys = [s["key"] for s in listed["segments"]]
assert keys[:4] == ["N", "V", "K", "threads"], keys
assert {s["kind"] for s in listed["segments"]} == {"int", "number", "word"}, listed["segments"]
params = {f["name"]: f["params"] for f in listed["families"]}
assert params["bounded"] == ["N", "V", "K", "threads", "c"], params
assert params["replicas"][-1] == "R" and "removed" in params["removals"], params
assert all(p[:4] == keys[:4] and set(p) <= set(keys) for p in params.values()), params
PY
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: the results JSON has no parseable chbench_registry or chbench_families" >&2
fi
for field in chbench_commit chbench_cpu_model chbench_hwy_target chbench_build_type \
  chbench_toolchain chbench_preset chbench_baseline chbench_cross_compiled chbench_target_arch; do
  has "$tmp/run.json" "\"$field\": \"[^\"]" "the results JSON has no $field"
done

# Emulation: refused (3) with its reason before anything runs, or run and marked.
small=(--kernels jump/scalar --nodes 5 --keys 100 --rounds 1 --min-time 0)
if ((${#bench[@]} > 1)); then
  # Really emulated: qemu-user shows the program the host's /proc/cpuinfo.
  has "$tmp/run.json" '"chbench_emulated": "yes: .* binary' "an emulated run is marked"
  has "$tmp/run.json" '"chbench_cross_compiled": "yes"' "a cross build says so"
  expect 3 "refusing to time an emulated CPU \(/proc/cpuinfo describes an x86 CPU .* binary\).*--allow-emulated" \
    "${small[@]}"
else
  has "$tmp/run.json" '"chbench_emulated": "no"' "a native run is marked as not emulated"
  # A CPU description of the other architecture (what qemu-user shows an
  # emulated program), and QEMU's virtual CPU model.
  printf '%s\n' 'processor	: 0' 'vendor_id	: GenuineIntel' \
    'model name	: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz' 'flags		: fpu sse2 avx2' >"$tmp/x86"
  printf '%s\n' 'processor	: 0' 'Features	: fp asimd aes pmull sha1 sha2 crc32 atomics sve' \
    'CPU implementer	: 0x41' 'CPU part	: 0xd40' >"$tmp/arm"
  printf '%s\n' 'processor	: 0' 'vendor_id	: GenuineIntel' \
    'model name	: QEMU Virtual CPU version 2.5+' >"$tmp/qemu"
  case $(uname -m) in
    x86_64) foreign=$tmp/arm native=$tmp/x86 ;;
    *) foreign=$tmp/x86 native=$tmp/arm ;;
  esac
  expect 3 "refusing to time an emulated CPU \(.* describes an .* CPU .* but this is an $(uname -m) binary\)" \
    "${small[@]}" --cpuinfo "$foreign"
  expect 3 "the CPU model is 'QEMU Virtual CPU version 2\.5\+'" "${small[@]}" --cpuinfo "$tmp/qemu"
  expect 0 "WARNING: emulated CPU" "${small[@]}" --cpuinfo "$tmp/qemu" --allow-emulated \
    --benchmark_out="$tmp/marked.json" --benchmark_out_format=json
  has "$tmp/marked.json" '"chbench_emulated": "yes: the CPU model is' "--allow-emulated marks the run"
  expect 0 "1 configuration," "${small[@]}" --cpuinfo "$native"
  # --list only prints, so it runs anywhere.
  "${bench[@]}" --list --kernels jump/scalar --cpuinfo "$foreign" >"$tmp/out" 2>&1
  echo "exit $?" >>"$tmp/out"
  has "$tmp/out" "^exit 0$" "--list runs with a foreign CPU description"
fi

# The profiles family: ketama through our kernels and through libmemcached, on
# the same keys, each checked against the profile's reference before timing.
expect 0 "configurations?," --families profiles --rounds 1 --min-time 0 \
  --benchmark_filter='ketama/.*/N:10/' --benchmark_out="$tmp/profiles.json" \
  --benchmark_out_format=json "${run_flags[@]}"
for field in chbench_libmemcached_version profiles/ketama/libmemcached/N:10 \
  profiles/ketama/eytzinger/N:10; do
  has "$tmp/profiles.json" "$field" "the profiles JSON has no $field"
done

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
