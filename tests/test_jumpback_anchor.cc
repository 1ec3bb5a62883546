// JumpBackAnchor (kernels/chbench/jumpback_anchor, docs/schemes/
// jumpback_anchor.md): every row of hash4j's vector file
// (tests/vectors/hash4j_anchor_vectors.csv) through the reference and every
// kernel on every runnable Highway target, and through a model of hash4j's
// class written here from its Java source; the replayed bucket state against
// the file's getState() bytes; the bucket rules step by step; every kernel
// against the reference under random scenarios on every target, and the
// reference against the model; long walks and the draw's rare rejection; the
// counts of keys that move on removals, joins and re-adds, exactly; balance.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <regex>
#include <span>
#include <string>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/jumpback_anchor/jumpback_anchor.h"
#include "chbench/memento/memento.h"  // replay_fleet
#include "chbench/scenario.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "history_support.h"
#include "jumpback_model.h"
#include "support.h"
#include "targets.h"
#include "vectors.h"

using chbench::Fleet;
using chbench::KernelInfo;
using chbench::Scheme;
using chbench_test::first_mismatch;
using chbench_test::kSeed;
using chbench_test::owners_of;

namespace {

// ---- a model of hash4j's ConsistentJumpBackAnchorBucketSetHasher ---------------

// Its fields and methods as in Java (41d814f94c52): ka[b] holds (K[b] - b) in
// the high and A[b] in the low 32 bits; a bucket at or past ka's end works.
// The stream is jumpback_model.h's SplitMix64; `draw_retries` counts the
// draws whose first value uniformInt rejected.
class ModelHash4j {
 public:
  int32_t add_bucket() {
    if (removed_.empty()) return hmax_++;
    const int32_t b = removed_.back();
    removed_.pop_back();
    ka_[b] = 0;
    return b;
  }
  bool remove_bucket(int32_t b) {
    if (b < 0 || b >= hmax_ || is_removed(b)) return false;
    if (hmax_ - 1 == static_cast<int32_t>(removed_.size())) {
      hmax_ = 0;
      removed_.clear();
      ka_.clear();
    } else if (b == hmax_ - 1 && removed_.empty()) {
      hmax_ -= 1;
    } else {
      removed_.push_back(b);
      const int32_t n = hmax_ - static_cast<int32_t>(removed_.size());
      const int32_t h = bucket_at_view(n, n + 1);
      if (static_cast<int32_t>(ka_.size()) <= b) ka_.resize(b + 1, 0);
      ka_[b] = static_cast<int64_t>(static_cast<uint64_t>(h - b) << 32 | static_cast<uint32_t>(n));
    }
    return true;
  }
  int32_t get_bucket(uint64_t hash, int* draw_retries = nullptr) const {
    if (hmax_ <= 1) return 0;
    int values = 0;
    int32_t b = static_cast<int32_t>(
        chbench_test::model_jumpback(hash, static_cast<uint32_t>(hmax_), false, &values));
    chbench_test::JumpBackStream stream(hash, false);
    for (int i = 0; i < values; ++i) stream.next();
    while (b < static_cast<int32_t>(ka_.size())) {
      const auto ab = static_cast<int32_t>(ka_[b]);
      if (ab == 0) break;
      b = bucket_at_view(uniform_int(stream, ab, draw_retries), ab);
    }
    return b;
  }
  std::vector<uint8_t> get_state() const {
    std::vector<uint8_t> bytes;
    for (int32_t v : {hmax_}) put(bytes, v);
    for (int32_t b : removed_) put(bytes, b);
    return bytes;
  }

