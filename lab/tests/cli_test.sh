#!/usr/bin/env bash
# Command-line checks of chbench-lab: --help, the shape of each command's
# output, and bad input (one line "chbench-lab: error: ..." on stderr, nothing on
# stdout, exit status 2).
# Usage: cli_test.sh [EMULATOR [ARGS...]] PATH/TO/chbench-lab
#   (a cross build passes its emulator, e.g. qemu-aarch64, before the lab)
set -u
(($# >= 1)) || {
  echo "usage: cli_test.sh [EMULATOR [ARGS...]] PATH/TO/chbench-lab" >&2
  exit 2
}
lab=("$@")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# run NAME ARGS...: runs the lab, leaves status in $status, output in files.
run() {
  "${lab[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
  status=$?
}

# bad WHAT PATTERN ARGS...: expects exit 2, empty stdout, one stderr line
# starting "chbench-lab: error: " and containing PATTERN.
bad() {
  local what=$1 pattern=$2
  shift 2
  run "$@"
  [[ $status -eq 2 ]] || fail "$what: exit status $status, want 2"
  [[ ! -s $tmp/out ]] || fail "$what: wrote to stdout: $(head -c 200 "$tmp/out")"
  [[ $(wc -l <"$tmp/err") -eq 1 ]] || fail "$what: stderr is not one line: $(cat "$tmp/err")"
  grep -q '^chbench-lab: error: ' "$tmp/err" || fail "$what: no 'chbench-lab: error:' prefix"
  grep -qi -- "$pattern" "$tmp/err" || fail "$what: message lacks '$pattern': $(cat "$tmp/err")"
}

# ---- help ------------------------------------------------------------------------
for cmd in "" owners move balance; do
  run $cmd --help
  [[ $status -eq 0 ]] || fail "$cmd --help: status $status"
  grep -q -- '--scheme\|owners' "$tmp/out" || fail "$cmd --help: no help on stdout"
  [[ -z $cmd ]] || grep -q -- '--key-format TEXT  *how the lines of --keys FILE are read: text' "$tmp/out" ||
    fail "$cmd --help: no --key-format"
done
# --nodes names the schemes that hold no names for N, from the registry's flag.
run owners --help
grep -q 'bounded by the scheme only: modn (N <= 4294967295), jump (N <= 2147483647)' "$tmp/out" ||
  fail "owners --help: --nodes lacks the bucket schemes"

# Every scheme of the registry, Maglev included, is offered, and move's help
# says what a leave means for each.
run owners --help
for scheme in modn ring hrw jump maglev; do
  grep -- '--scheme' "$tmp/out" | grep -q "$scheme" || fail "owners --help: --scheme lacks $scheme"
done
run move --help
for scheme in modn ring hrw jump maglev; do
  grep -q "^  $scheme  *[a-z]" "$tmp/out" || fail "move --help: no leave note for $scheme"
done
grep -q -- 'nodes that leave: .*(jump[a-z_, ]*: only the last ones)' "$tmp/out" || fail "move --help: --remove"

# The default kernel is the registry's (the lowest rank, listed in --help), and
# it is the kernel a run names in its report: the default's output is byte for
# byte the output with that kernel named.
run balance --help
defaults=$(grep -o "fastest in the registry: [^;]*" "$tmp/out")
[[ -n $defaults ]] || fail "balance --help: no list of default kernels"
for scheme in modn ring hrw jump maglev; do
  run owners --scheme $scheme --nodes 7 --keys 500 --format json
  cp "$tmp/out" "$tmp/default.json"
  kernel=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernel"])' "$tmp/out")
  [[ $kernel == $scheme/* && $defaults == *"$kernel"* ]] ||
    fail "owners $scheme: kernel '$kernel' is not the registry's default ($defaults)"
  run owners --scheme $scheme --nodes 7 --keys 500 --format json --kernel "${kernel#*/}"
  cmp -s "$tmp/out" "$tmp/default.json" || fail "owners $scheme: default differs from --kernel ${kernel#*/}"
  # The full name "scheme/kernel" is the same kernel.
  run owners --scheme $scheme --nodes 7 --keys 500 --format json --kernel "$kernel"
  cmp -s "$tmp/out" "$tmp/default.json" || fail "owners $scheme: default differs from --kernel $kernel"
done
bad "--kernel of another scheme" "is a kernel of scheme jump, not of ring" \
  owners --scheme ring --nodes 3 --keys 3 --kernel jump/scalar

# ---- owners ----------------------------------------------------------------------
run owners --scheme ring --nodes 5 --keys 1000 --format csv
[[ $status -eq 0 ]] || fail "owners csv: status $status"
[[ $(head -n1 "$tmp/out") == "key,owner" ]] || fail "owners csv: header $(head -n1 "$tmp/out")"
[[ $(wc -l <"$tmp/out") -eq 1001 ]] || fail "owners csv: $(wc -l <"$tmp/out") lines"
[[ $(sed -n 2p "$tmp/out") == user:1,node-* ]] || fail "owners csv: first row $(sed -n 2p "$tmp/out")"
cp "$tmp/out" "$tmp/fast.csv"
for scheme in modn ring hrw jump maglev; do
  run owners --scheme $scheme --nodes 7 --keys 3000 --format csv
  cp "$tmp/out" "$tmp/fast.csv"
  run owners --scheme $scheme --nodes 7 --keys 3000 --format csv --kernel reference
  cmp -s "$tmp/out" "$tmp/fast.csv" || fail "owners $scheme: fast kernel differs from reference"
done

# Named nodes, keys from a CRLF file and from standard input give the same owners.
printf 'user:1\r\nuser:2\r\n\r\nuser:3\r\n' >"$tmp/keys.txt"
run owners --scheme hrw --nodes a,b,c --keys "$tmp/keys.txt" --format csv
cp "$tmp/out" "$tmp/file.csv"
[[ $(wc -l <"$tmp/file.csv") -eq 4 ]] || fail "owners from file: $(cat "$tmp/file.csv")"
"${lab[@]}" owners --scheme hrw --nodes a,b,c --keys - --format csv <"$tmp/keys.txt" >"$tmp/out"
cmp -s "$tmp/out" "$tmp/file.csv" || fail "owners from stdin differs from file"
run owners --scheme hrw --nodes a,b,c --keys 3 --format csv
cmp -s "$tmp/out" "$tmp/file.csv" || fail "owners of counted keys differ from the same keys in a file"
run owners --scheme jump --nodes 3 --keys 2 --format json
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [o["key"] for o in d["owners"]]==["user:1","user:2"], d' "$tmp/out" ||
  fail "owners json: $(cat "$tmp/out")"

# ---- key hashes and fleets of buckets -------------------------------------------------
# --key-format hash: each line a 64-bit key hash given to the scheme unhashed, printed
# back in decimal. The expected owners come from the published algorithms, written
# here apart from the lab in Python: jump hash (Lamping and Veach, figure 1; Python's
# float is the same IEEE double) at N = 2^31 - 1, and h mod N at N = 2^32 - 1, with
# no name held (node-<bucket> printed from the index).
printf '0\n 1 \r\n\n0xFFFFFFFFFFFFFFFF\n0x10\n12345678901234567\n\t9223372036854775808\n' >"$tmp/hashes.txt"
cat >"$tmp/jumphash.py" <<'PY'
"""Jump hash, Lamping and Veach, figure 1 (Python's float is the same IEEE double)."""
def jump(key, n):
    b, j = -1, 0
    while j < n:
        b = j
        key = (key * 2862933555777941757 + 1) % 2**64
        j = int(float(b + 1) * (float(1 << 31) / float((key >> 33) + 1)))
    return b
PY
cat >"$tmp/expect.py" <<'PY'
"""owners N jump|modn: key<TAB>owner of hashes.txt's values; grow: move 1000 -> 1001 --list csv."""
import sys
from jumphash import jump

if sys.argv[1] == "owners":
    n, how = int(sys.argv[2]), sys.argv[3]
    for h in [0, 1, 2**64 - 1, 16, 12345678901234567, 2**63]:
        print(f"{h}\tnode-{jump(h, n) if how == 'jump' else h % n}")
else:
    print("key,from,to")
    for h in range(3000):
        if jump(h, 1001) == 1000:
            print(f"{h},node-{jump(h, 1000)},node-1000")
PY
expect_owners() { /usr/bin/python3 "$tmp/expect.py" owners "$@"; }
expect_owners 2147483647 jump >"$tmp/want.txt"
run owners --scheme jump --nodes 2147483647 --key-format hash --keys "$tmp/hashes.txt"
[[ $status -eq 0 ]] || fail "owners jump N = 2^31 - 1 from hashes: status $status: $(cat "$tmp/err")"
cmp -s "$tmp/out" "$tmp/want.txt" || fail "owners jump N = 2^31 - 1 from hashes: $(diff "$tmp/want.txt" "$tmp/out")"
grep -q '^1	node-262355607$' "$tmp/want.txt" || fail "the Python jump hash itself: $(cat "$tmp/want.txt")"
"${lab[@]}" owners --scheme jump --nodes 2147483647 --key-format hash --keys - --kernel reference \
  <"$tmp/hashes.txt" >"$tmp/out"
cmp -s "$tmp/out" "$tmp/want.txt" || fail "owners jump/reference from stdin hashes: $(diff "$tmp/want.txt" "$tmp/out")"
expect_owners 4294967295 modn >"$tmp/want.txt"
run owners --scheme modn --nodes 4294967295 --key-format hash --keys "$tmp/hashes.txt"
cmp -s "$tmp/out" "$tmp/want.txt" || fail "owners modn N = 2^32 - 1 from hashes: $(diff "$tmp/want.txt" "$tmp/out")"
run owners --scheme jump --nodes 2147483647 --key-format hash --keys "$tmp/hashes.txt" --format csv
[[ $(sed -n '1p;4p' "$tmp/out" | tr '\n' ' ') == "key,owner 18446744073709551615,node-699554662 " ]] ||
  fail "owners csv from hashes: $(head -n4 "$tmp/out")"
run owners --scheme jump --nodes 2147483647 --key-format hash --keys "$tmp/hashes.txt" --format json
/usr/bin/python3 - "$tmp/out" <<'PY' || fail "owners json of a fleet of buckets: $(head -c 300 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["node_count"] == 2147483647 and d["nodes"] is None and d["key_format"] == "hash", d
assert d["owners"][3] == {"key": "16", "owner": "node-1280091993"}, d["owners"]
PY
# Named nodes are listed in the header, with their count.
run owners --scheme hrw --nodes a,b,c --keys 3 --format json
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["nodes"]==["a","b","c"] and d["node_count"]==3, d' "$tmp/out" ||
  fail "owners json of named nodes: $(head -c 300 "$tmp/out")"
# A move at N = 2^31 - 1 keeps no names: the last bucket leaves, quickly and in little memory.
run move --scheme jump --nodes 2147483647 --remove node-2147483646 --keys 1000
[[ $status -eq 0 ]] && grep -q '^nodes     2147483647 -> 2147483646 (removed node-2147483646)$' "$tmp/out" ||
  fail "move at N = 2^31 - 1: $(cat "$tmp/out" "$tmp/err")"
# Growing 1000 -> 1001 from key hashes: the moved keys are exactly those jump hash puts
# in bucket 1000 of 1001 (Python, apart), each from its bucket among 1000.
seq 0 2999 >"$tmp/seq.txt"
/usr/bin/python3 "$tmp/expect.py" grow >"$tmp/want.txt"
run move --scheme jump --nodes 1000 --add node-1000 --key-format hash --keys "$tmp/seq.txt" --list --format csv
cmp -s "$tmp/out" "$tmp/want.txt" || fail "move jump 1000 -> 1001 from hashes: $(diff "$tmp/want.txt" "$tmp/out")"
[[ $(wc -l <"$tmp/want.txt") -gt 1 ]] || fail "move jump 1000 -> 1001: no key expected to move"
# Bad key hashes, and --key-format hash where it cannot apply.
printf '5\n\n0x1f\n12abc\n' >"$tmp/badhash.txt"
printf '1\n18446744073709551616\n' >"$tmp/bighash.txt"
bad "a line that is not a key hash" "line 4 holds '12abc', not a 64-bit key hash" \
  owners --scheme jump --nodes 10 --key-format hash --keys "$tmp/badhash.txt"
bad "a key hash past 2^64 - 1" "line 2 holds '18446744073709551616', past 2^64 - 1" \
  balance --scheme hrw --nodes 3 --key-format hash --keys "$tmp/bighash.txt"
bad "key hashes that are text keys" "line 1 holds 'user:1'" \
  owners --scheme ring --nodes 3 --key-format hash --keys "$tmp/keys.txt"
bad "counted keys as key hashes" "--keys 1000 is a count of keys user:1 ... user:K" \
  owners --scheme jump --nodes 10 --key-format hash --keys 1000
bad "the default keys as key hashes" "key-format hash needs --keys FILE" \
  move --scheme jump --nodes 10 --key-format hash --add node-10
bad "key hashes with a profile" "the maglev profile hashes each key string its own way" \
  owners --profile maglev --nodes 3 --key-format hash --keys "$tmp/hashes.txt"
bad "unknown key format" "unknown key format 'hex64' (known: text, hex, base64, hash)" \
  owners --scheme ring --nodes 3 --key-format hex64 --keys "$tmp/hashes.txt"
bad "jump at 2^31 buckets" "at most 2147483647 buckets" owners --scheme jump --nodes 2147483648 --keys 3
# LIFO at any N: refused by index, before any memory is estimated.
bad "jump middle removal at N = 2^31 - 1" \
  "can only remove the last bucket(s): 'node-3' is bucket 3 of 0..2147483646, so only the last, 'node-2147483646', can be removed" \
  move --scheme jump --nodes 2147483647 --remove node-3
bad "jump removal of a bucket it lacks" "unknown node 'node-2147483647' in --remove" \
  move --scheme jump --nodes 2147483647 --remove node-2147483647
bad "jump add of a bucket it has" "node 'node-3' in --add is already in --nodes" \
  move --scheme jump --nodes 2147483647 --add node-3
bad "a name other than node-<N> names every bucket" "nodes held by name .* would need about" \
  move --scheme jump --nodes 2147483647 --add x
# Balance counts every bucket (8 B each): refused where 2^32 - 1 of them do not fit.
available_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
if [[ -n $available_kib && $available_kib -lt 36000000 ]]; then
  bad "balance over 2^32 - 1 buckets" "balance's key count of every one of N = 4294967295 modn buckets (8 B a bucket) would need about 32.0 GiB" \
    balance --scheme modn --nodes 4294967295
fi

# ---- move ------------------------------------------------------------------------
run move --scheme modn --nodes 4 --add node-4 --format json
[[ $status -eq 0 ]] || fail "move modn: status $status"
/usr/bin/python3 - "$tmp/out" <<'PY' || fail "move modn json: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["keys"] == 100000 and d["nodes_before"] == 4 and d["nodes_after"] == 5, d
assert abs(d["moved_fraction"] - 0.8) < 0.01, d
assert abs(d["between_old_share_of_moved"] - 0.75) < 0.01, d
assert d["added"] == ["node-4"] and d["flows_to_added"][0]["donors"] == 4, d
PY
run move --scheme ring --vnodes 1 --nodes 6 --remove node-2 --format csv
grep -q '^measure,from,to,keys,fraction$' "$tmp/out" || fail "move csv header: $(head -n1 "$tmp/out")"
[[ $(grep -c '^flow,node-2,' "$tmp/out") -eq 1 ]] || fail "ring V=1 removal: not one receiver"
run move --scheme jump --nodes 5 --remove node-4 --keys 2000 --list --format csv
[[ $(head -n1 "$tmp/out") == "key,from,to" ]] || fail "move --list csv header"
grep -q ',node-4,' "$tmp/out" || fail "move --list: no key from node-4"
! grep -v -q '^key,from,to$\|,node-4,' "$tmp/out" || fail "move --list: a key that node-4 did not own"
run move --scheme hrw --nodes 3 --add x --keys 100 --list
[[ $status -eq 0 ]] && grep -q 'moved keys' "$tmp/out" || fail "move --list text"

# ---- balance -----------------------------------------------------------------------
run balance --scheme ring --vnodes 16 --nodes 5 --rings 4 --keys 10000 --format json
/usr/bin/python3 - "$tmp/out" <<'PY' || fail "balance json: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rings"] == 4 and len(d["per_ring"]) == 4, d
names = {n["name"] for r in d["per_ring"] for n in r["nodes"]}
assert len(names) == 20, names
assert abs(sum(n["circle_share"] for n in d["per_ring"][0]["nodes"]) - 1) < 1e-9
assert "pooled" in d["summary"]["circle"]["share_std_pct"]
PY
run balance --scheme hrw --nodes 4 --keys 1000 --format csv
[[ $(head -n1 "$tmp/out") == "ring,node,keys,key_share,circle_share" ]] || fail "balance csv header"
[[ $(wc -l <"$tmp/out") -eq 5 ]] || fail "balance csv rows"
run balance --scheme ring --nodes a,b --keys 1000 --threads 1
[[ $status -eq 0 ]] && grep -q 'busiest / mean' "$tmp/out" || fail "balance text"

# ---- removal scenarios -------------------------------------------------------------
# Every command takes the scenario options, and says so.
for cmd in owners move balance; do
  run $cmd --help
  for opt in --capacity --removed --remove-fraction --removal-order --seed --readd; do
    grep -q -- "^  $opt " "$tmp/out" || fail "$cmd --help: no $opt"
  done
done
run balance --help
grep -A1 -- '^  --remove-fraction' "$tmp/out" | grep -q 'scenario: the shares of --nodes removed, F\[,F...\]' ||
  fail "balance --help: --remove-fraction is not a list"
# The LIFO-only schemes are named from the registry's removal rule.
run move --help
grep -A1 -- '^  --removed' "$tmp/out" | grep -q "(jump[a-z_, ]*: LIFO only, the last node first)" ||
  fail "move --help: --removed"

# Expected values apart from the lab, in Python: jump hash (Lamping and Veach, figure 1)
# over key hashes 0 ... 2999 after LIFO removals and re-adds.
cat >"$tmp/scen.py" <<'PY'
"""owners N: key<TAB>owner of hashes 0..5; move N REMOVED READDS; balance N F...: csv rows."""
import sys
from jumphash import jump

keys = range(3000)
what = sys.argv[1]
if what == "owners":
    for h in range(6):
        print(f"{h}\tnode-{jump(h, int(sys.argv[2]))}")
elif what == "move":
    n, gone, back = map(int, sys.argv[2:5])
    before, after = (n, n - gone) if back == 0 else (n - gone, n - gone + back)
    moved = sum(jump(h, before) != jump(h, after) for h in keys)
    if back == 0:
        print(moved, 0, moved, 0)  # moved, between_old, from_removed, to_added
    else:
        old = sum(n - gone <= jump(h, n) < n - gone + back for h in keys)
        relocated = sum(jump(h, after) != jump(h, n) for h in keys)
        print(moved, 0, 0, moved, old, old, relocated)
else:
    n = int(sys.argv[2])
    print("fraction,removed,nodes,keys,min,max")
    for f in sys.argv[3:]:
        gone = min(int(float(f) * n + 0.5), n - 1)
        counts = [0] * (n - gone)
        for h in keys:
            counts[jump(h, n - gone)] += 1
        print(f"{f},{gone},{n - gone},3000,{min(counts)},{max(counts)}")
PY
scen() { /usr/bin/python3 "$tmp/scen.py" "$@"; }
seq 0 5 >"$tmp/six.txt"
# owners after a LIFO scenario: jump over the buckets left, nameless even at N = 2^31 - 1
# (round(0.5 x N) = 1073741824 removed).
scen owners 1073741823 >"$tmp/want.txt"
run owners --scheme jump --nodes 2147483647 --remove-fraction 0.5 --key-format hash --keys "$tmp/six.txt"
cmp -s "$tmp/out" "$tmp/want.txt" || fail "owners jump after half removed: $(diff "$tmp/want.txt" "$tmp/out") $(cat "$tmp/err")"
scen owners 8 >"$tmp/want.txt"
run owners --scheme jump --nodes 10 --removed node-9,node-8,node-7 --readd 1 --key-format hash --keys "$tmp/six.txt"
cmp -s "$tmp/out" "$tmp/want.txt" || fail "owners jump after --removed and --readd: $(diff "$tmp/want.txt" "$tmp/out")"
# The other schemes after --removed place keys as over the survivors' list itself.
for scheme in ring hrw maglev modn; do
  run owners --scheme $scheme --nodes 10 --removed node-3,node-7,node-0 --keys 3000 --format csv
  cp "$tmp/out" "$tmp/scenario.csv"
  run owners --scheme $scheme --nodes node-1,node-2,node-4,node-5,node-6,node-8,node-9 --keys 3000 --format csv
  cmp -s "$tmp/out" "$tmp/scenario.csv" || fail "owners $scheme --removed: differs from the survivors' list"
done
# Over a named list, FIFO removes its first names and a re-add appends the last removed.
run owners --scheme hrw --nodes e,a,d,b,c --remove-fraction 0.4 --removal-order fifo --readd 1 --keys 500 --format csv
cp "$tmp/out" "$tmp/scenario.csv"
run owners --scheme hrw --nodes d,b,c,a --keys 500 --format csv
cmp -s "$tmp/out" "$tmp/scenario.csv" || fail "owners over a named list after FIFO and a re-add"
run owners --scheme ring --nodes 8 --remove-fraction 0.5 --removal-order random --seed 3 --keys 2 --format json
/usr/bin/python3 - "$tmp/out" <<'PY' || fail "owners json of a scenario: $(head -c 600 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["scenario"]
assert s == {"initial_nodes": 8, "order": "random", "seed": 3, "remove_fractions": [0.5],
             "removed": None, "readds": 0}, s
assert d["node_count"] == 4 and len(d["nodes"]) == 4 and d["capacity"] is None, d
PY

# move: the scenario's removals, then its re-adds (jump: counted in Python).
move_counts() {
  /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["returns"] or {}
print(*[d[k] for k in ("moved","between_old","from_removed","to_added")],
      *[r[k] for k in ("readded_old_keys","returned","relocated") if r])' "$tmp/out"
}
seq 0 2999 >"$tmp/seq.txt"
run move --scheme jump --nodes 10 --remove-fraction 0.3 --key-format hash --keys "$tmp/seq.txt" --format json
[[ $(move_counts) == "$(scen move 10 3 0)" ]] || fail "move jump removals: $(move_counts) want $(scen move 10 3 0)"
grep -q '"step": "removals"' "$tmp/out" || fail "move jump removals: no step"
run move --scheme jump --nodes 10 --remove-fraction 0.3 --readd 2 --key-format hash --keys "$tmp/seq.txt" --format json
[[ $(move_counts) == "$(scen move 10 3 2)" ]] || fail "move jump re-adds: $(move_counts) want $(scen move 10 3 2)"
run move --scheme jump --nodes 2147483647 --remove-fraction 0.9 --readd 5 --keys 1000
[[ $status -eq 0 ]] && grep -q '^nodes     214748365 -> 214748370 (added node-214748365, ' "$tmp/out" ||
  fail "move jump re-adds at N = 2^31 - 1: $(cat "$tmp/out" "$tmp/err")"
# A scenario's removals move the keys the same --remove moves from --nodes.
for scheme in ring hrw maglev; do
  run move --scheme $scheme --nodes 12 --removed node-3,node-7 --keys 5000 --format json
  got=$(move_counts)
  run move --scheme $scheme --nodes 12 --remove node-3,node-7 --keys 5000 --format json
  [[ $got == "$(move_counts)" ]] || fail "move $scheme --removed: $got, --remove gives $(move_counts)"
done
# Maglev's re-add: counted apart from owners over the node lists written out.
run move --scheme maglev --nodes 6 --removed node-1,node-4 --readd 1 --keys 5000 --format json
got=$(move_counts)
"${lab[@]}" owners --scheme maglev --nodes 6 --keys 5000 --format csv >"$tmp/o0.csv"
"${lab[@]}" owners --scheme maglev --nodes node-0,node-2,node-3,node-5 --keys 5000 --format csv >"$tmp/o1.csv"
"${lab[@]}" owners --scheme maglev --nodes node-0,node-2,node-3,node-5,node-4 --keys 5000 --format csv >"$tmp/o2.csv"
want=$(/usr/bin/python3 - "$tmp"/o0.csv "$tmp"/o1.csv "$tmp"/o2.csv <<'PY'
import csv, sys
o0, o1, o2 = ([r["owner"] for r in csv.DictReader(open(f))] for f in sys.argv[1:])
moved = sum(a != b for a, b in zip(o1, o2))
to_added = sum(a != b and b == "node-4" for a, b in zip(o1, o2))
old = sum(x == "node-4" for x in o0)
back = sum(x == "node-4" and y == "node-4" for x, y in zip(o0, o2))
print(moved, moved - to_added, 0, to_added, old, back, sum(x != y for x, y in zip(o0, o2)))
PY
)
[[ $got == "$want" ]] || fail "move maglev re-add: $got, want $want"
[[ $(cut -d' ' -f2 <<<"$want") -gt 0 ]] || fail "move maglev re-add: no key between survivors ($want)"
run move --scheme hrw --nodes 10 --remove-fraction 0.3 --removal-order random --seed 1 --readd 3 --keys 2000
grep -q '^relocated 0 keys, 0.000% of all keys' "$tmp/out" && grep -q '^step      the scenario.s re-adds' "$tmp/out" ||
  fail "move hrw full re-add text: $(cat "$tmp/out")"
run move --scheme hrw --nodes 10 --removed node-2 --remove node-5 --keys 2000 --format csv
grep -q '^flow,node-5,' "$tmp/out" || fail "move --remove after a scenario: no flow from node-5"

# balance: a row per fraction (jump: min and max counted in Python).
run balance --scheme jump --nodes 10 --remove-fraction 0,0.3,0.5,0.9 --key-format hash --keys "$tmp/seq.txt" --format csv
cut -d, -f1-6 "$tmp/out" >"$tmp/got.csv"
scen balance 10 0 0.3 0.5 0.9 >"$tmp/want.csv"
cmp -s "$tmp/got.csv" "$tmp/want.csv" || fail "balance jump fractions: $(diff "$tmp/want.csv" "$tmp/got.csv")"
run balance --scheme maglev --nodes 20 --remove-fraction 0.1,0.5 --removal-order fifo --keys 4000 --format json
/usr/bin/python3 - "$tmp/out" <<'PY' || fail "balance json of a scenario: $(head -c 800 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["removals"]
assert [(r["fraction"], r["removed"], r["nodes"]) for r in rows] == [(0.1, 2, 18), (0.5, 10, 10)], rows
for r in rows:
    assert r["min"] <= r["mean"] <= r["max"] and abs(r["busiest_over_mean"] - r["max"] / r["mean"]) < 1e-12, r
assert d["scenario"]["order"] == "fifo", d
PY
run balance --scheme ring --nodes 6 --removed node-1 --keys 1000
[[ $status -eq 0 ]] && grep -q 'busiest / mean' "$tmp/out" && grep -q '^scenario  6 nodes, 1 removed in the order given$' "$tmp/out" ||
  fail "balance text of a scenario: $(cat "$tmp/out")"

# Refusals, each by the registry's entry (removal rule, parameters).
bad "jump FIFO" "jump hash takes LIFO removal only (its buckets are 0 ... N-1: only the last can leave), not --removal-order fifo; any order: ring, hrw, maglev" \
  move --scheme jump --nodes 10 --remove-fraction 0.3 --removal-order fifo
bad "jump random at N = 2^31 - 1" "takes LIFO removal only" \
  balance --scheme jump --nodes 2147483647 --remove-fraction 0.1 --removal-order random
bad "jump --removed out of LIFO order" "removal 2 of --removed must be 'node-8', the last node in service, not 'node-7'" \
  owners --scheme jump --nodes 10 --removed node-9,node-7 --keys 3
bad "jump --removed at N = 2^31 - 1" "removal 1 of --removed must be 'node-2147483646'" \
  owners --scheme jump --nodes 2147483647 --removed node-3 --keys 3
bad "--capacity where no scheme takes it" "--capacity applies to the schemes dx, anchor only, not to hrw" \
  owners --scheme hrw --nodes 10 --capacity 100 --keys 3
bad "--capacity with a profile" "--capacity applies to the schemes" \
  owners --profile ketama --nodes 3 --capacity 30 --keys 3
bad "--probes where no scheme takes it" "--probes applies to the scheme multiprobe only, not to ring" \
  owners --scheme ring --nodes 10 --probes 3 --keys 3
bad "--probes 0" "multiprobe: probes k = 0 must be 1 to 4096" \
  owners --scheme multiprobe --nodes 10 --probes 0 --keys 3
# Multi-probe with one probe is the ring with one token a node, key for key.
run owners --scheme multiprobe --nodes 7 --probes 1 --keys 500
cut -f2 "$tmp/out" >"$tmp/multiprobe.txt"
run owners --scheme ring --nodes 7 --vnodes 1 --keys 500
cut -f2 "$tmp/out" | cmp -s - "$tmp/multiprobe.txt" && [[ $(wc -l <"$tmp/multiprobe.txt") -eq 500 ]] ||
  fail "multiprobe --probes 1 differs from ring --vnodes 1"
# Replica sets. owners --replicas: R distinct names a row, the first the owner.
# --vnodes only where it applies (the ring).
for scheme in ring hrw; do
  v=(); [[ $scheme == ring ]] && v=(--vnodes 4)
  run owners --scheme $scheme --nodes 6 "${v[@]}" --keys 300 --replicas 3 --format csv
  cp "$tmp/out" "$tmp/sets.csv"
  run owners --scheme $scheme --nodes 6 "${v[@]}" --keys 300 --format csv
  /usr/bin/python3 - "$tmp/sets.csv" "$tmp/out" <<'PY' || fail "owners --replicas 3 ($scheme)"
import csv, sys
sets = list(csv.reader(open(sys.argv[1])))
owners = list(csv.reader(open(sys.argv[2])))
assert sets[0] == ["key", "owner", "replica_2", "replica_3"], sets[0]
assert len(sets) == 301 and all(len(set(r[1:])) == 3 for r in sets[1:])
assert [r[1] for r in sets[1:]] == [r[1] for r in owners[1:]]
PY
  # A leave with R = N - 1 after it: a key's set changes exactly when the
  # leaver was not its last choice of all N (owners --replicas N, by the
  # reference), and by exactly one new member.
  run owners --scheme $scheme --nodes 4 "${v[@]}" --keys 2000 --replicas 4 --kernel reference --format csv
  want=$(tail -n +2 "$tmp/out" | cut -d, -f5 | grep -vcx node-3)
  run move --scheme $scheme --nodes 4 "${v[@]}" --keys 2000 --remove node-3 --replicas 3 --format json
  /usr/bin/python3 - "$tmp/out" "$want" <<'PY' || fail "move --replicas 3 ($scheme): $(cat "$tmp/out")"
import json, sys
r = json.load(open(sys.argv[1]))["replica_sets"]
want = int(sys.argv[2])
assert r["replicas"] == 3 and r["changed"] == want and r["new_members"] == want, (r, want)
assert r["keys_by_new_members"] == [2000 - want, want, 0, 0], r
PY
done
run move --scheme ring --nodes 10 --vnodes 20 --keys 5000 --add node-10 --replicas 3
grep -q '^replica sets (R = 3): ' "$tmp/out" || fail "move --replicas text: $(cat "$tmp/out")"
bad "--replicas above N" "R = 4 replicas need at least 4 nodes (the fleet has 3)" \
  owners --scheme hrw --nodes 3 --replicas 4 --keys 3
bad "--replicas above N after a leave" "R = 3 replicas need at least 3 nodes (the fleet has 2)" \
  move --scheme hrw --nodes 3 --remove node-0 --replicas 3 --keys 3
bad "--replicas for Maglev" "Maglev has no replica sets" owners --scheme maglev --nodes 3 --replicas 2 --keys 3
bad "--replicas for jump" "jump hash has no replica sets" owners --scheme jump --nodes 3 --replicas 2 --keys 3
bad "--replicas with a kernel without them" "ring/eytzinger has no replica lookup" \
  owners --scheme ring --kernel eytzinger --nodes 3 --replicas 2 --keys 3
bad "--replicas with a profile" "--replicas applies to --scheme" \
  owners --profile ketama --nodes 3 --replicas 2 --keys 3
bad "--readd without a scenario" "--readd needs a removal scenario" move --scheme hrw --nodes 3 --readd 1
bad "--readd 0" "readd" owners --scheme hrw --nodes 3 --removed node-1 --readd 0 --keys 3
bad "more re-adds than removals" "3 re-adds, but the scenario removes 2 nodes" \
  move --scheme hrw --nodes 10 --removed node-1,node-2 --readd 3
bad "more re-adds than LIFO removals" "4 re-adds, but the scenario removes 3 nodes" \
  balance --scheme jump --nodes 10 --remove-fraction 0.3 --readd 4
bad "--readd with --add" "it excludes --add and --remove" \
  move --scheme hrw --nodes 10 --removed node-1 --readd 1 --add x
bad "a list of fractions for move" "takes one fraction here (balance takes a list" \
  move --scheme hrw --nodes 10 --remove-fraction 0.1,0.2
bad "fraction 1" "--remove-fraction: '1' is not a fraction of the nodes, at least 0 and below 1" \
  balance --scheme hrw --nodes 10 --remove-fraction 0,1
bad "fraction not a number" "--remove-fraction: 'half'" owners --scheme hrw --nodes 10 --remove-fraction half --keys 3
bad "unknown removal order" "unknown removal order 'LIFO' (known: lifo, fifo, random" \
  owners --scheme hrw --nodes 10 --remove-fraction 0.1 --removal-order LIFO --keys 3
bad "order without a fraction" "--removal-order needs --remove-fraction" \
  owners --scheme hrw --nodes 10 --removal-order fifo --keys 3
bad "seed without random" "--seed applies to --removal-order random only" \
  owners --scheme hrw --nodes 10 --remove-fraction 0.1 --seed 4 --keys 3
bad "--removed and --remove-fraction" "excludes" owners --scheme hrw --nodes 10 --removed node-1 --remove-fraction 0.1 --keys 3
bad "--removed unknown" "removed node 'node-10' is not one of node-0 ... node-9" \
  owners --scheme hrw --nodes 10 --removed node-10 --keys 3
bad "--removed not in a named list" "removed node 'z' is not in the initial node list" \
  owners --scheme hrw --nodes a,b,c --removed z --keys 3
bad "--removed twice" "node 'node-1' is removed twice" owners --scheme ring --nodes 4 --removed node-1,node-1 --keys 3
bad "--removed every node" "removes every node" balance --scheme maglev --nodes a,b --removed b,a
bad "a scenario with a profile" "the removal scenario options (--removed, --remove-fraction, --readd) apply to --scheme" \
  owners --profile redis --nodes 5 --removed node-1 --keys 3
bad "a scenario with --rings" "does not combine with a removal scenario" \
  balance --scheme hrw --nodes 5 --removed node-1 --rings 3
bad "a random scenario that names 2^32 - 1 buckets" "the removal scenario over N = 4294967295 nodes (random order, seed 0 names every bucket; LIFO would not) would need about" \
  owners --scheme modn --nodes 4294967295 --remove-fraction 0.5 --removal-order random --keys 3

# ---- bad input -----------------------------------------------------------------------
: >"$tmp/empty.txt"
printf '\n\r\n' >"$tmp/blank.txt"
bad "unknown scheme" "unknown scheme 'anchorhash'" owners --scheme anchorhash --nodes 3 --keys 3
bad "unknown node in --remove" "unknown node 'node-9'" move --scheme ring --nodes 4 --remove node-9
bad "empty key file" "no keys" owners --scheme ring --nodes 3 --keys "$tmp/empty.txt"
bad "blank key file" "no keys" balance --scheme ring --nodes 3 --keys "$tmp/blank.txt"
bad "empty stdin" "no keys" owners --scheme ring --nodes 3 --keys - </dev/null
bad "missing key file" "cannot open" owners --scheme ring --nodes 3 --keys "$tmp/none.txt"
bad "N = 0" "N = 0" owners --scheme hrw --nodes 0 --keys 3
bad "N = 0 in move" "N = 0" move --scheme modn --nodes 0 --add x
bad "K = 0" "K = 0" balance --scheme hrw --nodes 3 --keys 0
bad "V = 0" "V = 0" balance --scheme ring --nodes 3 --vnodes 0
bad "jump middle removal" "only remove the last bucket" move --scheme jump --nodes 5 --remove node-1
bad "remove everything" "N = 0" move --scheme hrw --nodes a --remove a
bad "add existing" "already" move --scheme hrw --nodes 3 --add node-1
bad "move without change" "--add" move --scheme hrw --nodes 3
bad "add and remove" "excludes" move --scheme hrw --nodes 3 --add x --remove node-1
bad "duplicate node" "duplicate" balance --scheme ring --nodes a,b,a
bad "unknown format" "unknown format" balance --scheme ring --nodes 3 --format xml
bad "unknown kernel" "unknown kernel" balance --scheme ring --nodes 3 --kernel nope
bad "rings = 0" "rings" balance --scheme ring --nodes 3 --rings 0
bad "rings with modn" "every repetition" balance --scheme modn --nodes 3 --rings 5
bad "rings enormous" "at most 100000" balance --scheme ring --nodes 3 --rings 4000000000
bad "key file is a directory" "cannot read keys" owners --scheme ring --nodes 3 --keys /
bad "non-numeric V" "vnodes" balance --scheme ring --nodes 3 --vnodes many
bad "missing --scheme" "scheme" owners --nodes 3 --keys 3
bad "missing --keys" "keys" owners --scheme ring --nodes 3
bad "no command" "subcommand" --scheme ring
bad "unknown command" "unknown command 'shuffle'" shuffle --scheme ring --nodes 3
bad "unknown option" "--frobnicate" balance --scheme ring --nodes 3 --frobnicate
bad "too many tokens" "tokens" balance --scheme ring --nodes 100000 --vnodes 100000

# ---- profiles ---------------------------------------------------------------------
# Each profile's default kernel equals its reference; owners carry the system's own
# key hash (Redis: the slot of "user:1", 10778, as CLUSTER KEYSLOT answers it).
for profile in ketama ketama_unweighted redis kafka cassandra maglev haproxy_consistent haproxy_map envoy_maglev go_redis_ring groupcache envoy_ring_hash grpc_ring_hash nginx_consistent nginx_hash; do
  run owners --profile $profile --nodes 7 --keys 3000 --format csv
  [[ $status -eq 0 ]] || fail "owners --profile $profile: status $status"
  cp "$tmp/out" "$tmp/fast.csv"
  run owners --profile $profile --nodes 7 --keys 3000 --format csv --kernel reference
  cmp -s "$tmp/out" "$tmp/fast.csv" || fail "owners --profile $profile: kernel differs from reference"
  run balance --profile $profile --nodes 7 --keys 20000 --format json
  grep -q "\"profile\": \"$profile\"" "$tmp/out" || fail "balance --profile $profile: no profile in JSON"
done
run owners --profile redis --nodes 3 --keys 1 --format csv
[[ $(sed -n 1p "$tmp/out") == "key,owner,slot" ]] || fail "redis owners: header $(head -n1 "$tmp/out")"
[[ $(sed -n 2p "$tmp/out") == "user:1,node-1,10778" ]] || fail "redis owners: $(sed -n 2p "$tmp/out")"
# Kafka adds a partition: keys move like mod-N (12 -> 13: 12/13 of them).
run move --profile kafka --nodes 12 --add node-12 --keys 100000 --format json
grep -q '"moved_fraction": 0.92' "$tmp/out" || fail "kafka 12 -> 13: $(grep moved_fraction "$tmp/out")"
# A ketama server with weight 3 of 5 takes about 3/5 of the keys.
run balance --profile ketama --nodes a,b,c --weights 3,1,1 --keys 100000 --format csv
share=$(awk -F, '$2 == "a" { print $4 }' "$tmp/out")
awk -v s="$share" 'BEGIN { exit !(s > 0.5 && s < 0.7) }' || fail "ketama weight 3 of 5: share $share"
bad "scheme and profile" "one of them" owners --scheme ring --profile ketama --nodes 3 --keys 3
bad "unknown profile" "unknown profile 'memcache'" owners --profile memcache --nodes 3 --keys 3
bad "weights count" "2 weights for 3 nodes" owners --profile ketama --nodes 3 --weights 1,2 --keys 3
bad "weight 0" "not a weight" owners --profile ketama --nodes 2 --weights 1,0 --keys 3
bad "weights elsewhere" "the profiles ketama, haproxy_consistent" owners --profile redis --nodes 2 --weights 1,1 --keys 3
bad "weights, unweighted ketama" "not to the ketama_unweighted profile" owners --profile ketama_unweighted --nodes 2 --weights 1,1 --keys 3
run balance --profile ketama_unweighted --nodes a,b,c --keys 100 --format csv
[[ $(tail -n +2 "$tmp/out" | cut -d, -f6 | tr '\n' ' ') == "100 100 100 " ]] || fail "ketama_unweighted points: $(cat "$tmp/out")"
# HAProxy's map-based hash (balance uri on four servers, HAProxy's
# reg-tests/balance/balance-uri.vtc): /url1 ... /url4 go to srv2, srv3, srv4,
# srv1; a map of weights 1,2,3 holds exactly 1, 2 and 3 slots of 6.
printf '/url1\n/url2\n/url3\n/url4\n' >"$tmp/uris.txt"
run owners --profile haproxy_map --nodes srv1,srv2,srv3,srv4 --keys "$tmp/uris.txt" --format csv
[[ $(tail -n +2 "$tmp/out" | cut -d, -f2 | tr '\n' ' ') == "srv2 srv3 srv4 srv1 " ]] || fail "haproxy_map balance-uri.vtc: $(cat "$tmp/out")"
run balance --profile haproxy_map --nodes a,b,c --weights 1,2,3 --keys 60000 --format csv
[[ $(awk -F, '$2 == "c" { print $5 }' "$tmp/out") == "0.5" ]] || fail "haproxy_map weights: $(cat "$tmp/out")"
run move --profile haproxy_consistent --nodes a,b,c,d --weights 1,2,3,4 --add e --keys 20000 --format json
[[ $status -eq 0 ]] || fail "haproxy_consistent move: status $status"
for profile in haproxy_consistent haproxy_map; do
  bad "$profile weight 257" "every weight must be 1 ... 256" owners --profile $profile --nodes 2 --weights 1,257 --keys 3
  bad "$profile weight 0" "not a weight" owners --profile $profile --nodes 2 --weights 1,0 --keys 3
  bad "$profile server name" "server name 'web 1'" owners --profile $profile --nodes "web 1,b" --keys 3
  bad "$profile duplicate server" "duplicate" owners --profile $profile --nodes a,b,a --keys 3
done
bad "haproxy_map too large" "more than 2^31 steps" owners --profile haproxy_map --nodes 100000 --keys 3
# twemproxy_ketama: nutcracker's servers are host:port (its name field after a
# space); the default kernel equals the reference; owners, move and balance
# answer; bad servers and weights are refused.
tw=(--profile twemproxy_ketama --nodes "10.0.0.1:11211,10.0.0.2:11212,10.0.0.3:11213")
run owners "${tw[@]}" --weights 1,2,3 --keys 3000 --format csv
[[ $status -eq 0 ]] || fail "owners --profile twemproxy_ketama: status $status"
cp "$tmp/out" "$tmp/fast.csv"
run owners "${tw[@]}" --weights 1,2,3 --keys 3000 --format csv --kernel reference
cmp -s "$tmp/out" "$tmp/fast.csv" || fail "owners --profile twemproxy_ketama: kernel differs from reference"
[[ $(sed -n 2p "$tmp/out") == "user:1,10.0.0.1:11211,1963465963" ]] || fail "twemproxy_ketama owners: $(sed -n 2p "$tmp/out")"
run balance "${tw[@]}" --weights 3,1,1 --keys 1000 --format csv
[[ $(tail -n +2 "$tmp/out" | cut -d, -f2,7 | tr '\n' ' ') == "10.0.0.1:11211,288 10.0.0.2:11212,96 10.0.0.3:11213,96 " ]] ||
  fail "twemproxy_ketama points: $(cat "$tmp/out")"
run move "${tw[@]}" --remove 10.0.0.2:11212 --keys 10000 --format json
[[ $status -eq 0 ]] || fail "move --profile twemproxy_ketama: status $status"
bad "twemproxy without a port" "needs host:port" owners --profile twemproxy_ketama --nodes a,b --keys 3
bad "twemproxy bad port" "no port 1 ... 65535" owners --profile twemproxy_ketama --nodes a:1,b:65536 --keys 3
bad "twemproxy one name" "one server name 'a'" owners --profile twemproxy_ketama --nodes a:11211,a:011211 --keys 3
bad "twemproxy weight 0" "not a weight" owners --profile twemproxy_ketama --nodes a:1,b:2 --weights 1,0 --keys 3
bad "twemproxy weights count" "2 weights for 3" owners "${tw[@]}" --weights 1,2 --keys 3
bad "twemproxy total weight" "total weight" owners "${tw[@]}" --weights 2147483647,2147483647,2 --keys 3
# The schemes that take weights (weighted rendezvous, the ring): a fair share per node.
run balance --scheme hrw_weighted --nodes a,b,c --weights 1,2,3 --keys 100000 --format csv
[[ $(sed -n 1p "$tmp/out") == "ring,node,keys,key_share,fair_share,circle_share" ]] ||
  fail "weighted balance: header $(head -n1 "$tmp/out")"
[[ $(awk -F, '$2 == "c" { print $5 }' "$tmp/out") == "0.5" ]] || fail "weighted balance: $(cat "$tmp/out")"
run balance --scheme ring --nodes 2 --vnodes 10 --weights 0,1 --keys 1000 --format json
grep -q '"weighted": true' "$tmp/out" || fail "weighted ring balance: no weighted flag"
bad "weights on jump" "not to jump" owners --scheme jump --nodes 3 --weights 1,2,3 --keys 3
bad "scheme weights count" "2 weights for 3 nodes" owners --scheme hrw_weighted --nodes 3 --weights 1,2 --keys 3
bad "all weights 0" "every node weight is 0" owners --scheme hrw_weighted --nodes 2 --weights 0,0 --keys 3
bad "weights and scenario" "no removal scenario" balance --scheme ring --nodes 3 --weights 1,2,3 --removed node-1
bad "kafka removal" "cannot take partitions away" move --profile kafka --nodes 4 --remove node-3
bad "redis too many" "16384" balance --profile redis --nodes 16385
# Envoy's and gRPC's ring hash: the minimum ring size is --vnodes, 1 ... 8388608;
for profile in envoy_ring_hash grpc_ring_hash; do
  bad "$profile ring size" "minimum ring size (--vnodes 8388609) must be 1 ... 8388608" \
    owners --profile $profile --nodes a,b --vnodes 8388609 --keys 3
done
run balance --profile envoy_ring_hash --nodes a,b,c --weights 1,2,3 --keys 100000 --format csv
share=$(awk -F, '$2 == "c" { print $4 }' "$tmp/out")
awk -v s="$share" 'BEGIN { exit !(s > 0.45 && s < 0.55) }' || fail "envoy_ring_hash weight 3 of 6: share $share"
bad "maglev table not prime" "prime" balance --scheme maglev --nodes 3 --table-size 65536
bad "maglev table too small" "below the 5 nodes" balance --scheme maglev --nodes 5 --table-size 3
# Envoy's Maglev: weights, its own table bound, host keys with ports.
run balance --profile envoy_maglev --nodes 10.0.0.1:80,10.0.0.2:80 --weights 1,3 --keys 100000 --format csv
share=$(awk -F, '$2 == "10.0.0.2:80" { print $4 }' "$tmp/out")
awk -v s="$share" 'BEGIN { exit !(s > 0.73 && s < 0.77) }' || fail "envoy_maglev weight 3 of 4: share $share"
bad "envoy weight 0" "not a weight" owners --profile envoy_maglev --nodes 2 --weights 1,0 --keys 3
bad "envoy table above its bound" "2 ... 5000011 (got 5000077" owners --profile envoy_maglev --nodes 3 --table-size 5000077 --keys 3
bad "envoy address without port" "'10.0.0.1' is an IP address without its port" \
  owners --profile envoy_maglev --nodes 10.0.0.1,10.0.0.2:80 --keys 3
bad "envoy duplicate host" "duplicate node name '10.0.0.2:80'" owners --profile envoy_maglev --nodes 10.0.0.2:80,10.0.0.2:80 --keys 3
bad "go-redis weights" "not to the go_redis_ring profile" owners --profile go_redis_ring --nodes 3 --weights 1,1,1 --keys 3
run owners --profile groupcache --nodes 3 --vnodes 1 --keys 2
[[ $status -eq 0 ]] || fail "--vnodes with the groupcache profile: status $status"

# Options that do not apply are refused, naming every scheme and profile that
# takes them.
for profile in ketama redis kafka maglev envoy_maglev go_redis_ring; do
  bad "--vnodes with the $profile profile" "applies to the scheme ring; the profiles cassandra, groupcache, envoy_ring_hash, grpc_ring_hash only, not to the $profile profile" \
    owners --profile $profile --nodes a,b,c --vnodes 5 --keys 3
done
for scheme in modn hrw jump maglev; do
  bad "--vnodes with $scheme" "applies to the scheme ring; the profiles cassandra, groupcache, envoy_ring_hash, grpc_ring_hash only, not to $scheme\$" \
    owners --scheme $scheme --nodes 3 --vnodes 5 --keys 3
done
for profile in ketama redis kafka cassandra go_redis_ring groupcache; do
  bad "--table-size with the $profile profile" "applies to the scheme maglev; the profiles maglev, envoy_maglev only, not to the $profile profile" \
    owners --profile $profile --nodes a,b,c --table-size 7 --keys 3
done
for scheme in modn ring hrw jump; do
  bad "--table-size with $scheme" "applies to the scheme maglev; the profiles maglev, envoy_maglev only, not to $scheme\$" \
    owners --scheme $scheme --nodes 3 --table-size 7 --keys 3
done
run owners --profile cassandra --nodes 3 --vnodes 4 --keys 2
[[ $status -eq 0 ]] || fail "--vnodes with the cassandra profile: status $status"
run owners --profile maglev --nodes 3 --table-size 7 --keys 2
[[ $status -eq 0 ]] || fail "--table-size with the maglev profile: status $status"
# The Redis profile is itself: no Maglev scheme in its report, and a
# bad kernel's message names the profile.
run owners --profile redis --nodes 3 --keys 2 --format json
/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["profile"] == "redis" and d["scheme"] is None, d
assert d["kernel"] == "redis slot table, read by maglev/simd", d
' "$tmp/out" || fail "redis profile JSON: $(head -c 200 "$tmp/out")"
run owners --profile kafka --nodes 3 --keys 2 --format json
grep -q '"scheme":"modn","profile":"kafka"' "$tmp/out" || fail "kafka profile JSON: $(head -c 200 "$tmp/out")"
bad "--kernel bogus with redis" "the redis profile's lookups run on the maglev kernels" \
  owners --profile redis --nodes 3 --keys 2 --kernel bogus
# Maglev's M is bounded by what builds in seconds, and --help says so.
bad "M = 2^31 - 1" "above the lab's bound, M <= 67108859" owners --scheme maglev --table-size 2147483647 --nodes 2 --keys 2
bad "M above the bound, profile" "M <= 67108859" owners --profile maglev --table-size 67108879 --nodes 2 --keys 2
run owners --help
grep -q -- "--table-size.*at most 67108859" <(tr -s ' \n' ' ' <"$tmp/out") || fail "owners --help: --table-size lacks the bound"
# What a profile builds is in the output's header: ketama's points per server
# (libmemcached: floor(weight / total x 40 x N) x 4, so 3,1,1 gives 288, 96, 96),
# Cassandra's token per key, Maglev's M.
run balance --profile ketama --nodes a,b,c --weights 3,1,1 --keys 1000 --format csv
[[ $(sed -n 1p "$tmp/out") == ring,node,keys,key_share,fair_share,circle_share,points ]] || fail "ketama balance CSV header: $(sed -n 1p "$tmp/out")"
[[ $(tail -n +2 "$tmp/out" | cut -d, -f2,5,7 | tr '\n' ' ') == "a,0.6,288 b,0.2,96 c,0.2,96 " ]] || fail "ketama points: $(cat "$tmp/out")"
run balance --profile ketama --nodes a,b,c --weights 3,1,1 --keys 1000
grep -q '^scheme    ketama profile (continuum of 480 points)' "$tmp/out" || fail "ketama balance text: $(head -n1 "$tmp/out")"
run balance --profile ketama --nodes a,b --keys 100 --format json
/usr/bin/python3 -c '
import json, sys
assert [n["points"] for n in json.load(open(sys.argv[1]))["per_ring"][0]["nodes"]] == [160, 160]
' "$tmp/out" || fail "ketama balance JSON points"
run owners --profile cassandra --nodes 3 --keys 1 --format csv
[[ $(sed -n 1p "$tmp/out") == key,owner,token ]] || fail "cassandra owners CSV header: $(sed -n 1p "$tmp/out")"
for args in "--profile maglev" "--scheme maglev"; do
  run owners $args --nodes 3 --table-size 11 --keys 1 --format json
  grep -q '"table_size":11,' "$tmp/out" || fail "owners $args: no table_size in JSON: $(head -c 200 "$tmp/out")"
  run balance $args --nodes 3 --keys 10
  grep -q '(M = 65537)' "$tmp/out" || fail "balance $args: no M in the header: $(head -n1 "$tmp/out")"
done
run owners --profile redis --nodes 3 --keys 1 --format json
grep -q '"table_size":null,' "$tmp/out" || fail "redis owners: table_size not null"

# Ketama's weights do not grow its continuum: 3,000,000 each is the
# ring of 1, 1, 1.
run owners --profile ketama --nodes a,b,c --weights 3000000,3000000,3000000 --keys 20
cp "$tmp/out" "$tmp/heavy.txt"
run owners --profile ketama --nodes a,b,c --keys 20
cmp -s "$tmp/out" "$tmp/heavy.txt" || fail "ketama weights 3000000 x 3 differ from weights 1 x 3"

# Every output format recovers the exact key bytes:
# two keys that are not UTF-8 stay apart in JSON, as key_hex.
printf '\x80\n\x81\ncaf\xc3\xa9\n' >"$tmp/latin.txt"
run owners --profile redis --nodes 3 --keys "$tmp/latin.txt" --format json
/usr/bin/python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["owners"]
assert [r.get("key_hex") for r in rows[:2]] == ["80", "81"] and "key" not in rows[0], rows
assert rows[2]["key"] == "caf\u00e9" and "key_hex" not in rows[2], rows
' "$tmp/out" || fail "JSON keys not UTF-8: $(head -c 300 "$tmp/out")"
# Keys with NUL, tab, LF and a backslash, given in hex: text escapes them, CSV
# quotes them, JSON escapes them; each decodes back to the bytes.
printf '\n00\n6109620a63\n5c\n' >"$tmp/bytes.hex"
run owners --profile kafka --nodes 3 --key-format hex --keys "$tmp/bytes.hex"
[[ $status -eq 0 ]] || fail "hex keys: status $status: $(cat "$tmp/err")"
[[ $(head -n1 "$tmp/out") == $'# key\towner\thash' ]] || fail "text owners header: $(head -n1 "$tmp/out")"
[[ $(sed 1d "$tmp/out" | cut -f1 | tr '\n' '|') == '|\x00|a\tb\nc|\\|' ]] ||
  fail "text key escapes: $(sed 1d "$tmp/out" | cut -f1 | tr '\n' '|')"
run owners --profile kafka --nodes 3 --key-format hex --keys "$tmp/bytes.hex" --format csv
/usr/bin/python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="latin-1")))
assert [r[0] for r in rows[1:]] == ["", "\0", "a\tb\nc", "\\"], rows
' "$tmp/out" || fail "CSV keys: $(cat -A "$tmp/out" | head -5)"
run owners --profile kafka --nodes 3 --key-format hex --keys "$tmp/bytes.hex" --format json
/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["key_format"] == "hex" and [r["key"] for r in d["owners"]] == ["", "\0", "a\tb\nc", "\\"], d
' "$tmp/out" || fail "JSON hex keys: $(head -c 300 "$tmp/out")"
# The same keys in base64 place alike; the empty key is Kafka's real key.
printf '\nAA==\r\nYQliCmM\nXA==\n' >"$tmp/bytes.b64"
run owners --profile kafka --nodes 3 --key-format base64 --keys "$tmp/bytes.b64" --format csv
cp "$tmp/out" "$tmp/b64.csv"
run owners --profile kafka --nodes 3 --key-format hex --keys "$tmp/bytes.hex" --format csv
cmp -s "$tmp/out" "$tmp/b64.csv" || fail "base64 and hex keys differ"
# text: a leading byte-order mark is dropped, CRLF too, blank lines skipped.
printf '\xef\xbb\xbfuser:1\r\n\nuser:2\n' >"$tmp/bom.txt"
run owners --scheme ring --nodes 5 --keys "$tmp/bom.txt"
cp "$tmp/out" "$tmp/bom.out"
run owners --scheme ring --nodes 5 --keys 2
cmp -s "$tmp/out" "$tmp/bom.out" || fail "BOM, CRLF, blank line: $(cat "$tmp/bom.out")"
bad "bad hex line" "line 2 holds '6g', not hex" owners --profile kafka --nodes 3 --key-format hex --keys <(printf '00\n6g\n')
bad "bad base64 line" "line 1 holds 'Z', not base64" owners --profile kafka --nodes 3 --key-format base64 --keys <(printf 'Z\n')
bad "hex with a count" "reads key lines from a file" owners --scheme ring --nodes 3 --key-format hex --keys 10
# Node lists: a tab is refused, --nodes-file takes a comma.
bad "tab in a node name" "node 1 .* holds a control byte" owners --scheme ring --nodes $'a,b\tc' --keys 3
bad "node name not UTF-8" "node 0 '\\\\x80' is not UTF-8" owners --scheme ring --nodes $'\x80,b' --keys 3
printf 'db, east\r\ndb, west\n' >"$tmp/nodes.txt"
run owners --scheme hrw --nodes-file "$tmp/nodes.txt" --keys 3 --format json
/usr/bin/python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["nodes"] == ["db, east", "db, west"]
' "$tmp/out" || fail "--nodes-file: $(head -c 300 "$tmp/out")"
bad "--nodes and --nodes-file" "one of them" owners --scheme hrw --nodes 3 --nodes-file "$tmp/nodes.txt" --keys 3
bad "empty line in a node file" "node 1 has an empty name" owners --scheme hrw --nodes-file <(printf 'a\n\nb\n') --keys 3

