// Per-target runs of the whole registry (complements test_simd.cc, which
// checks the SIMD building blocks target by target): every target Highway
// compiled and this CPU supports, one lane (SCALAR) included, is forced in turn
// with hwy::SetSupportedTargetsForTest and an RAII guard, and every kernel of
// the registry (the SIMD ones and, harmlessly, the others) is compared with its
// scheme's reference on adversarial inputs: batches of 0, 1 and sizes that are
// not a multiple of any lane count or unroll, N = 1, keys equal to tokens and
// their neighbours, keys equal to node seeds, every ring kernel over rings of
// chosen tokens (duplicates, 0, 2^63, UINT64_MAX, crowded buckets) with its
// knob at its default and across its range, equal
// rendezvous scores at every lane offset, jump keys whose first jump is 2^31
// or 1, and mod-N dividends around multiples of divisors up to 2^32 - 1.
#include <hwy/targets.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "chbench/hrw/hrw.h"
#include "chbench/hrw/rendezvous_simd.h"
#include "chbench/jump/jump.h"
#include "chbench/modn/modn.h"
#include "chbench/nodes.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"

using chbench::KernelInfo;
using chbench::NodeSet;
using chbench::RingEntry;
using chbench::Scheme;
using chbench::SortedRing;
using chbench_test::first_mismatch;
using chbench_test::kGuard;
using chbench_test::kSeed;
using chbench_test::TargetGuard;
using chbench_test::targets_to_test;

