#!/usr/bin/env bash
# Command-line checks of chbench-lab's input: bad input (one message, status
# 2), key bytes through every format, node lists, hostile counts and files.
# Usage: cli_inputs_test.sh [EMULATOR [ARGS...]] PATH/TO/chbench-lab (cli_support.sh)
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh" "$@"

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


finish "bad input, key bytes and node lists"