# Hostile counts, node lists and key files.
head -c 4096 /dev/urandom >"$tmp/random.bin"
printf 'user:1\nuser:2\0\nuser:3\n' >"$tmp/nul.txt"
{
  echo user:1
  head -c 1048576 /dev/zero | tr '\0' k
  echo
} >"$tmp/megaline.txt"
bad "negative N" "the node count -3 is negative" owners --scheme ring --nodes -3 --keys 3
bad "negative K" "the key count -5 is negative" owners --scheme ring --nodes 3 --keys -5
bad "negative V" "vnodes" owners --scheme ring --nodes 3 --keys 3 --vnodes -1
bad "negative threads" "threads" owners --scheme ring --nodes 3 --keys 3 --threads -1
bad "negative rings" "rings" balance --scheme hrw --nodes 3 --rings -2
bad "N beyond uint32" "exceeds the 2^32 - 1" owners --scheme jump --nodes 99999999999 --keys 3
bad "N that needs more memory than the machine has" "nodes would need about .* GiB, more than 90% of the" \
  owners --scheme hrw --nodes 4000000000 --keys 3
bad "ring that needs more memory than the machine has" "would need about .* GiB" \
  balance --scheme ring --nodes 2000000 --vnodes 2000
bad "replicas that need more memory than the machine has" "over 100000 rings would need" \
  balance --scheme hrw --nodes 1000000 --rings 100000
