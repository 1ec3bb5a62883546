#!/usr/bin/env bash
# Command-line checks of chbench-lab: key hashes given unhashed (--key-format
# hash), fleets of buckets up to N = 2^32 - 1, the public vectors posed directly.
# Usage: cli_buckets_test.sh [EMULATOR [ARGS...]] PATH/TO/chbench-lab (cli_support.sh)
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh" "$@"

# ---- key hashes and fleets of buckets -------------------------------------------------
# Text keys (a CRLF file with a blank line): refused below where key hashes are read.
printf 'user:1\r\nuser:2\r\n\r\nuser:3\r\n' >"$tmp/keys.txt"
# --key-format hash: each line a 64-bit key hash given to the scheme unhashed, printed
# back in decimal. The expected owners come from the published algorithms, written
# apart from the lab in Python: jump hash (jumphash.py) at N = 2^31 - 1, and h mod N
# at N = 2^32 - 1, with no name held (node-<bucket> printed from the index).
printf '0\n 1 \r\n\n0xFFFFFFFFFFFFFFFF\n0x10\n12345678901234567\n\t9223372036854775808\n' >"$tmp/hashes.txt"
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


finish "key hashes and fleets of buckets"