namespace {

constexpr uint64_t kMax64 = std::numeric_limits<uint64_t>::max();

// Batch sizes around every lane count up to 8 and unroll factors up to 4 x 8.
constexpr std::size_t kPieceSizes[] = {0,  1,  2,  3,  4,  5,  7,  8,  9,
                                       15, 16, 17, 31, 32, 33, 63, 65, 0};

// Runs `run(keys, out)` over `keys` in consecutive pieces of kPieceSizes,
// each into its own span, with a guard slot after every piece's output.
template <class Run>
std::vector<uint32_t> in_pieces(std::span<const uint64_t> keys, const Run& run) {
  std::vector<uint32_t> out(keys.size(), kGuard);
  std::size_t at = 0, i = 0;
  do {  // the first piece is empty, also for an empty key list
    const std::size_t size = std::min(kPieceSizes[i++ % std::size(kPieceSizes)], keys.size() - at);
    // A copy of the piece with one spare slot: a write past its end shows.
    std::vector<uint64_t> in(keys.begin() + at, keys.begin() + at + size);
    std::vector<uint32_t> piece(size + 1, kGuard);
    run(std::span<const uint64_t>(in), std::span<uint32_t>(piece).first(size));
    if (piece.back() != kGuard) return {};  // reported as a size mismatch
    std::copy_n(piece.begin(), size, out.begin() + at);
    at += size;
  } while (at < keys.size());
  return out;
}

// Every registry kernel against its scheme's reference: one batch, then pieces.
void compare_registry(const NodeSet& nodes, std::span<const uint64_t> keys) {
  std::map<Scheme, std::vector<uint32_t>> expected;
  for (const KernelInfo* kernel : chbench_test::test_kernels()) {
    if (!expected.count(kernel->scheme))
      expected[kernel->scheme] =
          chbench_test::owners_of(*chbench::build_reference(kernel->scheme, nodes), keys);
    if (!chbench_test::checks_at_this_target(*kernel)) continue;
    const auto& want = expected[kernel->scheme];
    INFO("kernel " << kernel->full_name() << " (dispatched to "
                   << chbench::simd::dispatched_target_name() << ")");
    const auto table = kernel->build(nodes);
    CHECK(first_mismatch<uint64_t>(keys, want, chbench_test::owners_of(*table, keys)) == "");
    const auto pieces = in_pieces(keys, [&](auto in, auto out) { table->owners(in, out); });
    CHECK(first_mismatch<uint64_t>(keys, want, pieces) == "");
  }
}

// Ring boundary keys, the node seeds (h ^ seed == 0 scores 0, the minimum) and
// their neighbours, edge values, then `random` uniform keys.
std::vector<uint64_t> adversarial_keys(const NodeSet& nodes, std::size_t random,
                                       std::mt19937_64& rng) {
  const auto entries = chbench::ring_entries(nodes);
  auto keys =
      chbench_test::boundary_keys<uint64_t>(entries, chbench_test::kEmulated ? 400 : 2000, rng);
  for (uint64_t s : chbench::rendezvous_seeds(nodes)) {
    keys.push_back(s);
    keys.push_back(s ^ 1);
    keys.push_back(~s);
  }
  for (uint64_t k : {uint64_t{1} << 63, (uint64_t{1} << 63) - 1, uint64_t{1} << 32,
                     (uint64_t{1} << 33) - 1, uint64_t{0xffffffff}})
    keys.push_back(k);
  chbench_test::append_random(keys, random, rng);
  return keys;
}

// The inverse of the jump LCG's multiplier mod 2^64 (Newton's iteration: each
// step doubles the correct low bits, starting from 3 correct ones).
constexpr uint64_t lcg_inverse() {
  constexpr uint64_t a = 2862933555777941757ULL;
  uint64_t x = a;
  for (int i = 0; i < 6; ++i) x *= 2 - a * x;
  return x;
}
static_assert(2862933555777941757ULL * lcg_inverse() == 1);

// A key whose first LCG step lands on `state`.
uint64_t key_before(uint64_t state) { return (state - 1) * lcg_inverse(); }

void check_rendezvous(std::span<const uint64_t> seeds, std::span<const uint64_t> keys) {
  std::vector<uint64_t> seed_list(seeds.begin(), seeds.end());
  std::vector<uint32_t> want(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    want[i] = chbench_test::model_hrw_owner(seed_list, keys[i]);
  INFO("N = " << seeds.size());
  // Every kernel that takes chosen seeds (KernelInfo::make_over_seeds).
  for (const KernelInfo* kernel : chbench_test::test_kernels()) {
    if (kernel->make_over_seeds == nullptr) continue;
    INFO("kernel " << kernel->full_name());
    const auto table = kernel->make_over_seeds(seeds);
    CHECK(first_mismatch<uint64_t>(keys, want, in_pieces(keys, [&](auto in, auto out) {
                                     table->owners(in, out);
                                   })) == "");
  }
}

// The knob values a ring kernel is built with on ring number `index`: its
// default, and for a kernel with a knob one more value of its range, turning
// through its extremes and its sweep so that the rings together try each.
std::vector<unsigned> knobs_for(const KernelInfo& kernel, std::size_t index) {
  if (!kernel.knob) return {0};
  std::vector<unsigned> values = {kernel.knob->min, kernel.knob->max};
  values.insert(values.end(), kernel.knob->sweep.begin(), kernel.knob->sweep.end());
  return {0, values[index % values.size()]};
}

// Every ring kernel of the registry, built over the ring of `entries` with
// make_over_ring, against docs/spec.md §6's reference over the same entries.
void check_ring(std::vector<RingEntry<uint64_t>> entries, std::span<const uint64_t> keys,
                std::size_t index) {
  std::sort(entries.begin(), entries.end());
  std::vector<uint32_t> want(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    want[i] = chbench::ring_reference_owner<uint64_t>(entries, keys[i]);
  const auto ring = SortedRing<uint64_t>::from_entries(entries);
  INFO(entries.size() << " entries, " << ring.tokens.size() << " distinct tokens");
  for (const KernelInfo* kernel : chbench_test::test_kernels_of(Scheme::kRing)) {
    for (unsigned knob : knobs_for(*kernel, index)) {
      INFO("kernel " << kernel->full_name() << ", knob " << knob);
      const auto table = kernel->make_over_ring(ring, knob);
      CHECK(first_mismatch<uint64_t>(keys, want, in_pieces(keys, [&](auto in, auto out) {
                                       table->owners(in, out);
                                     })) == "");
    }
  }
}

// Dividends at the edges for divisor n: 0, 1, around multiples of n (small,
// random and the largest below 2^64), around powers of two, UINT64_MAX.
std::vector<uint64_t> modn_keys(uint32_t n, std::mt19937_64& rng) {
  std::vector<uint64_t> keys = {0, 1, 2, kMax64, kMax64 - 1, kMax64 - 2};
  auto around = [&](uint64_t x) {
    keys.push_back(x - 1);
    keys.push_back(x);
    keys.push_back(x + 1);
  };
  const uint64_t top = kMax64 / n;  // the largest multiple is top * n
  for (uint64_t m : {uint64_t{1}, uint64_t{2}, uint64_t{3}, top, top - 1, top / 2, top / 3})
    around(m * n);
  for (int i = 0; i < 40; ++i) around(chbench_test::uniform<uint64_t>(rng, 0, top) * n);
  for (int bit = 1; bit < 64; ++bit) around(uint64_t{1} << bit);
  for (uint64_t hi : {uint64_t{0}, uint64_t{1}, uint64_t{n} - 1, uint64_t{n}, uint64_t{0xffffffff}})
    for (uint64_t lo : {uint64_t{0}, uint64_t{1}, uint64_t{n} - 1, uint64_t{0xffffffff}})
      keys.push_back(hi << 32 | lo);
  chbench_test::append_random(keys, 300, rng);
  return keys;
}

void check_mod_n(uint32_t n, std::span<const uint64_t> keys) {
  std::vector<uint32_t> want(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) want[i] = static_cast<uint32_t>(keys[i] % n);
  INFO("N = " << n);
  CHECK(first_mismatch<uint64_t>(keys, want, in_pieces(keys, [&](auto in, auto out) {
                                   chbench::simd::mod_n_owners(in, n, out);
                                 })) == "");
}

void check_jump(uint32_t n, std::span<const uint64_t> keys) {
  std::vector<uint32_t> want(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    want[i] = static_cast<uint32_t>(chbench_test::model_jump(keys[i], static_cast<int32_t>(n)));
    REQUIRE(want[i] == chbench::jump_hash(keys[i], n));
  }
  INFO("N = " << n);
  CHECK(first_mismatch<uint64_t>(keys, want, in_pieces(keys, [&](auto in, auto out) {
                                   chbench::simd::jump_owners(in, n, out);
                                 })) == "");
}

// Runs the whole adversarial set on the target currently dispatched to.
void check_registry(std::mt19937_64& rng) {
  // The registry on small and mid-size node sets, N = 1 first.
  for (const auto& [n, v] : std::vector<std::pair<uint32_t, uint32_t>>{
           {1, 1}, {1, 5}, {2, 1}, {3, 3}, {7, 13}, {9, 1}, {64, 7}, {65, 20}, {1000, 3}}) {
    const NodeSet nodes = chbench::default_nodes(n, v);
    INFO("registry, N = " << n << ", V = " << v);
    compare_registry(nodes, adversarial_keys(nodes, chbench_test::kEmulated ? 300 : 1500, rng));
  }
  {
    INFO("registry, empty batch");
    std::vector<uint32_t> out = {kGuard};
    for (const KernelInfo* kernel : chbench_test::test_kernels()) {
      kernel->build(chbench::default_nodes(3, 2))->owners({}, std::span<uint32_t>(out).first(0));
      CHECK(out[0] == kGuard);
    }
  }
}

void check_rendezvous_ties(std::mt19937_64& rng) {
  // Rendezvous with equal scores: equal seeds, across vector boundaries.
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 500, rng);
  const uint64_t a = rng(), b = rng();
  for (uint64_t k : {uint64_t{0}, kMax64, a, b, a ^ 1, b ^ (uint64_t{1} << 63)}) keys.push_back(k);
  check_rendezvous(std::vector<uint64_t>{a}, keys);
  check_rendezvous(std::vector<uint64_t>{a, a}, keys);
  check_rendezvous(std::vector<uint64_t>(13, b), keys);
  check_rendezvous(std::vector<uint64_t>{a, b, a, b, b, a, a, b, b, a}, keys);
  {
    // Duplicates at lane offsets 0, 1, 7, 8, 9, 16, 17 of a 19-node table.
    std::vector<uint64_t> seeds;
    chbench_test::append_random(seeds, 19, rng);
    for (std::size_t i : {1, 7, 8, 9, 16, 17, 18}) seeds[i] = seeds[0];
    check_rendezvous(seeds, keys);
    std::reverse(seeds.begin(), seeds.end());
    check_rendezvous(seeds, keys);
  }
  {
    // From 128 nodes on, across keys scores groups of 4 nodes: ties inside a
    // group, across group boundaries, and in the padding after the last group.
    check_rendezvous(std::vector<uint64_t>(128, a), keys);
    std::vector<uint64_t> seeds;
    for (int i = 0; i < 301; ++i) seeds.push_back(i % 3 == 0 ? a : i % 3 == 1 ? b : rng());
    check_rendezvous(seeds, keys);
    chbench_test::append_random(seeds, 212, rng);  // 513 seeds
    for (std::size_t i : {3, 4, 127, 128, 255, 256, 511, 512}) seeds[i] = seeds[0];
    check_rendezvous(seeds, keys);
    seeds.resize(130);
    for (auto& s : seeds) s = rng() % 4 == 0 ? b : s;
    check_rendezvous(seeds, keys);
  }
}

void check_rings(std::mt19937_64& rng) {
  // Rings, every ring kernel of the registry over each (its knob at its
  // default and at one more value): duplicate tokens over nodes, the 0 / 2^63
  // / UINT64_MAX extremes (where the top-bit flip for signed compares
  // matters), every Eytzinger shape up to 70 tokens plus 2^k - 1, 2^k,
  // 2^k + 1, and tokens crowded into one bucket of a bucket index (an
  // overfull bucket among normal ones, then all of them).
  const std::vector<uint64_t> extremes = {
      0,          1,     (uint64_t{1} << 63) - 1, uint64_t{1} << 63, (uint64_t{1} << 63) + 1,
      kMax64 - 1, kMax64};
  const std::size_t sizes[] = {1,  2,  3,  4,  5,  6,  7,   8,   9,   15,   16,   17,  31,
                               32, 33, 63, 64, 65, 70, 127, 128, 129, 1023, 1024, 1025};
  std::size_t index = 0;
  const auto check_with_keys = [&](const std::vector<RingEntry<uint64_t>>& entries) {
    std::vector<uint64_t> ring_keys = extremes;
    for (const auto& e : entries)
      for (uint64_t k : {e.token - 1, e.token, e.token + 1}) ring_keys.push_back(k);
    chbench_test::append_random(ring_keys, 100, rng);
    check_ring(entries, ring_keys, index++);
  };
  for (std::size_t size : sizes) {
    std::vector<RingEntry<uint64_t>> entries;
    for (std::size_t i = 0; i < size; ++i) {
      const uint64_t token = i < extremes.size() && size > 8 ? extremes[i] : rng();
      entries.push_back({token, static_cast<uint32_t>(rng() % 5)});
      if (i % 4 == 3) entries.push_back({token, static_cast<uint32_t>(rng() % 5)});  // duplicate
    }
    check_with_keys(entries);
  }
  {
    std::vector<RingEntry<uint64_t>> entries;  // only the extremes, each on two nodes
    for (uint64_t t : extremes)
      entries.insert(entries.end(), {{t, static_cast<uint32_t>(rng() % 5)}, {t, 5}});
    check_with_keys(entries);
  }
  for (std::size_t crowded : {120, 300}) {
    std::vector<RingEntry<uint64_t>> entries;
    const uint64_t base = rng();
    for (std::size_t i = 0; i < 300; ++i)
      entries.push_back(
          {i < crowded ? base + rng() % 4096 : rng(), static_cast<uint32_t>(rng() % 5)});
    check_with_keys(entries);
  }
}

void check_jump_and_mod_n(std::mt19937_64& rng) {
  // Jump: first jumps of exactly 2^31 (top state bits 0) and of 1 (all ones),
  // for bucket counts from 1 to the paper's maximum.
  std::vector<uint64_t> jump_keys = {0,
                                     1,
                                     kMax64,
                                     key_before(0),
                                     key_before(kMax64),
                                     key_before(uint64_t{1} << 33),
                                     key_before(~uint64_t{0} >> 1)};
  for (int i = 0; i < 20; ++i) {
    jump_keys.push_back(key_before(rng() >> 31));              // (state >> 33) tiny
    jump_keys.push_back(key_before(rng() | ~(kMax64 >> 31)));  // (state >> 33) near 2^31
  }
  chbench_test::append_random(jump_keys, 400, rng);
  for (uint32_t n : {1u, 2u, 3u, 7u, 8u, 9u, 1000u, 1'000'000u, 1u << 30, (1u << 30) + 1,
                     chbench::kJumpMaxBuckets - 1, chbench::kJumpMaxBuckets})
    check_jump(n, jump_keys);
  for (int i = 0; i < 6; ++i)
    check_jump(chbench_test::uniform<uint32_t>(rng, 1, chbench::kJumpMaxBuckets), jump_keys);

  // mod-N: divisors 1, 2, 3, small primes, powers of two and their
  // neighbours, 2^31 - 1 ... 2^32 - 1, random.
  std::vector<uint32_t> divisors = {
      1,     2,     3,     5,          7,           10,          641,         1000,
      65535, 65536, 65537, 0x7fffffff, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu};
  for (int bit = 2; bit < 32; bit += 3) {
    divisors.push_back((1u << bit) - 1);
    divisors.push_back(1u << bit);
    divisors.push_back((1u << bit) + 1);
  }
  for (int i = 0; i < 10; ++i) divisors.push_back(chbench_test::uniform<uint32_t>(rng, 1, ~0u));
  for (uint32_t n : divisors) check_mod_n(n, modn_keys(n, rng));
}

}  // namespace

// One test case per part, so that ctest runs them side by side.
template <class Check>
void on_each_target(uint64_t seed, const Check& check) {
  const int64_t target = GENERATE(from_range(chbench_test::test_targets()));
  std::mt19937_64 rng(seed);
  INFO("Highway target " << hwy::TargetName(target) << ", seed " << seed);
  TargetGuard guard(target);
  REQUIRE(chbench::simd::dispatched_target() == target);
  check(rng);
}

TEST_CASE("the registry matches the references on every supported target", "[simd][targets]") {
  on_each_target(kSeed + 40, check_registry);
}

TEST_CASE("rendezvous kernels over chosen seeds keep the first maximum on every target",
          "[simd][targets]") {
  on_each_target(kSeed + 45, check_rendezvous_ties);
}

TEST_CASE("every ring kernel matches the reference on hand-built rings on every target",
          "[simd][targets]") {
  on_each_target(kSeed + 46, check_rings);
}

TEST_CASE("jump and mod-N SIMD match their references at the edges on every target",
          "[simd][targets]") {
  on_each_target(kSeed + 47, check_jump_and_mod_n);
}

TEST_CASE("mod-N SIMD matches % on the divisors 1 to 600 and random odd ones", "[simd][modn]") {
  std::mt19937_64 rng(kSeed + 41);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 2000, rng);
  for (uint32_t n = 1; n <= 600; ++n) check_mod_n(n, keys);
  for (int i = 0; i < 200; ++i) check_mod_n(static_cast<uint32_t>(rng()) | 1u, modn_keys(7, rng));
}