 private:
  static void put(std::vector<uint8_t>& bytes, int32_t v) {
    for (int i = 0; i < 4; ++i)
      bytes.push_back(static_cast<uint8_t>(static_cast<uint32_t>(v) >> 8 * i));
  }
  bool is_removed(int32_t b) const { return b < static_cast<int32_t>(ka_.size()) && ka_[b] != 0; }
  int32_t bucket_at_view(int32_t b, int32_t v) const {
    while (b < static_cast<int32_t>(ka_.size())) {
      const int64_t kah = ka_[b];
      if (static_cast<int32_t>(kah) < v) break;
      b += static_cast<int32_t>(static_cast<uint64_t>(kah) >> 32);
    }
    return b;
  }
  // AbstractPseudoRandomGenerator.uniformInt: Lemire's algorithm 5, L = 32.
  static int32_t uniform_int(chbench_test::JumpBackStream& stream, int32_t bound, int* retries) {
    const uint64_t s = static_cast<uint64_t>(bound);
    uint64_t m = (stream.next() & 0xffffffffu) * s;
    if ((m & 0xffffffffu) < s) {
      const uint64_t t = (uint64_t{1} << 32) % s;
      while ((m & 0xffffffffu) < t) {
        if (retries != nullptr) ++*retries;
        m = (stream.next() & 0xffffffffu) * s;
      }
    }
    return static_cast<int32_t>(m >> 32);
  }

  int32_t hmax_ = 0;
  std::vector<int32_t> removed_;
  std::vector<int64_t> ka_;
};

// The model over a fleet: the initial list as buckets 0 ... N0-1, every
// change in order (names to buckets in a map), owners by position.
class ModelFleet {
 public:
  explicit ModelFleet(const Fleet& f) {
    std::map<std::string, int32_t> bucket_of;
    for (const std::string& name : f.initial()) bucket_of[name] = model_.add_bucket();
    for (const auto& change : f.history()) {
      if (change.kind == chbench::FleetChange::Kind::kLeave) {
        REQUIRE(model_.remove_bucket(bucket_of.at(change.node)));
        bucket_of.erase(change.node);
      } else {
        bucket_of[change.node] = model_.add_bucket();
      }
    }
    const auto& names = f.nodes().names;
    for (uint32_t i = 0; i < names.size(); ++i) index_[bucket_of.at(names[i])] = i;
  }
  uint32_t owner(uint64_t h) const { return index_.at(model_.get_bucket(h)); }
  const ModelHash4j& model() const { return model_; }

 private:
  ModelHash4j model_;
  std::map<int32_t, uint32_t> index_;
};

// ---- helpers -----------------------------------------------------------------------

std::string hex(const std::vector<uint8_t>& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t byte : bytes) {
    out += digits[byte >> 4];
    out += digits[byte & 15];
  }
  return out;
}

// Every jumpback_anchor kernel of test_kernels() over `fleet` against `want`,
// on the target dispatched to now; their byte estimates against the tables.
void check_kernels(const Fleet& fleet, std::span<const uint64_t> keys,
                   std::span<const uint32_t> want) {
  for (const KernelInfo* kernel : chbench_test::test_kernels_of(Scheme::kJumpBackAnchor)) {
    if (!chbench_test::checks_at_this_target(*kernel)) continue;
    INFO("kernel " << kernel->full_name());
    const auto table = kernel->build(fleet);
    chbench_test::check_table(*table, keys, want);
    CHECK(kernel->table_bytes(fleet) >= table->memory_bytes());
  }
}

// The owner index of the node named `name` (the vector file's buckets are
// node-<bucket>).
uint32_t index_of(const Fleet& f, const std::string& name) {
  const auto& names = f.nodes().names;
  const auto it = std::find(names.begin(), names.end(), name);
  REQUIRE(it != names.end());
  return static_cast<uint32_t>(it - names.begin());
}

// One step of the vector file: its ops, as a fleet of node-<bucket> names
// and as the model, the keys, the owners and the state.
struct VectorStep {
  std::string ops;
  Fleet fleet;
  ModelHash4j model;
  std::vector<uint64_t> keys;
  std::vector<uint32_t> buckets;
  std::string state_hex;
  uint64_t num_buckets = 0;
};

