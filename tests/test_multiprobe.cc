// Multi-probe consistent hashing (docs/schemes/multiprobe.md): every kernel
// against the reference at several k on every Highway target, k = 1 against
// the ring with one token per node, the probe count's limits, moves on a
// leave and a join, the paper's balance against k, and circles and keys aimed
// at the SIMD kernel's margins (ties and near ties between probes, fields equal
// to a probe's offset, saturated fields, runs past four tokens a bucket, the
// circle's ends; with pairs and without).
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/hash.h"
#include "chbench/multiprobe/multiprobe.h"
#include "chbench/nodes.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"

using Catch::Matchers::Contains;
using chbench::Fleet;
using chbench::NodeSet;
using chbench::Scheme;
using chbench_test::first_mismatch;
using chbench_test::kSeed;
using chbench_test::owners_of;

namespace {

NodeSet nodes_with(uint32_t n, uint32_t probes) {
  NodeSet nodes = chbench::default_nodes(n);
  nodes.probes = probes;
  return nodes;
}

// The circle's tokens, one above and one below each, 0, UINT64_MAX, then
// `random` uniform key hashes.
std::vector<uint64_t> keys_for(const NodeSet& nodes, std::size_t random, std::mt19937_64& rng) {
  std::vector<uint64_t> keys = {0, 1, std::numeric_limits<uint64_t>::max()};
  for (const auto& e : chbench::multiprobe_entries(nodes))
    for (uint64_t d : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}}) keys.push_back(e.token + d);
  chbench_test::append_random(keys, random, rng);
  return keys;
}

// Peak-to-average of the keys' owners over N nodes: the busiest node's keys
// over keys / N.
double peak_to_average(const std::vector<uint32_t>& owners, uint32_t n) {
  std::vector<uint64_t> count(n);
  for (uint32_t o : owners) ++count[o];
  return static_cast<double>(*std::max_element(count.begin(), count.end())) * n /
         static_cast<double>(owners.size());
}

// The owner by the definition over sorted entries: each probe's first entry
// >= it (the first entry when none is), the smallest distance, the earlier
// probe on a tie.
uint32_t owner_by_definition(const std::vector<chbench::RingEntry<uint64_t>>& entries, uint64_t h,
                             uint32_t k) {
  uint64_t best = 0;
  uint32_t owner = 0;
  for (uint32_t j = 0; j < k; ++j) {
    const uint64_t p = chbench::multiprobe_probe(h, j);
    const auto it = std::lower_bound(entries.begin(), entries.end(), p,
                                     [](const auto& e, uint64_t x) { return e.token < x; });
    const auto& e = it == entries.end() ? entries.front() : *it;
    if (j == 0 || e.token - p < best) {
      best = e.token - p;
      owner = e.node;
    }
  }
  return owner;
}

// Circles a hashed fleet rarely makes: 40 tokens crowded into 2^-24 of the
// circle (buckets holding more than four), tokens at 0, at UINT64_MAX and
// repeated, tokens on bucket edges (i << 60, where probes tie their fields),
// and one to three tokens (fields past n).
std::vector<std::vector<uint64_t>> crafted_circles(std::mt19937_64& rng) {
  std::vector<uint64_t> crowded;
  for (int i = 0; i < 40; ++i) crowded.push_back((uint64_t{1} << 63) + (rng() >> 24));
  for (int i = 0; i < 10; ++i) crowded.push_back(rng());
  std::vector<uint64_t> edges;
  for (uint64_t i = 0; i < 16; ++i) edges.push_back(i << 60);
  return {crowded, edges, {0, 5, 5, UINT64_MAX}, {UINT64_MAX}, {7}, {3, UINT64_MAX - 3}, {1, 2, 3}};
}

}  // namespace

