// Every kernel of every scheme against its scheme's reference (the loop runs
// over chbench_test::test_kernels(), so a new kernel is checked without naming it),
// and the references against docs/spec.md (§5 to §8): an independent model built here from
// XXH3 and the spec's formulas, hand-computed owners, and literal values.
#include <xxhash.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "chbench/hash.h"
#include "chbench/hrw/hrw.h"
#include "chbench/nodes.h"
#include "chbench/ring/branchless.h"
#include "chbench/ring/eytzinger.h"
#include "chbench/ring/lower_bound.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"
#include "models/model.h"
#include "support.h"

using chbench::KernelInfo;
using chbench::NodeSet;
using chbench::Scheme;
using chbench_test::first_mismatch;
using chbench_test::kGuard;
using chbench_test::kSeed;
using chbench_test::owners_of;

namespace {

constexpr uint64_t kMillion = 1'000'000;

// A scheme that scores every node (rendezvous, weighted rendezvous) costs
// O(N) per key in the kernel and in the reference: its keys per case are
// capped at this many node scores (but never below kMinHrwKeys). Under an
// emulator or sanitizers a tenth: there its SIMD kernels cost more than all the other
// kernels together, and test_simd.cc checks them on every target.
constexpr uint64_t kHrwScoreBudget = chbench_test::kBrief ? 4'000'000 : 40'000'000;
constexpr std::size_t kMinHrwKeys = chbench_test::kBrief ? 1024 : 4096;

// Keys checked per kernel ("scheme/name"), summed over the cases of a test.
using Counts = std::map<std::string, uint64_t>;

// Node names: the defaults, or random byte strings (text, '#', UTF-8, NUL).
NodeSet make_nodes(uint32_t n, uint32_t v, bool random_names, std::mt19937_64& rng) {
  if (!random_names) return chbench::default_nodes(n, v);
  NodeSet nodes;
  nodes.vnodes = v;
  std::set<std::string> used;
  static const std::string kOdd[] = {"#", "\xc3\xa9", std::string(1, '\0'), " ", "node-"};
  while (nodes.names.size() < n) {
    std::ostringstream s;
    s << std::hex << rng() % 0x1000000;
    std::string name = s.str() + kOdd[rng() % 5];
    if (used.insert(name).second) nodes.names.push_back(std::move(name));
  }
  return nodes;
}

std::span<const uint64_t> keys_for(Scheme scheme, const NodeSet& nodes,
                                   std::span<const uint64_t> keys) {
  if (!chbench::scheme_info(scheme).scores_every_node) return keys;
  // Weighted rendezvous takes a logarithm per score, about ten times the cost
  // of rendezvous' hash: a tenth of the budget.
  const uint64_t budget =
      scheme == Scheme::kWeightedRendezvous ? kHrwScoreBudget / 10 : kHrwScoreBudget;
  const std::size_t limit = std::max<std::size_t>(kMinHrwKeys, budget / nodes.size());
  return keys.first(std::min(keys.size(), limit));
}

// Compares every kernel of test_kernels() with its scheme's reference on `keys`
// (a prefix of them for rendezvous), and adds the keys compared to `counts`.
void compare_all_kernels(const NodeSet& nodes, std::span<const uint64_t> keys, Counts& counts) {
  std::map<Scheme, std::vector<uint32_t>> expected;
  for (const KernelInfo* kernel : chbench_test::test_kernels()) {
    const auto use = keys_for(kernel->scheme, nodes, keys);
    if (!expected.count(kernel->scheme))
      expected[kernel->scheme] = owners_of(*chbench::build_reference(kernel->scheme, nodes), use);
    const auto& want = expected[kernel->scheme];

    INFO("kernel " << kernel->full_name() << ", " << use.size() << " keys");
    chbench_test::check_table(*kernel->build(nodes), use, want);
    counts[kernel->full_name()] += use.size();
  }
}

// Boundary keys of the node set's ring (tokens, t +- 1, below the first,
// above the last, 0, UINT64_MAX), then `random` uniform keys.
std::vector<uint64_t> case_keys(const NodeSet& nodes, std::size_t max_tokens, std::size_t random,
                                std::mt19937_64& rng) {
  const auto entries = chbench::ring_entries(nodes);
  auto keys = chbench_test::boundary_keys<uint64_t>(entries, max_tokens, rng);
  chbench_test::append_random(keys, random, rng);
  return keys;
}

uint32_t log_uniform(std::mt19937_64& rng, uint32_t max) {
  const double x = std::exp(std::uniform_real_distribution<double>(0, std::log(max + 1.0))(rng));
  return std::clamp<uint32_t>(static_cast<uint32_t>(x), 1, max);
}

}  // namespace