// "add*16;remove(3);add->3": the fleet and the model after those ops; every
// add->b checks that the model's addBucket() returned b.
void apply_ops(VectorStep& step) {
  std::smatch m;
  REQUIRE(std::regex_search(step.ops, m, std::regex(R"(^add\*(\d+))")));
  const auto n = static_cast<uint32_t>(std::stoul(m[1]));
  for (uint32_t b = 0; b < n; ++b) REQUIRE(step.model.add_bucket() == static_cast<int32_t>(b));
  step.fleet = Fleet(chbench::default_nodes(n));
  const std::string rest = m.suffix();
  const std::regex op(R"(;(remove\((\d+)\)|add->(\d+)))");
  for (auto it = std::sregex_iterator(rest.begin(), rest.end(), op); it != std::sregex_iterator();
       ++it) {
    if ((*it)[2].matched) {
      REQUIRE(step.model.remove_bucket(std::stoi((*it)[2])));
      step.fleet.leave("node-" + (*it)[2].str());
    } else {
      REQUIRE(step.model.add_bucket() == std::stoi((*it)[3]));
      step.fleet.join("node-" + (*it)[3].str());
    }
  }
}

std::map<int, VectorStep> vector_steps() {
  const auto file = chbench_test::read_vectors("hash4j_anchor_vectors.csv");
  const std::size_t step = file.column("step"), ops = file.column("ops"),
                    num = file.column("num_buckets"), state = file.column("state_hex"),
                    h = file.column("h"), bucket = file.column("bucket");
  std::map<int, VectorStep> steps;
  for (const auto& row : file.rows) {
    auto [it, fresh] = steps.try_emplace(std::stoi(row[step]));
    VectorStep& s = it->second;
    if (fresh) {
      s.ops = row[ops];
      s.state_hex = row[state];
      s.num_buckets = chbench_test::vector_u64(row[num]);
      apply_ops(s);
    }
    REQUIRE(row[ops] == s.ops);
    REQUIRE(row[state] == s.state_hex);
    s.keys.push_back(chbench_test::vector_u64(row[h]));
    s.buckets.push_back(static_cast<uint32_t>(chbench_test::vector_u64(row[bucket])));
  }
  return steps;
}

}  // namespace

TEST_CASE("jumpback_anchor: every hash4j vector row, reference and kernels, every target",
          "[jumpback_anchor][vectors][targets]") {
  const auto steps = vector_steps();
  REQUIRE(steps.size() == 5);
  std::size_t rows = 0;
  for (const auto& entry : steps) {
    // Plain references: Clang 14 lets no lambda capture a structured binding.
    const auto& number = entry.first;
    const auto& step = entry.second;
    INFO("step " << number << ": " << step.ops);
    rows += step.keys.size();
    CHECK(step.fleet.size() == step.num_buckets);
    std::vector<uint32_t> want;
    for (std::size_t i = 0; i < step.keys.size(); ++i) {
      INFO("h = " << step.keys[i]);
      CHECK(step.model.get_bucket(step.keys[i]) == static_cast<int32_t>(step.buckets[i]));
      want.push_back(index_of(step.fleet, "node-" + std::to_string(step.buckets[i])));
    }
    CHECK(hex(step.model.get_state()) == step.state_hex);
    const auto reference = chbench::build_reference(Scheme::kJumpBackAnchor, step.fleet);
    CHECK(first_mismatch<uint64_t>(step.keys, want, owners_of(*reference, step.keys)) == "");
    chbench_test::on_every_target([&] { check_kernels(step.fleet, step.keys, want); });
  }
  CHECK(rows == 2520);
  // Removals moved only their buckets' keys; the re-adds brought them back.
  CHECK(steps.at(4).buckets == steps.at(0).buckets);
  CHECK(steps.at(3).buckets == steps.at(1).buckets);
}

TEST_CASE("jumpback_anchor: the replayed state is hash4j's getState() at every vector step",
          "[jumpback_anchor][vectors]") {
  for (const auto& [number, step] : vector_steps()) {
    INFO("step " << number << ": " << step.ops);
    chbench::JumpBackAnchorBuckets state(static_cast<uint32_t>(step.fleet.initial().size()));
    const auto owners = chbench::replay_fleet(step.fleet, state);
    CHECK(hex(state.state()) == step.state_hex);
    CHECK(state.working() == step.num_buckets);
    // Every working bucket's owner is its node-<bucket>.
    for (uint32_t b = 0; b < state.array_size(); ++b)
      if (!state.is_removed(b))
        CHECK(step.fleet.nodes().names.at(owners[b]) == "node-" + std::to_string(b));
  }
}