bad "moved-key list that needs more memory than the machine has" "--list of .* would need" \
  move --scheme modn --nodes 3 --add x --keys 9000000000 --list
bad "K beyond the lab's limit" "more than the lab takes" balance --scheme hrw --nodes 3 --keys 99999999999999
bad "V beyond uint32" "vnodes" balance --scheme ring --nodes 3 --vnodes 99999999999
bad "threads enormous" "threads" balance --scheme ring --nodes 3 --threads 100000
bad "empty node name" "node 1 has an empty name" owners --scheme ring --nodes a,,b --keys 3
bad "blank node name" "node 0 has an empty name" owners --scheme hrw --nodes " ,x" --keys 3
bad "duplicate node in owners" "duplicate node name 'b'" owners --scheme jump --nodes a,b,c,b --keys 3
bad "binary key file" "line [0-9]* holds a NUL byte" owners --scheme ring --nodes 3 --keys "$tmp/random.bin"
bad "NUL in a key file" "line 2 holds a NUL byte" balance --scheme hrw --nodes 3 --keys "$tmp/nul.txt"
bad "megabyte line" "line 2 is longer than a key's 65536 bytes" \
  move --scheme ring --nodes 3 --add x --keys "$tmp/megaline.txt"

# Vector rows of the public implementations posed directly (--key-format
# hash): every row of a file at the largest N it has, through the lab's
# default kernel, gives the row's bucket (tests/vectors/, its README).
vectors="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../tests/vectors" && pwd)"
pose_rows() {  # pose_rows SCHEME FILE AWK_FILTER (prints "h bucket" rows)
  local scheme=$1 file=$2 filter=$3
  tr -d '\r' <"$vectors/$file" | awk -F, "$filter" >"$tmp/rows"
  [[ -s $tmp/rows ]] || { fail "$scheme vectors: no rows in $file"; return; }
  cut -d' ' -f1 "$tmp/rows" >"$tmp/hashes"
  run owners --scheme "$scheme" --nodes 2147483647 --key-format hash --keys "$tmp/hashes" --format csv
  [[ $status -eq 0 ]] || { fail "$scheme vectors: exit status $status: $(cat "$tmp/err")"; return; }
  tail -n +2 "$tmp/out" | sed 's/,node-/ /' >"$tmp/got"
  cmp -s "$tmp/rows" "$tmp/got" || fail "$scheme vectors: owners differ from $file ($(diff "$tmp/rows" "$tmp/got" | head -2 | tr '\n' ' '))"
}
pose_rows jumpback hash4j_vectors.csv '$1 == "jumpback_splitmix64" && $3 == 2147483647 {print $2, $4}'
pose_rows jumpback_xorshift hash4j_vectors.csv '$1 == "jumpback_xorshiftl7r9" && $3 == 2147483647 {print $2, $4}'
pose_rows flip fliphash_vectors.csv '$2 == 2147483647 {print $1, $3}'
pose_rows power powerch_vectors.csv '$2 == 2147483647 {print $1, $3}'

