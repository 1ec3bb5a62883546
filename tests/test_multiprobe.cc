// Multi-probe consistent hashing (docs/schemes/multiprobe.md): every kernel
// against the reference at several k on every Highway target, k = 1 against
// the ring with one token per node, the probe count's limits, moves on a
// leave and a join, and the paper's balance against k.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
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
    const auto it =
        std::find_if(entries.begin(), entries.end(), [p](const auto& e) { return e.token >= p; });
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
          "[multiprobe][simd]") {
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
      for (int64_t target : chbench::simd::runnable_targets()) {
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
          "[multiprobe][simd]") {
  std::mt19937_64 rng(kSeed + 170);
  for (uint32_t n : {1u, 2u, 3u, 17u, 1000u}) {
    for (uint32_t k : {1u, 2u, 5u, 21u, 64u}) {
      const NodeSet nodes = nodes_with(n, k);
      const auto keys = keys_for(nodes, 2000, rng);
      const auto want = owners_of(*chbench::build_reference(Scheme::kMultiprobe, nodes), keys);
      for (int64_t target : chbench::simd::runnable_targets()) {
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