// The lowest Highway target the build must compile, as its toolchain promises
// (toolchains/*.cmake): a dispatching x86 build reaches down to the one-lane
// fallback, which Highway 1.0.3 compiles as SCALAR with GCC 12 and as EMU128
// with Clang; an x86-64-vN build starts at that level's target and compiles
// nothing below it; aarch64 starts at NEON, which every aarch64 CPU has.
std::vector<int64_t> promised_lowest_targets() {
  const std::string baseline = CHBENCH_BASELINE;
  if (baseline == "x86-64-v2") return {HWY_SSE4};
  if (baseline == "x86-64-v3") return {HWY_AVX2};
  if (baseline == "x86-64-v4") return {HWY_AVX3};
  if (HWY_ARCH_ARM_A64) return {HWY_NEON};
  return {HWY_SCALAR, HWY_EMU128};
}

TEST_CASE("the build compiles the targets its toolchain promises", "[simd][targets]") {
  const auto compiled = chbench::simd::compiled_targets();
  const auto runnable = chbench::simd::runnable_targets();
  REQUIRE(!compiled.empty());
  REQUIRE(!runnable.empty());
  int64_t compiled_bits = 0;
  for (int64_t t : compiled) compiled_bits |= t;
  INFO("baseline '" << CHBENCH_BASELINE << "', compiled: " << chbench::simd::target_names(compiled)
                    << "; runnable: " << chbench::simd::target_names(runnable));
  const auto lowest = promised_lowest_targets();
  CHECK(std::count(lowest.begin(), lowest.end(), compiled.back()) == 1);
  // Every build compiles the widest target of its architecture, so it runs
  // wherever the CPU has it (-march=native would compile only this CPU's best).
  if (HWY_ARCH_X86) CHECK(compiled.front() == HWY_AVX3);
  if (HWY_ARCH_ARM_A64) {
    for (int64_t sve : {HWY_SVE2_128, HWY_SVE_256, HWY_SVE2, HWY_SVE})
      CHECK((compiled_bits & sve) == sve);
  }
  // The CPU runs the lowest compiled target (the binary needs it to start),
  // and runnable_targets() are exactly the compiled ones it supports.
  CHECK(runnable.back() == compiled.back());
  hwy::SetSupportedTargetsForTest(0);
  const int64_t cpu = hwy::SupportedTargets();
  hwy::SetSupportedTargetsForTest(0);  // see targets_to_test()
  std::vector<int64_t> supported;
  for (int64_t t : compiled)
    if (cpu & t) supported.push_back(t);
  CHECK(runnable == supported);
  CHECK(chbench::simd::dispatched_target() == runnable.front());
  // A dispatching x86 build on any x86-64 CPU of this century runs at least
  // SSSE3 and the fallback, so the per-target loops cover several code paths.
  if (HWY_ARCH_X86 && std::string(CHBENCH_BASELINE).empty()) CHECK(runnable.size() > 1);
}