TEST_CASE("jumpback_anchor: the bucket rules, step by step", "[jumpback_anchor]") {
  chbench::JumpBackAnchorBuckets s(16);
  CHECK(hex(s.state()) == "10000000");
  s.remove(15);  // none removed: n_max shrinks, as JumpBackHash's
  CHECK(s.array_size() == 15);
  CHECK(s.removed().empty());
  CHECK(s.add() == 15);  // and grows back
  s.remove(13);          // A = 15; K = the bucket at position 15 of 16
  CHECK(s.view(13) == 15);
  CHECK(s.replacement(13) == 15);
  s.remove(1);  // position 14 of 15 holds 14
  CHECK(s.view(1) == 14);
  CHECK(s.replacement(1) == 14);
  s.remove(2);  // position 13 of 14: 13 left before, so 15, which took its place
  CHECK(s.view(2) == 13);
  CHECK(s.replacement(2) == 15);
  CHECK(s.view_bucket(13, 14) == 15);
  CHECK(s.view_bucket(13, 16) == 13);
  s.remove(15);  // the last bucket, but some are removed: remembered, n_max stays
  CHECK(s.array_size() == 16);
  CHECK(s.view(15) == 12);
  CHECK(s.replacement(15) == 12);
  CHECK(s.working() == 12);
  CHECK(hex(s.state()) == "100000000d00000001000000020000000f000000");
  CHECK(s.add() == 15);  // LIFO
  CHECK(s.add() == 2);
  CHECK(s.add() == 1);
  CHECK(s.add() == 13);
  CHECK_FALSE(s.is_removed(13));
  CHECK(s.add() == 16);  // none removed: n_max grows
  CHECK(s.array_size() == 17);
  CHECK(s.working() == 17);
}

TEST_CASE("jumpback_anchor: every kernel equals the reference on random scenarios, every target",
          "[jumpback_anchor][simd][targets]") {
  std::mt19937_64 rng(kSeed + 170);
  INFO("seed " << kSeed + 170);
  std::vector<Fleet> fleets;
  for (int i = 0; i < 40; ++i)
    fleets.push_back(chbench_test::random_history_fleet(rng, i < 30 ? 300 : 20000));
  std::vector<uint64_t> keys = {0, 1, ~uint64_t{0}, uint64_t{1} << 63};
  chbench_test::append_random(keys, 4000, rng);
  std::vector<std::vector<uint32_t>> want;
  for (const Fleet& f : fleets) {
    const auto reference = chbench::build_reference(Scheme::kJumpBackAnchor, f);
    want.push_back(owners_of(*reference, keys));
    CHECK(chbench::scheme_info(Scheme::kJumpBackAnchor).reference_bytes(f) >=
          reference->memory_bytes());
  }
  chbench_test::on_every_target([&] {
    for (std::size_t i = 0; i < fleets.size(); ++i) {
      INFO("fleet " << i << ": " << fleets[i].initial().size() << " initial nodes, "
                    << fleets[i].history().size() << " changes, " << fleets[i].size() << " now");
      check_kernels(fleets[i], keys, want[i]);
    }
  });
}

TEST_CASE("jumpback_anchor: the reference follows hash4j's class (independent model)",
          "[jumpback_anchor][spec]") {
  std::mt19937_64 rng(kSeed + 171);
  INFO("seed " << kSeed + 171);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 2000, rng);
  for (int trial = 0; trial < 60; ++trial) {
    const Fleet f = chbench_test::random_history_fleet(rng, trial < 50 ? 100 : 5000);
    INFO("trial " << trial << ": " << f.initial().size() << " initial nodes, " << f.history().size()
                  << " changes");
    const ModelFleet model(f);
    std::vector<uint32_t> want;
    for (uint64_t h : keys) want.push_back(model.owner(h));
    CHECK(first_mismatch<uint64_t>(
              keys, want, owners_of(*chbench::build_reference(Scheme::kJumpBackAnchor, f), keys)) ==
          "");
    chbench::JumpBackAnchorBuckets state(static_cast<uint32_t>(f.initial().size()));
    chbench::replay_fleet(f, state);
    CHECK(hex(state.state()) == hex(model.model().get_state()));
  }
}

