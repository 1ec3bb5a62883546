#!/usr/bin/env bash
# Command-line checks of chbench-lab: removal scenarios (--removed,
# --remove-fraction, --removal-order, --readd), their refusals, replica sets.
# Usage: cli_scenarios_test.sh [EMULATOR [ARGS...]] PATH/TO/chbench-lab (cli_support.sh)
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh" "$@"

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

# Expected values apart from the lab, in Python: jump hash (jumphash.py)
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
bad "--capacity where no scheme takes it" "^chbench-lab: error: --capacity: rendezvous (HRW) takes no A (the schemes that take it: dx, anchor)$" \
  owners --scheme hrw --nodes 10 --capacity 100 --keys 3
bad "--capacity with a profile" "--capacity: the ketama profile takes no A (the schemes that take it: dx, anchor)$" \
  owners --profile ketama --nodes 3 --capacity 30 --keys 3
bad "--probes where no scheme takes it" "^chbench-lab: error: --probes: ring (consistent hashing) takes no k (the schemes that take it: multiprobe)$" \
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


finish "removal scenarios and replica sets"