TEST_CASE("every kernel matches its reference on random node sets", "[schemes][reference]") {
  std::mt19937_64 rng(kSeed);
  struct Case {
    uint32_t n, v;
  };
  // Fixed corner cases first, then random N in [1, 10'000] and V in [1, 1'000]
  // (log-uniform), with N * V capped at about 2M tokens.
  std::vector<Case> cases = {{1, 1},  {1, 7},   {1, 1000},   {2, 1},        {2, 1000},   {3, 2},
                             {7, 13}, {64, 64}, {10'000, 1}, {10'000, 200}, {1000, 1000}};
  // Under an emulator or sanitizers a third of the random cases (support.h, kBrief).
  for (int i = 0; i < (chbench_test::kBrief ? 16 : 48); ++i) {
    const uint32_t n = log_uniform(rng, 10'000);
    const uint32_t v = std::min(log_uniform(rng, 1000), std::max<uint32_t>(1, 2'000'000 / n));
    cases.push_back({n, v});
  }

  Counts counts;
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const bool random_names = c % 3 == 1;
    const NodeSet nodes = make_nodes(cases[c].n, cases[c].v, random_names, rng);
    const auto keys = case_keys(nodes, 20'000, 40'000, rng);
    INFO("seed " << kSeed << ", case " << c << ": N = " << cases[c].n << ", V = " << cases[c].v
                 << (random_names ? ", random names" : ", default names"));
    compare_all_kernels(nodes, keys, counts);
  }

  // At least a million keys per kernel over the run (a third emulated).
  for (const KernelInfo* kernel : chbench_test::test_kernels()) {
    INFO("kernel " << kernel->full_name());
    CHECK(counts[kernel->full_name()] >= (chbench_test::kBrief ? kMillion / 3 : kMillion));
  }
}

