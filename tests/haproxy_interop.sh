#!/usr/bin/env bash
# The haproxy_consistent and haproxy_map profiles against a real haproxy
# (Debian's /usr/sbin/haproxy, 2.6): one haproxy process, started in the
# foreground from a temporary configuration on free loopback ports, holds
#   - one small frontend per server, which answers every request with the
#     server's name (`http-request return ... string`),
#   - for each fleet (3, 5 and 12 servers, with weights), the fleet with one
#     server line removed and the fleet with one weight changed, under
#     `hash-type consistent` and under `hash-type map-based`: a frontend and
#     its backend with `balance url_param key` and the servers, named and
#     numbered as the profiles read a fleet (name = node name, implicit ids
#     1, 2, ... in line order),
#   - a frontend that answers with the hash converters (sdbm, djb2, wt6,
#     crc32, each without and with avalanche) of the key.
# 10,000 keys go to each backend (pipelined HTTP/1.1 keep-alive requests
# GET /?key=K); the server that answered is compared key for key with the
# lab's `owners` for the same fleet, and the converters' values with the
# library's hashes (CHBENCH_HAPROXY_HASHES prints them).
#
# Usage: haproxy_interop.sh CHBENCH_LAB CHBENCH_HAPROXY_HASHES
# HAPROXY names another haproxy binary (default /usr/sbin/haproxy).
# Exit status: 0 all agree; 1 a difference (listed) or a configuration that
# haproxy refuses; 77 (ctest's skip) with a message when haproxy is missing
# or cannot start.
set -euo pipefail

(($# == 2)) || {
  echo "usage: haproxy_interop.sh CHBENCH_LAB CHBENCH_HAPROXY_HASHES" >&2
  exit 2
}

haproxy=${HAPROXY:-/usr/sbin/haproxy}
if [[ ! -x $haproxy ]]; then
  echo "haproxy_interop.sh: SKIPPED: $haproxy not found; install Debian's haproxy (scripts/install-deps.sh)" >&2
  exit 77
fi

dir=$(mktemp -d)
trap 'rm -rf -- "$dir"' EXIT

status=0
/usr/bin/python3 - "$1" "$2" "$haproxy" "$dir" <<'PYTHON' || status=$?
import csv
import random
import socket
import subprocess
import sys
import threading
import time

lab, hashes_bin, haproxy, work = sys.argv[1:5]
SKIP = 77
KEYS = 10000
BATCH = 200  # requests in flight on one connection

# Three fleets; each case changes one: a removal (the middle server line) and
# a weight change (the second server's).
FLEETS = {
    "f3": [2, 4, 6],  # map-based divides them by their gcd, 2
    "f5": [1, 2, 3, 4, 5],
    "f12": [10, 256, 1, 37, 2, 100, 3, 64, 5, 17, 8, 200],
}
NEW_WEIGHT = {"f3": 8, "f5": 7, "f12": 128}
METHODS = {"consistent": "haproxy_consistent", "map-based": "haproxy_map"}


def fail(msg):
    print("haproxy_interop.sh: FAILED: " + msg, file=sys.stderr)
    sys.exit(1)


def skip(msg):
    print("haproxy_interop.sh: SKIPPED: " + msg, file=sys.stderr)
    sys.exit(SKIP)


def free_ports(count):
    socks = []
    for _ in range(count):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def make_keys():
    rng = random.Random(2606)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    keys = ["user:%d" % i for i in range(1, KEYS // 2 + 1)]
    seen = set(keys)
    while len(keys) < KEYS:
        k = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 64)))
        if k not in seen:
            seen.add(k)
            keys.append(k)
    return keys


def make_cases(server_names):
    cases = []
    for fleet, weights in FLEETS.items():
        names = server_names[fleet]
        removed = len(names) // 2
        variants = {
            "base": (names, weights),
            "removal": (names[:removed] + names[removed + 1:], weights[:removed] + weights[removed + 1:]),
            "weight": (names, weights[:1] + [NEW_WEIGHT[fleet]] + weights[2:]),
        }
        for method in METHODS:
            for variant, (n, w) in variants.items():
                cases.append({"name": "%s_%s_%s" % (fleet, method.replace("-", ""), variant),
                              "method": method, "names": n, "weights": w})
    return cases


def config(server_ports, cases, hash_port):
    lines = ["global", "  maxconn 2000", "defaults", "  mode http", "  timeout connect 5s",
             "  timeout client 60s", "  timeout server 60s", ""]
    for name, port in server_ports.items():
        lines += ["frontend answer_%d" % port, "  bind 127.0.0.1:%d" % port,
                  '  http-request return status 200 content-type text/plain string "%s"' % name, ""]
    for c in cases:
        lines += ["frontend lb_%s" % c["name"], "  bind 127.0.0.1:%d" % c["port"],
                  "  default_backend be_%s" % c["name"], "backend be_%s" % c["name"],
                  "  balance url_param key", "  hash-type %s" % c["method"]]
        lines += ["  server %s %s weight %d" % (n, n, w) for n, w in zip(c["names"], c["weights"])]
        lines.append("")
    conv = " ".join("%%[url_param(key),%s(%d)]" % (f, a)
                    for f in ("sdbm", "djb2", "wt6", "crc32") for a in (0, 1))
    lines += ["frontend hashes", "  bind 127.0.0.1:%d" % hash_port,
              '  http-request return status 200 content-type text/plain lf-string "%s"' % conv, ""]
    return "\n".join(lines)