TEST_CASE("the per-target runs dispatch to every runnable target", "[simd][targets]") {
  std::set<int64_t> dispatched;
  for (int64_t target : targets_to_test()) {
    TargetGuard guard(target);
    dispatched.insert(chbench::simd::dispatched_target());
  }
  const auto runnable = chbench::simd::runnable_targets();
  INFO("runnable targets: " << chbench::simd::target_names(runnable));
  CHECK(dispatched == std::set<int64_t>(runnable.begin(), runnable.end()));
  // Dispatch is back to the best target afterwards.
  CHECK(chbench::simd::dispatched_target() == runnable.front());
}

TEST_CASE("ForcedTarget forces each runnable target and restores dispatch", "[simd][targets]") {
  const auto runnable = chbench::simd::runnable_targets();
  REQUIRE(!runnable.empty());
  CHECK(runnable == targets_to_test());
  for (int64_t target : runnable) {
    {
      chbench::simd::ForcedTarget forced(target);
      CHECK(chbench::simd::dispatched_target() == target);
      CHECK(chbench::simd::dispatched_target_name() == hwy::TargetName(target));
    }
    CHECK(chbench::simd::dispatched_target() == runnable.front());
  }
  {
    chbench::simd::ForcedTarget none(0);
    CHECK(chbench::simd::dispatched_target() == runnable.front());
  }
  CHECK_THROWS_AS(chbench::simd::ForcedTarget(runnable.front() | HWY_SCALAR),
                  std::invalid_argument);
  CHECK_THROWS_AS(chbench::simd::ForcedTarget(int64_t{1} << 40), std::invalid_argument);
  CHECK(chbench::simd::dispatched_target() == runnable.front());
}

