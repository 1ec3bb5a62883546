// AnchorHash (kernels/chbench/anchor, docs/schemes/anchor.md): every row of
// cpp-anchorhash's vector file through the CRC-32C profile's reference and
// kernels on every Highway target; the registry's kernels against the
// reference under random scenarios (N, capacity, removal order and share,
// re-adds, new names) on every target and against an independent model; and
// the scheme's promises counted exactly: a removal moves only the removed
// node's keys, a re-add brings exactly those back, balance within a few
// percent.
#include <xxhash.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <regex>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "anchor_model.h"
#include "chbench/anchor/anchor.h"
#include "chbench/hash.h"
#include "chbench/scenario.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"
#include "vectors.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

using chbench::AnchorHashing;
using chbench::Fleet;
using chbench::NodeSet;
using chbench::OwnerTable;
using chbench::Scheme;
using chbench_test::first_mismatch;
using chbench_test::kSeed;
using chbench_test::owners_of;

namespace {

using Builder = std::function<std::unique_ptr<OwnerTable>(const Fleet&)>;

// The tables a profile is checked with: its reference, scalar and SIMD
// kernels (the SIMD one run on every runnable target by the callers).
struct Named {
  std::string name;
  Builder build;
  uint64_t (*bytes)(const Fleet&);  // its peak estimate
};

std::vector<Named> profile_tables(AnchorHashing hashing) {
  const auto& info = chbench::scheme_info(Scheme::kAnchor);
  return {{"reference", [=](const Fleet& f) { return chbench::make_anchor_reference(f, hashing); },
           info.reference_bytes},
          {"scalar", [=](const Fleet& f) { return chbench::make_anchor_scalar(f, hashing); },
           &chbench::anchor_table_bytes},
          {"simd", [=](const Fleet& f) { return chbench::make_anchor_simd(f, hashing); },
           &chbench::anchor_table_bytes}};
}

// The registry's anchor kernels (those test_kernels() selects).
std::vector<Named> registry_tables() {
  std::vector<Named> out;
  for (const chbench::KernelInfo* k : chbench_test::test_kernels_of(Scheme::kAnchor))
    out.push_back({k->full_name(), [k](const Fleet& f) { return k->build(f); }, k->table_bytes});
  return out;
}

// Runs `check()` once per runnable Highway target, that target forced.
template <class Check>
void on_every_target(const Check& check) {
  for (int64_t target : chbench_test::test_targets()) {
    chbench::simd::ForcedTarget forced(target);
    INFO("Highway target " << chbench::simd::target_name(target));
    check();
  }
}

// The owner index of the node named `name`, or UINT32_MAX.
uint32_t index_of(const Fleet& f, const std::string& name) {
  const auto& names = f.nodes().names;
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? UINT32_MAX : static_cast<uint32_t>(it - names.begin());
}

// ---- cpp-anchorhash's vector file -------------------------------------------------

// The fleet of a row's `ops`: init(a=..;w=..), then remove(b) (node-b leaves)
// and add->b (node-b joins; the anchor must restore bucket b).
Fleet fleet_of_ops(const std::string& ops, std::vector<uint32_t>& added) {
  std::smatch m;
  REQUIRE(std::regex_search(ops, m, std::regex(R"(^init\(a=(\d+);w=(\d+)\))")));
  NodeSet nodes = chbench::default_nodes(static_cast<uint32_t>(std::stoul(m[2])));
  nodes.capacity = static_cast<uint32_t>(std::stoul(m[1]));
  Fleet fleet(std::move(nodes));
  const std::string rest = m.suffix();
  const std::regex step(R"(;(remove\((\d+)\)|add->(\d+)))");
  for (auto it = std::sregex_iterator(rest.begin(), rest.end(), step); it != std::sregex_iterator();
       ++it) {
    if ((*it)[2].matched) {
      fleet.leave("node-" + (*it)[2].str());
    } else {
      fleet.join("node-" + (*it)[3].str());
      added.push_back(static_cast<uint32_t>(std::stoul((*it)[3])));
    }
  }
  return fleet;
}

struct VectorStep {
  Fleet fleet;
  std::vector<uint64_t> keys;
  std::vector<uint32_t> owners;  // the owner index of node-<bucket>
};

std::map<std::string, VectorStep> vector_steps() {
  const auto file = chbench_test::read_vectors("anchor_vectors.csv");
  const std::size_t ops = file.column("ops"), working = file.column("working"),
                    key1 = file.column("key1"), key2 = file.column("key2"),
                    bucket = file.column("bucket");
  std::map<std::string, VectorStep> steps;
  for (const auto& row : file.rows) {
    auto it = steps.find(row[ops]);
    if (it == steps.end()) {
      std::vector<uint32_t> added;
      it = steps.emplace(row[ops], VectorStep{fleet_of_ops(row[ops], added), {}, {}}).first;
      REQUIRE(it->second.fleet.size() == chbench_test::vector_u64(row[working]));
    }
    REQUIRE(chbench_test::vector_u64(row[key2]) == 0);  // the profile's key2
    it->second.keys.push_back(chbench_test::vector_u64(row[key1]));
    const uint32_t owner = index_of(it->second.fleet, "node-" + row[bucket]);
    REQUIRE(owner != UINT32_MAX);  // a bucket of a node in service
    it->second.owners.push_back(owner);
  }
  return steps;
}

}  // namespace