# Popularity and bounded loads (commands/load.h): bad input, and the csv rows.
bad "zipf exponent" "in \[0, 1.5\]" balance --scheme jump --nodes 4 --popularity zipf:2
bad "popularity form" "neither zipf" balance --scheme jump --nodes 4 --popularity pareto:1
bad "popularity file" "cannot open" balance --scheme jump --nodes 4 --popularity file:/nonexistent
printf '3\n1\n' >"$tmp/counts"
bad "count per key" "gives 2 request counts for 3 keys" balance --scheme jump --nodes 2 --keys 3 --popularity "file:$tmp/counts"
bad "bounded off the ring" "walks the ring" balance --scheme hrw --nodes 4 --bounded-load 1.25
# Envoy's hash_balance_factor (100 c) for envoy_ring_hash; not for gRPC's.
run balance --profile envoy_ring_hash --nodes 5 --keys 20000 --bounded-load 1.25 --format json
[[ $status -eq 0 ]] && grep -q '"bounded"' "$tmp/out" || fail "envoy_ring_hash --bounded-load: $(cat "$tmp/err")"
bad "bounded, grpc" "walks the ring" balance --profile grpc_ring_hash --nodes 4 --bounded-load 1.25
bad "bounded, envoy factor" "balance factor c in \[1, 1000\]" balance --profile envoy_ring_hash --nodes 4 --bounded-load 0.5
bad "bounded factor" "\[1, 1000\]" balance --scheme ring --nodes 4 --bounded-load 0.5
bad "bounded with rings" "no --rings" balance --scheme ring --nodes 4 --bounded-load 1.5 --rings 3
bad "requests without zipf" "apply to --popularity zipf" balance --scheme ring --nodes 4 --requests 10
bad "load with --list" "reports counts" move --scheme ring --nodes 4 --popularity zipf:1 --add x --list
printf '3\n1\n0\n' >"$tmp/counts"
run balance --scheme jump --nodes 2 --keys 3 --popularity "file:$tmp/counts" --format csv
[[ $status -eq 0 && $(tail -n +2 "$tmp/out" | awk -F, '{s += $3} END {print NR, s}') == "2 4" ]] ||
  fail "balance --popularity file: csv rows: $(cat "$tmp/out" "$tmp/err")"

