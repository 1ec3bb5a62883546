#!/usr/bin/env bash
# Installs what chbench needs to build, test, benchmark and plot, on Debian
# bookworm, with apt-get: only the packages that are missing.
#
# Usage: bash scripts/install-deps.sh   (as root when something is missing)
#
# Quiet and exit status 0 when everything is already installed, so other
# scripts call it unconditionally. When packages are missing it needs root and
# says which ones; it runs `apt-get update` only in that case.
set -euo pipefail

readonly PACKAGES=(
  cmake ninja-build g++ clang libclang-rt-14-dev pkg-config git
  libbenchmark-dev libhwy-dev libtbb-dev libxxhash-dev
  catch2 nlohmann-json3-dev libcli11-dev
  python3 python3-matplotlib
  libssl-dev libmurmurhash-dev
  libmemcached-dev libhiredis-dev redis-server
)

die() {
  echo "install-deps.sh: error: $*" >&2
  exit 1
}

# Prints the packages of PACKAGES that dpkg does not list as installed for this
# machine's architecture (or as architecture-independent). A package may also be
# there for a foreign architecture (multiarch, e.g. arm64 for cross builds):
# dpkg-query then prints one line per architecture.
missing_packages() {
  local pkg status native
  native=$(dpkg --print-architecture)
  for pkg in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status} ${Architecture}\n' "$pkg" 2>/dev/null |
      awk -v native="$native" '$1 == "installed" && ($2 == native || $2 == "all") { print "installed"; exit }' || true)
    if [[ $status != installed ]]; then
      printf '%s\n' "$pkg"
    fi
  done
}

case ${1-} in
  "") ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "install-deps.sh: error: unknown argument '$1' (it takes none; see --help)" >&2
    exit 2
    ;;
esac

command -v dpkg-query >/dev/null 2>&1 ||
  die "dpkg-query not found: this script supports Debian bookworm only; install by hand: ${PACKAGES[*]}"

mapfile -t missing < <(missing_packages)
if ((${#missing[@]} == 0)); then
  exit 0
fi

if ((EUID != 0)); then
  die "missing packages: ${missing[*]}; run as root: sudo bash scripts/install-deps.sh"
fi
command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install by hand: ${missing[*]}"

export DEBIAN_FRONTEND=noninteractive
echo "install-deps.sh: installing ${missing[*]}" >&2
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"

mapfile -t still_missing < <(missing_packages)
if ((${#still_missing[@]} != 0)); then
  die "still missing after apt-get install: ${still_missing[*]}"
fi