TEST_CASE("jumpback_anchor: long walks (hash4j's worst case), every kernel, every target",
          "[jumpback_anchor][simd][targets]") {
  // Bucket 0 leaves first, then the last buckets one by one, down to 2 or to
  // 1,000: keys follow K through the chain of every bucket that left.
  std::mt19937_64 rng(kSeed + 172);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, chbench_test::kEmulated ? 600 : 3000, rng);
  for (uint32_t last : {2u, 1000u}) {
    Fleet f(chbench::default_nodes(3000));
    f.leave("node-0");
    for (uint32_t b = 2999; b >= last; --b) f.leave("node-" + std::to_string(b));
    INFO(f.size() << " nodes left");
    const auto want = owners_of(*chbench::build_reference(Scheme::kJumpBackAnchor, f), keys);
    if (last == 2) CHECK(std::all_of(want.begin(), want.end(), [](uint32_t o) { return o == 0; }));
    const ModelFleet model(f);
    for (std::size_t i = 0; i < keys.size(); i += 100) CHECK(model.owner(keys[i]) == want[i]);
    chbench_test::on_every_target([&] { check_kernels(f, keys, want); });
  }
}

TEST_CASE("jumpback_anchor: the draw is hash4j's uniformInt, its rejections included",
          "[jumpback_anchor][spec]") {
  std::mt19937_64 rng(kSeed + 173);
  // Bounds near 2^31 reject about a quarter of first values.
  int retried = 0;
  for (int i = 0; i < 20000; ++i) {
    const auto n =
        static_cast<uint32_t>(i % 2 == 0 ? 0x7fffffffu - rng() % 1000 : 1 + rng() % 0x7fffffffu);
    const uint64_t seed = rng();
    // The model: Lemire's algorithm 5 (L = 32) on the stream's values.
    chbench_test::JumpBackStream stream(seed, false);
    uint64_t values = 1;
    uint64_t m = (stream.next() & 0xffffffffu) * n;
    const uint64_t t = (uint64_t{1} << 32) % n;
    while ((m & 0xffffffffu) < t) {
      ++values;
      m = (stream.next() & 0xffffffffu) * n;
    }
    retried += values > 1;
    uint64_t state = seed;  // the state before the stream's first value
    INFO("n = " << n << ", seed " << seed);
    REQUIRE(chbench::jumpback_anchor_draw(state, n) == static_cast<uint32_t>(m >> 32));
    REQUIRE(state == seed + values * chbench::SplitMix64::kGamma);
  }
  CHECK(retried > 1000);
}

TEST_CASE("jumpback_anchor: walks whose draws are rejected, every kernel, every target",
          "[jumpback_anchor][simd][targets]") {
  // 2^18 buckets, the first 60% removed: views of 1e5 to 2.6e5 buckets, so a
  // draw's first value is rejected about once in 4e4 draws. The keys are
  // picked by the model's count of rejections, padded with others.
  chbench::Scenario s;
  s.nodes = 1u << 18;
  s.order = chbench::RemovalOrder::kFifo;
  s.remove_fraction = 0.6;
  const Fleet f = chbench::scenario_fleet(s);
  const ModelFleet model(f);
  std::mt19937_64 rng(kSeed + 174);
  std::vector<uint64_t> keys;
  // Under an emulator 12 of them (the search is most of this test's time).
  const std::size_t wanted = chbench_test::kEmulated ? 12 : 40;
  for (int i = 0; i < 2000000 && keys.size() < wanted; ++i) {
    const uint64_t h = rng();
    int retries = 0;
    model.model().get_bucket(h, &retries);
    if (retries > 0) keys.push_back(h);
  }
  REQUIRE(keys.size() >= 10);
  chbench_test::append_random(keys, 1000, rng);
  std::shuffle(keys.begin(), keys.end(), rng);
  const auto want = owners_of(*chbench::build_reference(Scheme::kJumpBackAnchor, f), keys);
  for (std::size_t i = 0; i < keys.size(); ++i) REQUIRE(model.owner(keys[i]) == want[i]);
  chbench_test::on_every_target([&] { check_kernels(f, keys, want); });
}