TEST_CASE("the 64-bit lane multiplies split on Intel, are native elsewhere, and can be forced",
          "[simd]") {
  using chbench::simd::Mul64Path;
  // The CPU's vendor as /proc/cpuinfo names it (x86 only; elsewhere none).
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, vendor;
  while (vendor.empty() && std::getline(cpuinfo, line))
    if (line.rfind("vendor_id", 0) == 0) vendor = line.substr(line.find(':') + 2);
  INFO("vendor_id '" << vendor << "'");
  const Mul64Path cpu = vendor == "GenuineIntel" ? Mul64Path::kSplit : Mul64Path::kNative;
  CHECK(chbench::simd::mul64_path() == cpu);
  for (const Mul64Path path : {Mul64Path::kNative, Mul64Path::kSplit}) {
    {
      const chbench::simd::ForcedMul64Path forced(path);
      CHECK(chbench::simd::mul64_path() == path);
    }
    CHECK(chbench::simd::mul64_path() == cpu);
  }
  CHECK(std::string(chbench::simd::mul64_path_name(Mul64Path::kNative)) == "native");
  CHECK(std::string(chbench::simd::mul64_path_name(Mul64Path::kSplit)) == "split");
}

TEST_CASE("the SIMD kernels and their building blocks reject bad input", "[simd]") {
  for (const KernelInfo* kernel : chbench_test::test_kernels()) {
    if (!kernel->simd) continue;
    INFO("kernel " << kernel->full_name());
    CHECK_THROWS_AS(kernel->build(NodeSet{}), std::invalid_argument);
    CHECK_THROWS_AS(kernel->build(NodeSet{{"a", "a"}, 1}), std::invalid_argument);
  }

  std::vector<uint64_t> keys(3);
  std::vector<uint32_t> out(2);
  using chbench::simd::jump_owners;
  using chbench::simd::mod_n_owners;
  CHECK_THROWS_AS(mod_n_owners(keys, 0, std::span<uint32_t>(out).first(0)), std::invalid_argument);
  CHECK_THROWS_AS(mod_n_owners(keys, 3, out), std::invalid_argument);
  CHECK_THROWS_AS(jump_owners({}, 0, {}), std::invalid_argument);
  CHECK_THROWS_AS(jump_owners({}, chbench::kJumpMaxBuckets + 1, {}), std::invalid_argument);
  CHECK_THROWS_AS(jump_owners(keys, 3, out), std::invalid_argument);
  CHECK_THROWS_AS(chbench::simd::RendezvousSimd(std::span<const uint64_t>()),
                  std::invalid_argument);
  const chbench::simd::RendezvousSimd hrw(std::vector<uint64_t>{1, 2});
  CHECK_THROWS_AS(hrw.owners_across_nodes(keys, out), std::invalid_argument);
  CHECK_THROWS_AS(hrw.owners_across_keys(keys, out), std::invalid_argument);
}

