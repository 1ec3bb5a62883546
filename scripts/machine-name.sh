#!/usr/bin/env bash
# Prints the folder name results/<machine>/ that scripts/run.sh uses: the CPU
# model and the number of online logical CPUs as a slug of [a-z0-9-], e.g.
# "AMD EPYC" with 2 CPUs -> amd-epyc-2c.
#
# Usage: bash scripts/machine-name.sh [MODEL CPUS]
#   Without arguments, reads this machine's CPU model and CPU count. With both,
#   slugs the given values instead (used by the tests).
set -euo pipefail

# The CPU model as the kernel or lscpu reports it; the architecture as a last
# resort (some ARM kernels name no model).
cpu_model() {
  local model=""
  if [[ -r /proc/cpuinfo ]]; then
    model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)
  fi
  if [[ -z $model ]] && command -v lscpu >/dev/null 2>&1; then
    model=$(LC_ALL=C lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
  fi
  if [[ -z $model || $model == "-" ]]; then
    model=$(uname -m)
  fi
  printf '%s\n' "$model"
}

cpu_count() {
  getconf _NPROCESSORS_ONLN 2>/dev/null || nproc
}

# Lowercase; drop trademarks, "CPU", "Processor", "N-Core" and the clock
# ("@ 2.90GHz"); every other run of characters outside [a-z0-9] becomes one "-".
slug() {
  local s
  s=$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]')
  s=$(printf '%s' "$s" | sed -E \
    -e 's/\((r|tm|c)\)//g' \
    -e 's/@.*$//' \
    -e 's/[0-9]+-core//g' \
    -e 's/(^|[^a-z0-9])(cpu|processor)([^a-z0-9]|$)/\1\3/g' \
    -e 's/[^a-z0-9]+/-/g' \
    -e 's/^-+//; s/-+$//')
  # Keep folder names short; cut at a dash boundary where possible.
  if ((${#s} > 40)); then
    s=${s:0:40}
    s=${s%-*}
  fi
  printf '%s\n' "${s:-cpu}"
}

case $# in
  0) model=$(cpu_model) count=$(cpu_count) ;;
  2) model=$1 count=$2 ;;
  *)
    echo "machine-name.sh: error: takes no arguments, or MODEL and CPUS (got $#)" >&2
    exit 2
    ;;
esac
if [[ ! $count =~ ^[1-9][0-9]{0,5}$ ]]; then
  echo "machine-name.sh: error: CPU count '$count' is not a number from 1 to 999999" >&2
  exit 2
fi
printf '%s-%sc\n' "$(slug "$model")" "$count"
