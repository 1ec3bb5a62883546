// Tests of fleets of buckets (Fleet::of_buckets: the schemes that place keys
// by the bucket count alone, SchemeInfo::buckets_only): owners up to the
// scheme's max_nodes with no names held, owner_name, fleet changes decided by
// index (LIFO refusals at N = 2^31 - 1 without naming a bucket), moves and
// balance equal to those over the same buckets held by name.
#include <algorithm>
#include <catch2/catch.hpp>
#include <charconv>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "chbench/hash.h"
#include "chbench/jump/jump.h"
#include "placement.h"
#include "support.h"

using namespace chbench;
using namespace chbench::lab;
using namespace chbench::lab::test;

namespace {

// The registry's schemes that place by the bucket count alone (by the flag:
// later ones, jumpback and the like, join these tests unchanged).
std::vector<const SchemeInfo*> bucket_schemes() {
  std::vector<const SchemeInfo*> out;
  for (const SchemeInfo& info : all_scheme_infos())
    if (info.buckets_only) out.push_back(&info);
  return out;
}

std::string hex(uint64_t v) {
  char buf[16];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v, 16).ptr);
}

// Hashes that reach every part of the 64-bit range.
std::vector<uint64_t> edge_hashes() {
  std::vector<uint64_t> h = {
      0, 1, 2, 16, 12345678901234567, 0x8000000000000000u, 0xfffffffffffffffeu, ~uint64_t{0}};
  for (uint64_t i = 1; i <= 200; ++i) h.push_back(i * 0x9e3779b97f4a7c15u);
  return h;
}

}  // namespace

TEST_CASE("owner_name: the fleet's own name, or node-<i> for a fleet of buckets") {
  const Fleet named = NodeSet{{"a", "b"}, 1, 65537};
  CHECK(owner_name(named, 1) == "b");
  const Fleet buckets = Fleet::of_buckets(0x7fffffffu);
  CHECK(owner_name(buckets, 0) == "node-0");
  CHECK(owner_name(buckets, 0x7ffffffeu) == "node-2147483646");
  CHECK(buckets.nodes().names.empty());  // nothing was named to answer
}

TEST_CASE("jump at N = 2^31 - 1 from key hashes: the reference's jump_hash, no name held") {
  // The key hashes as a file of --key-format hash would give them.
  std::string file;
  const auto hashes = edge_hashes();
  // Decimal and hex lines in turn, appended piece by piece (GCC 12 warns
  // falsely, -Wrestrict, on "0x" + std::string).
  for (std::size_t i = 0; i < hashes.size(); ++i) {
    if (i % 2) {
      file += "0x";
      file += hex(hashes[i]);
      file += "\r\n";
    } else {
      file += ' ';
      file += std::to_string(hashes[i]);
      file += '\n';
    }
  }
  std::istringstream in(file);
  const KeySet keys = KeySet::from_hash_stream(in, "test");
  REQUIRE(keys.size() == hashes.size());
  const Fleet fleet = Fleet::of_buckets(kJumpMaxBuckets);
  scheme_info(Scheme::kJump).check(fleet);
  for (std::string_view kernel : {"", "reference"}) {
    INFO("kernel '" << kernel << "'");
    std::vector<uint32_t> got(keys.size());
    lookup_owners(*make_table(Scheme::kJump, fleet, kernel), keys, 0, got);
    for (std::size_t i = 0; i < hashes.size(); ++i) {
      INFO("h = " << hashes[i]);
      CHECK(owner_name(fleet, got[i]) ==
            "node-" + std::to_string(jump_hash(hashes[i], kJumpMaxBuckets)));
      CHECK(keys.key(i) == std::to_string(hashes[i]));
    }
  }
  // Known points: h = 0 always lands in bucket 0; the hashes the command-line
  // test prints (cli_buckets_test.sh computes them apart, in Python).
  CHECK(jump_hash(0, kJumpMaxBuckets) == 0);
  CHECK(jump_hash(1, kJumpMaxBuckets) == 262355607);
  CHECK(jump_hash(~uint64_t{0}, kJumpMaxBuckets) == 699554662);
  CHECK(fleet.nodes().names.empty());
  CHECK_THROWS_WITH(scheme_info(Scheme::kJump).check(Fleet::of_buckets(kJumpMaxBuckets + 1)),
                    Catch::Contains("at most 2147483647"));
}

TEST_CASE("mod-N at N = 2^32 - 1 from key hashes: h % N") {
  const auto hashes = edge_hashes();
  const KeySet keys = KeySet::from_hashes(hashes);
  const Fleet fleet = Fleet::of_buckets(0xffffffffu);
  std::vector<uint32_t> got(keys.size());
  lookup_owners(*make_table(Scheme::kModN, fleet), keys, 0, got);
  for (std::size_t i = 0; i < hashes.size(); ++i) CHECK(got[i] == hashes[i] % 0xffffffffu);
}

