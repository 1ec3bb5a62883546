// MementoHash (docs/schemes/memento.md): every row of SUPSI's vector file
// (tests/vectors/supsi/memento_vectors.csv, its MementoEngine on String keys)
// through a model of that engine written here and through the library's
// profile (supsi.h: the scalar kernel's loop with the engine's hashes), the
// 32-bit xxHash of every key against xx32_keys.csv; the bucket rules step by
// step; every memento kernel against the reference on random scenarios, on
// every runnable Highway target, and the reference against a model of the
// scheme written here; the counts of keys that move on removals, joins and
// re-adds, exactly; balance; literal values of the definition.
#include <xxhash.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/memento/memento.h"
#include "chbench/memento/supsi.h"
#include "chbench/scenario.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "history_support.h"
#include "support.h"
#include "vectors.h"

using chbench::Fleet;
using chbench::KernelInfo;
using chbench::Scheme;
using chbench_test::first_mismatch;
using chbench_test::owners_of;

namespace {

// ---- a model of SUPSI's engine, from its Java source --------------------------

// HashFunction.hash(String, int) with XX: XXH32 of the UTF-8 bytes, then the
// seed's bytes big endian, unless the seed is 0.
uint32_t model_xx32(const std::string& key, int32_t seed) {
  std::string bytes = key;
  if (seed != 0) {
    const auto s = static_cast<uint32_t>(seed);
    bytes += {static_cast<char>(s >> 24), static_cast<char>(s >> 16), static_cast<char>(s >> 8),
              static_cast<char>(s)};
  }
  return XXH32(bytes.data(), bytes.size(), 0);
}

// Java's (int) of a double: NaN to 0, saturating at the int range, else
// truncating.
int32_t java_d2i(double x) {
  if (std::isnan(x)) return 0;
  if (x >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (x <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(x);
}

// Guava's Hashing.consistentHash with its LinearCongruentialGenerator.
int32_t model_guava(int64_t input, int32_t buckets) {
  uint64_t state = static_cast<uint64_t>(input);
  int32_t candidate = 0;
  while (true) {
    state = 2862933555777941757ULL * state + 1;
    const int32_t top = static_cast<int32_t>(static_cast<uint32_t>(state >> 33) + 1u);
    const double next_double = static_cast<double>(top) / 2147483648.0;
    const int32_t next = java_d2i((candidate + 1) / next_double);
    if (next >= 0 && next < buckets) {
      candidate = next;
    } else {
      return candidate;
    }
  }
}

// MementoEngine and Memento, their fields and methods as in Java.
class ModelSupsiEngine {
 public:
  explicit ModelSupsiEngine(int32_t size) : last_removed_(size), b_array_size_(size) {}

  int32_t get_bucket(const std::string& key) const {
    int32_t b = model_guava(model_xx32(key, 0), b_array_size_);
    int32_t replacer = replacer_of(b);
    while (replacer >= 0) {
      const int64_t h = model_xx32(key, b);
      b = static_cast<int32_t>(h % replacer);
      int32_t r = replacer_of(b);
      while (r >= replacer) {
        b = r;
        r = replacer_of(b);
      }
      replacer = r;
    }
    return b;
  }
  int32_t add_bucket() {
    const int32_t bucket = last_removed_;
    if (table_.empty()) {
      last_removed_ = bucket + 1;
    } else {
      last_removed_ = table_.at(bucket).second;
      table_.erase(bucket);
    }
    b_array_size_ = std::max(b_array_size_, bucket + 1);
    return bucket;
  }
  void remove_bucket(int32_t bucket) {
    if (table_.empty() && bucket == b_array_size_ - 1) {
      last_removed_ = b_array_size_ = bucket;
      return;
    }
    const int32_t size = b_array_size_ - static_cast<int32_t>(table_.size());
    table_[bucket] = {size - 1, last_removed_};
    last_removed_ = bucket;
  }

 private:
  int32_t replacer_of(int32_t b) const {
    const auto it = table_.find(b);
    return it == table_.end() ? -1 : it->second.first;
  }

  std::unordered_map<int32_t, std::pair<int32_t, int32_t>> table_;  // (replacer, prevRemoved)
  int32_t last_removed_;
  int32_t b_array_size_;
};

// ---- a model of the scheme, from docs/schemes/memento.md ----------------------

uint32_t model_rehash(uint64_t h, uint32_t b, uint32_t r) {
  uint64_t z = h + (uint64_t{b} + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<uint32_t>(((z >> 32) * uint64_t{r}) >> 32);
}

// The scheme over a fleet: the paper's state replayed change by change (an
// ordered map for R, names to buckets), then the lookup's two loops.
class ModelMemento {
 public:
  explicit ModelMemento(const Fleet& f) : n_(static_cast<uint32_t>(f.initial().size())), l_(n_) {
    std::map<std::string, uint32_t> bucket_of;
    for (uint32_t b = 0; b < n_; ++b) bucket_of[f.initial()[b]] = b;
    for (const auto& change : f.history()) {
      if (change.kind == chbench::FleetChange::Kind::kLeave) {
        remove(bucket_of.at(change.node));
        bucket_of.erase(change.node);
      } else {
        bucket_of[change.node] = add();
      }
    }
    const auto& names = f.nodes().names;
    for (uint32_t i = 0; i < names.size(); ++i) index_[bucket_of.at(names[i])] = i;
  }
  uint32_t owner(uint64_t h) const {
    uint32_t b = static_cast<uint32_t>(chbench_test::model_jump(h, static_cast<int32_t>(n_)));
    while (r_.count(b)) {
      const uint32_t r = r_.at(b).first;
      b = model_rehash(h, b, r);
      while (r_.count(b) && r_.at(b).first >= r) b = r_.at(b).first;
    }
    return index_.at(b);
  }

 private:
  void remove(uint32_t b) {
    if (r_.empty() && b + 1 == n_) {
      l_ = n_ = b;
      return;
    }
    r_[b] = {n_ - static_cast<uint32_t>(r_.size()) - 1, l_};
    l_ = b;
  }
  uint32_t add() {
    const uint32_t b = l_;
    if (r_.empty()) {
      l_ = b + 1;
    } else {
      l_ = r_.at(b).second;
      r_.erase(b);
    }
    n_ = std::max(n_, b + 1);
    return b;
  }

  uint32_t n_, l_;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> r_;  // bucket -> (replacer, previous)
  std::map<uint32_t, uint32_t> index_;                   // working bucket -> owner index
};

// ---- helpers -----------------------------------------------------------------------

// The vector file's rows of one step: the keys and the engine's buckets.
struct Step {
  std::vector<std::string> keys;
  std::vector<uint32_t> buckets;
};

std::map<std::string, Step> vector_steps() {
  const auto file = chbench_test::read_vectors("supsi/memento_vectors.csv");
  const std::size_t step = file.column("step"), key = file.column("key_hash_or_key"),
                    bucket = file.column("bucket");
  std::map<std::string, Step> steps;
  for (const auto& row : file.rows) {
    steps[row[step]].keys.push_back(row[key]);
    steps[row[step]].buckets.push_back(
        static_cast<uint32_t>(chbench_test::vector_u64(row[bucket])));
  }
  return steps;
}

// Every memento kernel of test_kernels() over `fleet` against `want`, on the
// target dispatched to now.
void check_kernels(const Fleet& fleet, std::span<const uint64_t> keys,
                   std::span<const uint32_t> want) {
  for (const KernelInfo* kernel : chbench_test::test_kernels_of(Scheme::kMemento)) {
    INFO("kernel " << kernel->full_name());
    const auto table = kernel->build(fleet);
    chbench_test::check_table(*table, keys, want);
    CHECK(kernel->table_bytes(fleet) >= table->memory_bytes());
  }
}

}  // namespace

TEST_CASE("MementoHash: the 32-bit xxHash of every SUPSI key", "[memento][vectors]") {
  const auto file = chbench_test::read_vectors("supsi/xx32_keys.csv");
  const std::size_t key = file.column("key"), plain = file.column("xx32_hash_key"),
                    seeded = file.column("xx32_hash_key_seed_0xDEADBEEF");
  for (const auto& row : file.rows) {
    INFO("key " << row[key]);
    CHECK(chbench::supsi_xx32(row[key]) == chbench_test::vector_u64(row[plain]));
    CHECK(chbench::supsi_xx32(row[key], static_cast<int32_t>(0xDEADBEEFu)) ==
          chbench_test::vector_u64(row[seeded]));
    CHECK(model_xx32(row[key], 0) == chbench_test::vector_u64(row[plain]));
  }
  CHECK(file.rows.size() == 1000);
}

TEST_CASE("MementoHash: every SUPSI vector row through the engine's model and the profile",
          "[memento][vectors]") {
  const auto steps = vector_steps();
  REQUIRE(steps.size() == 4);
  ModelSupsiEngine model(10);
  chbench::SupsiMemento profile(10);
  std::size_t rows = 0;
  const auto check_step = [&](const std::string& name) {
    INFO("step " << name);
    const Step& step = steps.at(name);
    for (std::size_t i = 0; i < step.keys.size(); ++i) {
      INFO("key " << step.keys[i]);
      CHECK(model.get_bucket(step.keys[i]) == static_cast<int32_t>(step.buckets[i]));
      CHECK(profile.bucket(step.keys[i]) == step.buckets[i]);
    }
    rows += step.keys.size();
  };
  check_step("a_init");
  model.remove_bucket(3);
  profile.remove_bucket(3);
  check_step("b1_remove3");
  model.remove_bucket(7);
  profile.remove_bucket(7);
  check_step("b2_remove7");
  CHECK(model.add_bucket() == 7);
  CHECK(profile.add_bucket() == 7);
  check_step("c_add7");
  CHECK(rows == 3200);  // key-0 ... key-799 in each of the four steps
  CHECK(steps.at("c_add7").buckets == steps.at("b1_remove3").buckets);
}

TEST_CASE("MementoHash: Guava's consistentHash as the model computes it", "[memento][vectors]") {
  std::mt19937_64 rng(chbench_test::kSeed + 150);
  for (int i = 0; i < 20000; ++i) {
    const int64_t input =
        i < 10000 ? static_cast<int64_t>(rng() >> 32) : static_cast<int64_t>(rng());
    const auto buckets = static_cast<int32_t>(chbench_test::log_uniform(rng, 0x7fffffff));
    INFO("input " << input << ", buckets " << buckets);
    REQUIRE(chbench::guava_consistent_hash(input, buckets) == model_guava(input, buckets));
  }
}

TEST_CASE("MementoHash: the bucket rules, step by step", "[memento]") {
  chbench::MementoBuckets s(10);
  CHECK(s.array_size() == 10);
  CHECK(s.last_removed() == 10);
  s.remove(9);  // nothing removed yet: the b-array shrinks, as jump hash's
  CHECK(s.array_size() == 9);
  CHECK(s.working() == 9);
  CHECK_FALSE(s.is_removed(9));
  s.remove(3);  // remembered: replacer = working count after it leaves
  CHECK(s.is_removed(3));
  CHECK(s.replacer(3) == 8);
  CHECK(s.last_removed() == 3);
  s.remove(8);  // the last bucket, but R is not empty: remembered
  CHECK(s.array_size() == 9);
  CHECK(s.replacer(8) == 7);
  CHECK(s.working() == 7);
  CHECK(s.add() == 8);  // LIFO
  CHECK(s.add() == 3);
  CHECK(s.last_removed() == 9);
  CHECK(s.add() == 9);  // none removed: the b-array grows
  CHECK(s.add() == 10);
  CHECK(s.array_size() == 11);
  CHECK(s.working() == 11);
}

TEST_CASE("MementoHash: literal values of the definition", "[memento][spec]") {
  // SplitMix64's first outputs from state 0 (Vigna's splitmix64.c): b = 0, 1.
  CHECK(chbench::memento_mix(0, 0) == 0xe220a8397b1dcdafULL);
  CHECK(chbench::memento_mix(0, 1) == 0x6e789e6aa1b965f4ULL);
  CHECK(chbench::memento_rehash(0, 0, 1) == 0);
  CHECK(chbench::memento_rehash(0, 0, 1000) == (0xe220a839ULL * 1000) >> 32);
  for (uint64_t h : {0ULL, 1ULL, 0x0123456789abcdefULL, ~0ULL})
    for (uint32_t b : {0u, 1u, 77u, 0x7ffffffeu})
      for (uint32_t r : {1u, 2u, 1000u, 0x7ffffffeu})
        CHECK(chbench::memento_rehash(h, b, r) == model_rehash(h, b, r));
}

TEST_CASE("MementoHash: every kernel equals the reference on random scenarios, on every target",
          "[memento][simd][targets]") {
  std::mt19937_64 rng(chbench_test::kSeed + 151);
  INFO("seed " << chbench_test::kSeed + 151);
  std::vector<Fleet> fleets;
  for (int i = 0; i < 40; ++i)
    fleets.push_back(chbench_test::random_history_fleet(rng, i < 30 ? 300 : 20000));
  std::vector<uint64_t> keys = {0, 1, ~uint64_t{0}, uint64_t{1} << 63};
  chbench_test::append_random(keys, 4000, rng);
  std::vector<std::vector<uint32_t>> want;
  for (const Fleet& f : fleets) {
    const auto reference = chbench::build_reference(Scheme::kMemento, f);
    want.push_back(owners_of(*reference, keys));
    CHECK(chbench::scheme_info(Scheme::kMemento).reference_bytes(f) >= reference->memory_bytes());
  }
  chbench_test::on_every_target([&] {
    for (std::size_t i = 0; i < fleets.size(); ++i) {
      INFO("fleet " << i << ": " << fleets[i].initial().size() << " initial nodes, "
                    << fleets[i].history().size() << " changes, " << fleets[i].size() << " now");
      check_kernels(fleets[i], keys, want[i]);
    }
  });
}

TEST_CASE("MementoHash: the reference follows the definition (independent model)",
          "[memento][spec]") {
  std::mt19937_64 rng(chbench_test::kSeed + 152);
  INFO("seed " << chbench_test::kSeed + 152);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 2000, rng);
  for (int trial = 0; trial < 60; ++trial) {
    const Fleet f = chbench_test::random_history_fleet(rng, trial < 50 ? 100 : 5000);
    INFO("trial " << trial << ": " << f.initial().size() << " initial nodes, " << f.history().size()
                  << " changes");
    const ModelMemento model(f);
    std::vector<uint32_t> want;
    for (uint64_t h : keys) want.push_back(model.owner(h));
    CHECK(first_mismatch<uint64_t>(
              keys, want, owners_of(*chbench::build_reference(Scheme::kMemento, f), keys)) == "");
  }
}

TEST_CASE("MementoHash: walks left going when the next chunk starts end at their own keys",
          "[memento][simd][targets]") {
  // Nine in ten buckets removed at random: most keys walk, some for many
  // steps, so walks of each chunk of the SIMD kernel are still going when
  // the next chunk's keys join them, and their owners land chunks later.
  std::mt19937_64 rng(chbench_test::kSeed + 156);
  const Fleet fleet = chbench::scenario_fleet(chbench_test::random_removals(2000, 0.9, rng()));
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, chbench_test::kEmulated ? 2601 : 9001, rng);
  const auto want = owners_of(*chbench::build_reference(Scheme::kMemento, fleet), keys);
  chbench_test::on_every_target([&] { check_kernels(fleet, keys, want); });
}

TEST_CASE("MementoHash: keys move only off a leaving node, and back on its re-add",
          "[memento][properties]") {
  std::mt19937_64 rng(chbench_test::kSeed + 153);
  INFO("seed " << chbench_test::kSeed + 153);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 20000, rng);
  chbench_test::check_leave_and_rejoin(Scheme::kMemento, rng, keys, 12);
}