TEST_CASE("anchor: CRC-32C is SSE4.2's crc32q bit for bit", "[anchor][crc]") {
  std::mt19937_64 rng(kSeed + 130);
  std::vector<std::pair<uint64_t, uint32_t>> inputs = {{0, 0}, {0, ~0u}, {~0ull, 0}, {1, 0}};
  for (int i = 0; i < 10000; ++i) inputs.emplace_back(rng(), static_cast<uint32_t>(rng()));
  // The check value of CRC-32C ("123456789", register started at and
  // finally xored with ~0): its first eight bytes through the function, the
  // ninth bit by bit.
  uint64_t first8 = 0;
  for (int i = 7; i >= 0; --i) first8 = first8 << 8 | static_cast<uint8_t>('1' + i);
  uint32_t crc = chbench::anchor_crc32c(first8, ~0u) ^ '9';
  for (int bit = 0; bit < 8; ++bit) crc = crc & 1u ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
  CHECK((crc ^ ~0u) == 0xE3069283u);
#if defined(__x86_64__)
  if (__builtin_cpu_supports("sse4.2")) {
    auto crc32q = [](uint64_t data, uint32_t crc) __attribute__((target("sse4.2"))) {
      return static_cast<uint32_t>(_mm_crc32_u64(crc, data));
    };
    for (const auto& [data, crc] : inputs) {
      INFO("data 0x" << std::hex << data << ", crc 0x" << crc);
      REQUIRE(chbench::anchor_crc32c(data, crc) == crc32q(data, crc));
    }
  }
#endif
}

TEST_CASE("anchor: every row of cpp-anchorhash's vectors, reference and kernels, every target",
          "[anchor][vectors][targets]") {
  const auto steps = vector_steps();
  REQUIRE(steps.size() == 5);
  std::size_t rows = 0;
  for (const auto& entry : steps) {
    // Plain references: Clang 14 lets no lambda capture a structured binding.
    const auto& ops = entry.first;
    const auto& step = entry.second;
    INFO("step " << ops << ", " << step.keys.size() << " rows");
    rows += step.keys.size();
    for (const Named& t : profile_tables(AnchorHashing::kCrc32c)) {
      INFO(t.name);
      const auto table = t.build(step.fleet);
      on_every_target([&] { chbench_test::check_table(*table, step.keys, step.owners); });
    }
  }
  CHECK(rows == 4000);
  // The re-adds restored buckets 7 and 3: after them every key is on the
  // node it had at first.
  const auto& first = steps.at("init(a=10;w=10)");
  const auto& last = steps.at("init(a=10;w=10);remove(3);remove(7);add->7;add->3");
  REQUIRE(first.keys == last.keys);
  for (std::size_t i = 0; i < first.keys.size(); ++i)
    CHECK(first.fleet.nodes().names[first.owners[i]] == last.fleet.nodes().names[last.owners[i]]);
}

