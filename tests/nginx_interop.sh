#!/usr/bin/env bash
# Starts the real nginx (Debian's nginx-core) on loopback in a temporary
# folder (its own pid file, logs and temp paths; never /etc/nginx, never port
# 80), with backend servers that answer their own name and one proxy port a
# fleet, each an upstream under `hash $arg_key consistent` or `hash $arg_key`;
# sends the keys through every proxy and compares each answering backend with
# `chbench-lab owners --profile nginx_consistent|nginx_hash`.
#
# Usage: nginx_interop.sh CHBENCH_LAB
# Exit status: 0 all equal; 1 on a difference; 77 (skipped) if nginx is
# missing or does not start.
set -euo pipefail

(($# == 1)) || {
  echo "usage: nginx_interop.sh CHBENCH_LAB" >&2
  exit 2
}
readonly lab=$1
nginx=/usr/sbin/nginx
[[ -x $nginx ]] || {
  echo "nginx_interop.sh: SKIPPED: $nginx not found; install Debian's nginx-core (scripts/install-deps.sh)" >&2
  exit 77
}
dir=$(mktemp -d)
trap 'rm -rf -- "$dir"' EXIT
exec /usr/bin/python3 - "$nginx" "$lab" "$dir" <<'PY'
import csv, http.client, socket, subprocess, sys, threading, time
nginx, lab, d = sys.argv[1:4]
KEYS = [f"user:{i}" for i in range(10000)]
with open(f"{d}/keys.txt", "w") as f:
    f.write("\n".join(KEYS) + "\n")

def free_ports(n):
    """n distinct free ports: every socket stays bound until all are."""
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports

# Three fleets (weights), each also with one server removed and one weight changed.
FLEETS = [[1, 1, 1], [1, 2, 3, 1], [2, 1, 1, 5, 3]]
# One call for every port: ports taken in two calls may repeat, and a proxy
# listening on a backend's port would be answered by the backend.
ports = free_ports(5 + 6 * len(FLEETS))
backends = [f"127.0.0.1:{p}" for p in ports[:5]]
scenarios = []
for weights in FLEETS:
    fleet = list(zip(backends, weights))
    removed = fleet[:1] + fleet[2:]
    changed = [(s, w + 2 if i == len(fleet) - 1 else w) for i, (s, w) in enumerate(fleet)]
    for servers in (fleet, removed, changed):
        for profile in ("nginx_consistent", "nginx_hash"):
            scenarios.append((profile, servers))
proxies = ports[5:]
assert len(proxies) == len(scenarios)

conf = [f"daemon off; master_process off; pid {d}/nginx.pid; error_log {d}/error.log;",
        "events { worker_connections 256; }", "http {", "access_log off;"]
for t in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
    conf.append(f"{t}_temp_path {d}/{t};")
for b in backends:
    conf.append(f'server {{ listen {b}; location / {{ return 200 "{b}"; }} }}')
for i, ((profile, servers), port) in enumerate(zip(scenarios, proxies)):
    method = "hash $arg_key consistent;" if profile == "nginx_consistent" else "hash $arg_key;"
    # max_fails=0 and proxy_next_upstream off: a request that fails under load
    # is answered as a failure (and asked again) instead of nginx marking the
    # server down and placing the next keys elsewhere.
    lines = " ".join(f"server {s} weight={w} max_fails=0;" for s, w in servers)
    conf.append(f"upstream u{i} {{ {method} {lines} keepalive 8; }}")
    conf.append(f"server {{ listen 127.0.0.1:{port}; location / {{ proxy_pass http://u{i}; "
                "proxy_http_version 1.1; proxy_set_header Connection \"\"; "
                "proxy_next_upstream off; } }")
conf.append("}")
with open(f"{d}/nginx.conf", "w") as f:
    f.write("\n".join(conf) + "\n")

proc = subprocess.Popen([nginx, "-p", d, "-c", f"{d}/nginx.conf", "-e", f"{d}/error.log"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
def up():
    try:
        socket.create_connection(("127.0.0.1", proxies[-1]), timeout=0.2).close()
        return True
    except OSError:
        return False
for _ in range(100):
    if proc.poll() is not None or up():
        break
    time.sleep(0.05)
if proc.poll() is not None or not up():
    err = proc.stderr.read().decode(errors="replace") if proc.poll() is not None else ""
    proc.kill()
    sys.stderr.write(f"nginx_interop.sh: SKIPPED: nginx did not start: {err}\n")
    sys.exit(77)

def ask(port, keys, out):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for k in keys:
        for attempt in range(3):  # a failed request (502, reset) is asked again
            try:
                c.request("GET", "/?key=" + k)
                r = c.getresponse()
                body = r.read().decode()
                if r.status == 200:
                    out[k] = body
                    break
            except (OSError, http.client.HTTPException):
                c.close()
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.close()

status = 0
try:
    for (profile, servers), port in zip(scenarios, proxies):
        got = {}
        threads = [threading.Thread(target=ask, args=(port, KEYS[j::4], got)) for j in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        nodes = ",".join(s for s, _ in servers)
        weights = ",".join(str(w) for _, w in servers)
        res = subprocess.run([lab, "owners", "--profile", profile, "--nodes", nodes,
                              "--weights", weights, "--keys", f"{d}/keys.txt", "--format", "csv"],
                             capture_output=True, text=True, check=True)
        want = {row["key"]: row["owner"] for row in csv.DictReader(res.stdout.splitlines())}
        bad = [k for k in KEYS if got.get(k) != want.get(k)]
        label = f"{profile} {nodes} weights {weights}"
        if bad:
            status = 1
            k = bad[0]
            print(f"FAILED {label}: {len(bad)} keys differ, e.g. {k}: nginx {got.get(k)}, "
                  f"lab {want.get(k)}")
        else:
            print(f"ok {label}: {len(KEYS)} keys agree")
finally:
    proc.terminate()
    proc.wait(timeout=10)
sys.exit(status)
PY