TEST_CASE("multiprobe: crafted circles give the definition's owner, every kernel, every target",
          "[multiprobe][simd][targets]") {
  std::mt19937_64 rng(kSeed + 171);
  for (const auto& tokens : crafted_circles(rng)) {
    std::vector<chbench::RingEntry<uint64_t>> entries;
    for (uint32_t i = 0; i < tokens.size(); ++i) entries.push_back({tokens[i], i});
    std::sort(entries.begin(), entries.end());
    std::vector<uint64_t> keys = {0, 1, UINT64_MAX};
    for (uint64_t t : tokens)
      for (uint64_t d : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}, uint64_t{1} << 40})
        keys.push_back(t + d);
    chbench_test::append_random(keys, 3000, rng);
    for (uint32_t k : {1u, 3u, 21u}) {
      const chbench::MultiprobeIndex index(chbench::SortedRing<uint64_t>::from_entries(entries), k);
      std::vector<uint32_t> want(keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i)
        want[i] = owner_by_definition(entries, keys[i], k);
      for (std::size_t i = 0; i < keys.size(); ++i) {
        INFO(tokens.size() << " tokens, k = " << k << ", key " << keys[i]);
        REQUIRE(index.owner_scanned(keys[i]) == want[i]);
        REQUIRE(index.owner_paired(keys[i]) == want[i]);
      }
      for (int64_t target : chbench_test::test_targets()) {
        chbench::simd::ForcedTarget forced(target);
        std::vector<uint32_t> got(keys.size());
        chbench::simd::multiprobe_owners(index, keys, got);
        INFO(tokens.size() << " tokens, k = " << k << " on " << chbench::simd::target_name(target));
        CHECK(first_mismatch<uint64_t>(keys, want, got) == "");
      }
    }
  }
}