namespace {

// SUPSI's k of a String key: xxHash32 of its UTF-8 bytes and BE32(0xDEADBEEF).
uint64_t supsi_key_hash(const std::string& key) {
  std::string bytes = key + "\xDE\xAD\xBE\xEF";
  return XXH32(bytes.data(), bytes.size(), 0);
}

}  // namespace

TEST_CASE("anchor: SUPSI's xxHash32 chain is xxHash32 of its 16 bytes", "[anchor][supsi]") {
  std::mt19937_64 rng(kSeed + 135);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t k = i < 5000 ? rng() >> 32 : rng();
    const auto b = static_cast<uint32_t>(rng());
    unsigned char bytes[16];
    for (int j = 0; j < 8; ++j) bytes[j] = static_cast<unsigned char>(k >> (56 - 8 * j));
    for (int j = 0; j < 4; ++j) bytes[8 + j] = static_cast<unsigned char>(b >> (24 - 8 * j));
    const unsigned char seed[4] = {0xDE, 0xAD, 0xBE, 0xEF};
    std::copy(seed, seed + 4, bytes + 12);
    REQUIRE(chbench::anchor_xx32_chain(k, b) == XXH32(bytes, sizeof bytes, 0));
  }
  // SUPSI's own values (hash_primitives.csv, xx32_keys.csv).
  CHECK(supsi_key_hash("key-0") == 899591669u);
  CHECK(supsi_key_hash("key-1") == 4276689832u);
}

TEST_CASE("anchor: every row of SUPSI's AnchorEngine vectors, reference and kernels, every target",
          "[anchor][vectors][supsi][targets]") {
  const auto file = chbench_test::read_vectors("supsi/anchor_vectors.csv");
  const std::size_t step = file.column("step"), key = file.column("key_hash_or_key"),
                    bucket = file.column("bucket");
  // AnchorEngine(10, 16): remove 3, remove 7, then addBucket() gives back 7.
  NodeSet nodes = chbench::default_nodes(10);
  nodes.capacity = 16;
  std::map<std::string, Fleet> fleets;
  fleets["a_init"] = Fleet(nodes);
  fleets["b1_remove3"] = Fleet(fleets["a_init"]).leave("node-3");
  fleets["b2_remove7"] = Fleet(fleets["b1_remove3"]).leave("node-7");
  fleets["c_add7"] = Fleet(fleets["b2_remove7"]).join("node-7");
  std::map<std::string, std::pair<std::vector<uint64_t>, std::vector<uint32_t>>> rows;
  for (const auto& row : file.rows) {
    REQUIRE(fleets.count(row[step]) == 1);
    auto& [keys, owners] = rows[row[step]];
    keys.push_back(supsi_key_hash(row[key]));
    owners.push_back(index_of(fleets[row[step]], "node-" + row[bucket]));
    REQUIRE(owners.back() != UINT32_MAX);
  }
  REQUIRE(rows.size() == 4);
  std::size_t count = 0;
  for (const auto& entry : rows) {
    const auto& name = entry.first;
    const auto& step_rows = entry.second;
    INFO("step " << name);
    count += step_rows.first.size();
    for (const Named& t : profile_tables(AnchorHashing::kSupsiXx32)) {
      INFO(t.name);
      const auto table = t.build(fleets[name]);
      on_every_target(
          [&] { chbench_test::check_table(*table, step_rows.first, step_rows.second); });
    }
  }
  CHECK(count == 3200);
}