TEST_CASE("every kernel matches its reference on large rings", "[schemes][reference][large]") {
  std::mt19937_64 rng(kSeed + 10);
  Counts counts;
  // 10'000 nodes * 1'000 tokens is the largest ring checked here.
  // Under an emulator or sanitizers the largest and the odd-sized ring only.
  std::vector<std::pair<uint32_t, uint32_t>> rings = {{10'000, 1'000}, {3'001, 1'000}};
  if (!chbench_test::kBrief) rings.push_back({10'000, 333});
  for (const auto& [n, v] : rings) {
    const NodeSet nodes = chbench::default_nodes(n, v);
    const auto keys = case_keys(nodes, 30'000, 100'000, rng);
    INFO("seed " << kSeed + 10 << ": N = " << n << ", V = " << v);
    compare_all_kernels(nodes, keys, counts);
  }
}

TEST_CASE("every kernel matches its reference on the default keys", "[schemes][reference]") {
  const auto keys = chbench::default_key_hashes(kMillion);
  Counts counts;
  for (const auto& [n, v] :
       std::vector<std::pair<uint32_t, uint32_t>>{{1, 1}, {3, 1}, {10, 100}, {997, 160}}) {
    INFO("default keys user:1 ... user:" << kMillion << ", N = " << n << ", V = " << v);
    compare_all_kernels(chbench::default_nodes(n, v), keys, counts);
  }
  // A million keys per kernel; under an emulator or sanitizers a tenth for weighted
  // rendezvous, whose score budget there (keys_for) allows 574,000.
  for (const KernelInfo* kernel : chbench_test::test_kernels()) {
    INFO("kernel " << kernel->full_name());
    const bool short_budget = chbench_test::kBrief && kernel->scheme == Scheme::kWeightedRendezvous;
    CHECK(counts[kernel->full_name()] >= (short_budget ? kMillion / 10 : kMillion));
  }
}

TEST_CASE("with one node every kernel answers 0", "[schemes][reference]") {
  std::mt19937_64 rng(kSeed + 11);
  for (uint32_t v : {1u, 2u, 1000u}) {
    for (bool random_names : {false, true}) {
      const NodeSet nodes = make_nodes(1, v, random_names, rng);
      const auto keys = case_keys(nodes, 3000, 20'000, rng);
      const std::vector<uint32_t> zeros(keys.size(), 0);
      INFO("seed " << kSeed + 11 << ", V = " << v);
      for (Scheme s : chbench::all_schemes()) {
        INFO("reference of " << chbench::scheme_name(s));
        CHECK(first_mismatch<uint64_t>(keys, zeros,
                                       owners_of(*chbench::build_reference(s, nodes), keys)) == "");
      }
      for (const KernelInfo* kernel : chbench_test::test_kernels()) {
        INFO("kernel " << kernel->full_name());
        CHECK(first_mismatch<uint64_t>(keys, zeros, owners_of(*kernel->build(nodes), keys)) == "");
      }
    }
  }
}

TEST_CASE("every kernel accepts an empty batch", "[schemes]") {
  const NodeSet nodes = chbench::default_nodes(5, 3);
  std::vector<uint32_t> out = {kGuard};
  for (const KernelInfo* kernel : chbench_test::test_kernels()) {
    INFO("kernel " << kernel->full_name());
    kernel->build(nodes)->owners({}, std::span<uint32_t>(out).first(0));
    CHECK(out[0] == kGuard);
  }
}

// Each scheme's model is its tests/models/<scheme>.cc (models/model.h).
TEST_CASE("references and kernels follow docs/spec.md (independent model)", "[schemes][spec]") {
  std::mt19937_64 rng(kSeed + 12);
  for (int trial = 0; trial < 40; ++trial) {
    const uint32_t n = 1 + static_cast<uint32_t>(rng() % 40);
    const uint32_t v = 1 + static_cast<uint32_t>(rng() % 30);
    NodeSet nodes = make_nodes(n, v, trial % 2 == 1, rng);
    nodes.probes = 1 + static_cast<uint32_t>(trial % 25);  // multi-probe's k

    // The boundary keys of the ring's model.
    const auto tokens = chbench_test::model_ring(nodes);
    std::vector<uint64_t> keys = {0, 1, std::numeric_limits<uint64_t>::max()};
    for (const auto& [token, node] : tokens) {
      keys.push_back(token - 1);
      keys.push_back(token);
      keys.push_back(token + 1);
    }
    chbench_test::append_random(keys, 1000, rng);
    for (uint64_t i = 1; i <= 300; ++i)
      keys.push_back(chbench_test::xxh3("user:" + std::to_string(i)));

    for (Scheme s : chbench::all_schemes()) {
      const chbench_test::SchemeModel model = chbench_test::model_of(s);
      if (model == nullptr) continue;  // checked against its reference only
      const chbench_test::ModelOwner owner = model(nodes);
      std::vector<uint32_t> want(keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i) want[i] = owner(keys[i]);
      INFO("seed " << kSeed + 12 << ", trial " << trial << ": N = " << n << ", V = " << v
                   << ", scheme " << chbench::scheme_name(s));
      CHECK(first_mismatch<uint64_t>(keys, want,
                                     owners_of(*chbench::build_reference(s, nodes), keys)) == "");
      for (const auto* kernel : chbench_test::test_kernels_of(s)) {
        INFO("kernel " << kernel->full_name());
        CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*kernel->build(nodes), keys)) == "");
      }
    }
  }
}