def read_response(f):
    status = f.readline()
    if not status.startswith(b"HTTP/1.1 200"):
        raise RuntimeError("unexpected response %r" % status)
    length = None
    while True:
        line = f.readline()
        if line in (b"\r\n", b""):
            break
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            length = int(v)
    if length is None:
        raise RuntimeError("a response without content-length")
    return f.read(length).decode()


def ask(port, keys):
    """The body answered to GET /?key=K for each key, pipelined on one connection."""
    answers = []
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        f = s.makefile("rb")
        for start in range(0, len(keys), BATCH):
            chunk = keys[start:start + BATCH]
            s.sendall(b"".join(b"GET /?key=%s HTTP/1.1\r\nHost: lb\r\n\r\n" % k.encode()
                               for k in chunk))
            answers += [read_response(f) for _ in chunk]
    return answers


def lab_owners(case, keyfile):
    out = subprocess.run([lab, "owners", "--profile", METHODS[case["method"]], "--nodes",
                          ",".join(case["names"]), "--weights",
                          ",".join(map(str, case["weights"])), "--keys", keyfile, "--format",
                          "csv"], capture_output=True, text=True)
    if out.returncode != 0:
        fail("lab owners for %s: status %d: %s" % (case["name"], out.returncode, out.stderr.strip()))
    rows = list(csv.reader(out.stdout.splitlines()))
    return {r[0]: r[1] for r in rows[1:]}


def start(cfg_path):
    check = subprocess.run([haproxy, "-c", "-f", cfg_path], capture_output=True, text=True)
    if check.returncode != 0:
        fail("haproxy -c refuses the configuration: " + (check.stdout + check.stderr).strip())
    proc = subprocess.Popen([haproxy, "-db", "-f", cfg_path], stdout=subprocess.DEVNULL,
                            stderr=open(cfg_path + ".log", "w"))
    return proc


def wait_ready(proc, ports, cfg_path):
    deadline = time.time() + 10
    for port in ports:
        while True:
            if proc.poll() is not None:
                return False
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline:
                    return False
                time.sleep(0.05)
    return True


def compare_hashes(keys, port):
    got = ask(port, keys)
    want = subprocess.run([hashes_bin], input="".join(k + "\n" for k in keys),
                          capture_output=True, text=True, check=True).stdout.splitlines()
    bad = [(k, g, w) for k, g, w in zip(keys, got, want) if g.strip() != w]
    for k, g, w in bad[:5]:
        print("  hashes of %r: haproxy %s, chbench %s" % (k, g, w), file=sys.stderr)
    return len(bad)


def main():
    keys = make_keys()
    keyfile = work + "/keys.txt"
    with open(keyfile, "w") as f:
        f.write("".join(k + "\n" for k in keys))
    total_servers = sum(len(w) for w in FLEETS.values())
    probe = make_cases({f: ["x"] * len(w) for f, w in FLEETS.items()})
    ports = free_ports(total_servers + len(probe) + 1)
    server_names, server_ports, at = {}, {}, 0
    for fleet, weights in FLEETS.items():
        server_names[fleet] = ["127.0.0.1:%d" % p for p in ports[at:at + len(weights)]]
        for n, p in zip(server_names[fleet], ports[at:at + len(weights)]):
            server_ports[n] = p
        at += len(weights)
    cases = make_cases(server_names)
    for c in cases:
        c["port"] = ports[at]
        at += 1
    hash_port = ports[at]
    cfg_path = work + "/haproxy.cfg"
    with open(cfg_path, "w") as f:
        f.write(config(server_ports, cases, hash_port))
    proc = start(cfg_path)
    try:
        if not wait_ready(proc, ports, cfg_path):
            with open(cfg_path + ".log") as log:
                skip("haproxy did not start on loopback: " + log.read().strip()[-400:])
        version = subprocess.run([haproxy, "-v"], capture_output=True, text=True).stdout
        print("haproxy_interop.sh: " + version.splitlines()[0])
        answers = {}

        def run(c):
            try:
                answers[c["name"]] = ask(c["port"], keys)
            except Exception as e:  # reported below as a missing answer
                answers[c["name"]] = e

        threads = [threading.Thread(target=run, args=(c,)) for c in cases]
        for t in threads:
            t.start()
        bad_hashes = compare_hashes(keys, hash_port)
        for t in threads:
            t.join()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    failures = 0
    for c in cases:
        got = answers[c["name"]]
        if isinstance(got, Exception):
            print("  %s: no answers: %s" % (c["name"], got), file=sys.stderr)
            failures += 1
            continue
        want = lab_owners(c, keyfile)
        diff = [(k, g, want.get(k)) for k, g in zip(keys, got) if want.get(k) != g]
        print("  %-28s %2d servers, weights %-40s %d keys, %d differ" %
              (c["name"], len(c["names"]), ",".join(map(str, c["weights"])), len(keys), len(diff)))
        for k, g, w in diff[:5]:
            print("    key %r: haproxy %s, lab %s" % (k, g, w), file=sys.stderr)
        failures += bool(diff)
        idle = sorted(set(c["names"]) - set(got))
        if idle:  # every server of these fleets owns keys: a check that the answers vary
            print("    %s: no key reached %s" % (c["name"], ", ".join(idle)), file=sys.stderr)
            failures += not diff
    print("  hash converters (sdbm, djb2, wt6, crc32, +avalanche): %d keys, %d differ" %
          (len(keys), bad_hashes))
    if failures or bad_hashes:
        fail("%d of %d backends and %d keys' hashes differ" % (failures, len(cases), bad_hashes))
    print("haproxy_interop.sh: all %d backends and the hash converters agree" % len(cases))


main()
PYTHON
exit $status