TEST_CASE("every SIMD kernel keeps to its spans at every batch length, on every target",
          "[simd][targets][tails]") {
  // Each batch lives in heap buffers of exactly its length, so that under
  // AddressSanitizer (the sanitize preset) a kernel that reads one key or
  // writes one owner past a span's end fails here; every length from 0 to
  // 2 x 64 + 1 leaves every remainder modulo the lane counts (1 to 8) times
  // the unroll factors (up to 8) as a tail.
  const int64_t target = GENERATE(from_range(chbench_test::test_targets()));
  INFO("Highway target " << hwy::TargetName(target));
  TargetGuard guard(target);
  std::mt19937_64 rng(kSeed + 42);
  const NodeSet nodes = chbench::default_nodes(37, 5);
  std::vector<uint64_t> pool = adversarial_keys(nodes, 200, rng);
  pool.resize(129);
  for (const KernelInfo* kernel : chbench_test::test_kernels()) {
    if (!kernel->simd) continue;
    INFO("kernel " << kernel->full_name());
    const auto reference = chbench::build_reference(kernel->scheme, nodes);
    const auto table = kernel->build(nodes);
    for (std::size_t length = 0; length <= pool.size(); ++length) {
      const std::vector<uint64_t> keys(pool.begin(), pool.begin() + length);
      std::vector<uint32_t> want(length), got(length);
      reference->owners(keys, want);
      table->owners(keys, got);
      INFO("batch length " << length);
      REQUIRE(first_mismatch<uint64_t>(keys, want, got) == "");
    }
  }
}
