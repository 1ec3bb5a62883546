// The generic ring kernels (ring.h) for 32- and 64-bit tokens on hand-built
// entry lists: duplicate tokens across nodes, clusters, tiny rings of every
// Eytzinger shape; and docs/spec.md §6's 64-bit ring checked against tokens computed
// here with XXH3 directly.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "chbench/memory.h"
#include "chbench/nodes.h"
#include "chbench/ring/branchless.h"
#include "chbench/ring/bucketed.h"
#include "chbench/ring/eytzinger.h"
#include "chbench/ring/lower_bound.h"
#include "chbench/ring/ring.h"
#include "chbench/ring/stree.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"

using chbench::RingEntry;
using chbench::SortedRing;
using chbench_test::first_mismatch;
using chbench_test::kGuard;
using chbench_test::kSeed;

namespace {

// Owner by linear scan over entries sorted by (token, node): the first entry
// whose token is >= x, else the first entry. Independent of ring.h.
template <class T>
uint32_t scan_owner(std::span<const RingEntry<T>> sorted, T x) {
  for (const auto& e : sorted)
    if (e.token >= x) return e.node;
  return sorted.front().node;
}

template <class T, class Kernel>
void check_kernel(const char* name, const Kernel& kernel, std::span<const T> keys,
                  std::span<const uint32_t> expected) {
  INFO("kernel " << name);
  // Batch call, with a guard slot after the output that must stay untouched.
  std::vector<uint32_t> out(keys.size() + 1, kGuard);
  kernel.owners(keys, std::span<uint32_t>(out).first(keys.size()));
  CHECK(out.back() == kGuard);
  out.pop_back();
  CHECK(first_mismatch<T>(keys, expected, out) == "");
  // One key at a time.
  std::vector<uint32_t> single(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) single[i] = kernel.owner(keys[i]);
  CHECK(first_mismatch<T>(keys, expected, single) == "");
  CHECK(kernel.memory_bytes() > 0);
}

// Sorts `entries`, checks SortedRing's collapse of equal tokens and that
// ring_reference_owner and all three kernels agree on `keys` (plus the boundary
// keys of the ring). With `scan`, the reference itself is checked against a
// linear scan (quadratic: small rings only).
template <class T>
void check_ring(std::vector<RingEntry<T>> entries, std::vector<T> keys, std::mt19937_64& rng,
                bool scan = true) {
  std::sort(entries.begin(), entries.end());
  const std::span<const RingEntry<T>> sorted(entries);
  const auto boundary = chbench_test::boundary_keys<T>(sorted, 100'000, rng);
  keys.insert(keys.end(), boundary.begin(), boundary.end());

  const auto ring = SortedRing<T>::from_entries(sorted);
  // Tokens strictly ascending; each kept token's owner is the lowest node
  // among the entries with that token; owners closes the ring.
  REQUIRE(ring.owners.size() == ring.tokens.size() + 1);
  CHECK(ring.owners.back() == ring.owners.front());
  CHECK(std::adjacent_find(ring.tokens.begin(), ring.tokens.end(), std::greater_equal<T>()) ==
        ring.tokens.end());
  {
    std::size_t t = 0;
    bool ok = true;
    for (std::size_t i = 0; i < entries.size();) {
      uint32_t lowest = entries[i].node;
      std::size_t j = i;
      for (; j < entries.size() && entries[j].token == entries[i].token; ++j)
        lowest = std::min(lowest, entries[j].node);
      ok = ok && t < ring.tokens.size() && ring.tokens[t] == entries[i].token &&
           ring.owners[t] == lowest;
      ++t;
      i = j;
    }
    CHECK(ok);
    CHECK(t == ring.tokens.size());
  }

  std::vector<uint32_t> expected(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    expected[i] = chbench::ring_reference_owner<T>(sorted, keys[i]);
  if (scan) {
    std::vector<uint32_t> scanned(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) scanned[i] = scan_owner<T>(sorted, keys[i]);
    INFO("ring_reference_owner against a linear scan");
    CHECK(first_mismatch<T>(keys, scanned, expected) == "");
  }

  check_kernel<T>("lower_bound", chbench::RingLowerBound<T>(ring), keys, expected);
  check_kernel<T>("branchless", chbench::RingBranchless<T>(ring), keys, expected);
  check_kernel<T>("eytzinger", chbench::RingEytzinger<T>(ring), keys, expected);
  check_kernel<T>("stree", chbench::RingSTree<T>(ring), keys, expected);
  check_kernel<T>("stree, group 1", chbench::RingSTree<T>(ring, 1), keys, expected);
  check_kernel<T>("stree, group 7", chbench::RingSTree<T>(ring, 7), keys, expected);
  check_kernel<T>("bucketed", chbench::RingBucketed<T>(ring), keys, expected);
  check_kernel<T>("bucketed, no prefetch", chbench::RingBucketed<T>(ring, 0, 3), keys, expected);
}

template <class T>
T random_token(std::mt19937_64& rng) {
  return static_cast<T>(rng());
}

// Keys that probe a 64-bit ring's suffix records of 2^15 buckets (bits 63 to
// 49, suffixes bits 48 to 33): `random` random keys; every 7th token and the
// keys `deltas` away on either side; the two edges of every 13th bucket, and
// that bucket's keys whose bits below the bucket are each of `tails` (a
// suffix of 0xffff ties with a record's unused slots).
std::vector<uint64_t> suffix_record_keys(const std::vector<RingEntry<uint64_t>>& entries,
                                         std::size_t random, std::initializer_list<uint64_t> deltas,
                                         std::initializer_list<uint64_t> tails,
                                         std::mt19937_64& rng) {
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, random, rng);
  for (std::size_t i = 0; i < entries.size(); i += 7)
    for (const uint64_t delta : deltas)
      for (const uint64_t k : {entries[i].token - delta, entries[i].token + delta})
        keys.push_back(k);
  for (uint64_t b = 0; b < 32'768; b += 13) {
    keys.push_back(b << 49);
    keys.push_back((b << 49) - 1);
    for (const uint64_t tail : tails) keys.push_back((b << 49) | tail);
  }
  return keys;
}

}  // namespace

TEMPLATE_TEST_CASE("ring: a hand-built ring with duplicate tokens", "[ring]", uint32_t, uint64_t) {
  using T = TestType;
  constexpr T kMax = std::numeric_limits<T>::max();
  // Token 10 is placed by nodes 3 and 1, token 30 by nodes 0 and 4: the lower
  // node index wins, the other entry is never reached.
  std::vector<RingEntry<T>> entries = {{20, 2}, {10, 3}, {10, 1}, {30, 4}, {30, 0}};
  std::sort(entries.begin(), entries.end());
  const std::span<const RingEntry<T>> sorted(entries);
  const auto ring = SortedRing<T>::from_entries(sorted);
  CHECK(ring.tokens == std::vector<T>{10, 20, 30});
  CHECK(ring.owners == std::vector<uint32_t>{1, 2, 0, 1});

  const std::vector<std::pair<T, uint32_t>> owners = {{0, 1},  {9, 1},  {10, 1},       {11, 2},
                                                      {19, 2}, {20, 2}, {21, 0},       {29, 0},
                                                      {30, 0}, {31, 1}, {kMax - 1, 1}, {kMax, 1}};
  const chbench::RingLowerBound<T> lower_bound(ring);
  const chbench::RingBranchless<T> branchless(ring);
  const chbench::RingEytzinger<T> eytzinger(ring);
  for (const auto& [key, node] : owners) {
    INFO("key " << uint64_t{key});
    CHECK(chbench::ring_reference_owner<T>(sorted, key) == node);
    CHECK(lower_bound.owner(key) == node);
    CHECK(branchless.owner(key) == node);
    CHECK(eytzinger.owner(key) == node);
  }

  // Tokens at both ends of the circle: token 0 owns only key 0, the maximum
  // token owns every other key (no key is above it, so nothing wraps).
  std::vector<RingEntry<T>> ends = {{0, 5}, {kMax, 6}, {kMax, 2}, {0, 7}};
  std::sort(ends.begin(), ends.end());
  const auto ends_ring = SortedRing<T>::from_entries(std::span<const RingEntry<T>>(ends));
  for (const auto& [key, node] :
       std::vector<std::pair<T, uint32_t>>{{0, 5}, {1, 2}, {kMax - 1, 2}, {kMax, 2}}) {
    INFO("ends ring, key " << uint64_t{key});
    CHECK(chbench::ring_reference_owner<T>(std::span<const RingEntry<T>>(ends), key) == node);
    CHECK(chbench::RingLowerBound<T>(ends_ring).owner(key) == node);
    CHECK(chbench::RingBranchless<T>(ends_ring).owner(key) == node);
    CHECK(chbench::RingEytzinger<T>(ends_ring).owner(key) == node);
  }
}

TEMPLATE_TEST_CASE("ring: SortedRing refuses empty and unsorted entries", "[ring][errors]",
                   uint32_t, uint64_t) {
  using T = TestType;
  CHECK_THROWS_AS(SortedRing<T>::from_entries({}), std::invalid_argument);
  const std::vector<RingEntry<T>> unsorted = {{5, 0}, {3, 1}};
  CHECK_THROWS_AS(SortedRing<T>::from_entries(unsorted), std::invalid_argument);
  // Same token, nodes out of order: also unsorted by (token, node).
  const std::vector<RingEntry<T>> nodes_unsorted = {{5, 2}, {5, 1}};
  CHECK_THROWS_AS(SortedRing<T>::from_entries(nodes_unsorted), std::invalid_argument);
}

TEMPLATE_TEST_CASE("ring: every size 1..70 (every Eytzinger shape), all keys in range",
                   "[ring][eytzinger]", uint32_t, uint64_t) {
  using T = TestType;
  constexpr T kMax = std::numeric_limits<T>::max();
  std::mt19937_64 rng(kSeed);
  for (std::size_t n = 1; n <= 70; ++n) {
    // Spaced tokens 10, 12, 14, ...: every gap gets a key below, on and above.
    std::vector<RingEntry<T>> spaced;
    for (std::size_t i = 0; i < n; ++i)
      spaced.push_back({static_cast<T>(10 + 2 * i), static_cast<uint32_t>(rng() % 5)});
    std::vector<T> keys;
    for (T k = 0; k < 2 * n + 20; ++k) keys.push_back(k);
    {
      INFO("seed " << kSeed << ", " << n << " spaced tokens");
      check_ring<T>(spaced, keys, rng);
    }
    {
      // The same shape with tokens at 0 and at the maximum.
      std::vector<RingEntry<T>> ends = spaced;
      ends.front().token = 0;
      ends.back().token = kMax;
      INFO("seed " << kSeed << ", " << n << " tokens including 0 and the maximum");
      check_ring<T>(ends, keys, rng);
    }
    {
      // n entries over n / 3 + 1 distinct tokens.
      std::vector<RingEntry<T>> dups;
      for (std::size_t i = 0; i < n; ++i)
        dups.push_back(
            {static_cast<T>(100 + 7 * (rng() % (n / 3 + 1))), static_cast<uint32_t>(rng() % 9)});
      std::vector<T> dup_keys;
      for (T k = 90; k < 100 + 7 * (n / 3 + 2); ++k) dup_keys.push_back(k);
      INFO("seed " << kSeed << ", " << n << " entries with duplicate tokens");
      check_ring<T>(dups, dup_keys, rng);
    }
  }
}

TEMPLATE_TEST_CASE("ring: many duplicate tokens across nodes", "[ring][duplicates]", uint32_t,
                   uint64_t) {
  using T = TestType;
  constexpr T kMax = std::numeric_limits<T>::max();
  std::mt19937_64 rng(kSeed + 1);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + rng() % 400;
    const std::size_t pool_size = 1 + rng() % 8;
    std::vector<T> pool;
    for (std::size_t i = 0; i < pool_size; ++i) {
      switch (rng() % 4) {
        case 0:
          pool.push_back(0);
          break;
        case 1:
          pool.push_back(kMax);
          break;
        default:
          pool.push_back(random_token<T>(rng));
      }
    }
    std::vector<RingEntry<T>> entries;
    for (std::size_t i = 0; i < n; ++i)
      entries.push_back({pool[rng() % pool_size], static_cast<uint32_t>(rng() % 12)});
    std::vector<T> keys;
    chbench_test::append_random(keys, 200, rng);
    INFO("seed " << kSeed + 1 << ", trial " << trial << ": " << n << " entries over " << pool_size
                 << " token values");
    check_ring<T>(entries, keys, rng);
  }