TEST_CASE("anchor: the kernels follow the independent model on unchanged fleets",
          "[anchor][reference][targets]") {
  std::mt19937_64 rng(kSeed + 131);
  std::vector<uint64_t> keys = {0, 1, ~0ull, 1ull << 63};
  chbench_test::append_random(keys, 5000, rng);
  for (uint32_t n : {1u, 2u, 3u, 10u, 97u, 1000u}) {
    for (uint32_t capacity : {0u, n, n + 1, 3 * n + 7}) {
      NodeSet nodes = chbench::default_nodes(n);
      nodes.capacity = capacity;
      std::vector<uint32_t> want;
      for (uint64_t h : keys) want.push_back(chbench_test::model_anchor(h, n, capacity));
      INFO("N = " << n << ", capacity " << capacity);
      CHECK(first_mismatch<uint64_t>(
                keys, want, owners_of(*chbench::build_reference(Scheme::kAnchor, nodes), keys)) ==
            "");
      for (const Named& t : registry_tables()) {
        INFO(t.name);
        const auto table = t.build(nodes);
        on_every_target([&] { chbench_test::check_table(*table, keys, want); });
      }
    }
  }
}

namespace {

// A random scenario: N log-uniform up to 3000, a capacity from N to 12 N or
// the default, any order, a share up to 95%, some re-adds; then, on every
// other fleet, new names joining and some more leaves.
Fleet random_fleet(std::mt19937_64& rng, std::string& what) {
  chbench::Scenario s;
  s.nodes = std::clamp<uint32_t>(static_cast<uint32_t>(std::exp2(rng() % 1200 / 100.0)), 1, 3000);
  const uint32_t choice = rng() % 4;
  s.capacity = choice == 0 ? 0 : choice == 1 ? s.nodes : s.nodes + rng() % (11 * s.nodes + 1);
  s.order = static_cast<chbench::RemovalOrder>(rng() % 3);
  s.remove_fraction = (rng() % 96) / 100.0;
  s.seed = rng();
  const uint32_t removed = chbench::removal_count(s.remove_fraction, s.nodes);
  s.readds = removed == 0 ? 0 : static_cast<uint32_t>(rng() % (removed + 1));
  Fleet fleet = chbench::scenario_fleet(s);
  what = "N = " + std::to_string(s.nodes) + ", capacity " + std::to_string(s.capacity) + ", " +
         std::string(chbench::removal_order_name(s.order)) + " " +
         std::to_string(s.remove_fraction) + ", " + std::to_string(s.readds) + " re-adds";
  if (rng() % 2 == 0) {
    const uint32_t a = chbench::fleet_capacity(fleet, chbench::kAnchorMaxCapacity);
    for (int i = 0; i < 8 && fleet.size() < a; ++i) {
      if (rng() % 3 == 0 && fleet.size() > 1) {
        fleet.leave(fleet.nodes().names[rng() % fleet.size()]);
      } else {
        fleet.join("new-" + std::to_string(rng() % 1000000));  // may repeat: skip then
      }
    }
    what += ", then new names and leaves";
  }
  return fleet;
}

}  // namespace

TEST_CASE("anchor: every kernel equals the reference under random scenarios, every target",
          "[anchor][reference][scenarios][targets]") {
  std::mt19937_64 rng(kSeed + 132);
  for (int trial = 0; trial < 60; ++trial) {
    std::string what;
    Fleet fleet;
    try {
      fleet = random_fleet(rng, what);
    } catch (const std::invalid_argument&) {
      continue;  // a new name drawn twice
    }
    std::vector<uint64_t> keys = {0, 1, ~0ull};
    chbench_test::append_random(keys, 3000, rng);
    INFO("seed " << kSeed + 132 << ", trial " << trial << ": " << what);
    for (AnchorHashing hashing :
         {AnchorHashing::kSplitMix64, AnchorHashing::kCrc32c, AnchorHashing::kSupsiXx32}) {
      INFO("hashing " << static_cast<int>(hashing) << " (0 ours, 1 CRC-32C, 2 SUPSI)");
      const auto want = owners_of(*chbench::make_anchor_reference(fleet, hashing), keys);
      auto tables = profile_tables(hashing);
      if (hashing == AnchorHashing::kSplitMix64) tables = registry_tables();
      for (const Named& t : tables) {
        INFO(t.name);
        const auto table = t.build(fleet);
        CHECK(t.bytes(fleet) >= table->memory_bytes());
        on_every_target([&] { chbench_test::check_table(*table, keys, want); });
      }
    }
  }
}

