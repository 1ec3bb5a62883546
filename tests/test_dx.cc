// DxHash (kernels/chbench/dx, docs/schemes/dx.md): the public
// implementations' vector files reproduced row for row through their profiles
// (reference, scalar and SIMD kernels, every Highway target), every dx kernel
// equal to the reference under random fleet scenarios, and the scheme's
// properties with exact counts (only a removed node's keys move, a re-add
// brings them back, balance).
#include <xxhash.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "chbench/dx/dx.h"
#include "chbench/fleet.h"
#include "chbench/hash.h"
#include "chbench/nodes.h"
#include "chbench/scenario.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"
#include "vectors.h"

using chbench::DxProfile;
using chbench::DxState;
using chbench::Fleet;
using chbench::KernelInfo;
using chbench::Scheme;
using chbench_test::first_mismatch;
using chbench_test::kSeed;
using chbench_test::owners_of;
using chbench_test::vector_u64;

namespace {

// read_vectors, with the carriage return of the files' CRLF line ends taken
// off the last field of the header and of every row (tests/vectors.h keeps it).
chbench_test::VectorFile read_vectors(const char* path) {
  auto file = chbench_test::read_vectors(path);
  const auto chop = [](std::string& field) {
    if (field.ends_with('\r')) field.pop_back();
  };
  chop(file.columns.back());
  for (auto& row : file.rows) chop(row.back());
  return file;
}

// One step of a vector file: the fleet, and each key hash with its bucket
// (and probe count where the file has one).
struct Step {
  Fleet fleet;
  std::vector<uint64_t> keys;
  std::vector<uint32_t> buckets, probes;
};

// The owners the rows name: the owner index of each row's bucket, which must
// be active.
std::vector<uint32_t> row_owners(const DxState& s, const Step& step) {
  std::vector<uint32_t> want;
  for (uint32_t b : step.buckets) {
    REQUIRE(b < s.capacity);
    REQUIRE(s.is_active(b));
    want.push_back(s.owner[b]);
  }
  return want;
}

// The profile's reference, scalar and SIMD tables (the SIMD one on every
// runnable target) reproduce every row of the step, and the one-key lookups
// their buckets and probe counts.
void check_step(const Step& step, DxProfile profile) {
  const DxState s = chbench::dx_state(step.fleet, profile);
  const auto want = row_owners(s, step);
  for (std::size_t i = 0; i < step.keys.size(); ++i) {
    INFO("row " << i << ": key " << step.keys[i]);
    uint32_t probes = 0, kernel_probes = 0;
    CHECK(chbench::dx_reference_bucket(s, profile, step.keys[i], &probes) == step.buckets[i]);
    CHECK(chbench::dx_bucket(s, profile, step.keys[i], &kernel_probes) == step.buckets[i]);
    CHECK(kernel_probes == probes);
    if (!step.probes.empty()) CHECK(probes == step.probes[i]);
  }
  CHECK(owners_of(*chbench::make_dx_reference(step.fleet, profile), step.keys) == want);
  CHECK(owners_of(*chbench::make_dx_scalar(step.fleet, profile), step.keys) == want);
  for (int64_t target : chbench_test::test_targets()) {
    chbench::simd::ForcedTarget force(target);
    INFO("SIMD kernel on " << chbench::simd::target_name(target));
    const auto table = chbench::make_dx_simd(step.fleet, profile);
    CHECK(owners_of(*table, step.keys) == want);
    CHECK(chbench_test::owners_in_pieces(*table, step.keys) == want);
  }
}

// The rows of each step of one of SUPSI's files: key_hash(field) is the key
// hash of its key_hash_or_key field.
template <class KeyHash>
std::map<std::string, Step> steps_of(const chbench_test::VectorFile& file,
                                     const KeyHash& key_hash) {
  std::map<std::string, Step> steps;
  const std::size_t st = file.column("step"), key = file.column("key_hash_or_key");
  const std::size_t bucket = file.column("bucket");
  for (const auto& row : file.rows) {
    Step& s = steps[row[st]];
    s.keys.push_back(key_hash(row[key]));
    s.buckets.push_back(static_cast<uint32_t>(vector_u64(row[bucket])));
  }
  return steps;
}

chbench::NodeSet nodes_with_capacity(uint32_t n, uint32_t capacity) {
  chbench::NodeSet nodes = chbench::default_nodes(n);
  nodes.capacity = capacity;
  return nodes;
}

// The bucket a joined name holds.
uint32_t bucket_of(const DxState& s, const Fleet& f, const std::string& name) {
  const auto& names = f.nodes().names;
  const auto index =
      static_cast<uint32_t>(std::find(names.begin(), names.end(), name) - names.begin());
  for (uint32_t b = 0; b < s.capacity; ++b)
    if (s.is_active(b) && s.owner[b] == index) return b;
  return s.capacity;
}

}  // namespace