  // Every entry on one token: the lowest node owns the whole circle.
  std::vector<RingEntry<T>> same;
  for (uint32_t node = 3; node < 53; ++node) same.push_back({7, (node * 37) % 50 + 3});
  std::sort(same.begin(), same.end());
  const auto ring = SortedRing<T>::from_entries(std::span<const RingEntry<T>>(same));
  REQUIRE(ring.tokens.size() == 1);
  for (T key : {T{0}, T{6}, T{7}, T{8}, kMax}) {
    CHECK(chbench::RingLowerBound<T>(ring).owner(key) == 3);
    CHECK(chbench::RingBranchless<T>(ring).owner(key) == 3);
    CHECK(chbench::RingEytzinger<T>(ring).owner(key) == 3);
  }
}

TEMPLATE_TEST_CASE("ring: clustered tokens", "[ring]", uint32_t, uint64_t) {
  using T = TestType;
  constexpr T kMax = std::numeric_limits<T>::max();
  std::mt19937_64 rng(kSeed + 2);
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<RingEntry<T>> entries;
    const std::size_t clusters = 1 + rng() % 4;
    for (std::size_t c = 0; c < clusters; ++c) {
      T base;
      switch (rng() % 3) {
        case 0:
          base = 0;
          break;
        case 1:
          base = kMax - 40;
          break;
        default:
          base = random_token<T>(rng) / 2;
      }
      const std::size_t size = 1 + rng() % 300;
      for (std::size_t i = 0; i < size; ++i)
        entries.push_back({static_cast<T>(base + rng() % 41), static_cast<uint32_t>(rng() % 30)});
    }
    std::vector<T> keys;
    chbench_test::append_random(keys, 300, rng);
    INFO("seed " << kSeed + 2 << ", trial " << trial << ", " << entries.size() << " entries");
    check_ring<T>(entries, keys, rng);
  }
}