TEST_CASE("multiprobe: the pairs are built while 16 B x buckets fit kPairedMaxBytes",
          "[multiprobe]") {
  std::mt19937_64 rng(kSeed + 172);
  for (const auto& [n, paired] : {std::pair{16'383u, true}, std::pair{16'384u, false}}) {
    std::vector<chbench::RingEntry<uint64_t>> entries;
    for (uint32_t i = 0; i < n; ++i) entries.push_back({rng(), i});
    std::sort(entries.begin(), entries.end());
    const chbench::MultiprobeIndex index(chbench::SortedRing<uint64_t>::from_entries(entries), 21);
    INFO(n << " tokens, " << index.buckets << " buckets");
    CHECK(index.paired == paired);
    CHECK(index.buckets == (n < 16'384 ? 1u << 15 : 1u << 16));
    CHECK(index.memory_bytes() ==
          (index.buckets + 1) * 8 + (paired ? 24 : 8) * index.buckets + (std::size_t{n} + 1) * 12);
    std::vector<uint64_t> keys;
    chbench_test::append_random(keys, 200, rng);
    for (uint64_t h : keys) CHECK(index.owner(h) == index.owner_scanned(h));
  }
}

TEST_CASE("multiprobe: every kernel matches the reference at every k, on every target",
          "[multiprobe][simd][targets]") {
  std::mt19937_64 rng(kSeed + 170);
  for (uint32_t n : {1u, 2u, 3u, 17u, 1000u}) {
    for (uint32_t k : {1u, 2u, 5u, 21u, 64u}) {
      const NodeSet nodes = nodes_with(n, k);
      const auto keys = keys_for(nodes, 2000, rng);
      const auto want = owners_of(*chbench::build_reference(Scheme::kMultiprobe, nodes), keys);
      for (int64_t target : chbench_test::test_targets()) {
        chbench::simd::ForcedTarget forced(target);
        for (const auto* kernel : chbench_test::test_kernels_of(Scheme::kMultiprobe)) {
          INFO("N = " << n << ", k = " << k << ", " << kernel->full_name() << " on "
                      << chbench::simd::target_name(target));
          chbench_test::check_table(*kernel->build(nodes), keys, want);
          const auto table = kernel->build(nodes);
          CHECK(table->owner(keys[3]) == want[3]);
        }
      }
    }
  }
}

TEST_CASE("multiprobe: one probe is the ring with one token per node", "[multiprobe]") {
  std::mt19937_64 rng(kSeed + 171);
  for (uint32_t n : {1u, 5u, 300u}) {
    const NodeSet nodes = nodes_with(n, 1);  // V = 1 as well: default_nodes
    const auto keys = keys_for(nodes, 5000, rng);
    const auto ring = owners_of(*chbench::build_reference(Scheme::kRing, nodes), keys);
    INFO("N = " << n);
    CHECK(first_mismatch<uint64_t>(
              keys, ring, owners_of(*chbench::build_reference(Scheme::kMultiprobe, nodes), keys)) ==
          "");
    for (const auto* kernel : chbench_test::test_kernels_of(Scheme::kMultiprobe)) {
      INFO(kernel->full_name());
      CHECK(first_mismatch<uint64_t>(keys, ring, owners_of(*kernel->build(nodes), keys)) == "");
    }
  }
}

TEST_CASE("multiprobe: probe 0 is h, probe j fmix64(h + j * gamma), all distinct", "[multiprobe]") {
  const uint64_t h = 0x0123'4567'89ab'cdefULL;
  CHECK(chbench::multiprobe_probe(h, 0) == h);
  CHECK(chbench::multiprobe_probe(h, 1) == chbench_test::model_fmix64(h + 0x9e3779b97f4a7c15ULL));
  CHECK(chbench::multiprobe_probe(h, 20) ==
        chbench_test::model_fmix64(h + 20 * 0x9e3779b97f4a7c15ULL));
  std::vector<uint64_t> probes;
  for (uint32_t j = 0; j < chbench::kMultiprobeMaxProbes; ++j)
    probes.push_back(chbench::multiprobe_probe(h, j));
  std::sort(probes.begin(), probes.end());
  CHECK(std::adjacent_find(probes.begin(), probes.end()) == probes.end());
}

TEST_CASE("multiprobe: k outside 1 ... 4096 is refused with its range", "[multiprobe][errors]") {
  for (uint32_t k : {0u, chbench::kMultiprobeMaxProbes + 1}) {
    const Fleet fleet(nodes_with(10, k));
    INFO("k = " << k);
    CHECK_THROWS_WITH(chbench::scheme_info(Scheme::kMultiprobe).check(fleet),
                      Contains("probes k = " + std::to_string(k) + " must be 1 to 4096"));
    CHECK_THROWS_AS(chbench::build_reference(Scheme::kMultiprobe, fleet), std::invalid_argument);
    for (const auto* kernel : chbench::kernels_of(Scheme::kMultiprobe))
      CHECK_THROWS_AS(kernel->build(fleet), std::invalid_argument);
  }
  CHECK_NOTHROW(chbench::scheme_info(Scheme::kMultiprobe).check(Fleet(nodes_with(10, 4096))));
}

TEST_CASE("multiprobe: a leave moves only the leaver's keys, a join only keys to the joiner",
          "[multiprobe]") {
  std::mt19937_64 rng(kSeed + 172);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 100'000, rng);
  const Fleet before(nodes_with(50, 21));
  Fleet after = before;
  after.leave("node-17");
  const auto& kernel = chbench::default_kernel(Scheme::kMultiprobe);
  const auto old_owners = owners_of(*kernel.build(before), keys);
  const auto new_owners = owners_of(*kernel.build(after), keys);
  uint64_t moved = 0, wrong = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    // Nodes after node-17 move down one index.
    const uint32_t renamed = old_owners[i] > 17 ? old_owners[i] - 1 : old_owners[i];
    if (old_owners[i] == 17) {
      ++moved;
      wrong += new_owners[i] == 17 && after.nodes().names[17] == "node-17";
    } else {
      wrong += new_owners[i] != renamed;
    }
  }
  CHECK(wrong == 0);
  CHECK(moved > 0);
  // Joining node-17 again: the keys that go to it are exactly those it had.
  Fleet back = after;
  back.join("node-17");
  const auto back_owners = owners_of(*kernel.build(back), keys);
  uint64_t to_joiner = 0, between = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (back_owners[i] == 49) {
      ++to_joiner;
    } else {
      between += back_owners[i] != new_owners[i];
    }
  }
  CHECK(between == 0);
  CHECK(to_joiner == moved);
}