# tokens (allocation.h): bad input, and one row per (N, RF, method).
bad "tokens ring" "--scheme ring or --profile cassandra" tokens --scheme jump
bad "tokens range" "2 <= from <= to" tokens --scheme ring --from 1 --to 5
run tokens --profile cassandra --from 3 --to 5 --rf 1,3 --random 16,256 --format csv
[[ $status -eq 0 && $(tail -n +2 "$tmp/out" | wc -l) -eq 18 ]] ||
  fail "tokens csv: want 18 rows: $(cat "$tmp/out" "$tmp/err")"

# ---- reliability: bounded walks, weighted capacities and summaries, refusals ------
# Each is answered or refused at once: under `timeout` a walk that never ends fails.
saved_lab=("${lab[@]}")
lab=(timeout 20 "${saved_lab[@]}")
bad "R above the nodes with tokens" "R = 3 replicas need at least 3 nodes of weight above 0" \
  owners --scheme ring --nodes 3 --weights 0,1,1 --replicas 3 --keys 1
bad "R = 2 over one node with tokens" "(the fleet has 1 of its 3 nodes)" \
  owners --scheme ring --nodes 3 --weights 0,0,1 --replicas 2 --keys 1
bad "move R above the nodes with tokens" "need at least 3 nodes of weight above 0" \
  move --scheme ring --nodes 3 --weights 0,1,1 --replicas 3 --add node-3 --keys 10
