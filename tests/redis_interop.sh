#!/usr/bin/env bash
# Starts a real redis-server on loopback with cluster mode on (a single node
# answers CLUSTER KEYSLOT), in a temporary folder on a free port, runs the
# slot comparison against it, and stops the server on every exit path.
#
# Usage: redis_interop.sh [EMULATOR [ARGS...]] CHBENCH_INTEROP_REDIS
#   (a cross build passes its emulator, e.g. qemu-aarch64, before the client;
#   the server is the build machine's)
# Exit status: the comparison's (0 all equal); 1 with a message if
# redis-server is missing or does not start.
set -euo pipefail

(($# >= 1)) || {
  echo "usage: redis_interop.sh [EMULATOR [ARGS...]] CHBENCH_INTEROP_REDIS" >&2
  exit 2
}
readonly client=("$@")

fail() {
  echo "redis_interop.sh: FAILED: $*" >&2
  exit 1
}

server=$(command -v redis-server || true)
[[ -n $server ]] || fail "redis-server not found; install Debian's redis-server (scripts/install-deps.sh)"
cli=$(command -v redis-cli || true)
[[ -n $cli ]] || fail "redis-cli not found; install Debian's redis-tools (scripts/install-deps.sh)"

dir=$(mktemp -d)
pid=
cleanup() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    # Up to 10 s for a clean exit, then force it.
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf -- "$dir"
}
trap cleanup EXIT

# A free port: ask the kernel for one (bind to port 0), then hand it to
# redis-server; on the rare race with another process, try again.
free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

started=false
for attempt in 1 2 3 4 5; do
  port=$(free_port)
  "$server" --port "$port" --bind 127.0.0.1 --cluster-enabled yes \
    --cluster-config-file "$dir/nodes-$port.conf" --dir "$dir" --save '' --appendonly no \
    --daemonize no --logfile "$dir/redis-$port.log" &
  pid=$!
  for _ in $(seq 100); do
    if "$cli" -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
      started=true
      break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  $started && break
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=
done
$started || fail "redis-server did not start on loopback (log: $(tail -n 3 "$dir"/redis-*.log 2>/dev/null))"

echo "redis_interop.sh: $("$server" --version | head -n 1), cluster mode, 127.0.0.1:$port"
"${client[@]}" "$port"