TEST_CASE("dx: ChaosD/DxHash's vector rows, buckets and probe counts", "[dx][vectors][targets]") {
  const auto file = read_vectors("dxhash_vectors.csv");
  REQUIRE(file.rows.size() == 8000);
  const std::size_t scenario = file.column("scenario"), step = file.column("step");
  const std::size_t ops = file.column("ops"), key = file.column("key");
  const std::size_t bucket = file.column("bucket"), num_hash = file.column("num_hash");
  for (const auto& [name, n] : {std::pair<std::string, uint32_t>{"a10", 10}, {"a16", 16}}) {
    // DxHash(N, W) with N = W: capacity A = N, buckets 0 ... N-1 active.
    Fleet fleet(nodes_with_capacity(n, n));
    std::size_t rows = 0;
    for (const char* s : {"0", "1", "2", "3", "4"}) {
      INFO("scenario " << name << ", step " << s);
      Step st{fleet, {}, {}, {}};
      std::string op;
      for (const auto& row : file.rows) {
        if (row[scenario] != name || row[step] != s) continue;
        op = row[ops];
        st.keys.push_back(vector_u64(row[key]));
        st.buckets.push_back(static_cast<uint32_t>(vector_u64(row[bucket])));
        st.probes.push_back(static_cast<uint32_t>(vector_u64(row[num_hash])));
      }
      REQUIRE(st.keys.size() == 800);
      rows += st.keys.size();
      // The ops column ends with this step's operation: remove(b) or add->b.
      const std::string last =
          op.substr(op.rfind(';') == std::string::npos ? 0 : op.rfind(';') + 1);
      if (last.starts_with("remove(")) {
        st.fleet.leave("node-" + last.substr(7, last.size() - 8));
      } else if (last.starts_with("add->")) {
        const std::string joined = "joined-" + std::string(s);
        st.fleet.join(joined);
        const DxState state = chbench::dx_state(st.fleet, DxProfile::kChaosD);
        CHECK(bucket_of(state, st.fleet, joined) == std::stoul(last.substr(5)));
      }
      check_step(st, DxProfile::kChaosD);
      fleet = st.fleet;
    }
    CHECK(rows == 4000);
  }
}

TEST_CASE("dx: ChaosD's 4A probe cap is gone from the profile", "[dx][vectors]") {
  // One active bucket of A = 10: the original returns 0xFFFFFFFF for the
  // keys that need 4A probes or more (0.9^39, 1.6%); the profile keeps probing.
  Fleet fleet(nodes_with_capacity(10, 10));
  for (int b = 1; b < 10; ++b) fleet.leave("node-" + std::to_string(b));
  const DxState s = chbench::dx_state(fleet, DxProfile::kChaosD);
  std::size_t capped = 0;
  for (uint64_t key = 0; key < 10'000; ++key) {
    uint32_t probes = 0;
    CHECK(chbench::dx_reference_bucket(s, DxProfile::kChaosD, key, &probes) == 0);
    capped += probes >= 40;
  }
  CHECK(capped > 100);
  CHECK(capped < 250);
}