TEST_CASE("multiprobe: peak-to-average falls with k toward 1 + 1 / (k - 1), ring V = 1 far above",
          "[multiprobe][balance]") {
  // The paper: 1 + eps with 1 + 1/eps probes. 100 nodes, 10^6 uniform keys:
  // 10^4 keys a node, whose sampling spread (1%) puts the busiest of 100
  // some 2.5% higher, and the paper's eps is approximate: 6% allowed above
  // 1 + eps. Measured here: 1.151 at k = 11, 1.084 at k = 21.
  constexpr uint32_t kNodes = 100;
  std::mt19937_64 rng(kSeed + 173);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 1'000'000, rng);
  const NodeSet ring_nodes = chbench::default_nodes(kNodes, 1);
  const double ring = peak_to_average(
      owners_of(*chbench::default_kernel(Scheme::kRing).build(ring_nodes), keys), kNodes);
  std::vector<double> peaks;
  for (uint32_t k : {1u, 3u, 6u, 11u, 21u}) {
    const auto table = chbench::default_kernel(Scheme::kMultiprobe).build(nodes_with(kNodes, k));
    peaks.push_back(peak_to_average(owners_of(*table, keys), kNodes));
  }
  INFO("ring V = 1: " << ring << "; k = 1, 3, 6, 11, 21: " << peaks[0] << ", " << peaks[1] << ", "
                      << peaks[2] << ", " << peaks[3] << ", " << peaks[4]);
  CHECK(peaks[0] == Approx(ring));  // k = 1 is that ring
  CHECK(ring > 3);
  for (std::size_t i = 1; i < peaks.size(); ++i) CHECK(peaks[i] < peaks[i - 1]);
  CHECK(peaks[3] < 1.1 + 0.06);   // k = 11: eps = 0.1
  CHECK(peaks[4] < 1.05 + 0.06);  // k = 21: eps = 0.05
}