run owners --scheme ring --nodes 3 --weights 0,1,1 --replicas 2 --keys 50
[[ $status -eq 0 ]] || fail "R = 2 over two nodes with tokens: status $status: $(cat "$tmp/err")"
! sed 1d "$tmp/out" | cut -f2,3 | grep -q node-0 || fail "a weight-0 node in a replica set"
printf '%s\n' $(seq 1 200 | awk '{print 1 + ($1 * 7) % 60}') >"$tmp/requests.txt"
for w in 0,1,1 1,2,3; do
  run balance --scheme ring --nodes 3 --weights $w --keys 200 --popularity "file:$tmp/requests.txt" \
    --bounded-load 1.0 --format json
  /usr/bin/python3 -c '
import json, math, sys
d = json.load(open(sys.argv[1])); w = [int(x) for x in sys.argv[2].split(",")]
rows = d["per_node"]
assert sum(r["bounded"] for r in rows) == d["requests"], d
for r, wi in zip(rows, w):
    cap = math.ceil(d["requests"] * wi / sum(w))
    assert r["capacity"] == cap and r["bounded"] <= cap, (r, cap)
' "$tmp/out" "$w" || fail "bounded loads, weights $w: $(head -c 400 "$tmp/out")"
done
run balance --scheme hrw_weighted --nodes 3 --weights 2147483648,1,1 --keys 100000 --format json
/usr/bin/python3 -c '
import json, sys
k = json.load(open(sys.argv[1]))["per_ring"][0]["keys"]
assert abs(k["busiest_over_mean"] - 1) < 1e-6 and k["share_std_pct"] < 0.01, k
' "$tmp/out" ||
  fail "hrw_weighted 2^31,1,1: busiest share / fair is not 1: $(head -c 600 "$tmp/out")"