TEST_CASE("jumpback_anchor: keys move only off a leaving node, and back on its re-add",
          "[jumpback_anchor][properties]") {
  std::mt19937_64 rng(kSeed + 175);
  INFO("seed " << kSeed + 175);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 20000, rng);
  chbench_test::check_leave_and_rejoin(Scheme::kJumpBackAnchor, rng, keys, 12);
}

TEST_CASE("jumpback_anchor: removals in a random order, then re-adds, counted key by key",
          "[jumpback_anchor][properties]") {
  std::mt19937_64 rng(kSeed + 176);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 20000, rng);
  chbench_test::check_removals_then_readds(Scheme::kJumpBackAnchor, keys, rng());
}

TEST_CASE("jumpback_anchor: a join with none removed moves keys only to the new node",
          "[jumpback_anchor][properties]") {
  std::mt19937_64 rng(kSeed + 177);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 20000, rng);
  chbench_test::check_join_moves_to_new(Scheme::kJumpBackAnchor, keys);
}

TEST_CASE("jumpback_anchor: balanced at 1e5 keys after random removals",
          "[jumpback_anchor][properties]") {
  std::mt19937_64 rng(kSeed + 178);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 100000, rng);
  chbench_test::check_balance(Scheme::kJumpBackAnchor, keys);
}

TEST_CASE("jumpback_anchor: the registry entry, tables and errors", "[jumpback_anchor][errors]") {
  const auto& s = chbench::scheme_info(Scheme::kJumpBackAnchor);
  CHECK(s.name == "jumpback_anchor");
  CHECK(s.params == 0);  // no capacity: n_max grows as nodes join
  CHECK(s.removal == chbench::Removal::kAnyNode);
  CHECK(s.reads_history);
  CHECK_FALSE(s.buckets_only);
  CHECK(s.max_nodes == 0x7fffffffu);
  CHECK_THROWS_AS(s.check(Fleet::of_buckets(5)), std::invalid_argument);
  CHECK_NOTHROW(s.check(Fleet(chbench::default_nodes(5))));
  // The SIMD entry point refuses an output of another length.
  chbench::Scenario half;
  half.nodes = 9;
  half.order = chbench::RemovalOrder::kFifo;
  half.remove_fraction = 0.5;
  const auto table = chbench::jumpback_anchor_table(chbench::scenario_fleet(half));
  REQUIRE(table.entries);
  CHECK(table.shape.n == 9);
  std::vector<uint64_t> keys(5, 1);
  std::vector<uint32_t> out(4);
  CHECK_THROWS_AS(chbench::simd::jumpback_anchor_owners(table, keys, out), std::invalid_argument);
  // A fleet that never changed is JumpBackHash over its N buckets, with no table.
  const Fleet fresh(chbench::default_nodes(1000));
  for (const KernelInfo* k : chbench_test::test_kernels_of(Scheme::kJumpBackAnchor)) {
    CHECK(k->table_bytes(fresh) == 0);
    CHECK(k->build(fresh)->memory_bytes() == 0);
  }
  // One that left and came back in order has its buckets again, but the
  // names' order changed: the table holds the owners.
  Fleet again(chbench::default_nodes(10));
  again.leave("node-3").join("node-3");
  const auto moved = chbench::jumpback_anchor_table(again);
  REQUIRE(moved.entries);
  CHECK(moved.entries[3] == uint64_t{9} << 32);
  CHECK(moved.entries[9] == uint64_t{8} << 32);
}