namespace {

// The name of every key's owner.
std::vector<std::string> owner_names(const Fleet& fleet, std::span<const uint64_t> keys) {
  std::vector<std::string> out;
  for (uint32_t o : owners_of(*chbench::build_reference(Scheme::kAnchor, fleet), keys))
    out.push_back(fleet.nodes().names[o]);
  return out;
}

}  // namespace

TEST_CASE("anchor: walks left going when the next batch starts end at their own keys, every target",
          "[anchor][reference][targets]") {
  // Nine in ten buckets removed at random: most keys walk, some for many
  // steps, so walks of each batch of the SIMD kernel are still going when
  // the next batch's keys join them, and their owners land batches later.
  std::mt19937_64 rng(kSeed + 137);
  const Fleet fleet = chbench::scenario_fleet(chbench_test::random_removals(2000, 0.9, rng()));
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, chbench_test::kEmulated ? 1701 : 6001, rng);
  for (AnchorHashing hashing :
       {AnchorHashing::kSplitMix64, AnchorHashing::kCrc32c, AnchorHashing::kSupsiXx32}) {
    INFO("hashing " << static_cast<int>(hashing) << " (0 ours, 1 CRC-32C, 2 SUPSI)");
    const auto want = owners_of(*chbench::make_anchor_reference(fleet, hashing), keys);
    const auto table = chbench::make_anchor_simd(fleet, hashing);
    on_every_target([&] { chbench_test::check_table(*table, keys, want); });
  }
}

TEST_CASE("anchor: a removal moves exactly the removed node's keys, a re-add brings them back",
          "[anchor][properties]") {
  std::mt19937_64 rng(kSeed + 133);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 20000, rng);
  const auto removed = chbench::removal_list(chbench_test::random_removals(50, 0.5, rng()));
  Fleet fleet(chbench::default_nodes(50));
  std::vector<std::vector<std::string>> history = {owner_names(fleet, keys)};
  for (const std::string& gone : removed) {
    const auto& before = history.back();
    fleet.leave(gone);
    const auto after = owner_names(fleet, keys);
    std::size_t on_gone = 0, moved = 0, between_survivors = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      on_gone += before[i] == gone;
      moved += after[i] != before[i];
      between_survivors += before[i] != gone && after[i] != before[i];
    }
    INFO(gone << " leaves, " << fleet.size() << " left");
    CHECK(between_survivors == 0);
    CHECK(moved == on_gone);
    history.push_back(after);
  }
  // Re-adds, the last removed first: each brings back exactly the keys its
  // removal moved, so every earlier placement comes back in turn.
  for (std::size_t k = removed.size(); k-- > 0;) {
    fleet.join(removed[k]);
    INFO(removed[k] << " joins again");
    CHECK(owner_names(fleet, keys) == history[k]);
  }
  // A new name on the next free bucket: it takes keys from the others only.
  const auto before = owner_names(fleet, keys);
  fleet.join("newcomer");
  const auto after = owner_names(fleet, keys);
  std::size_t moved = 0, to_newcomer = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    moved += after[i] != before[i];
    to_newcomer += after[i] == "newcomer";
  }
  CHECK(moved == to_newcomer);
  CHECK(to_newcomer > 0);
}

