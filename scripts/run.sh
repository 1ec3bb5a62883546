#!/usr/bin/env bash
# The main job: build Release, run the benchmark sweep, plot, and file the
# results as a new run folder. See usage() or `scripts/run.sh --help`.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/run.sh [--full] [--preset NAME] [--out DIR] [--jobs N] [--retry-noisy N]
                      [--nodes N] [--help] [-- BENCH_FLAGS...]

Builds chbench (the release preset unless --preset), runs the benchmark sweep,
draws the plots and writes a report, in a new folder that is never overwritten:

  DIR/<machine>/<UTC YYYYmmdd-HHMMSS>-<commit>[-<preset>]/
      bench.json     Google Benchmark JSON (each configuration's aggregates;
                     the rounds in chbench_groups)
      bench.json.gz  its committed form (scripts/compact_run.py: the median
                     rows and repetitions, no absolute local path)
      console.txt    the bench's messages and console table (the terminal
                     shows its plan and one progress line per comparison
                     group; the table and Google Benchmark's context are
                     only here)
      summary.txt    the first screen: each scheme's fastest kernel at each N
                     with its interval, rendezvous ÷ ring and each scheme
                     ÷ the fastest with theirs, the crossover measured,
                     the noise, then guide.md or why there is no
                     guide (printed when the run ends; all but the
                     guide's line also at the top of report.md)
      report.md      the summary, machine and build, ratios, goals, plots,
                     tables, checks, the noise appendix
      medians.csv    a row per configuration: its parameters, median ns/key
                     with its interval, ratio to its rival, noisy flag
                     (scripts/export_csv.py; over 200 KB compact_run.py moves
                     it to medians-full.csv, left out of commits)
      guide.md       which scheme for a fleet of --nodes nodes, from this run
                     and chbench-lab (scripts/guide.py), with guide_nodes.png;
                     for a run under the repository's results/ it is copied
                     to docs/guide.md
      *.png          the plots at the committed size (palette, 100 dpi)
      *.svg          the plots as vectors
      command.txt    the bench command line
      retries.json   with --retry-noisy: what was re-timed, before and after
      retries/       with --retry-noisy: each retry's JSON and console table

<machine> is what scripts/machine-name.sh makes of the CPU's own identity
(vendor, microarchitecture, SIMD level, CPU count; e.g.
amd-epyc-zen5-avx512-2c), and bench.json records the full identity (context
key chbench_cpu: machine-name.sh --json); <preset> is added for any build but
the default release one (e.g. -x86-64-v2), and the JSON records the preset,
toolchain and baseline of every run. DIR/README.md,
the index of all runs, is regenerated afterwards. The run is written to a
hidden DIR/<machine>/.partial-* folder first and renamed into place only when
bench, plots and report succeeded; an interrupted or failed run leaves nothing.
The repository's .gitignore keeps bench.json, console.txt and the SVGs out of
a commit: `git add` of the folder adds its committed form.

Options:
  --full       the full sweep (for target machines; about 3 hours on 2
               cores). Default: the quick sweep (about 4 to 5 minutes on 2 cores,
               build excluded). The bench estimates either before it starts
               (chbench_bench --list).
  --preset NAME  the CMake preset to build and run (default: release, GCC with
               run-time SIMD dispatch); e.g. clang-release, x86-64-v2,
               x86-64-v3, x86-64-v4. A cross-compiling preset (aarch64) is
               refused: its timings would come from an emulator; run this
               script on the aarch64 machine instead.
  --out DIR    results folder (default: results/ in the repository)
  --jobs N     parallel build jobs (default: ninja's choice)
  --retry-noisy N  after the sweep, re-time the configurations the bench
               flagged noisy (its canary strayed from the run's best, or the
               host stole time: see docs/measurement.md), at most N rounds
               (0-20, default 0: off). Each round runs the bench on exactly
               those configurations, judged by the first run's best canary,
               and a quieter measurement replaces the flagged one in
               bench.json; the report says how many were re-timed and how
               many are still flagged.
  --nodes N    the fleet size the guide answers for (2 to 1,000,000,
               default 1000): its advice is read at the measured N nearest
               N, the lab's moves and balance at N
  --help       this text
  -- FLAGS     everything after -- goes to the bench unchanged, e.g.
               -- --benchmark_filter=tokens/ or -- --families profiles
               (see chbench_bench --help)

Exit status: 0 on success; 2 on a usage error, an unwritable results
folder or a cross-compiling preset; the bench's own status when it fails
(1: an ownership mismatch, 2: bad input, refused before the run starts, 3:
refused to time an emulated CPU); 130 on SIGINT, 143 on SIGTERM (the bench is
stopped and nothing is kept); non-zero when the build, plots or report fail.

Environment:
  CHBENCH_BENCH  use this bench binary and skip installing and building
                 (for testing this script)
  CHBENCH_LAB    the chbench-lab binary the guide runs (default: the
                 preset's build/<preset>/lab/chbench-lab)
EOF
}

die() {
  echo "run.sh: error: $1" >&2
  exit "${2:-1}"
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
python=/usr/bin/python3

sweep=quick
preset=release
out="$repo/results"
jobs=""
retry_noisy=0
guide_nodes=1000
bench_flags=()
while (($# > 0)); do
  case $1 in
    --full) sweep=full ;;
    --preset)
      (($# >= 2)) || die "--preset needs a name (see --help)" 2
      preset=$2
      shift
      ;;
    --preset=*) preset=${1#--preset=} ;;
    --out)
      (($# >= 2)) || die "--out needs a folder (see --help)" 2
      out=$2
      shift
      ;;
    --out=*) out=${1#--out=} ;;
    --jobs | -j)
      (($# >= 2)) || die "--jobs needs a number (see --help)" 2
      jobs=$2
      shift
      ;;
    --jobs=*) jobs=${1#--jobs=} ;;
    --retry-noisy)
      (($# >= 2)) || die "--retry-noisy needs a number of rounds (see --help)" 2
      retry_noisy=$2
      shift
      ;;
    --retry-noisy=*) retry_noisy=${1#--retry-noisy=} ;;
    --nodes)
      (($# >= 2)) || die "--nodes needs a node count (see --help)" 2
      guide_nodes=$2
      shift
      ;;
    --nodes=*) guide_nodes=${1#--nodes=} ;;
    -h | --help)
      usage
      exit 0
      ;;
    --)
      shift
      bench_flags=("$@")
      break
      ;;
    *) die "unknown option '$1' (see --help)" 2 ;;
  esac
  shift
done
[[ -z $jobs || $jobs =~ ^[1-9][0-9]{0,2}$ ]] || die "--jobs takes 1 to 999, not '$jobs'" 2
[[ $retry_noisy =~ ^([0-9]|1[0-9]|20)$ ]] ||
  die "--retry-noisy takes 0 to 20 rounds, not '$retry_noisy'" 2
[[ -n $out ]] || die "--out needs a folder (see --help)" 2
[[ $guide_nodes =~ ^[1-9][0-9]{0,6}$ && $guide_nodes -ge 2 && $guide_nodes -le 1000000 ]] ||
  die "--nodes takes a fleet of 2 to 1,000,000 nodes, not '$guide_nodes'" 2
[[ $preset =~ ^[a-z0-9][a-z0-9-]*$ ]] || die "--preset takes a preset name, not '$preset'" 2
out=$(realpath -m -- "$out")

# --- Results folder: writable, locked, before any building or benchmarking.
machine=$(bash "$here/machine-name.sh")
cpu_identity=$(bash "$here/machine-name.sh" --json)
machine_dir="$out/$machine"
created=()
for dir in "$out" "$machine_dir"; do
  [[ -e $dir ]] || created+=("$dir")
done
partial=""
bench_pid=""
tee_pid=""
cleanup() {
  stop_bench
  if [[ -n $partial && -e $partial ]]; then
    rm -rf -- "$partial"
  fi
  # Folders this run created and left empty (a failure before any result).
  local i
  for ((i = ${#created[@]} - 1; i >= 0; i--)); do
    rmdir -- "${created[i]}" 2>/dev/null || true
  done
}
# Stops a bench (and its console filter) still running, and waits for them,
# so that no process writes into the partial folder while it is removed.
# The filter is left to drain what the bench wrote before it stopped (it ends
# at the end of the FIFO), so that its lines come before any of this script's.
stop_bench() {
  if [[ -n $bench_pid ]]; then
    kill -TERM "$bench_pid" 2>/dev/null || true
    wait "$bench_pid" 2>/dev/null || true
  fi
  if [[ -n $tee_pid ]]; then
    wait "$tee_pid" 2>/dev/null || true
  fi
  bench_pid="" tee_pid=""
}
# SIGINT (Ctrl-C) or SIGTERM, to this script alone or to its process group:
# stop the bench, remove the partial folder (EXIT trap), exit 128 + signal.
on_signal() {
  trap '' INT TERM
  stop_bench
  echo "run.sh: $1; stopping, no results kept" >&2
  exit "$2"
}
trap cleanup EXIT
trap 'on_signal interrupted 130' INT
trap 'on_signal terminated 143' TERM

not_writable() {
  die "results folder '$out' is not writable ($1); pass --out with a writable folder" 2
}
mkdir -p -- "$machine_dir" 2>/dev/null || not_writable "cannot create '$machine_dir'"
probe=$(mktemp -p "$machine_dir" .write-test.XXXXXX 2>/dev/null) ||
  not_writable "cannot create files in '$machine_dir'"
rm -f -- "$probe"
# One run per machine folder at a time: two runs would disturb each other's
# timings. The lock is on the folder itself and goes away with this process.
exec 9<"$machine_dir"
flock -n 9 || die "another run is writing to '$machine_dir'; wait for it to finish" 1

# --- Build.
# Builds the preset with its output in build/<preset>/run-build.log, the
# terminal getting one line before (steps to do, a rough estimate) and one
# after (the time it took); on failure, the log's last lines.
build_and_report() {
  local dir="$repo/build/$preset" log todo started_build minutes
  log="$dir/run-build.log"
  todo=$(ninja -C "$dir" -n 2>/dev/null | grep -c '^\[' || true)
  # About 1.3 s a step on 2 cores (a clean build: some 230 steps in 5 min).
  minutes=$(((todo * 13 / 10 + 59) / 60))
  echo "run.sh: building preset $preset: ${todo:-?} steps to do, about $minutes min on 2 cores (log: ${log#"$repo"/})" >&2
  started_build=$SECONDS
  local build=(cmake --build --preset "$preset")
  [[ -z $jobs ]] || build+=(--parallel "$jobs")
  if ! "${build[@]}" >"$log" 2>&1; then
    tail -n 30 -- "$log" >&2
    die "the build failed (the whole log: ${log#"$repo"/})"
  fi
  build_seconds=$((SECONDS - started_build))
  echo "run.sh: built in $((build_seconds / 60)) min $((build_seconds % 60)) s" >&2
}
build_seconds=0
cd "$repo"
if [[ -n ${CHBENCH_BENCH:-} ]]; then
  bench=$CHBENCH_BENCH
else
  bash "$here/install-deps.sh"
  cmake --list-presets 2>/dev/null | grep -q "^  \"$preset\"" ||
    die "no configure preset '$preset' in CMakePresets.json (cmake --list-presets lists them)" 2
  configure_out=$(cmake --preset "$preset" 2>&1) || {
    printf '%s\n' "$configure_out" | tail -n 30 >&2
    die "cmake --preset $preset failed"
  }
  # CMake records a cross build in CMakeSystem.cmake; its bench would run
  # under an emulator, whose timings mean nothing.
  if grep -qs 'CMAKE_CROSSCOMPILING "TRUE"' "$repo/build/$preset"/CMakeFiles/*/CMakeSystem.cmake; then
    die "preset '$preset' cross-compiles for another architecture: build and run on that machine (scripts/run.sh there); under emulation the timings would mean nothing" 2
  fi
  build_and_report
  bench="$repo/build/$preset/bench/chbench_bench"
fi
[[ -x $bench ]] || die "bench binary '$bench' is missing or not executable"

# Bad bench flags (an unknown flag, N = 0, a sweep that needs more memory than
# the machine has) are refused now, before a run folder exists: with --list
# the bench checks everything and lists the configurations without running
# them. Its one-line message is the error; its status is run.sh's.
# The listing ends with the bench's estimate of the sweep's time.
list_status=0
list_file=$(mktemp)
list_error=$("$bench" --list --sweep "$sweep" "${bench_flags[@]}" 2>&1 >"$list_file") ||
  list_status=$?
estimate=$(sed -n 's/^estimated time \([0-9:]*\) .*/\1/p' "$list_file")
rm -f -- "$list_file"
if ((list_status != 0)); then
  printf '%s\n' "${list_error:-run.sh: error: the bench refused its flags (exit status $list_status)}" >&2
  exit "$list_status"
fi

# --- A new run folder, written hidden and renamed into place at the end.
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null) || commit=nogit
[[ $commit =~ ^[0-9a-f]+$ ]] || commit=nogit
name="$(date -u +%Y%m%d-%H%M%S)-$commit"
[[ $preset == release ]] || name+="-$preset"
# The first of NAME, NAME-2, NAME-3, ... for which none of the given prefixes
# (e.g. "" and ".partial-") names an existing entry of the machine folder.
free_name() {
  local base=$1 candidate=$1 n=2 prefix taken
  shift
  while :; do
    taken=0
    for prefix in "$@"; do
      [[ -e $machine_dir/$prefix$candidate ]] && taken=1
    done
    ((taken)) || break
    candidate="$base-$n"
    n=$((n + 1))
  done
  printf '%s\n' "$candidate"
}
name=$(free_name "$name" "" .partial-)
partial="$machine_dir/.partial-$name"
mkdir -- "$partial"

cmd=("$bench" --sweep "$sweep" "--benchmark_out=$partial/bench.json"
  --benchmark_out_format=json "${bench_flags[@]}")
printf '%q ' "${cmd[@]}" | sed 's/ $/\n/' >"$partial/command.txt"
echo "run.sh: $sweep sweep on $machine, preset $preset, about ${estimate:-?} (min:s, the bench's estimate) -> $machine_dir/$name" >&2
started=$SECONDS

# The terminal gets the bench's own lines (its plan, a progress line per
# comparison group, its warnings and errors); console.txt gets everything:
# Google Benchmark's context block (stderr) and its table (stdout), line by
# line (stdbuf) rather than in pipe-sized chunks.
line_buffered=()
if command -v stdbuf >/dev/null 2>&1; then
  line_buffered=(stdbuf -oL)
fi
# mawk (Debian's awk) reads a pipe in blocks, which would hold the progress
# lines back until the sweep ends: -W interactive makes it read line by line.
awk_lines=(awk)
if awk -W version 2>/dev/null | grep -q mawk; then
  awk_lines=(awk -W interactive)
fi
# console_filter FILE: copies standard input into FILE and to stderr, all but
# Google Benchmark's context block (date, host, caches, load, the chbench_*
# context keys: all of them are in bench.json), and its warning that the
# library was built as DEBUG (Debian's libbenchmark package is), in its place
# one line on what that means.
console_filter() {
  "${awk_lines[@]}" -v file="$1" '
    { print > file; fflush(file) }
    /^\*\*\*WARNING\*\*\* Library was built as DEBUG/ {
      print "run.sh: note: Google Benchmark (Debian'"'"'s libbenchmark) says it was built as DEBUG;" \
        " that is its own bookkeeping, outside the timed loops: chbench times its kernels itself" \
        " (manual time) and is built Release (bench.json: chbench_build_type)" > "/dev/stderr"
      next
    }
    /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9]/ || /^Running \// || /^Run on \(/ ||
      /^CPU Caches:/ || /^  L[0-9] / || /^Load Average:/ { next }
    /^chbench_[a-z0-9_]+: / && !/^chbench_bench: / { next }
    { print > "/dev/stderr"; fflush("/dev/stderr") }
  '
}
# run_bench CONSOLE CMD...: runs the bench, its table (stdout) into CONSOLE
# and its messages (stderr) through console_filter, into CONSOLE as well.
# The bench and the filter run in the background, joined by a FIFO, and this
# shell waits for them: bash runs a trap only once the foreground command
# ends, so a foreground bench would finish its sweep before a SIGTERM took
# effect. (Background jobs ignore SIGINT; on_signal stops them.) A failed
# bench ends the run with its status and nothing kept.
run_bench() {
  local console=$1 fifo="$partial/.console.fifo" bench_status=0 tee_status=0
  shift
  mkfifo -- "$fifo"
  console_filter "$console.messages" <"$fifo" &
  tee_pid=$!
  "${line_buffered[@]}" "$@" >"$console.table" 2>"$fifo" &
  bench_pid=$!
  wait "$bench_pid" || bench_status=$?
  bench_pid=""
  wait "$tee_pid" || tee_status=$?
  tee_pid=""
  rm -f -- "$fifo"
  if ((bench_status != 0)); then
    die "the bench failed with exit status $bench_status; no results kept" "$bench_status"
  fi
  ((tee_status == 0)) || die "could not write $console"
  cat -- "$console.messages" "$console.table" >"$console" || die "could not write $console"
  rm -f -- "$console.messages" "$console.table"
  # Google Benchmark colours its table whenever TERM looks like a terminal, even
  # into a file: keep no colours in the file.
  sed -i 's/\x1b\[[0-9;]*[mK]//g' "$console"
}
run_bench "$partial/console.txt" "${cmd[@]}"
[[ -s $partial/bench.json ]] || die "the bench wrote no $partial/bench.json"
# The CPU's full identity goes into the context (chbench_cpu), where index.py
# and compare.py read it. A bench.json that does not parse is left as it is,
# for plot.py to report.
"$python" - "$partial/bench.json" "$cpu_identity" <<'EOF' ||
import json, os, sys
path, identity = sys.argv[1], sys.argv[2]
try:
    with open(path) as f:
        data = json.load(f)
except (OSError, ValueError, RecursionError):
    sys.exit(0)
if isinstance(data, dict) and isinstance(data.setdefault("context", {}), dict):
    data["context"].setdefault("chbench_cpu", identity)
    with open(path + ".tmp", "w") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    os.replace(path + ".tmp", path)
EOF
  die "could not record the CPU identity in $partial/bench.json; no results kept"

# --- Re-time the configurations flagged noisy, at most $retry_noisy rounds:
# the same bench flags, narrowed to exactly those names, judged by this run's
# best canary; the quieter measurement of each goes into bench.json.
retry() { "$python" "$here/retry_noisy.py" "$@"; }
if ((retry_noisy > 0)); then
  mkdir -- "$partial/retries"
  for ((round = 1; round <= retry_noisy; round++)); do
    filter_text=$(retry filters "$partial/bench.json") ||
      die "retry_noisy.py could not read $partial/bench.json"
    [[ -n $filter_text ]] || break
    mapfile -t filters <<<"$filter_text"
    baseline=$(retry baseline "$partial/bench.json")
    echo "run.sh: retry round $round of $retry_noisy: re-timing the configurations" \
      "flagged noisy" >&2
    for ((part = 0; part < ${#filters[@]}; part++)); do
      out_json="$partial/retries/round-$round-$part.json"
      run_bench "$partial/retries/round-$round-$part.txt" "${cmd[@]}" \
        "--benchmark_filter=${filters[part]}" "--benchmark_out=$out_json" \
        ${baseline:+"--canary-baseline=$baseline"}
      [[ -s $out_json ]] || die "the bench wrote no $out_json"
      summary=$(retry merge "$partial/bench.json" "$out_json" --round "$round" \
        --record "$partial/retries.json") || die "could not merge $out_json into bench.json"
      echo "run.sh: retry $summary" >&2
    done
  done
  summary=$(retry finish "$partial/bench.json" --record "$partial/retries.json" \
    --max-rounds "$retry_noisy") || die "could not record the retries in bench.json"
  rmdir -- "$partial/retries" 2>/dev/null || true # nothing was flagged
  echo "run.sh: --retry-noisy $retry_noisy: $summary" >&2
fi

plot_status=0
"$python" "$here/plot.py" "$partial/bench.json" --out "$partial" || plot_status=$?
((plot_status == 0)) || die "plot.py failed (exit status $plot_status); no results kept" "$plot_status"
[[ -s $partial/report.md ]] || die "plot.py wrote no report.md; no results kept"
"$python" "$here/export_csv.py" "$partial" ||
  die "export_csv.py could not write medians.csv; no results kept"
"$python" "$here/compact_run.py" "$partial" >/dev/null ||
  die "compact_run.py could not make the committed form; no results kept"

# --- Into place; earlier runs are never touched.
final_name=$(free_name "$name" "")
mv -T -- "$partial" "$machine_dir/$final_name"
partial=""
created=()
"$python" "$here/index.py" "$out" ||
  die "results kept in $machine_dir/$final_name, but the index $out/README.md could not be regenerated"
# --- The guide for a fleet of --nodes nodes, from this run (the lab measures
# the keys moved and the balance). A guide that cannot be made costs the run
# nothing: the results stay, and the first screen says why in its last line.
# For a run under the repository's results/, docs/guide.md (and its plot) is
# refreshed from it.
lab=${CHBENCH_LAB:-$repo/build/$preset/lab/chbench-lab}
run_dir="$machine_dir/$final_name"
guide_log="$run_dir/.guide.log"
# The first screen's last line (summary.txt's too): the guide, or why there is
# none and what makes one; guide_note: what else became of it, after it.
guide_line="Which scheme for your fleet of $guide_nodes nodes: guide.md"
guide_note=""
no_guide() {
  guide_line="No guide: $1; scripts/guide.py RUN --nodes N --lab LAB makes one from a run with family nodes."
}
echo "run.sh: the guide for a fleet of $guide_nodes nodes (this run and the lab's moves and balance)" >&2
if [[ ! -x $lab ]]; then
  no_guide "no chbench-lab at ${lab#"$repo"/}"
elif ! "$python" "$here/guide.py" "$run_dir" --nodes "$guide_nodes" --lab "$lab" \
  --out "$run_dir" 2>"$guide_log"; then
  # guide.py's last line says why ("guide.py: error: RUN lacks ...").
  no_guide "$(tail -n 1 -- "$guide_log" | sed 's/^guide\.py: error: //')"
elif ! "$python" "$here/compact_run.py" "$run_dir" >/dev/null 2>"$guide_log"; then
  # The guide's plot in its committed form (a palette PNG), as plot.py's are.
  guide_note="the guide's plot is not in its committed form: $(tail -n 1 -- "$guide_log")"
elif [[ $out == "$repo/results" ]]; then
  for f in guide.md guide_nodes.png guide_nodes.svg; do
    if [[ -e $run_dir/$f ]]; then cp -- "$run_dir/$f" "$repo/docs/$f"; fi
  done
  guide_note="docs/guide.md is this run's guide now (commit it with the run)"
fi
rm -f -- "$guide_log"
if [[ -s $run_dir/summary.txt ]]; then
  printf '%s\n' "$guide_line" >>"$run_dir/summary.txt"
fi
elapsed=$((SECONDS - started))
# The first screen: the run's answer, from the report's summary.
if [[ -s $run_dir/summary.txt ]]; then
  echo >&2
  cat -- "$run_dir/summary.txt" >&2
  [[ -z $guide_note ]] || echo "run.sh: $guide_note" >&2
  echo "(files named above are in $run_dir)" >&2
fi
echo "run.sh: done in $((elapsed / 60)) min $((elapsed % 60)) s (sweep, plots, report and guide; the build took $((build_seconds / 60)) min $((build_seconds % 60)) s before): $machine_dir/$final_name/report.md" >&2