namespace {

// The inverse of an odd a mod 2^64: Newton's step x(2 - ax) doubles the bits
// right, from the 3 of x = a.
uint64_t inverse_odd(uint64_t a) {
  uint64_t x = a;
  for (int i = 0; i < 5; ++i) x *= 2 - a * x;
  return x;
}

// A key hash whose probe j is `point`: fmix64 inverted (its shifts by 33 undo
// themselves, its multipliers are odd).
uint64_t key_with_probe(uint64_t point, uint32_t j) {
  if (j == 0) return point;
  uint64_t x = point ^ (point >> 33);
  x *= inverse_odd(0xc4ceb9fe1a85ec53ULL);
  x ^= x >> 33;
  x *= inverse_odd(0xff51afd7ed558ccdULL);
  x ^= x >> 33;
  return x - uint64_t{j} * chbench::kMultiprobeGamma;
}

// The index's scales for n distinct tokens (docs/schemes/multiprobe.md):
// 2^b = 4 x n rounded down to a power of two buckets, a field's unit 2^-11 of
// a bucket.
struct Scales {
  uint64_t buckets, bucket, unit;
};
Scales scales_for(uint32_t n) {
  const uint64_t buckets = std::bit_floor(uint64_t{4} * n);
  const uint64_t bucket = uint64_t{1} << (64 - std::countr_zero(buckets));
  return {buckets, bucket, bucket >> chbench::kFieldFineBits};
}

struct Trial {
  std::vector<uint64_t> tokens, keys;
};

template <class T>
T pick(std::mt19937_64& rng, std::initializer_list<T> values) {
  return *(values.begin() + rng() % values.size());
}

// Six keys aimed at the SIMD kernel's margins: probe j0 at a spot (random, a
// bucket's low end or one below it, 0, UINT64_MAX; then + 0, 1, a unit - 1, a
// unit or up to a bucket), a token at distance d from it (0, 1, unit and bucket
// edges, 31 to 33 buckets: saturated fields), and a token at d + delta from
// another probe (delta 0: a tie the earlier probe wins; 1, a unit, two or
// three either way: near ties).
void add_aimed(std::mt19937_64& rng, uint32_t n, uint32_t k, const Scales& s, Trial& t) {
  const uint64_t u = s.unit, b = s.bucket;
  for (int m = 0; m < 6 && t.tokens.size() < n; ++m) {
    const uint32_t j0 = static_cast<uint32_t>(rng() % k);
    const uint64_t edge = (rng() % s.buckets) * b;
    const uint64_t spot = pick<uint64_t>(rng, {rng(), edge, edge - 1, 0, UINT64_MAX});
    const uint64_t p0 = spot + pick<uint64_t>(rng, {0, 1, u - 1, u, rng() % b});
    const uint64_t h = key_with_probe(p0, j0);
    const uint64_t d =
        pick<uint64_t>(rng, {0, 1, u - 1, u, u + 1, 2 * u, 3 * u - 1, b, 31 * b, 32 * b, 33 * b,
                             rng() % (4 * u), (rng() % 64) * b + rng() % b});
    t.keys.push_back(h);
    t.tokens.push_back(p0 + d);
    if (k == 1 || t.tokens.size() == n) continue;
    const uint32_t j1 = (j0 + 1 + static_cast<uint32_t>(rng() % (k - 1))) % k;
    const uint64_t delta =
        pick<uint64_t>(rng, {0, 1, UINT64_MAX, u, 0 - u, 2 * u, 0 - 2 * u, 3 * u, 0 - 3 * u});
    t.tokens.push_back(chbench::multiprobe_probe(h, j1) + d + delta);
  }
}

// The other tokens up to n: random, on bucket edges and next to them, at 0,
// 1, UINT64_MAX - 1 and UINT64_MAX, repeats (two nodes, one token), and runs
// of six (more than a bucket's four fields).
void add_filler(std::mt19937_64& rng, uint32_t n, const Scales& s, Trial& t) {
  while (t.tokens.size() < n) {
    const uint64_t edge = (rng() % s.buckets) * s.bucket;
    const uint64_t run = rng(), step = pick<uint64_t>(rng, {1, s.unit, s.bucket / 7});
    switch (rng() % 6) {
      case 0:
        t.tokens.push_back(rng());
        break;
      case 1:
        t.tokens.push_back(edge);
        break;
      case 2:
        t.tokens.push_back(edge + pick<uint64_t>(rng, {1, UINT64_MAX, s.unit, s.unit - 1}));
        break;
      case 3:
        t.tokens.push_back(pick<uint64_t>(rng, {0, 1, UINT64_MAX - 1, UINT64_MAX}));
        break;
      case 4:
        t.tokens.push_back(t.tokens.empty() ? rng() : t.tokens[rng() % t.tokens.size()]);
        break;
      default:
        for (uint64_t r = 0; r < 6 && t.tokens.size() < n; ++r) t.tokens.push_back(run + r * step);
    }
  }
}

// Keys at each token's edges: it, one either side, its unit's low end, one
// below it and its last value (a field equal to the probe's offset), its
// bucket's low end, one below it and the next bucket's, a unit before it and
// 32 buckets before it (a saturated field); then 0, 1, UINT64_MAX and random.
void add_edge_keys(std::mt19937_64& rng, const Scales& s, Trial& t) {
  for (uint64_t tok : t.tokens) {
    const uint64_t unit_low = tok & ~(s.unit - 1), bucket_low = tok & ~(s.bucket - 1);
    for (uint64_t key :
         {tok, tok + 1, tok - 1, unit_low, unit_low - 1, unit_low + s.unit - 1, bucket_low,
          bucket_low - 1, bucket_low + s.bucket, tok - s.unit, tok - 32 * s.bucket})
      t.keys.push_back(key);
  }
  for (uint64_t key : {uint64_t{0}, uint64_t{1}, UINT64_MAX}) t.keys.push_back(key);
  chbench_test::append_random(t.keys, 50, rng);
}

// A circle of n tokens (n before repeats collapse) and keys aimed at it for k
// probes.
Trial adversarial_trial(std::mt19937_64& rng, uint32_t n, uint32_t k) {
  const Scales s = scales_for(n);
  Trial t;
  add_aimed(rng, n, k, s, t);
  add_filler(rng, n, s, t);
  t.tokens.resize(n);
  add_edge_keys(rng, s, t);
  return t;
}

// Every lookup of the index over the trial's circle (owner_scanned,
// owner_paired while built, multiprobe_owners on every target) against the
// definition on its keys.
void check_trial(const Trial& t, uint32_t k) {
  std::vector<chbench::RingEntry<uint64_t>> entries;
  std::string tokens;
  for (uint32_t i = 0; i < t.tokens.size(); ++i) {
    entries.push_back({t.tokens[i], i});
    if (t.tokens.size() <= 300) tokens += std::to_string(t.tokens[i]) + " ";
  }
  std::sort(entries.begin(), entries.end());
  const chbench::MultiprobeIndex index(chbench::SortedRing<uint64_t>::from_entries(entries), k);
  std::vector<uint32_t> want, scanned, paired;
  for (uint64_t h : t.keys) {
    want.push_back(owner_by_definition(entries, h, k));
    scanned.push_back(index.owner_scanned(h));
    paired.push_back(index.paired ? index.owner_paired(h) : want.back());
  }
  INFO(t.tokens.size() << " tokens " << tokens << "(node i: token i), k = " << k);
  CHECK(first_mismatch<uint64_t>(t.keys, want, scanned) == "");
  CHECK(first_mismatch<uint64_t>(t.keys, want, paired) == "");
  for (int64_t target : chbench_test::test_targets()) {
    chbench::simd::ForcedTarget forced(target);
    std::vector<uint32_t> got(t.keys.size());
    chbench::simd::multiprobe_owners(index, t.keys, got);
    INFO("multiprobe/simd on " << chbench::simd::target_name(target));
    CHECK(first_mismatch<uint64_t>(t.keys, want, got) == "");
  }
}

}  // namespace