TEST_CASE("MementoHash: a join with none removed moves keys only to the new node",
          "[memento][properties]") {
  std::mt19937_64 rng(chbench_test::kSeed + 154);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 20000, rng);
  Fleet f(chbench::default_nodes(37));
  const auto before = chbench_test::owner_names(Scheme::kMemento, f, keys);
  f.join("node-37");
  const auto after = chbench_test::owner_names(Scheme::kMemento, f, keys);
  std::size_t moved = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (after[i] == before[i]) continue;
    ++moved;
    CHECK(after[i] == "node-37");
  }
  CHECK(moved > 20000 / 38 / 2);  // about a 38th
  CHECK(moved < 20000 / 38 * 2);
}

TEST_CASE("MementoHash: balanced at 1e5 keys after random removals", "[memento][properties]") {
  std::mt19937_64 rng(chbench_test::kSeed + 155);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 100000, rng);
  for (double fraction : {0.0, 0.5, 0.9}) {
    chbench::Scenario s;
    s.nodes = fraction == 0.9 ? 100 : 20;
    s.order = chbench::RemovalOrder::kRandom;
    s.remove_fraction = fraction;
    s.seed = 7;
    const Fleet f = chbench::scenario_fleet(s);
    INFO(f.size() << " of " << s.nodes << " nodes left");
    const auto owners = owners_of(*chbench::default_kernel(Scheme::kMemento).build(f), keys);
    std::vector<int> count(f.size(), 0);
    for (uint32_t o : owners) ++count.at(o);
    const double mean = 100000.0 / f.size();  // 5,000 or 10,000: 5% is 3.5 to 5 sigma
    for (int c : count) CHECK(std::abs(c - mean) < 0.05 * mean);
  }
}