TEST_CASE("dx: SUPSI DxEngine's vector rows, on injected hashes and on string keys",
          "[dx][vectors][supsi][targets]") {
  for (const auto& [path, hashed] :
       {std::pair<const char*, bool>{"supsi/dx_hash_vectors.csv", true},
        {"supsi/dx_vectors.csv", false}}) {
    INFO(path);
    const auto file = read_vectors(path);
    REQUIRE(file.rows.size() == 3200);
    // Injected hashes, or the String keys through the framework's XX32 (seed
    // 0) as an unsigned value.
    auto steps = steps_of(file, [hashed = hashed](const std::string& field) -> uint64_t {
      return hashed ? vector_u64(field) : XXH32(field.data(), field.size(), 0);
    });
    REQUIRE(steps.size() == 4);
    // DxEngine(10, 16): buckets 0 ... 9 of 16; remove 3, remove 7, add (7).
    Fleet fleet(nodes_with_capacity(10, 16));
    for (const char* name : {"a_init", "b1_remove3", "b2_remove7", "c_add7"}) {
      INFO("step " << name);
      const std::string step = name;
      if (step == "b1_remove3") fleet.leave("node-3");
      if (step == "b2_remove7") fleet.leave("node-7");
      if (step == "c_add7") fleet.join("node-7");
      Step& s = steps.at(step);
      REQUIRE(s.keys.size() == 800);
      s.fleet = fleet;
      check_step(s, DxProfile::kSupsi);
    }
    CHECK(bucket_of(chbench::dx_state(fleet, DxProfile::kSupsi), fleet, "node-7") == 7);
  }
}

namespace {

// A random fleet scenario: N, capacity, order, fraction, re-adds.
chbench::Scenario random_scenario(std::mt19937_64& rng, uint32_t max_nodes) {
  chbench::Scenario s;
  s.nodes = 1 + static_cast<uint32_t>(rng() % max_nodes);
  const uint32_t factor = static_cast<uint32_t>(rng() % 4);  // A = N, 2N, 10N (default), 20N
  s.capacity = factor == 2 ? 0 : s.nodes * (factor == 0 ? 1 : factor == 1 ? 2 : 20);
  s.order = static_cast<chbench::RemovalOrder>(rng() % 3);
  s.seed = rng();
  s.remove_fraction = std::uniform_real_distribution<double>(0, 0.95)(rng);
  const uint32_t removed = chbench::removal_count(s.remove_fraction, s.nodes);
  s.readds = removed == 0 ? 0 : static_cast<uint32_t>(rng() % (removed + 1));
  return s;
}

std::string describe(const chbench::Scenario& s) {
  return "N = " + std::to_string(s.nodes) + ", capacity " + std::to_string(s.capacity) + ", " +
         std::string(chbench::removal_order_name(s.order)) + " removal of " +
         std::to_string(s.remove_fraction) + ", seed " + std::to_string(s.seed) + ", " +
         std::to_string(s.readds) + " re-adds";
}

std::vector<uint64_t> random_keys(std::size_t count, std::mt19937_64& rng) {
  std::vector<uint64_t> keys = {0, 1, 2, 1228, ~uint64_t{0}, uint64_t{1} << 63};
  chbench_test::append_random(keys, count, rng);
  return keys;
}

// Every dx kernel of test_kernels() built from `fleet` against the reference,
// on every runnable target.
void compare_kernels(const Fleet& fleet, std::span<const uint64_t> keys) {
  const auto want = owners_of(*chbench::build_reference(Scheme::kDx, fleet), keys);
  for (int64_t target : chbench_test::test_targets()) {
    chbench::simd::ForcedTarget force(target);
    for (const KernelInfo* k : chbench_test::test_kernels_of(Scheme::kDx)) {
      INFO("kernel " << k->full_name() << " on " << chbench::simd::target_name(target));
      chbench_test::check_table(*k->build(fleet), keys, want);
    }
  }
}

}  // namespace