TEST_CASE("multiprobe: key_with_probe inverts the probes", "[multiprobe]") {
  for (uint32_t j : {0u, 1u, 20u, 4095u})
    for (uint64_t point : {uint64_t{0}, uint64_t{12345}, UINT64_MAX})
      CHECK(chbench::multiprobe_probe(key_with_probe(point, j), j) == point);
}

TEST_CASE("multiprobe: circles aimed at the SIMD kernel's margins give the definition's owner",
          "[multiprobe][simd][targets]") {
  std::mt19937_64 rng(kSeed + 173);
  for (int trial = 0; trial < 3000; ++trial) {
    const uint32_t n = pick<uint32_t>(rng, {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 33, 40, 100, 300});
    const uint32_t k =
        trial % 500 == 0 ? chbench::kMultiprobeMaxProbes : pick<uint32_t>(rng, {1, 2, 3, 4, 5, 21});
    Trial t = adversarial_trial(rng, n, k);
    if (k == chbench::kMultiprobeMaxProbes) t.keys.resize(std::min<std::size_t>(t.keys.size(), 40));
    check_trial(t, k);
  }
}

TEST_CASE("multiprobe: large aimed circles, with pairs and without, give the definition's owner",
          "[multiprobe][simd][targets]") {
  std::mt19937_64 rng(kSeed + 174);
  for (uint32_t n : {16'383u, 16'384u, 40'000u})
    for (uint32_t k : {1u, 2u, 21u}) {
      Trial t = adversarial_trial(rng, n, k);
      t.keys.resize(20'000);  // the aimed keys first, then the edges of the tokens first placed
      check_trial(t, k);
    }
}