TEST_CASE("literal owners of the default keys user:1 ... user:12", "[schemes][spec]") {
  // Computed once with the independent model above (XXH3 from libxxhash and
  // docs/spec.md's formulas; §12 lists them), fixed here so that a change to a label format, a seed
  // or a tie rule shows up as a changed number.
  CHECK(chbench::key_hash("user:1") == 0x3b577afd7fed9501ULL);
  CHECK(chbench::key_hash("user:2") == 0x69a0366b760b5c02ULL);
  struct Golden {
    uint32_t n, v;
    Scheme scheme;
    std::vector<uint32_t> owners;
  };
  const Golden golden[] = {
      {3, 2, Scheme::kModN, {0, 1, 1, 1, 0, 0, 2, 2, 0, 0, 2, 2}},
      {3, 2, Scheme::kRing, {2, 2, 2, 1, 1, 2, 1, 1, 2, 0, 1, 2}},
      {3, 2, Scheme::kRendezvous, {1, 1, 2, 0, 0, 0, 1, 0, 0, 0, 0, 2}},
      {3, 2, Scheme::kJump, {1, 0, 2, 1, 0, 2, 2, 2, 1, 2, 0, 1}},
      {10, 50, Scheme::kModN, {5, 4, 7, 2, 1, 3, 8, 2, 9, 2, 2, 5}},
      {10, 50, Scheme::kRing, {6, 1, 6, 2, 6, 3, 6, 0, 4, 9, 2, 0}},
      {10, 50, Scheme::kRendezvous, {6, 7, 2, 9, 4, 8, 3, 0, 5, 0, 0, 4}},
      {10, 50, Scheme::kJump, {1, 9, 7, 8, 3, 6, 2, 2, 8, 5, 0, 7}},
  };
  const auto keys = chbench::default_key_hashes(12);
  for (const Golden& g : golden) {
    INFO("N = " << g.n << ", V = " << g.v << ", scheme " << chbench::scheme_name(g.scheme));
    const NodeSet nodes = chbench::default_nodes(g.n, g.v);
    CHECK(owners_of(*chbench::build_reference(g.scheme, nodes), keys) == g.owners);
    for (const auto* kernel : chbench_test::test_kernels_of(g.scheme)) {
      INFO("kernel " << kernel->full_name());
      CHECK(owners_of(*kernel->build(nodes), keys) == g.owners);
    }
  }
}

TEST_CASE("mod-N is h % N", "[schemes][spec]") {
  struct Row {
    uint32_t n;
    uint64_t h;
    uint32_t owner;
  };
  // 2^64 - 1 = 3 * 5 * 17 * 257 * 641 * 65537 * 6700417; 2^64 = 2 (mod 7).
  const Row rows[] = {{1, 12345, 0},
                      {3, 18446744073709551615ULL, 0},
                      {7, 18446744073709551615ULL, 1},
                      {10, 18446744073709551615ULL, 5},
                      {1000, 18446744073709551615ULL, 615},
                      {7, 12345, 4},
                      {641, 18446744073709551615ULL, 0},
                      {10'000, 0, 0},
                      {10'000, 9'999, 9'999},
                      {10'000, 10'000, 0}};
  for (const Row& row : rows) {
    INFO("h = " << row.h << ", N = " << row.n);
    const NodeSet nodes = chbench::default_nodes(row.n);
    const std::vector<uint64_t> key = {row.h};
    CHECK(owners_of(*chbench::build_reference(Scheme::kModN, nodes), key)[0] == row.owner);
    for (const auto* kernel : chbench_test::test_kernels_of(Scheme::kModN)) {
      INFO("kernel " << kernel->full_name());
      CHECK(owners_of(*kernel->build(nodes), key)[0] == row.owner);
    }
  }
}

TEST_CASE("rendezvous on three nodes, scores computed by hand", "[schemes][spec][hrw]") {
  const NodeSet nodes{{"alpha", "beta", "gamma"}, 1};
  const uint64_t seeds[3] = {XXH3_64bits("alpha", 5), XXH3_64bits("beta", 4),
                             XXH3_64bits("gamma", 5)};
  CHECK(chbench::rendezvous_seeds(nodes) == std::vector<uint64_t>(seeds, seeds + 3));

  std::vector<uint64_t> keys = {0,        1,        std::numeric_limits<uint64_t>::max(),
                                seeds[0], seeds[1], seeds[2]};
  for (int i = 1; i <= 300; ++i) {
    const std::string key = "user:" + std::to_string(i);
    keys.push_back(XXH3_64bits(key.data(), key.size()));
  }
  std::vector<uint32_t> want;
  std::size_t wins[3] = {0, 0, 0};
  for (uint64_t h : keys) {
    const uint64_t w0 = chbench_test::model_fmix64(h ^ seeds[0]);
    const uint64_t w1 = chbench_test::model_fmix64(h ^ seeds[1]);
    const uint64_t w2 = chbench_test::model_fmix64(h ^ seeds[2]);
    uint32_t owner = 0;
    if (w1 > w0 && w1 >= w2) owner = 1;  // ties go to the lower index
    if (w2 > w0 && w2 > w1) owner = 2;
    want.push_back(owner);
    ++wins[owner];
    CHECK(chbench::rendezvous_score(h, seeds[1]) == w1);
  }
  // Each node wins about a third: the check is not trivially "always node 0".
  for (std::size_t w : wins) CHECK(w > 60);

  CHECK(first_mismatch<uint64_t>(
            keys, want, owners_of(*chbench::build_reference(Scheme::kRendezvous, nodes), keys)) ==
        "");
  for (const auto* kernel : chbench_test::test_kernels_of(Scheme::kRendezvous)) {
    INFO("kernel " << kernel->full_name());
    CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*kernel->build(nodes), keys)) == "");
  }
}

