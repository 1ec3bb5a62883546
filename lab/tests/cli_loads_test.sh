#!/usr/bin/env bash
# Command-line checks of chbench-lab: request loads (--popularity,
# --bounded-load), the tokens command, and refusals answered at once.
# Usage: cli_loads_test.sh [EMULATOR [ARGS...]] PATH/TO/chbench-lab (cli_support.sh)
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh" "$@"

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


finish "loads, tokens and refusals at once"
