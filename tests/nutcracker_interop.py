"""The twemproxy_ketama profile against the real nutcracker (nutcracker_interop.sh).

Starts memcached servers on loopback, then for each of four fleets and for
each of three configurations of it (the fleet, the fleet without one server,
the fleet with one weight changed) starts nutcracker with `distribution:
ketama` and `hash: fnv1a_64` over them, stores keys through it (memcached
text protocol, pipelined), asks every memcached directly which keys it holds,
and compares key for key with `chbench-lab owners --profile twemproxy_ketama`
for the same servers and weights. It also checks that nutcracker's stats name
each server as the profile does (its point base name: the name field, else
"host" on port 11211, else "host:port").

Usage: nutcracker_interop.py LAB   (LAB: the chbench-lab binary)
Exit status: 0 all agree, 1 a disagreement or a failure (with a message),
77 when nutcracker or memcached cannot start here.
"""

import hashlib
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time

SKIP = 77
NUTCRACKER = "/usr/sbin/nutcracker"
MEMCACHED = "/usr/bin/memcached"
KEYS = 12000


class Skip(Exception):
    pass


class Failure(Exception):
    pass


def free_ports(n, host="127.0.0.1"):
    """n distinct free ports: every socket stays bound until all are (ports
    taken one call at a time may repeat)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind((host, 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def can_bind(host, port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
            return True
        except OSError:
            return False


def connect(host, port, timeout=10.0):
    deadline = time.monotonic() + timeout
    while True:
        try:
            s = socket.create_connection((host, port), timeout=5)
            s.settimeout(20)
            return s
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


class Reader:
    """Buffered reads of CRLF lines and byte counts from a socket."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def _fill(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise Failure("connection closed by the server")
        self.buf += chunk

    def line(self):
        while b"\r\n" not in self.buf:
            self._fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def skip(self, n):
        while len(self.buf) < n:
            self._fill()
        self.buf = self.buf[n:]


def store(port, keys, batch=500):
    """Sets every key through nutcracker (pipelined), expecting STORED each."""
    with connect("127.0.0.1", port) as s:
        r = Reader(s)
        for i in range(0, len(keys), batch):
            part = keys[i:i + batch]
            s.sendall(b"".join(b"set " + k + b" 0 0 1\r\nv\r\n" for k in part))
            for k in part:
                reply = r.line()
                if reply != b"STORED":
                    raise Failure(f"nutcracker answered {reply!r} to set {k!r}")


def held_keys(host, port, keys, batch=100):
    """The keys of `keys` that the memcached at host:port holds (multi-gets)."""
    held = set()
    with connect(host, port) as s:
        r = Reader(s)
        for i in range(0, len(keys), batch):
            s.sendall(b"get " + b" ".join(keys[i:i + batch]) + b"\r\n")
            while True:
                line = r.line()
                if line == b"END":
                    break
                fields = line.split(b" ")
                if fields[0] != b"VALUE":
                    raise Failure(f"memcached {host}:{port} answered {line!r}")
                held.add(fields[1])
                r.skip(int(fields[3]) + 2)
    return held


def flush(host, port):
    with connect(host, port) as s:
        s.sendall(b"flush_all\r\n")
        if Reader(s).line() != b"OK":
            raise Failure(f"memcached {host}:{port} did not flush")


