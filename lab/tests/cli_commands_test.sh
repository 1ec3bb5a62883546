#!/usr/bin/env bash
# Command-line checks of chbench-lab's commands: --help, the default kernel,
# the shape of owners', move's and balance's output, a full output device.
# Usage: cli_commands_test.sh [EMULATOR [ARGS...]] PATH/TO/chbench-lab (cli_support.sh)
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh" "$@"

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

# A full output device: one message, status 1 (not bad input, the output failed).
"${lab[@]}" owners --scheme ring --nodes 3 --keys 100000 >/dev/full 2>"$tmp/err"
status=$?
[[ $status -eq 1 ]] || fail "stdout on /dev/full: status $status, want 1"
[[ $(cat "$tmp/err") == "chbench-lab: error: cannot write the output" ]] ||
  fail "stdout on /dev/full: $(cat "$tmp/err")"

finish "the commands"