TEST_CASE("MementoHash: check() refuses a fleet without names, builds one without history",
          "[memento][errors]") {
  const auto& s = chbench::scheme_info(Scheme::kMemento);
  CHECK_THROWS_AS(s.check(Fleet::of_buckets(5)), std::invalid_argument);
  CHECK_NOTHROW(s.check(Fleet(chbench::default_nodes(5))));
  CHECK(s.removal == chbench::Removal::kAnyNode);
  CHECK(s.params == 0);  // no capacity: the b-array grows as nodes join
  // The SIMD entry point refuses an output of another length.
  chbench::Scenario half;
  half.nodes = 9;
  half.remove_fraction = 0.5;
  const auto slots = chbench::memento_slots(chbench::scenario_fleet(half));
  std::vector<uint64_t> keys(5, 1);
  std::vector<uint32_t> out(4);
  CHECK_THROWS_AS(chbench::simd::memento_owners(slots, keys, out), std::invalid_argument);
  // A fleet that never changed is jump hash over its N buckets, with no table.
  const Fleet fresh(chbench::default_nodes(1000));
  for (const KernelInfo* k : chbench_test::test_kernels_of(Scheme::kMemento)) {
    CHECK(k->table_bytes(fresh) == 0);
    CHECK(k->build(fresh)->memory_bytes() == 0);
  }
}