TEST_CASE("anchor: balance within a few percent at 1e5 keys, removed or not",
          "[anchor][properties][balance]") {
  const auto keys = chbench::default_key_hashes(100'000);
  for (double fraction : {0.0, 0.5, 0.9}) {
    chbench::Scenario s;
    s.nodes = 20;
    s.order = chbench::RemovalOrder::kRandom;
    s.remove_fraction = fraction;
    s.seed = 7;
    const Fleet fleet = chbench::scenario_fleet(s);
    for (const Named& t : registry_tables()) {
      std::vector<uint64_t> count(fleet.size(), 0);
      for (uint32_t o : owners_of(*t.build(fleet), keys)) ++count[o];
      const double mean = static_cast<double>(keys.size()) / fleet.size();
      const auto [lo, hi] = std::minmax_element(count.begin(), count.end());
      INFO(t.name << ", " << fleet.size() << " nodes after removing " << fraction);
      CHECK(*hi / mean < 1.05);
      CHECK(*lo / mean > 0.95);
    }
  }
}

TEST_CASE("anchor: joins beyond the capacity and bad capacities are refused before building",
          "[anchor][errors]") {
  const auto& info = chbench::scheme_info(Scheme::kAnchor);
  NodeSet nodes = chbench::default_nodes(3);
  nodes.capacity = 4;
  Fleet fleet(nodes);
  fleet.join("d");  // the fourth bucket
  CHECK_NOTHROW(info.check(fleet));
  fleet.leave("node-1").join("e");  // e takes node-1's bucket
  CHECK_NOTHROW(info.check(fleet));
  fleet.join("f");
  CHECK_THROWS_WITH(info.check(fleet),
                    Catch::Contains("'f' joins") && Catch::Contains("4 buckets are all in use"));
  CHECK_THROWS_AS(info.reference(fleet), std::invalid_argument);
  for (const Named& t : registry_tables()) CHECK_THROWS_AS(t.build(fleet), std::invalid_argument);
  nodes.capacity = 2;  // below the three initial nodes
  CHECK_THROWS_WITH(info.check(nodes), Catch::Contains("below the 3 nodes"));
  nodes.capacity = 0x80000000u;
  CHECK_THROWS_WITH(info.check(nodes), Catch::Contains("above the scheme's"));
  CHECK_THROWS_AS(info.check(Fleet::of_buckets(3)), std::invalid_argument);
  // A join takes the last removed bucket (node-3's), whatever its name.
  Fleet a(nodes = chbench::default_nodes(5)), b = a;
  a.leave("node-1").leave("node-3").join("x");
  b.leave("node-1").leave("node-3").join("node-3");
  std::mt19937_64 rng(kSeed + 134);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 5000, rng);
  CHECK(owners_of(*info.reference(a), keys) == owners_of(*info.reference(b), keys));
}

TEST_CASE("anchor: the largest capacity costs only the buckets that ever worked",
          "[anchor][capacity][targets]") {
  // a = 2^31 - 1 over five nodes: the kernels' tables hold the entries of
  // the buckets used, and their draws over [0, a) and the remainders of the
  // profiles (divisors up to 2^31 - 2) agree with the scalar code's and,
  // without history, with the model. The reference's six arrays of a
  // entries would take 48 GiB: it is compared at smaller capacities above.
  std::mt19937_64 rng(kSeed + 136);
  std::vector<uint64_t> keys = {0, 1, ~0ull, 0xffffffffull};
  chbench_test::append_random(keys, 3000, rng);
  NodeSet nodes = chbench::default_nodes(5);
  nodes.capacity = chbench::kAnchorMaxCapacity;
  Fleet changed(nodes);
  changed.leave("node-2").join("a").join("b").leave("node-0").leave("a").join("c");
  std::vector<uint32_t> model;
  for (uint64_t h : keys) model.push_back(chbench_test::model_anchor(h, 5, nodes.capacity));
  for (const Fleet& fleet : {Fleet(nodes), changed}) {
    INFO(fleet.history().size() << " changes");
    for (AnchorHashing hashing :
         {AnchorHashing::kSplitMix64, AnchorHashing::kCrc32c, AnchorHashing::kSupsiXx32}) {
      INFO("hashing " << static_cast<int>(hashing));
      const auto scalar = chbench::make_anchor_scalar(fleet, hashing);
      CHECK(scalar->memory_bytes() <= 8 * 8);
      const auto want = owners_of(*scalar, keys);
      if (hashing == AnchorHashing::kSplitMix64 && fleet.history().empty())
        CHECK(first_mismatch<uint64_t>(keys, model, want) == "");
      const auto simd = chbench::make_anchor_simd(fleet, hashing);
      on_every_target([&] { chbench_test::check_table(*simd, keys, want); });
    }
  }
}