TEST_CASE("every bucket scheme places keys over a fleet of buckets as over the named fleet") {
  const auto hashes = default_key_hashes(20'000);
  const KeySet keys = KeySet::counted(20'000);
  for (const SchemeInfo* info : bucket_schemes()) {
    for (uint32_t n : {1u, 7u, 1000u}) {
      INFO(info->name << " N = " << n);
      const Fleet buckets = Fleet::of_buckets(n);
      std::vector<uint32_t> got(keys.size());
      lookup_owners(*make_table(info->id, buckets), keys, 0, got);
      CHECK(got == reference_owners(info->id, default_nodes(n), hashes));
    }
  }
}

TEST_CASE("changes of a fleet of buckets are decided by index, names held only when needed") {
  const std::vector<std::string> none;
  for (const SchemeInfo* info : bucket_schemes()) {
    INFO(info->name);
    const uint32_t n = info->max_nodes > 0x7fffffffu ? 0x7fffffffu : uint32_t(info->max_nodes);
    const Fleet huge = Fleet::of_buckets(n);
    const std::string last = "node-" + std::to_string(n - 1), next = "node-" + std::to_string(n);
    const std::vector<std::string> drop_last = {last}, add_next = {next};
    // The last bucket leaves, or the next one joins: again a fleet of buckets.
    CHECK(bucket_change(info->id, huge, none, drop_last));
    const Fleet smaller = apply_change(info->id, huge, none, drop_last);
    CHECK_FALSE(smaller.named());
    CHECK(smaller.size() == n - 1);
    const Fleet seven = Fleet::of_buckets(7);
    const std::vector<std::string> two = {"node-7", "node-8"}, swapped = {"node-8", "node-7"};
    CHECK(apply_change(info->id, seven, two, none).size() == 9);
    CHECK_FALSE(apply_change(info->id, seven, two, none).named());
    // Any other name for a new bucket names the fleet.
    CHECK_FALSE(bucket_change(info->id, seven, swapped, none));
    const Fleet renamed = apply_change(info->id, seven, swapped, none);
    CHECK(renamed.named());
    CHECK(renamed.nodes().names.back() == "node-7");
    CHECK(renamed.nodes().names[7] == "node-8");
    // Refusals, without naming 2^31 - 1 buckets.
    const std::vector<std::string> middle = {"node-3"}, unknown = {"node-" + std::to_string(n)},
                                   padded = {"node-03"}, present = {"node-3"};
    if (info->removal == Removal::kLastOnly) {
      CHECK_THROWS_WITH(bucket_change(info->id, huge, none, middle),
                        Catch::Contains("can only remove the last bucket(s): 'node-3' is bucket 3 "
                                        "of 0.." +
                                        std::to_string(n - 1) + ", so only the last, '" + last +
                                        "', can be removed"));
    } else {
      CHECK_FALSE(bucket_change(info->id, seven, none, middle));  // renumbers: names held
    }
    CHECK_THROWS_WITH(bucket_change(info->id, huge, none, unknown),
                      Catch::Contains("unknown node '" + unknown[0] + "' in --remove"));
    CHECK_THROWS_WITH(bucket_change(info->id, huge, none, padded),
                      Catch::Contains("unknown node 'node-03'"));
    CHECK_THROWS_WITH(bucket_change(info->id, huge, present, none),
                      Catch::Contains("node 'node-3' in --add is already in --nodes"));
    const std::vector<std::string> only = {"node-0"};
    CHECK_THROWS_WITH(apply_change(info->id, Fleet::of_buckets(1), none, only),
                      Catch::Contains("N = 0"));
    CHECK(huge.nodes().names.empty());
  }
}

TEST_CASE("moves between fleets of buckets equal moves between the same fleets held by name") {
  const KeySet keys = KeySet::counted(30'000);
  const std::vector<std::string> none;
  for (const SchemeInfo* info : bucket_schemes()) {
    const std::vector<std::string> grow = {"node-50", "node-51"}, shrink = {"node-49", "node-48"};
    for (bool growing : {true, false}) {
      INFO(info->name << (growing ? " 50 -> 52" : " 50 -> 48"));
      const auto& add = growing ? grow : none;
      const auto& remove = growing ? none : shrink;
      const Fleet buckets = Fleet::of_buckets(50);
      const Fleet named = default_nodes(50);
      const Fleet b_after = apply_change(info->id, buckets, add, remove);
      const Fleet n_after = apply_change(info->id, named, add, remove);
      REQUIRE_FALSE(b_after.named());
      const MoveResult b = measure_move(info->id, buckets, b_after, keys, true);
      const MoveResult n = measure_move(info->id, named, n_after, keys, true);
      CHECK(b.moved == n.moved);
      CHECK(b.between_old == n.between_old);
      CHECK(b.from_removed == n.from_removed);
      CHECK(b.to_added == n.to_added);
      CHECK(b.removed == n.removed);
      CHECK(b.added == n.added);
      CHECK(b.removed_to == n.removed_to);
      CHECK(b.added_from == n.added_from);
      REQUIRE(b.moved_keys.size() == n.moved_keys.size());
      for (std::size_t i = 0; i < b.moved_keys.size(); ++i) {
        CHECK(b.moved_keys[i].key == n.moved_keys[i].key);
        CHECK(b.moved_keys[i].from == n.moved_keys[i].from);
        CHECK(b.moved_keys[i].to == n.moved_keys[i].to);
      }
    }
  }
}

TEST_CASE("a move at N = 2^31 - 1 holds no name and counts as the reference places") {
  // The last bucket leaves. Names are node-<i> on both sides, so a key moves
  // when its reference owner's index changes; it moves between old nodes
  // unless it was in the last bucket (mod-N moves almost every key, jump only
  // the last bucket's).
  const auto hashes = edge_hashes();
  const KeySet keys = KeySet::from_hashes(hashes);
  const uint32_t n = 0x7fffffffu;
  for (const SchemeInfo* info : bucket_schemes()) {
    INFO(info->name);
    const Fleet before = Fleet::of_buckets(n);
    const std::vector<std::string> drop = {"node-" + std::to_string(n - 1)};
    const Fleet after = apply_change(info->id, before, {}, drop);
    const MoveResult r = measure_move(info->id, before, after, keys, true);
    const auto was = reference_owners(info->id, before, hashes);
    const auto now = reference_owners(info->id, after, hashes);
    uint64_t moved = 0, between_old = 0;
    std::map<uint32_t, uint64_t> to;
    for (std::size_t i = 0; i < hashes.size(); ++i) {
      if (was[i] == now[i]) continue;
      ++moved;
      if (was[i] == n - 1)
        ++to[now[i]];
      else
        ++between_old;
    }
    CHECK(r.moved == moved);
    CHECK(r.between_old == between_old);
    CHECK(r.removed == std::vector<uint32_t>{n - 1});
    REQUIRE(r.removed_to.size() == 1);
    CHECK(r.removed_to[0] == std::vector<std::pair<uint32_t, uint64_t>>(to.begin(), to.end()));
    CHECK(r.moved_keys.size() == moved);
    CHECK(before.nodes().names.empty());
    CHECK(after.nodes().names.empty());
  }
}

TEST_CASE("flows over 2^20 cells are counted sparsely, equal to the reference's") {
  // N = 2^21 buckets lose the last: 2^21 cells, above the dense limit.
  const uint32_t n = 1u << 21;
  const KeySet keys = KeySet::counted(200'000);
  const auto hashes = default_key_hashes(200'000);
  const Fleet before = Fleet::of_buckets(n);
  const std::vector<std::string> drop = {"node-" + std::to_string(n - 1)};
  const Fleet after = apply_change(Scheme::kModN, before, {}, drop);
  const MoveResult r = measure_move(Scheme::kModN, before, after, keys);
  const auto was = reference_owners(Scheme::kModN, before, hashes);
  const auto now = reference_owners(Scheme::kModN, after, hashes);
  std::vector<uint64_t> to(n - 1, 0);
  uint64_t from_removed = 0;
  for (std::size_t i = 0; i < hashes.size(); ++i)
    if (was[i] == n - 1) {
      ++to[now[i]];
      ++from_removed;
    }
  std::vector<std::pair<uint32_t, uint64_t>> want;
  for (uint32_t a = 0; a < n - 1; ++a)
    if (to[a] != 0) want.emplace_back(a, to[a]);
  CHECK(r.from_removed == from_removed);
  REQUIRE(r.removed_to.size() == 1);
  CHECK(r.removed_to[0] == want);
}

TEST_CASE("balance over a fleet of buckets counts every bucket, above 2^16 in one shared array") {
  const KeySet keys = KeySet::counted(100'000);
  const auto hashes = default_key_hashes(100'000);
  for (const SchemeInfo* info : bucket_schemes()) {
    for (uint32_t n : {50u, 70'000u}) {
      INFO(info->name << " N = " << n);
      const Balance b = measure_balance(info->id, Fleet::of_buckets(n), keys);
      std::vector<uint64_t> want(n, 0);
      for (uint32_t o : reference_owners(info->id, default_nodes(n), hashes)) ++want[o];
      CHECK(b.node_keys == want);
      CHECK(b.circle.empty());
    }
  }
}
