#!/usr/bin/env bash
# Command-line checks of chbench-lab's production profiles (--profile): each
# against its reference, their headers and weights, the options they refuse.
# Usage: cli_profiles_test.sh [EMULATOR [ARGS...]] PATH/TO/chbench-lab (cli_support.sh)
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh" "$@"

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
bad "weights elsewhere" "the redis profile takes no W (the schemes that take it: ring, hrw_weighted; the profiles that take it: ketama, haproxy_consistent," owners --profile redis --nodes 2 --weights 1,1 --keys 3
bad "weights, unweighted ketama" "--weights: the ketama_unweighted profile takes no W " owners --profile ketama_unweighted --nodes 2 --weights 1,1 --keys 3
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
bad "weights on jump" "--weights: jump hash takes no W (the schemes that take it: ring, hrw_weighted;" owners --scheme jump --nodes 3 --weights 1,2,3 --keys 3
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
bad "go-redis weights" "--weights: the go_redis_ring profile takes no W (the schemes that take it: ring, hrw_weighted; " owners --profile go_redis_ring --nodes 3 --weights 1,1,1 --keys 3
run owners --profile groupcache --nodes 3 --vnodes 1 --keys 2
[[ $status -eq 0 ]] || fail "--vnodes with the groupcache profile: status $status"

# Options that do not apply are refused, naming every scheme and profile that
# takes them.
for profile in ketama redis kafka maglev envoy_maglev go_redis_ring; do
  bad "--vnodes with the $profile profile" "^chbench-lab: error: --vnodes: the $profile profile takes no V (the schemes that take it: ring; the profiles that take it: cassandra, groupcache, envoy_ring_hash, grpc_ring_hash)$" \
    owners --profile $profile --nodes a,b,c --vnodes 5 --keys 3
done
# A scheme is named by its title, as the bench's refusals name it.
declare -A title=([modn]=mod-N [ring]="ring (consistent hashing)" [hrw]="rendezvous (HRW)"
  [jump]="jump hash" [maglev]=Maglev)
for scheme in modn hrw jump maglev; do
  bad "--vnodes with $scheme" "^chbench-lab: error: --vnodes: ${title[$scheme]} takes no V (the schemes that take it: ring; the profiles that take it: cassandra, groupcache, envoy_ring_hash, grpc_ring_hash)$" \
    owners --scheme $scheme --nodes 3 --vnodes 5 --keys 3
done
for profile in ketama redis kafka cassandra go_redis_ring groupcache; do
  bad "--table-size with the $profile profile" "^chbench-lab: error: --table-size: the $profile profile takes no M (the schemes that take it: maglev; the profiles that take it: maglev, envoy_maglev)$" \
    owners --profile $profile --nodes a,b,c --table-size 7 --keys 3
done
for scheme in modn ring hrw jump; do
  bad "--table-size with $scheme" "^chbench-lab: error: --table-size: ${title[$scheme]} takes no M (the schemes that take it: maglev; the profiles that take it: maglev, envoy_maglev)$" \
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
assert d["profile"] == "redis" and d["scheme"] is None and d["title"] is None, d
assert d["kernel"] == "redis slot table, read by maglev/simd", d
' "$tmp/out" || fail "redis profile JSON: $(head -c 200 "$tmp/out")"
run owners --profile kafka --nodes 3 --keys 2 --format json
grep -q '"scheme":"modn","title":"mod-N","profile":"kafka"' "$tmp/out" || fail "kafka profile JSON: $(head -c 200 "$tmp/out")"
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


finish "the profiles"
