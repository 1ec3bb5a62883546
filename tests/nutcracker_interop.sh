#!/usr/bin/env bash
# The twemproxy_ketama profile against a real nutcracker (twemproxy) in front
# of real memcached servers, all on loopback, in a temporary folder, on free
# ports: four fleets, each also without one server and with one weight
# changed; every key nutcracker stores is looked up on every memcached and
# compared with `chbench-lab owners --profile twemproxy_ketama`
# (nutcracker_interop.py does the work and stops every server it started).
#
# Usage: nutcracker_interop.sh CHBENCH_LAB
# Exit status: 0 all agree; 1 with a message on a disagreement; 77 (ctest's
# skip) with a message when nutcracker or memcached is missing or does not
# start.
set -euo pipefail

(($# == 1)) || {
  echo "usage: nutcracker_interop.sh CHBENCH_LAB" >&2
  exit 2
}
for program in /usr/sbin/nutcracker /usr/bin/memcached /usr/bin/python3; do
  [[ -x $program ]] || {
    echo "nutcracker_interop.sh: SKIPPED: $program not found; install Debian's nutcracker," \
      "memcached and python3 (scripts/install-deps.sh)" >&2
    exit 77
  }
done
echo "nutcracker_interop.sh: $(/usr/sbin/nutcracker --version 2>&1 | head -n 1)," \
  "$(/usr/bin/memcached --version)"
exec /usr/bin/python3 "$(dirname "$0")/nutcracker_interop.py" "$1"