TEMPLATE_TEST_CASE("ring: large random rings", "[ring]", uint32_t, uint64_t) {
  using T = TestType;
  std::mt19937_64 rng(kSeed + 3);
  for (std::size_t n : {100u, 1'000u, 4'095u, 4'096u, 4'097u, 65'539u, 300'007u}) {
    std::vector<RingEntry<T>> entries;
    for (std::size_t i = 0; i < n; ++i)
      entries.push_back({random_token<T>(rng), static_cast<uint32_t>(rng() % 1000)});
    std::vector<T> keys;
    chbench_test::append_random(keys, 50'000, rng);
    INFO("seed " << kSeed + 3 << ", " << n << " random tokens");
    check_ring<T>(entries, keys, rng, /*scan=*/false);
  }
}

TEST_CASE("ring: 32-bit tokens from the real ring (top 32 bits) have duplicates",
          "[ring][duplicates]") {
  // 2M tokens squeezed into 32 bits collide (about 2M^2 / 2^33 ~ 460 pairs).
  const auto real = chbench::ring_entries(chbench::default_nodes(2000, 1000));
  std::vector<RingEntry<uint32_t>> entries;
  entries.reserve(real.size());
  for (const auto& e : real) entries.push_back({static_cast<uint32_t>(e.token >> 32), e.node});
  std::sort(entries.begin(), entries.end());

  std::size_t duplicates = 0;
  std::vector<uint32_t> keys;
  for (std::size_t i = 1; i < entries.size(); ++i) {
    if (entries[i].token == entries[i - 1].token) {
      ++duplicates;
      keys.push_back(entries[i].token);  // the contested token itself
    }
  }
  INFO(duplicates << " duplicate 32-bit tokens");
  CHECK(duplicates > 100);

  std::mt19937_64 rng(kSeed + 4);
  chbench_test::append_random(keys, 400'000, rng);
  INFO("seed " << kSeed + 4);
  check_ring<uint32_t>(std::move(entries), std::move(keys), rng, /*scan=*/false);
}

TEST_CASE("ring: the entries come sorted as std::sort sorts them, past the huge-page size too",
          "[ring]") {
  // 2.7 x 10^6 entries of 16 bytes: above kHugeAdviceMinBytes, so that the
  // entries and the ring's tokens are advised huge pages.
  const auto nodes = chbench::default_nodes(27'000, 100);
  const auto entries = chbench::ring_entries(nodes);
  REQUIRE(entries.size() * sizeof(entries[0]) >= chbench::kHugeAdviceMinBytes);
  auto shuffled = entries;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(kSeed));
  std::sort(shuffled.begin(), shuffled.end());
  CHECK(shuffled == entries);
  const auto ring = SortedRing<uint64_t>::from_entries(entries);
  const auto huge = SortedRing<uint64_t>::from_entries(entries, /*huge_pages=*/true);
  CHECK(huge.tokens == ring.tokens);
  CHECK(huge.owners == ring.owners);
  CHECK(ring.tokens.size() > entries.size() - 10);  // few 64-bit tokens collide
}

TEST_CASE("ring: docs/spec.md's 64-bit ring on three nodes, tokens computed here", "[ring][spec]") {
  // Nodes a, b, c with two tokens each: XXH3("a#0"), XXH3("a#1"), ...
  const chbench::NodeSet nodes{{"a", "b", "c"}, 2};
  std::vector<std::pair<uint64_t, uint32_t>> tokens;
  const char* labels[3][2] = {{"a#0", "a#1"}, {"b#0", "b#1"}, {"c#0", "c#1"}};
  for (uint32_t n = 0; n < 3; ++n)
    for (uint32_t i = 0; i < 2; ++i) tokens.emplace_back(XXH3_64bits(labels[n][i], 3), n);
  std::sort(tokens.begin(), tokens.end());
  for (std::size_t i = 1; i < tokens.size(); ++i) REQUIRE(tokens[i - 1].first < tokens[i].first);
  REQUIRE(tokens.front().first > 1);
  REQUIRE(tokens.back().first < std::numeric_limits<uint64_t>::max());

  // ring_entries lists exactly these, in this order.
  const auto entries = chbench::ring_entries(nodes);
  REQUIRE(entries.size() == tokens.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    INFO("entry " << i);
    CHECK(entries[i].token == tokens[i].first);
    CHECK(entries[i].node == tokens[i].second);
  }

  // Chosen keys and their owners, from the sorted tokens alone.
  std::vector<std::pair<uint64_t, uint32_t>> cases = {
      {0, tokens.front().second},  // below the first
      {tokens.front().first - 1, tokens.front().second},
      {tokens.back().first + 1, tokens.front().second},  // above the last: wraps
      {std::numeric_limits<uint64_t>::max(), tokens.front().second},
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    cases.push_back({tokens[i].first, tokens[i].second});      // equal to a token
    cases.push_back({tokens[i].first - 1, tokens[i].second});  // just below it
    const uint32_t next = tokens[(i + 1) % tokens.size()].second;
    cases.push_back({tokens[i].first + 1, next});  // just above: the next token's
  }

  std::vector<uint64_t> keys;
  std::vector<uint32_t> expected;
  for (const auto& [key, node] : cases) {
    keys.push_back(key);
    expected.push_back(node);
  }
  const auto reference = chbench::build_reference(chbench::Scheme::kRing, nodes);
  CHECK(first_mismatch<uint64_t>(keys, expected, chbench_test::owners_of(*reference, keys)) == "");
  for (const auto* kernel : chbench_test::test_kernels_of(chbench::Scheme::kRing)) {
    INFO(kernel->full_name());
    const auto table = kernel->build(nodes);
    CHECK(first_mismatch<uint64_t>(keys, expected, chbench_test::owners_of(*table, keys)) == "");
  }
}

TEMPLATE_TEST_CASE("ring: bucket index with full, overfull and empty buckets", "[ring][bucketed]",
                   uint32_t, uint64_t) {
  using T = TestType;
  using Record = chbench::TokenRecord<T>;
  constexpr unsigned kBits = std::numeric_limits<T>::digits;
  std::mt19937_64 rng(kSeed + 9);
  // 64 tokens: a table this small gets one bucket per token (bit_ceil(64) =
  // 64 buckets, the top 6 bits of a key hash).
  const unsigned shift = kBits - 6;
  auto place = [&](std::vector<RingEntry<T>>& entries, uint64_t bucket, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
      entries.push_back({static_cast<T>((bucket << shift) + rng() % (T{1} << shift)),
                         static_cast<uint32_t>(rng() % 9)});
  };
  std::vector<T> keys;
  chbench_test::append_random(keys, 20'000, rng);
  for (uint64_t b = 0; b < 64; ++b) {  // every bucket's edges
    keys.push_back(static_cast<T>(b << shift));
    keys.push_back(static_cast<T>((b << shift) + (T{1} << shift) - 1));
  }
  SECTION("a full bucket, an overfull one, the rest one token each or empty") {
    std::vector<RingEntry<T>> entries;
    place(entries, 3, Record::kTokens);
    place(entries, 7, Record::kTokens + 1);
    for (uint64_t b = 8; entries.size() < 64; ++b) place(entries, b, 1);
    // Over 512 keys in the overfull bucket: the batch loop's list of them
    // fills and goes to the S-tree in the middle of the batch, and the keys
    // left go at its end.
    for (std::size_t i = 0; i < 1'500; ++i)
      keys.push_back(static_cast<T>((uint64_t{7} << shift) + rng() % (T{1} << shift)));
    std::sort(entries.begin(), entries.end());
    const auto ring = SortedRing<T>::from_entries(entries);
    REQUIRE(ring.tokens.size() == 64);  // no accidental duplicates for this seed
    const chbench::RingBucketed<T> index(ring);
    CHECK(index.buckets() == 64);
    CHECK(index.overfull_buckets() == 1);
    CHECK_FALSE(index.degenerate());
    check_ring<T>(entries, keys, rng);
  }
  SECTION("every token in one bucket: the index steps aside for the S-tree") {
    std::vector<RingEntry<T>> entries;
    place(entries, 40, 64);
    std::sort(entries.begin(), entries.end());
    const auto ring = SortedRing<T>::from_entries(entries);
    REQUIRE(ring.tokens.size() == 64);
    const chbench::RingBucketed<T> index(ring);
    CHECK(index.overfull_buckets() == 1);
    CHECK(index.degenerate());
    check_ring<T>(entries, keys, rng);
  }
}

TEST_CASE("ring: a large 64-bit ring's bucket records of suffixes, ties included",
          "[ring][bucketed]") {
  // 100,000 tokens: 2^17 buckets would take 8 MiB, so the index keeps 2^15
  // buckets of 16-bit suffixes (bits 48 to 33 of a token). Keys within 2^33
  // of a token share its bucket and suffix but differ below: the record
  // cannot order them and the S-tree must; keys 2^33 away differ in the suffix.
  std::mt19937_64 rng(kSeed + 11);
  std::vector<RingEntry<uint64_t>> entries;
  for (std::size_t i = 0; i < 100'000; ++i)
    entries.push_back({rng(), static_cast<uint32_t>(rng() % 1'000)});
  std::sort(entries.begin(), entries.end());
  const auto ring = SortedRing<uint64_t>::from_entries(entries);
  const chbench::RingBucketed<uint64_t> index(ring);
  CHECK(index.suffixes());
  CHECK(index.buckets() == 32'768);
  CHECK(index.overfull_buckets() < 100);
  const auto keys =
      suffix_record_keys(entries, 20'000, {0, 1, uint64_t{1} << 32, uint64_t{1} << 33},
                         {uint64_t{0xffff} << 33, uint64_t{0xffff} << 33 | 12345}, rng);
  check_ring<uint64_t>(entries, keys, rng, false);
}

TEST_CASE("ring: bucket records of suffixes on every target", "[ring][bucketed][targets]") {
  // 70,000 tokens: 2^15 buckets of suffixes (bits 63 to 49, suffix bits 48 to
  // 33). SuffixOwner compares a record's ten suffixes in one vector, or in two
  // on 128-bit targets; the keys tie with tokens, sit beside them and at
  // bucket edges, or tie with unused slots (suffix 0xffff).
  std::mt19937_64 rng(kSeed + 13);
  std::vector<RingEntry<uint64_t>> entries;
  for (std::size_t i = 0; i < 70'000; ++i)
    entries.push_back({rng(), static_cast<uint32_t>(rng() % 300)});
  std::sort(entries.begin(), entries.end());
  const auto ring = SortedRing<uint64_t>::from_entries(entries);
  const chbench::RingBucketed<uint64_t> index(ring);
  REQUIRE(index.suffixes());
  REQUIRE(index.buckets() == 32'768);
  const auto keys =
      suffix_record_keys(entries, 5'000, {0, 1, uint64_t{1} << 33}, {uint64_t{0xffff} << 33}, rng);
  std::vector<uint32_t> expected(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    expected[i] = chbench::ring_reference_owner<uint64_t>(entries, keys[i]);
  for (const int64_t target : chbench_test::test_targets()) {
    const chbench::simd::ForcedTarget forced(target);
    INFO("target " << chbench::simd::target_name(target));
    std::vector<uint32_t> out(keys.size());
    index.owners(keys, out);
    CHECK(first_mismatch<uint64_t>(keys, expected, out) == "");
  }
}

TEST_CASE("ring: a 64-bit ring's records hold suffixes from 65,537 tokens on", "[ring][bucketed]") {
  // Up to 2^16 tokens the whole-token table of 2^16 buckets takes 4 MiB and is
  // kept; one token more would need 8 MiB, so the records hold suffixes, 2^15
  // buckets of them.
  std::mt19937_64 rng(kSeed + 12);
  for (const std::size_t n : {std::size_t{65'536}, std::size_t{65'537}}) {
    std::vector<RingEntry<uint64_t>> entries;
    for (std::size_t i = 0; i < n; ++i) entries.push_back({rng(), static_cast<uint32_t>(i % 50)});
    std::sort(entries.begin(), entries.end());
    const auto ring = SortedRing<uint64_t>::from_entries(entries);
    REQUIRE(ring.tokens.size() == n);
    const chbench::RingBucketed<uint64_t> index(ring);
    INFO(n << " tokens");
    CHECK(index.suffixes() == (n > 65'536));
    CHECK(index.buckets() == (n > 65'536 ? 32'768u : 65'536u));
    std::vector<uint64_t> keys;
    chbench_test::append_random(keys, 5'000, rng);
    check_ring<uint64_t>(entries, keys, rng, false);
  }
}

TEMPLATE_TEST_CASE("ring: S-tree shapes, one to four internal levels", "[ring][stree]", uint32_t,
                   uint64_t) {
  using T = TestType;
  std::mt19937_64 rng(kSeed + 10);
  constexpr std::size_t kLeaf = chbench::TokenRecord<T>::kTokens;
  constexpr std::size_t kFan = chbench::STreeView<T>::kNode + 1;
  // Just below and above each complete tree: leaves = kFan^levels.
  for (std::size_t leaves : {1ul, 2ul, kFan, kFan + 1, kFan * kFan, kFan * kFan + 1,
                             kFan * kFan * kFan - 1, kFan * kFan * kFan * kFan + 3}) {
    for (std::size_t n : {leaves * kLeaf - (leaves > 1 ? kLeaf - 1 : 0), leaves * kLeaf}) {
      std::vector<RingEntry<T>> entries;
      for (std::size_t i = 0; i < n; ++i)
        entries.push_back({random_token<T>(rng), static_cast<uint32_t>(rng() % 100)});
      std::sort(entries.begin(), entries.end());
      entries.erase(std::unique(entries.begin(), entries.end(),
                                [](auto& a, auto& b) { return a.token == b.token; }),
                    entries.end());
      const auto ring = SortedRing<T>::from_entries(entries);
      const chbench::RingSTree<T> tree(ring);
      unsigned levels = 0;
      for (std::size_t below = (ring.tokens.size() + kLeaf - 1) / kLeaf; below > 1;
           below = (below + kFan - 1) / kFan)
        ++levels;
      CHECK(tree.view().levels == levels);
      std::vector<T> keys;
      chbench_test::append_random(keys, 5'000, rng);
      INFO(n << " tokens");
      check_ring<T>(entries, keys, rng, /*scan=*/n < 3000);
    }
  }
}