bad "two spellings of one ketama server" "'a' and 'a:11211' are one server" \
  balance --profile ketama --nodes a,a:11211 --keys 10000
bad "a port with a leading zero" "are one server" balance --profile ketama --nodes a:80,a:080 --keys 100
bad "one server, unweighted ketama" "are one server" \
  balance --profile ketama_unweighted --nodes a:11211,a:011211 --keys 100
for scheme in anchor ring; do
  bad "$scheme: --remove of a node removed already" "node 'node-3' in --remove is not in service: it left already" \
    move --scheme $scheme --nodes 10 --removed node-3 --remove node-3 --keys 1000
done
bad "Maglev M not prime" "a prime, 2 ... 67108859 in the lab" \
  owners --scheme maglev --nodes 3 --table-size 100 --keys 1
bad "misspelt option" "unknown option '--schem' for owners (did you mean '--scheme'?)" \
  owners --schem ring --nodes 3 --keys 1
bad "misspelt scheme" "unknown scheme 'rign' .*(did you mean 'ring'?)" owners --scheme rign --nodes 3 --keys 1
bad "a list for --vnodes" "--vnodes takes one number, not '1,10,100'" \
  balance --scheme ring --nodes 3 --vnodes 1,10,100 --keys 10
bad "hours of rendezvous scores" "would take about 556 hours .*--allow-long" \
  balance --scheme hrw --nodes 1000000 --keys 10000000000
lab=("${saved_lab[@]}")
run balance --scheme jump --nodes 100000 --remove-fraction 0.99999 --keys 1000
grep -Eq '^ +0\.99999 ' "$tmp/out" || fail "fraction 0.99999 printed as: $(tail -n 2 "$tmp/out")"
run move --help
! grep -Eq '^  [a-z_]+only' "$tmp/out" || fail "move --help runs a scheme into its note: $(grep -E '^  [a-z_]+only' "$tmp/out")"

# A full output device: one message, status 1 (not bad input, the output failed).
"${lab[@]}" owners --scheme ring --nodes 3 --keys 100000 >/dev/full 2>"$tmp/err"
status=$?
[[ $status -eq 1 ]] || fail "stdout on /dev/full: status $status, want 1"
[[ $(cat "$tmp/err") == "chbench-lab: error: cannot write the output" ]] ||
  fail "stdout on /dev/full: $(cat "$tmp/err")"

if [[ $failures -ne 0 ]]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all command-line checks passed"