TEST_CASE("dx: every kernel matches the reference under random scenarios",
          "[dx][reference][targets]") {
  std::mt19937_64 rng(kSeed + 130);
  for (int trial = 0; trial < 40; ++trial) {
    const chbench::Scenario s = random_scenario(rng, trial < 30 ? 300 : 5000);
    INFO("seed " << kSeed + 130 << ", trial " << trial << ": " << describe(s));
    const Fleet fleet = chbench::scenario_fleet(s);
    const auto keys = random_keys(trial < 30 ? 4000 : 20'000, rng);
    compare_kernels(fleet, keys);
    for (const KernelInfo* k : chbench_test::test_kernels_of(Scheme::kDx))
      CHECK(k->table_bytes(fleet) >= k->build(fleet)->memory_bytes());
    // The bits kept cover the buckets ever used (a scenario's re-adds take
    // removed buckets back: the initial N), bit `limit` clear.
    const DxState state = chbench::dx_state(fleet);
    CHECK(state.limit == s.nodes);
    CHECK(state.words.size() == state.limit / 32 + 1);
    CHECK_FALSE(state.is_active(state.limit));
    // The scalar sequences' probe counts are the reference's.
    for (std::size_t i = 0; i < 200; ++i) {
      uint32_t p = 0, q = 0;
      CHECK(chbench::dx_bucket(state, DxProfile::kChbench, keys[i], &p) ==
            chbench::dx_reference_bucket(state, DxProfile::kChbench, keys[i], &q));
      CHECK(p == q);
    }
  }
}

TEST_CASE("dx: the profiles' kernels match their references under random scenarios",
          "[dx][reference][profiles][targets]") {
  std::mt19937_64 rng(kSeed + 131);
  for (int trial = 0; trial < 16; ++trial) {
    chbench::Scenario s = random_scenario(rng, 200);
    s.remove_fraction = std::min(s.remove_fraction, 0.8);
    s.readds = std::min(s.readds, chbench::removal_count(s.remove_fraction, s.nodes));
    const DxProfile profile = trial % 2 == 0 ? DxProfile::kChaosD : DxProfile::kSupsi;
    // ChaosD's re-add searches 4A probes for an inactive bucket: keep some.
    if (profile == DxProfile::kChaosD && s.capacity == s.nodes) s.capacity = 2 * s.nodes;
    INFO("seed " << kSeed + 131 << ", trial " << trial << ": " << describe(s) << ", profile "
                 << (profile == DxProfile::kChaosD ? "ChaosD" : "SUPSI"));
    const Fleet fleet = chbench::scenario_fleet(s);
    const auto keys = random_keys(3000, rng);
    const auto want = owners_of(*chbench::make_dx_reference(fleet, profile), keys);
    CHECK(first_mismatch<uint64_t>(
              keys, want, owners_of(*chbench::make_dx_scalar(fleet, profile), keys)) == "");
    for (int64_t target : chbench_test::test_targets()) {
      chbench::simd::ForcedTarget force(target);
      INFO("SIMD on " << chbench::simd::target_name(target));
      chbench_test::check_table(*chbench::make_dx_simd(fleet, profile), keys, want);
    }
  }
}

namespace {

std::vector<std::string> owner_names(const chbench::OwnerTable& t, const Fleet& f,
                                     std::span<const uint64_t> keys) {
  std::vector<std::string> names;
  for (uint32_t o : owners_of(t, keys)) names.push_back(f.nodes().names.at(o));
  return names;
}

}  // namespace

TEST_CASE("dx: a removal moves only the removed node's keys, a re-add brings them back",
          "[dx][properties]") {
  std::mt19937_64 rng(kSeed + 132);
  const auto keys = chbench::default_key_hashes(20'000);
  for (const KernelInfo* k : chbench_test::test_kernels_of(Scheme::kDx)) {
    INFO("kernel " << k->full_name());
    Fleet fleet(chbench::default_nodes(50));
    std::vector<std::vector<std::string>> history = {owner_names(*k->build(fleet), fleet, keys)};
    std::vector<std::string> gone;
    for (int step = 0; step < 30; ++step) {
      const auto& names = fleet.nodes().names;
      const std::string leaving = names[rng() % names.size()];
      fleet.leave(leaving);
      gone.push_back(leaving);
      const auto& before = history.back();
      const auto after = owner_names(*k->build(fleet), fleet, keys);
      std::size_t on_leaving = 0, moved = 0, between_survivors = 0;
      for (std::size_t i = 0; i < keys.size(); ++i) {
        on_leaving += before[i] == leaving;
        moved += after[i] != before[i];
        between_survivors += before[i] != leaving && after[i] != before[i];
      }
      INFO("step " << step << ": " << leaving << " leaves");
      CHECK(moved == on_leaving);
      CHECK(between_survivors == 0);
      history.push_back(after);
    }
    // Re-adds, the last removed first: each step back is the placement before
    // that removal, key for key.
    while (!gone.empty()) {
      fleet.join(gone.back());
      gone.pop_back();
      history.pop_back();
      INFO(fleet.nodes().names.back() << " joins again");
      CHECK(owner_names(*k->build(fleet), fleet, keys) == history.back());
    }
  }
}

TEST_CASE("dx: balance over the active buckets at 1e5 keys", "[dx][properties]") {
  const auto keys = chbench::default_key_hashes(100'000);
  struct Case {
    uint32_t n;
    double removed;
    double tolerance;  // on the busiest and idlest node, of the mean
  };
  for (const Case& c : {Case{10, 0, 0.05}, Case{10, 0.5, 0.05}, Case{100, 0, 0.15},
                        Case{100, 0.9, 0.06}, Case{1000, 0.5, 0.5}}) {
    chbench::Scenario s;
    s.nodes = c.n;
    s.order = chbench::RemovalOrder::kRandom;
    s.remove_fraction = c.removed;
    s.seed = kSeed;
    const Fleet fleet = chbench::scenario_fleet(s);
    const auto owners = owners_of(*chbench::build_reference(Scheme::kDx, fleet), keys);
    std::vector<double> load(fleet.size(), 0);
    for (uint32_t o : owners) ++load[o];
    const double mean = static_cast<double>(keys.size()) / fleet.size();
    double chi2 = 0;
    for (double l : load) chi2 += (l - mean) * (l - mean) / mean;
    const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
    INFO("N = " << c.n << ", " << c.removed << " removed: " << fleet.size() << " nodes, load "
                << *lo << " ... " << *hi << ", mean " << mean << ", chi2 " << chi2);
    CHECK(*hi <= mean * (1 + c.tolerance));
    CHECK(*lo >= mean * (1 - c.tolerance));
    // Uniform placement: chi2 has mean (nodes - 1) and deviation sqrt(2 (nodes - 1)).
    const double dof = fleet.size() - 1.0;
    CHECK(chi2 <= dof + 5 * std::sqrt(2 * dof) + 1);
  }
}

TEST_CASE("dx: capacity, joins beyond it and the fleets check() refuses", "[dx][errors]") {
  const auto& info = chbench::scheme_info(Scheme::kDx);
  // A = N: a join needs a removed bucket first.
  Fleet full(nodes_with_capacity(4, 4));
  CHECK_NOTHROW(info.check(full));
  full.join("e");
  CHECK_THROWS_WITH(info.check(full), Catch::Contains("beyond the capacity of 4"));
  CHECK_THROWS_WITH(info.reference(full), Catch::Contains("beyond the capacity of 4"));
  for (const KernelInfo* k : chbench::kernels_of(Scheme::kDx))
    CHECK_THROWS_AS(k->build(full), std::invalid_argument);
  Fleet room(nodes_with_capacity(4, 4));
  room.leave("node-1").join("e");  // takes bucket 1 back
  CHECK_NOTHROW(info.check(room));
  room.join("f");
  CHECK_THROWS_AS(info.check(room), std::invalid_argument);
  // A join with no bucket removed takes the next new one, here bucket 4.
  Fleet grow(nodes_with_capacity(4, 6));
  grow.join("e").leave("node-0").join("f");
  CHECK_NOTHROW(info.check(grow));
  const DxState s = chbench::dx_state(grow);
  CHECK(bucket_of(s, grow, "e") == 4);
  CHECK(bucket_of(s, grow, "f") == 0);
  CHECK(s.active == 5);
  // Capacities below the initial N and above the scheme's maximum.
  CHECK_THROWS_WITH(info.check(nodes_with_capacity(4, 3)), Catch::Contains("below the 4 nodes"));
  chbench::NodeSet huge = nodes_with_capacity(3, 0x80000000u);
  CHECK_THROWS_WITH(info.check(huge), Catch::Contains("above the scheme's"));
  // A fleet of buckets has no names: refused like an empty node list.
  CHECK_THROWS_WITH(info.check(Fleet::of_buckets(3)), Catch::Contains("N = 0"));
}
