// Tests of the lab's inputs: key sets, --keys and --nodes, and fleet changes
// (apply_change: joins, leaves, jump's last buckets, the fleet's history).
#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "chbench/hash.h"
#include "keys.h"
#include "placement.h"
#include "suggest.h"
#include "support.h"

using namespace chbench;
using namespace chbench::lab;
using namespace chbench::lab::test;

namespace {

// What a key-file reader (KeySet::from_stream or from_hash_stream) says of
// `text` read as `source`: its refusal, or "accepted".
template <class Read>
std::string refusal(const Read& read, const std::string& text, std::string_view source) {
  std::istringstream in(text);
  try {
    read(in, source);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("counted keys hash exactly like the library's default keys") {
  const KeySet keys = KeySet::counted(12'345);
  const auto expected = default_key_hashes(12'345);
  std::vector<uint64_t> got(keys.size());
  keys.hashes(0, got);
  CHECK(got == expected);
  // Slices starting anywhere, across the digit-count boundaries 9/10, 99/100.
  for (uint64_t first : {0u, 8u, 9u, 98u, 99u, 999u, 12'340u}) {
    std::vector<uint64_t> slice(std::min<uint64_t>(5, keys.size() - first));
    keys.hashes(first, slice);
    CHECK(std::equal(slice.begin(), slice.end(), expected.begin() + first));
  }
  CHECK(keys.key(0) == "user:1");
  CHECK(keys.key(12'344) == "user:12345");
  CHECK(keys.is_counted());
  CHECK_THROWS_AS(KeySet::counted(0), std::invalid_argument);
}

TEST_CASE("key files: one key per line, CRLF, blank lines, long lines, no keys") {
  // 1,048 lines of 999 bytes, then the longest key, across the 1 MiB boundary
  // between two reads.
  std::string filler;
  for (int i = 0; i < 1048; ++i) filler += std::string(999, 'a' + i % 26) + "\n";
  const std::string big(kMaxKeyBytes, 'x');
  std::istringstream in("alpha\r\n\nbeta\n\r\n" + filler + big + "\r\ngamma delta\r\nlast");
  const KeySet keys = KeySet::from_stream(in, "test");
  REQUIRE(keys.size() == 1048 + 5);
  std::vector<std::string> want = {"alpha", "beta"};
  for (int i = 0; i < 1048; ++i) want.push_back(std::string(999, 'a' + i % 26));
  for (const char* k : {"gamma delta", "last"}) want.push_back(k);
  want.insert(want.end() - 2, big);
  std::vector<uint64_t> hashes(keys.size());
  keys.hashes(0, hashes);
  for (uint64_t i = 0; i < keys.size(); ++i) {
    CHECK(keys.key(i) == want[i]);
    CHECK(hashes[i] == key_hash(want[i]));
  }
  CHECK_FALSE(keys.is_counted());

  std::istringstream empty(""), blank("\n\r\n\n");
  CHECK_THROWS_AS(KeySet::from_stream(empty, "empty"), std::invalid_argument);
  CHECK_THROWS_AS(KeySet::from_stream(blank, "blank"), std::invalid_argument);
}

TEST_CASE("key files: lines longer than a key and NUL bytes are refused with the line") {
  auto message = [](const std::string& text) {
    return refusal([](std::istream& in, std::string_view s) { return KeySet::from_stream(in, s); },
                   text, "keys.txt");
  };
  const std::string one_more(kMaxKeyBytes + 1, 'x');
  CHECK_THAT(message("a\n" + one_more + "\nb\n"),
             Catch::Contains("keys.txt line 2 is 65537 bytes long"));
  // A megabyte with no newline: stopped while it is read, not at its end.
  CHECK_THAT(message("a\nb\n" + std::string(1 << 20, 'y')),
             Catch::Contains("keys.txt line 3 is longer than a key's 65536 bytes"));
  CHECK_THAT(message(std::string("a\nb\nc\0d\n", 8)),
             Catch::Contains("keys.txt line 3 holds a NUL byte"));
  CHECK(message(std::string(kMaxKeyBytes, 'z') + "\r\n") == "accepted");  // CR not counted
}

TEST_CASE("key hashes: decimal or 0x hex, spaces, CRLF and empty lines, printed in decimal") {
  std::istringstream in(
      "0\n  42\t\r\n\n \r\n0x2a\n0XfF\n18446744073709551615\n0xFFFFFFFFFFFFFFFF\r\n"
      "00017\n0x0000000000000000001\nnot-a-hash\n");
  // Its last line is not a hash: the whole file is refused (below); without it:
  std::istringstream good(
      "0\n  42\t\r\n\n \r\n0x2a\n0XfF\n18446744073709551615\n0xFFFFFFFFFFFFFFFF\r\n"
      "00017\n0x0000000000000000001");
  const KeySet keys = KeySet::from_hash_stream(good, "test");
  const std::vector<uint64_t> want = {0, 42, 42, 255, ~uint64_t{0}, ~uint64_t{0}, 17, 1};
  REQUIRE(keys.size() == want.size());
  std::vector<uint64_t> got(keys.size());
  keys.hashes(0, got);
  CHECK(got == want);
  CHECK(keys.is_hashes());
  CHECK_FALSE(keys.is_counted());
  CHECK(keys.key(0) == "0");
  CHECK(keys.key(2) == "42");  // given as 0x2a: the key column is the value in decimal
  CHECK(keys.key(4) == "18446744073709551615");
  CHECK(keys.key(6) == "17");
  // A slice from the middle.
  std::vector<uint64_t> slice(3);
  keys.hashes(3, slice);
  CHECK(slice == std::vector<uint64_t>{255, ~uint64_t{0}, ~uint64_t{0}});
  // A profile hashes key strings: key hashes are refused.
  CHECK_THROWS_AS(keys.hashes(0, slice, Profile::kMaglev), std::invalid_argument);
  CHECK_THROWS_WITH(KeySet::from_hash_stream(in, "keys.txt"),
                    Catch::Contains("keys.txt line 11 holds 'not-a-hash', not a 64-bit key hash"));
  CHECK(KeySet::from_hashes(want).key(3) == "255");
  CHECK_THROWS_AS(KeySet::from_hashes({}), std::invalid_argument);
}

TEST_CASE("key hashes: a line that is not one is refused with its number and what it held") {
  auto message = [](const std::string& text) {
    return refusal(&KeySet::from_hash_stream, text, "h.txt");
  };
  const std::string not_hash = ", not a 64-bit key hash (decimal digits, or 0x and hex digits)";
  CHECK(message("1\n2\nabc\n") == "h.txt line 3 holds 'abc'" + not_hash);
  CHECK(message("1\r\n\n-1\r\n") == "h.txt line 3 holds '-1'" + not_hash);
  CHECK(message("+5") == "h.txt line 1 holds '+5'" + not_hash);
  CHECK(message("0x") == "h.txt line 1 holds '0x'" + not_hash);
  CHECK(message("0x1g") == "h.txt line 1 holds '0x1g'" + not_hash);
  CHECK(message("1 2") == "h.txt line 1 holds '1 2'" + not_hash);
  CHECK(message("12.5") == "h.txt line 1 holds '12.5'" + not_hash);
  // A byte-order mark at the start of the file is dropped; anywhere else it is
  // part of the line.
  CHECK(message("\xef\xbb\xbf"
                "7") == "accepted");
  CHECK(message("1\n\xef\xbb\xbf"
                "7") == "h.txt line 2 holds '\\xEF\\xBB\\xBF7'" + not_hash);
  CHECK(message(std::string(50, '7') + "x") ==
        "h.txt line 1 holds '" + std::string(40, '7') + "'..." + not_hash);
  CHECK(message("7\n18446744073709551616\n") ==
        "h.txt line 2 holds '18446744073709551616', past 2^64 - 1: a key hash has 64 bits");
  CHECK(message("0x10000000000000000") ==
        "h.txt line 1 holds '0x10000000000000000', past 2^64 - 1: a key hash has 64 bits");
  CHECK_THAT(message("\n \n\r\n"), Catch::Contains("h.txt contains no key hashes"));
  CHECK_THAT(message(std::string("1\n2\0", 5)), Catch::Contains("h.txt line 2 holds a NUL byte"));
  CHECK_THAT(message("1\n" + std::string(kMaxKeyBytes + 1, '1')),
             Catch::Contains("h.txt line 2 is 65537 bytes long"));
  CHECK(message(" 18446744073709551615 \r\n") == "accepted");
}

TEST_CASE("parse_keys with --key-format hash: a file or '-', never a count") {
  CHECK(parse_key_format("text") == KeyFormat::kText);
  CHECK(parse_key_format("hash") == KeyFormat::kHash);
  CHECK_THROWS_WITH(parse_key_format("hex64"),
                    Catch::Contains("unknown key format 'hex64' (known: text, hex, base64, hash)"));
  CHECK_THROWS_WITH(parse_keys("1000", KeyFormat::kHash),
                    Catch::Contains("--keys 1000 is a count of keys user:1 ... user:K"));
  CHECK(parse_keys("1000", KeyFormat::kText).is_counted());
  CHECK_THROWS_WITH(parse_keys("/nonexistent/h.txt", KeyFormat::kHash),
                    Catch::Contains("cannot open key file"));
}

TEST_CASE("parse_keys and parse_nodes: counts, lists and bad input") {
  CHECK(parse_keys("1000").size() == 1000);
  CHECK_THROWS_AS(parse_keys("0"), std::invalid_argument);
  CHECK_THROWS_AS(parse_keys("99999999999999999999999"), std::invalid_argument);
  CHECK(parse_keys(std::to_string(kMaxKeys)).size() == kMaxKeys);  // counted: nothing stored
  CHECK_THROWS_WITH(parse_keys(std::to_string(kMaxKeys + 1)), Catch::Contains("more than"));
  CHECK_THROWS_WITH(parse_keys("-5"), Catch::Contains("the key count -5 is negative"));
  CHECK_THROWS_WITH(parse_nodes("-3", 1), Catch::Contains("the node count -3 is negative"));
  CHECK_THROWS_WITH(parse_nodes("4000000000", 1),
                    Catch::Contains("N = 4000000000 nodes would need about"));
  CHECK_THROWS_AS(parse_keys("/nonexistent/keys.txt"), std::invalid_argument);
  CHECK_THROWS_AS(parse_keys(""), std::invalid_argument);

  const NodeSet counted = parse_nodes("3", 7);
  CHECK(counted.names == std::vector<std::string>{"node-0", "node-1", "node-2"});
  CHECK(counted.vnodes == 7);
  CHECK(parse_nodes("a, b ,c", 1).names == std::vector<std::string>{"a", "b", "c"});
  CHECK_THROWS_AS(parse_nodes("0", 1), std::invalid_argument);
  CHECK_THROWS_AS(parse_nodes("", 1), std::invalid_argument);
  CHECK_THROWS_AS(parse_nodes("a,,b", 1), std::invalid_argument);
  CHECK_THROWS_AS(parse_nodes("a,b,a", 1), std::invalid_argument);
  CHECK_THROWS_AS(parse_nodes("4294967296", 1), std::invalid_argument);
  CHECK_THROWS_AS(parse_nodes("3", 0), std::invalid_argument);

  // A count alone, for a fleet of buckets: nothing allocated, no memory guard.
  CHECK(parse_node_count("4294967295") == 0xffffffffu);
  CHECK(parse_node_count("0") == 0u);
  CHECK_FALSE(parse_node_count("a,b").has_value());
  CHECK_THROWS_WITH(parse_node_count("4294967296"), Catch::Contains("exceeds the 2^32 - 1"));
  CHECK_THROWS_WITH(parse_node_count("-3"), Catch::Contains("the node count -3 is negative"));
}

TEST_CASE("apply_change: joins append, leaves keep order, jump only loses its last buckets") {
  const NodeSet five = default_nodes(5, 3);
  const std::vector<std::string> none;
  const std::vector<std::string> n5 = {"node-5"}, n2 = {"node-2"}, n4 = {"node-4"};
  const Fleet grown = apply_change(Scheme::kRing, five, n5, none);
  CHECK(grown.nodes().names.back() == "node-5");
  CHECK(grown.size() == 6);
  CHECK(grown.nodes().vnodes == 3);
  const Fleet shrunk = apply_change(Scheme::kRing, five, none, n2);
  CHECK(shrunk.nodes().names == std::vector<std::string>{"node-0", "node-1", "node-3", "node-4"});

  const std::vector<std::string> unknown = {"node-9"}, twice = {"node-1", "node-1"};
  CHECK_THROWS_AS(apply_change(Scheme::kRing, five, none, unknown), std::invalid_argument);
  CHECK_THROWS_AS(apply_change(Scheme::kRing, five, none, twice), std::invalid_argument);
  CHECK_THROWS_AS(apply_change(Scheme::kRing, five, n2, none), std::invalid_argument);
  const std::vector<std::string> n0 = {"node-0"}, empty_name = {""};
  CHECK_THROWS_WITH(apply_change(Scheme::kModN, default_nodes(1), none, n0),
                    Catch::Contains("N = 0"));
  CHECK_THROWS_WITH(apply_change(Scheme::kModN, default_nodes(1), n5, n0),
                    Catch::Contains("N = 0"));
  CHECK_THROWS_WITH(apply_change(Scheme::kRing, five, empty_name, none),
                    Catch::Contains("node 5 has an empty name"));

  // Jump (Removal::kLastOnly in the registry): the last bucket(s) may go, in
  // any order; any other removal is refused with a message that says why.
  REQUIRE(scheme_info(Scheme::kJump).removal == Removal::kLastOnly);
  CHECK(apply_change(Scheme::kJump, five, none, n4).size() == 4);
  const std::vector<std::string> last_two = {"node-4", "node-3"};
  CHECK(apply_change(Scheme::kJump, five, none, last_two).size() == 3);
  CHECK(apply_change(Scheme::kJump, five, n5, none).nodes().names.back() == "node-5");
  try {
    apply_change(Scheme::kJump, five, none, n2);
    FAIL("removing bucket 2 of 5 from jump was accepted");
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    CHECK(what.find("jump hash can only remove the last bucket") != std::string::npos);
    CHECK(what.find("node-4") != std::string::npos);
  }
  const std::vector<std::string> not_suffix = {"node-4", "node-2"};
  CHECK_THROWS_AS(apply_change(Scheme::kJump, five, none, not_suffix), std::invalid_argument);
  // Every other scheme lets any node leave.
  for (const SchemeInfo& info : all_scheme_infos())
    if (info.removal != Removal::kLastOnly)
      CHECK(apply_change(info.id, five, none, n2).size() == 4);
}

TEST_CASE("apply_change records the change in the fleet's history: leaves, then joins") {
  const Fleet before = default_nodes(4, 7);
  const std::vector<std::string> add = {"x", "y"}, remove = {"node-2", "node-0"};
  const Fleet after = apply_change(Scheme::kRendezvous, before, add, remove);
  CHECK(after.nodes().names == std::vector<std::string>{"node-1", "node-3", "x", "y"});
  CHECK(after.nodes().vnodes == 7);
  CHECK(after.initial() == before.nodes().names);
  using Kind = FleetChange::Kind;
  const std::vector<FleetChange> want = {
      {Kind::kLeave, "node-2"}, {Kind::kLeave, "node-0"}, {Kind::kJoin, "x"}, {Kind::kJoin, "y"}};
  CHECK(std::vector<FleetChange>(after.history().begin(), after.history().end()) == want);
  CHECK(after.removed() == remove);
  // A second change continues the history of the first.
  const std::vector<std::string> back = {"node-2"};
  const Fleet again = apply_change(Scheme::kRendezvous, after, back, {});
  CHECK(again.history().size() == 5);
  CHECK(again.removed() == std::vector<std::string>{"node-0"});
  CHECK(again.initial() == before.nodes().names);
}

TEST_CASE("did you mean: the nearest choice within two edits, none past them") {
  const std::vector<std::string> options = {"--scheme", "--nodes", "--format", "--vnodes"};
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("ring", "rign") == 2);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(nearest("--schem", options) == "--scheme");
  CHECK(nearest("--formt", options) == "--format");
  CHECK(nearest("--vnode", options) == "--vnodes");  // nearer than --nodes
  CHECK(nearest("--colour", options).empty());
  const std::vector<std::string> schemes = {"modn", "ring", "hrw", "jump"};
  CHECK(nearest("rign", schemes) == "ring");
  CHECK(nearest("jmp", schemes) == "jump");
  CHECK(nearest("xy", schemes).empty());  // two edits of a two-letter word is no misspelling
  CHECK(did_you_mean("rign", schemes) == " (did you mean 'ring'?)");
  CHECK(did_you_mean("zzzz", schemes).empty());
}

TEST_CASE("time guard: hours of node scores are refused with the estimate") {
  CHECK(estimated_seconds(10'000'000'000, 1'000'000) == Approx(2e6));
  CHECK(estimated_seconds(1000, 0) == Approx(2e-7));  // no scores: one step a lookup
  CHECK_THROWS_WITH(check_time(10'000'000'000, 1'000'000, "balance", false),
                    "balance would take about 556 hours (1e+16 node scores at about 5e+09 a "
                    "second); give --allow-long to run it anyway");
  CHECK_NOTHROW(check_time(10'000'000'000, 1'000'000, "balance", true));
  CHECK_NOTHROW(check_time(10'000'000, 1000, "balance", false));  // 2 s
}