TEST_CASE("rendezvous: equal scores go to the lower index", "[schemes][spec][hrw]") {
  // Distinct names never tie (fmix64 is a bijection), so equal seeds stand in.
  std::mt19937_64 rng(kSeed + 13);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t h = rng();
    const uint64_t s = rng();
    uint64_t low = rng();
    while (chbench::rendezvous_score(h, low) >= chbench::rendezvous_score(h, s)) low = rng();
    INFO("h = " << h << ", s = " << s << ", low = " << low);
    const std::vector<uint64_t> same = {s, s};
    CHECK(chbench::rendezvous_owner(h, same) == 0);
    const std::vector<uint64_t> second = {low, s, s, low};
    CHECK(chbench::rendezvous_owner(h, second) == 1);
    const std::vector<uint64_t> last = {low, low, s};
    CHECK(chbench::rendezvous_owner(h, last) == 2);
  }
}

TEST_CASE("ring kernels report memory proportional to their tokens", "[schemes][ring][memory]") {
  for (const KernelInfo* kernel : chbench_test::test_kernels_of(Scheme::kRing)) {
    INFO("kernel " << kernel->full_name());
    for (uint32_t v : {1u, 10u, 100u, 1000u}) {
      const NodeSet nodes = chbench::default_nodes(100, v);
      const std::size_t tokens = 100 * std::size_t{v};
      const std::size_t bytes = kernel->build(nodes)->memory_bytes();
      const uint64_t estimate = kernel->table_bytes(nodes);
      INFO(tokens << " tokens, " << bytes << " bytes, estimate " << estimate);
      // At least the tokens themselves, and at most the registry's estimate
      // of building it, which is linear in the tokens (a few hundred bytes
      // each at most: a bucket index takes up to two 64-byte records per token).
      CHECK(bytes >= tokens * sizeof(uint64_t));
      CHECK(bytes <= estimate);
      CHECK(estimate <= tokens * 256 + 4096);
    }
  }
  // The generic kernels count 32-bit tokens at their width.
  std::vector<chbench::RingEntry<uint32_t>> entries;
  for (uint32_t i = 0; i < 10'000; ++i) entries.push_back({i * 3, i % 7});
  const auto ring = chbench::SortedRing<uint32_t>::from_entries(entries);
  CHECK(chbench::RingEytzinger<uint32_t>(ring).memory_bytes() >= 10'000 * sizeof(uint32_t));
  CHECK(chbench::RingLowerBound<uint32_t>(ring).memory_bytes() >= 10'000 * sizeof(uint32_t));
  CHECK(chbench::RingBranchless<uint32_t>(ring).memory_bytes() >= 10'000 * sizeof(uint32_t));
  CHECK(chbench::RingEytzinger<uint32_t>(ring).memory_bytes() < 10'000 * 16);
}

TEST_CASE("every ring kernel on clustered tokens, built over a given ring", "[schemes][ring]") {
  std::mt19937_64 rng(kSeed + 21);
  for (unsigned window : {20u, 36u, 50u}) {
    for (uint32_t n : {3u, 97u, 1000u}) {
      const auto nodes = chbench::default_nodes(n, 40);
      const auto entries = chbench::clustered_ring_entries(nodes, window);
      CHECK(entries.front().token >= chbench::kClusterBase);
      CHECK(entries.back().token - chbench::kClusterBase < (uint64_t{1} << window));
      // The ring's entries moved into the window and sorted again by (token,
      // node): at 2^20 values, many tokens collide and their nodes reorder.
      auto expected = chbench::ring_entries(nodes);
      for (auto& e : expected) e.token = chbench::into_cluster(e.token, window);
      std::sort(expected.begin(), expected.end());
      CHECK(entries == expected);
      const auto ring = chbench::SortedRing<uint64_t>::from_entries(entries);
      const auto huge = chbench::SortedRing<uint64_t>::from_entries(entries, /*huge_pages=*/true);
      CHECK(huge.tokens == ring.tokens);
      CHECK(huge.owners == ring.owners);
      const auto reference = chbench::build_ring_reference(entries);
      // Keys in the window (the adversary's), at the tokens, and anywhere.
      std::vector<uint64_t> keys = chbench_test::boundary_keys<uint64_t>(entries, 2'000, rng);
      for (uint64_t h : chbench::default_key_hashes(20'000))
        keys.push_back(chbench::into_cluster(h, window));
      chbench_test::append_random(keys, 2'000, rng);
      const auto want = owners_of(*reference, keys);
      for (const auto* kernel : chbench_test::test_kernels_of(Scheme::kRing)) {
        // The kernel's default, and for a kernel with a knob (keys in flight)
        // its extremes and two values between.
        std::vector<unsigned> knobs = {0};
        if (kernel->knob)
          knobs.insert(knobs.end(), {kernel->knob->min, std::min(5u, kernel->knob->max),
                                     std::min(64u, kernel->knob->max), kernel->knob->max});
        for (unsigned knob : knobs) {
          INFO(kernel->full_name()
               << ", knob " << knob << ", window 2^" << window << ", N = " << n);
          const auto table = chbench::build_ring_kernel(kernel->name, ring, knob);
          CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*table, keys)) == "");
          std::vector<uint32_t> single(keys.size());
          for (std::size_t i = 0; i < keys.size(); ++i) single[i] = table->owner(keys[i]);
          CHECK(first_mismatch<uint64_t>(keys, want, single) == "");
        }
      }
    }
  }
  CHECK_THROWS_WITH(
      chbench::build_ring_kernel("nope", chbench::SortedRing<uint64_t>::from_entries(
                                             chbench::ring_entries(chbench::default_nodes(2, 2)))),
      Catch::Contains("unknown kernel 'nope'"));
  CHECK_THROWS_AS(chbench::clustered_ring_entries(chbench::default_nodes(2, 2), 0),
                  std::invalid_argument);
  CHECK_THROWS_AS(chbench::clustered_ring_entries(chbench::default_nodes(2, 2), 64),
                  std::invalid_argument);
}

TEST_CASE("the schemes' models are registered", "[schemes][spec]") {
  std::size_t with_model = 0;
  for (Scheme s : chbench::all_schemes()) {
    if (chbench_test::model_of(s) != nullptr)
      ++with_model;
    else
      WARN("scheme " << chbench::scheme_name(s) << " has no model (tests/models/<scheme>.cc)");
  }
  // Every scheme of docs/spec.md and docs/schemes/ has one.
  CHECK(with_model >= 16);
}