def make_keys(seed):
    """Keys memcached takes (no space or control byte, <= 250 bytes): user:i,
    random printable ones, and some with bytes >= 0x80 (fnv1a_64's signed bytes)."""
    rng = random.Random(seed)
    keys = {f"user:{i}".encode() for i in range(1, KEYS // 2)}
    printable = bytes(range(0x21, 0x7F))
    high = bytes(range(0x80, 0x100))
    while len(keys) < KEYS:
        n = rng.randint(1, 60)
        pool = printable if rng.random() < 0.8 else printable + high
        keys.add(bytes(rng.choice(pool) for _ in range(n)))
    return sorted(keys)


def nutcracker_name(server):
    """nutcracker's name of a server line "host:port[ name]" (conf_add_server)."""
    address, _, name = server.partition(" ")
    if name:
        return name
    host, _, port = address.rpartition(":")
    return host if int(port) == 11211 else address


class Memcacheds:
    def __init__(self, workdir):
        self.procs = []
        self.workdir = workdir

    def start(self, host, port):
        args = [MEMCACHED, "-l", host, "-p", str(port), "-U", "0", "-m", "8", "-t", "1", "-c", "64"]
        if os.geteuid() == 0:
            args += ["-u", "nobody"]
        log = open(os.path.join(self.workdir, f"memcached-{host}-{port}.log"), "wb")
        self.procs.append(subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT))
        try:
            connect(host, port, timeout=5).close()
        except OSError:
            raise Skip(f"memcached does not start on {host}:{port}")

    def stop(self):
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()


def config_text(listen, servers, weights):
    lines = ["pool:", f"  listen: 127.0.0.1:{listen}", "  hash: fnv1a_64",
             "  distribution: ketama", "  auto_eject_hosts: false", "  timeout: 5000",
             "  servers:"]
    for server, weight in zip(servers, weights):
        address, _, name = server.partition(" ")
        line = f"{address}:{weight}" + (f" {name}" if name else "")
        lines.append(f'    - "{line}"')
    return "\n".join(lines) + "\n"


def nutcracker_stats_names(port):
    with connect("127.0.0.1", port) as s:
        data = b""
        while True:
            chunk = s.recv(1 << 16)
            if not chunk:
                break
            data += chunk
    pool = json.loads(data)["pool"]
    return {k for k, v in pool.items() if isinstance(v, dict)}


def run_nutcracker(workdir, tag, servers, weights):
    """Starts nutcracker for the servers; returns (process, listen port, stats port)."""
    listen, stats = free_ports(2)
    conf = os.path.join(workdir, f"{tag}.yml")
    with open(conf, "w") as f:
        f.write(config_text(listen, servers, weights))
    args = [NUTCRACKER, "-c", conf, "-p", os.path.join(workdir, f"{tag}.pid"),
            "-o", os.path.join(workdir, f"{tag}.log"), "-s", str(stats), "-a", "127.0.0.1"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        connect("127.0.0.1", listen, timeout=5).close()
    except OSError:
        proc.kill()
        raise Skip(f"nutcracker does not start (log: {os.path.join(workdir, tag + '.log')})")
    return proc, listen, stats


def lab_owners(lab, workdir, servers, weights, keys):
    """The lab's owner name of each key, in order."""
    nodes = os.path.join(workdir, "nodes.txt")
    keyfile = os.path.join(workdir, "keys.hex")
    with open(nodes, "w") as f:
        f.write("\n".join(servers) + "\n")
    with open(keyfile, "w") as f:
        f.write("\n".join(k.hex() for k in keys) + "\n")
    out = subprocess.run([lab, "owners", "--profile", "twemproxy_ketama", "--nodes-file", nodes,
                          "--weights", ",".join(map(str, weights)), "--keys", keyfile,
                          "--key-format", "hex", "--format", "csv", "--threads", "1"],
                         capture_output=True, check=False)
    if out.returncode != 0:
        raise Failure(f"the lab failed ({out.returncode}): {out.stderr.decode(errors='replace')}")
    rows = [row.rsplit(b",", 2) for row in out.stdout.split(b"\n")[1:] if row]
    if len(rows) != len(keys):
        raise Failure(f"the lab printed {len(rows)} owners for {len(keys)} keys")
    return [r[1].decode() for r in rows], [int(r[2]) for r in rows]


TIE = 3667602854  # MD5 word 0 of "s5622:11212-15", word 2 of "s10051:11212-32"


def keys_at_tie(servers, hashes):
    """How many keys land on the equal point of the "ties" fleet: key hashes
    above the continuum's greatest other point below it (160 points each)."""
    points = set()
    for server in servers:
        name = server.partition(" ")[2]
        for g in range(40):
            digest = hashlib.md5(f"{name}-{g}".encode()).digest()
            points.update(int.from_bytes(digest[4 * k:4 * k + 4], "little") for k in range(4))
    below = max(p for p in points if p < TIE)
    return sum(1 for h in hashes if below < h <= TIE)


def compare(lab, workdir, memcacheds, tag, servers, weights, keys):
    address = {s: s.partition(" ")[0].rpartition(":") for s in servers}
    for host, _, port in address.values():
        flush(host, int(port))
    proc, listen, stats = run_nutcracker(workdir, tag, servers, weights)
    try:
        names = nutcracker_stats_names(stats)
        want_names = {nutcracker_name(s) for s in servers}
        if names != want_names:
            raise Failure(f"{tag}: nutcracker names its servers {sorted(names)}, "
                          f"the profile {sorted(want_names)}")
        store(listen, keys)
    finally:
        proc.terminate()
        proc.wait(timeout=5)
    holder = {}
    for server, (host, _, port) in address.items():
        for k in held_keys(host, int(port), keys):
            if k in holder:
                raise Failure(f"{tag}: key {k!r} is on both {holder[k]} and {server}")
            holder[k] = server
    owners, hashes = lab_owners(lab, workdir, servers, weights, keys)
    missing = [k for k in keys if k not in holder]
    if missing:
        raise Failure(f"{tag}: {len(missing)} keys held by no memcached, e.g. {missing[0]!r}")
    wrong = [(k, holder[k], o) for k, o in zip(keys, owners) if holder[k] != o]
    if wrong:
        k, got, want = wrong[0]
        raise Failure(f"{tag}: {len(wrong)} of {len(keys)} keys differ; first {k!r}: "
                      f"nutcracker put it on {got}, the profile says {want}")
    at_tie = keys_at_tie(servers, hashes) if tag == "ties" else 0
    print(f"nutcracker_interop: {tag}: {len(keys)} keys, {len(servers)} servers, "
          f"weights {weights}: all agree" + (f" ({at_tie} at the equal point)" if at_tie else ""))


def loopback_11211(count, rng):
    """`count` loopback addresses on which port 11211 is free."""
    found = []
    while len(found) < count:
        host = f"127.{rng.randint(1, 254)}.{rng.randint(1, 254)}.{rng.randint(1, 254)}"
        if host not in found and can_bind(host, 11211):
            found.append(host)
    return found


def fleets(rng):
    """Four fleets of server lines, each with its weights (three variants each)."""
    ports = free_ports(5)
    local = [f"127.0.0.1:{p}" for p in ports]
    default_port = [f"{h}:11211" for h in loopback_11211(4, rng)]
    named = [f"127.0.0.1:{p} cache-{c}" for p, c in zip(ports, "abcde")]
    return [
        ("fleet1", local[:3], [1, 1, 1]),
        ("fleet2", default_port, [1, 2, 3, 4]),
        ("fleet3", named, [5, 1, 1, 2, 1]),
        # Two names with one equal point (MD5 words of "s5622:11212-15" and
        # "s10051:11212-32"): nutcracker gives it to the name it sorts first,
        # the shorter, though it is listed second and is the greater string.
        ("ties", [f"127.0.0.1:{ports[0]} s10051:11212", f"127.0.0.1:{ports[1]} s5622:11212"],
         [1, 1]),
    ]


def variants(name, servers, weights):
    yield f"{name}", servers, weights
    gone = len(servers) // 2
    yield (f"{name}-without-{gone}", servers[:gone] + servers[gone + 1:],
           weights[:gone] + weights[gone + 1:])
    changed = list(weights)
    changed[0] += 2
    yield f"{name}-weight-{changed[0]}", servers, changed


def main():
    if len(sys.argv) != 2:
        print("usage: nutcracker_interop.py LAB", file=sys.stderr)
        return 2
    lab = sys.argv[1]
    for program in (NUTCRACKER, MEMCACHED):
        if not shutil.which(program):
            print(f"nutcracker_interop: SKIPPED: {program} not found; install Debian's "
                  "nutcracker and memcached (scripts/install-deps.sh)", file=sys.stderr)
            return SKIP
    rng = random.Random(20210713)
    workdir = tempfile.mkdtemp(prefix="chbench-nutcracker-")
    memcacheds = Memcacheds(workdir)
    try:
        plan = fleets(rng)
        started = set()
        for _, servers, _ in plan:
            for s in servers:
                host, _, port = s.partition(" ")[0].rpartition(":")
                if (host, port) not in started:
                    memcacheds.start(host, int(port))
                    started.add((host, port))
        keys = make_keys(7)
        for name, servers, weights in plan:
            for tag, s, w in variants(name, servers, weights):
                compare(lab, workdir, memcacheds, tag, s, w, keys)
        print("nutcracker_interop: nutcracker 0.5.0 and the twemproxy_ketama profile agree")
        return 0
    except Skip as e:
        print(f"nutcracker_interop: SKIPPED: {e}", file=sys.stderr)
        return SKIP
    except Failure as e:
        print(f"nutcracker_interop: FAILED: {e}", file=sys.stderr)
        return 1
    finally:
        memcacheds.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
