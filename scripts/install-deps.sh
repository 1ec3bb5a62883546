#!/usr/bin/env bash
# Installs what chbench needs to build, test, benchmark and plot, on Debian
# bookworm, with apt-get: only the packages that are missing. See usage().
#
# Quiet and exit status 0 when everything is already installed, so other
# scripts call it unconditionally. When packages are missing it needs root and
# says which ones; it runs `apt-get update` only in that case.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash scripts/install-deps.sh [--toolchain NAME]... [--help]

Installs with apt-get (as root) whatever this Debian bookworm machine lacks to
build and test chbench with the given toolchains (default: gcc). Prints
nothing and changes nothing when all of it is installed.

Toolchains (toolchains/NAME.cmake, one CMake preset each):
  gcc, clang                       native builds with run-time SIMD dispatch
  x86-64-v2, x86-64-v3, x86-64-v4  native GCC builds for an x86-64 baseline
  aarch64                          cross-compilation for aarch64 Linux with
                                   g++-aarch64-linux-gnu, the arm64 (multiarch)
                                   libraries, and qemu-user to run the tests;
                                   enables the arm64 architecture in dpkg

Exit status: 0 when everything is installed; 1 when something is missing and
cannot be installed (not root, no apt-get, an install that failed); 2 on a
usage error.
EOF
}

# What every toolchain needs: the native compilers, build tools (ccache for
# test.sh's builds, scripts/ccache-env.sh), libraries,
# the scripts' Python with matplotlib, and Google Benchmark's compare.py
# (libbenchmark-tools, /usr/share/benchmark; its U test needs scipy).
readonly BASE_PACKAGES=(
  cmake ninja-build g++ clang libclang-rt-14-dev pkg-config git ccache
  libbenchmark-dev libhwy-dev libtbb-dev libxxhash-dev
  catch2 nlohmann-json3-dev libcli11-dev
  python3 python3-matplotlib libbenchmark-tools python3-scipy
  libssl-dev libmurmurhash-dev zlib1g-dev
  libmemcached-dev libhiredis-dev redis-server
  nginx-core haproxy nutcracker memcached
)
# The aarch64 cross build: the cross compiler, qemu-aarch64, and the arm64
# builds of the libraries chbench links. Catch2 (header-only, Multi-Arch:
# foreign), nlohmann-json and CLI11 (Architecture: all) serve both.
# libmemcached-dev:arm64 does not co-install with the amd64 one on bookworm
# (its dependency libsasl2-dev is not Multi-Arch: same, apt would remove the
# amd64 packages): the cross build links the arm64 runtime library
# libmemcached11:arm64 with the (identical) headers of the amd64 package; see
# toolchains/aarch64-linux-gnu.cmake. redis-server runs on the build machine.
readonly AARCH64_PACKAGES=(
  g++-aarch64-linux-gnu qemu-user
  libbenchmark-dev:arm64 libhwy-dev:arm64 libtbb-dev:arm64 libxxhash-dev:arm64
  libssl-dev:arm64 libmurmurhash-dev:arm64 zlib1g-dev:arm64 libhiredis-dev:arm64 libmemcached11:arm64
)

die() {
  echo "install-deps.sh: error: $1" >&2
  exit "${2:-1}"
}

toolchains=()
while (($# > 0)); do
  case $1 in
    --toolchain)
      (($# >= 2)) || die "--toolchain needs a name (see --help)" 2
      toolchains+=("$2")
      shift
      ;;
    --toolchain=*) toolchains+=("${1#--toolchain=}") ;;
    -h | --help)
      usage
      exit 0
      ;;
    *) die "unknown option '$1' (see --help)" 2 ;;
  esac
  shift
done
((${#toolchains[@]} > 0)) || toolchains=(gcc)

packages=("${BASE_PACKAGES[@]}")
want_arm64=0
for toolchain in "${toolchains[@]}"; do
  case $toolchain in
    gcc | clang | x86-64-v2 | x86-64-v3 | x86-64-v4) ;;
    aarch64)
      want_arm64=1
      packages+=("${AARCH64_PACKAGES[@]}")
      ;;
    *) die "unknown toolchain '$toolchain' (known: gcc clang x86-64-v2 x86-64-v3 x86-64-v4 aarch64)" 2 ;;
  esac
done

command -v dpkg-query >/dev/null 2>&1 ||
  die "dpkg-query not found: this script supports Debian bookworm only; install by hand: ${packages[*]}"
native_arch=$(dpkg --print-architecture)

if ((want_arm64)) && [[ $native_arch == arm64 ]]; then
  die "this machine is arm64 already: build natively (--toolchain gcc, preset release)" 2
fi

# True when PKG is installed. A plain name means the package of this machine's
# architecture (or an Architecture: all one): once arm64 is added, dpkg lists
# a Multi-Arch package once per installed architecture. NAME:ARCH asks for that
# architecture.
installed() {
  local pkg=$1 lines
  if [[ $pkg == *:* ]]; then
    [[ $(dpkg-query -W -f='${db:Status-Status}\n' "$pkg" 2>/dev/null) == installed ]]
    return
  fi
  lines=$(dpkg-query -W -f='${Architecture} ${db:Status-Status}\n' "$pkg" 2>/dev/null) || return 1
  grep -qxE "($native_arch|all) installed" <<<"$lines"
}

# Prints the packages that dpkg does not list as installed.
missing_packages() {
  local pkg
  for pkg in "${packages[@]}"; do
    installed "$pkg" || printf '%s\n' "$pkg"
  done
}

# arm64 packages can only be installed (or even seen by apt) once dpkg knows
# the architecture.
need_arch=0
if ((want_arm64)) && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  need_arch=1
fi

mapfile -t missing < <(missing_packages)
if ((${#missing[@]} == 0 && need_arch == 0)); then
  exit 0
fi

if ((EUID != 0)); then
  what="missing packages: ${missing[*]}"
  ((need_arch == 0)) || what="the arm64 architecture is not enabled in dpkg; $what"
  die "$what; run as root: sudo bash scripts/install-deps.sh ${toolchains[*]/#/--toolchain }"
fi
command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install by hand: ${missing[*]}"

export DEBIAN_FRONTEND=noninteractive
if ((need_arch)); then
  echo "install-deps.sh: enabling the arm64 architecture (dpkg --add-architecture arm64)" >&2
  dpkg --add-architecture arm64
fi
echo "install-deps.sh: installing ${missing[*]}" >&2
# Wait for another apt or dpkg run (another user's install) instead of failing.
apt_get=(apt-get -o DPkg::Lock::Timeout=600)
"${apt_get[@]}" update -qq
"${apt_get[@]}" install -y -qq --no-install-recommends "${missing[@]}"

mapfile -t still_missing < <(missing_packages)
if ((${#still_missing[@]} != 0)); then
  die "still missing after apt-get install: ${still_missing[*]}"
fi
