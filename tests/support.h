// Helpers shared by the chbench tests: the fixed seed, an independent model of
// docs/spec.md written from the text (not from the library), key sets that stress a
// ring's boundaries, and a comparison that reports the first mismatch instead of
// one assertion per key.
#pragma once

#include <xxhash.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chbench/nodes.h"
#include "chbench/ring/ring.h"
#include "chbench/scenario.h"
#include "chbench/scheme.h"

namespace chbench_test {

// Every random choice in the tests derives from this seed (printed with INFO).
inline constexpr uint64_t kSeed = 0x6368'6265'6e63'6821ULL;

// A cross build's tests run under an emulator (qemu), tens of times slower:
// the broadest random sweeps take fewer cases there (the native run takes
// them all). CMake sets CHBENCH_EMULATED for the chbench tests.
#ifndef CHBENCH_EMULATED
#define CHBENCH_EMULATED 0
#endif
inline constexpr bool kEmulated = CHBENCH_EMULATED != 0;

// The sanitize preset's build (CMake sets CHBENCH_SANITIZED where
// CHBENCH_SANITIZE is set): there the broad random sweeps of every kernel take
// the emulated budgets too, since they repeat what the release run checks and
// the sanitizers look for memory errors, which the smaller sweeps reach as well.
#ifndef CHBENCH_SANITIZED
#define CHBENCH_SANITIZED 0
#endif
inline constexpr bool kBrief = kEmulated || CHBENCH_SANITIZED != 0;

// Written to output slots past a batch's end; a kernel must leave it alone.
inline constexpr uint32_t kGuard = 0xdeadbeefu;

// ---- Which kernels the per-kernel tests run ------------------------------------

// The kernels the per-kernel tests iterate, in registry order: every kernel of
// the registry, or, when the environment variable CHBENCH_TEST_KERNELS is set
// and not empty, only the kernels it names (a comma list of full names,
// "ring/bucketed,hrw/scalar"). Tests of the registry's metadata (unique
// ranks, rivals) iterate chbench::all_kernels() instead. A name no kernel
// has stops the test executable (exit status 2) with a message naming the
// variable, the name and the kernels there are.
inline const std::vector<const chbench::KernelInfo*>& test_kernels() {
  static const std::vector<const chbench::KernelInfo*> kernels = [] {
    const auto all = chbench::all_kernels();
    const char* env = std::getenv("CHBENCH_TEST_KERNELS");
    if (env == nullptr || *env == '\0')
      return std::vector<const chbench::KernelInfo*>(all.begin(), all.end());
    std::vector<const chbench::KernelInfo*> chosen;
    std::string_view list(env);
    while (true) {
      const std::size_t comma = list.find(',');
      const std::string_view name = list.substr(0, comma);
      try {
        const chbench::KernelInfo* k = &chbench::find_kernel(name);
        if (std::find(chosen.begin(), chosen.end(), k) == chosen.end()) chosen.push_back(k);
      } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "CHBENCH_TEST_KERNELS='%s': '%.*s': %s\n", env,
                     static_cast<int>(name.size()), name.data(), e.what());
        std::exit(2);
      }
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
    std::vector<const chbench::KernelInfo*> ordered;  // registry order
    for (const chbench::KernelInfo* k : all)
      if (std::find(chosen.begin(), chosen.end(), k) != chosen.end()) ordered.push_back(k);
    return ordered;
  }();
  return kernels;
}

// The kernels of `scheme` among test_kernels(), in registry order.
inline std::vector<const chbench::KernelInfo*> test_kernels_of(chbench::Scheme scheme) {
  std::vector<const chbench::KernelInfo*> out;
  for (const chbench::KernelInfo* k : test_kernels())
    if (k->scheme == scheme) out.push_back(k);
  return out;
}

// True when test_kernels() is the whole registry (CHBENCH_TEST_KERNELS unset):
// checks that count over every kernel hold only then.
inline bool testing_every_kernel() {
  return test_kernels().size() == chbench::all_kernels().size();
}

// ---- An independent model of docs/spec.md ------------------------------------

inline uint64_t xxh3(const std::string& bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

// The MurmurHash3 finalizer written step by step from docs/spec.md §7.
inline uint64_t model_fmix64(uint64_t k) {
  const uint64_t c1 = 0xff51afd7ed558ccdULL;
  const uint64_t c2 = 0xc4ceb9fe1a85ec53ULL;
  uint64_t a = k ^ (k >> 33);
  uint64_t b = a * c1;
  uint64_t c = b ^ (b >> 33);
  uint64_t d = c * c2;
  return d ^ (d >> 33);
}

// Token list of docs/spec.md §6's ring, sorted by (token value, node index).
inline std::vector<std::pair<uint64_t, uint32_t>> model_ring(const chbench::NodeSet& nodes) {
  std::vector<std::pair<uint64_t, uint32_t>> tokens;
  for (uint32_t n = 0; n < nodes.names.size(); ++n) {
    // V tokens per unit of weight (docs/schemes/hrw_weighted.md); weight 1 without weights.
    const uint64_t count = uint64_t{nodes.vnodes} * (nodes.weights.empty() ? 1 : nodes.weights[n]);
    for (uint64_t i = 0; i < count; ++i)
      tokens.emplace_back(xxh3(nodes.names[n] + "#" + std::to_string(i)), n);
  }
  std::sort(tokens.begin(), tokens.end());
  return tokens;
}

// Owner by linear scan: the first token (in sorted order) whose value is >= h,
// or the first token when none is.
inline uint32_t model_ring_owner(const std::vector<std::pair<uint64_t, uint32_t>>& tokens,
                                 uint64_t h) {
  for (const auto& [token, node] : tokens)
    if (token >= h) return node;
  return tokens.front().second;
}

// Multi-probe (docs/schemes/multiprobe.md) over the ring model of one token
// per node (model_ring at V = 1): probe 0 = h, probe j = fmix64(h + j *
// 0x9e3779b97f4a7c15), the probe nearest its successor token wins, the
// earlier probe on a tie.
inline uint32_t model_multiprobe_owner(const std::vector<std::pair<uint64_t, uint32_t>>& tokens,
                                       uint64_t h, uint32_t probes) {
  uint64_t best_distance = 0;
  uint32_t best = 0;
  for (uint32_t j = 0; j < probes; ++j) {
    const uint64_t p = j == 0 ? h : model_fmix64(h + j * 0x9e3779b97f4a7c15ULL);
    auto succ = tokens.front();
    for (const auto& t : tokens)
      if (t.first >= p) {
        succ = t;
        break;
      }
    if (j == 0 || succ.first - p < best_distance) {
      best_distance = succ.first - p;
      best = succ.second;
    }
  }
  return best;
}

// Rendezvous' node seeds: each name's XXH3.
inline std::vector<uint64_t> model_seeds(const chbench::NodeSet& nodes) {
  std::vector<uint64_t> seeds;
  for (const auto& name : nodes.names) seeds.push_back(xxh3(name));
  return seeds;
}

inline uint32_t model_hrw_owner(const std::vector<uint64_t>& seeds, uint64_t h) {
  uint32_t best = 0;
  for (uint32_t n = 1; n < seeds.size(); ++n)
    if (model_fmix64(h ^ seeds[n]) > model_fmix64(h ^ seeds[best])) best = n;
  return best;
}

// Figure 1 of Lamping & Veach, with the paper's own types.
inline int32_t model_jump(uint64_t key, int32_t num_buckets) {
  int64_t b = -1, j = 0;
  while (j < num_buckets) {
    b = j;
    key = key * 2862933555777941757ULL + 1;
    j = static_cast<int64_t>((b + 1) * (double(1LL << 31) / double((key >> 33) + 1)));
  }
  return static_cast<int32_t>(b);
}

// SUPSI's BinomialEngine.getBucket (docs/schemes/binomial.md) on key hash h,
// n buckets and the engine's filters, in unsigned 64-bit arithmetic: draw is
// its rehash, level its relocateWithinLevel.
inline uint32_t model_binomial(uint64_t h, uint32_t n, uint64_t enclosing, uint64_t minor) {
  const auto draw = [](uint64_t v, uint64_t seed) {
    const uint64_t t = v * 2862933555777941757ULL + 1;
    return (t * t * seed) >> 32;
  };
  const auto level = [&](uint64_t b, uint64_t v) {
    if (b < 2) return b;
    uint64_t base = 1;
    while (base * 2 <= b) base *= 2;
    return base + (draw(v, base - 1) & (base - 1));
  };
  if (n < 2) return 0;
  uint64_t b = level(h & enclosing, h);
  if (b < n) return static_cast<uint32_t>(b);
  uint64_t g = h;
  for (int i = 0; i < 4; ++i) {
    g = draw(g, enclosing);
    b = level(g & enclosing, g);
    if (b <= minor) break;
    if (b < n) return static_cast<uint32_t>(b);
  }
  return static_cast<uint32_t>(level(h & minor, h));
}

// The same with the filters of the engine's constructor for n buckets.
inline uint32_t model_binomial(uint64_t h, uint32_t n) {
  uint64_t power = 1;
  while (power < n) power *= 2;
  return model_binomial(h, n, power - 1, (power - 1) / 2);
}

// DxHash (docs/schemes/dx.md) over N nodes that never changed: capacity A =
// 10 N, buckets 0 ... N-1 active; the first bucket of the key's sequence
// (fmix64, then the MMIX LCG, Lemire's reduction of the high half) below N.
inline uint32_t model_dx(uint64_t h, uint32_t n) {
  const uint64_t a = 10 * uint64_t{n};
  for (uint64_t x = model_fmix64(h);; x = x * 6364136223846793005ULL + 1442695040888963407ULL) {
    const uint64_t bucket = ((x >> 32) * a) >> 32;
    if (bucket < n) return static_cast<uint32_t>(bucket);
  }
}

// Maglev's lookup table (Eisenbud et al. 2016, Pseudocode 1) for the names,
// with docs/profiles/maglev.md's permutations: offset = XXH3(name) mod M, skip =
// XXH3_withSeed(name, 1) mod (M - 1) + 1; the permutation's j-th slot taken
// afresh as (offset + j * skip) mod M.
inline std::vector<uint32_t> model_maglev_table(const chbench::NodeSet& nodes) {
  const uint64_t m = nodes.table_size;
  const std::size_t n = nodes.names.size();
  std::vector<uint64_t> offset(n), skip(n), next(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& name = nodes.names[i];
    offset[i] = XXH3_64bits(name.data(), name.size()) % m;
    skip[i] = XXH3_64bits_withSeed(name.data(), name.size(), 1) % (m - 1) + 1;
  }
  std::vector<int64_t> entry(m, -1);
  uint64_t filled = 0;
  for (std::size_t i = 0; filled < m; i = (i + 1) % n) {
    uint64_t c;
    do c = (offset[i] + next[i]++ * skip[i]) % m;
    while (entry[c] >= 0);
    entry[c] = static_cast<int64_t>(i);
    ++filled;
  }
  return std::vector<uint32_t>(entry.begin(), entry.end());
}

// ---- Key sets -----------------------------------------------------------------

template <class T>
T uniform(std::mt19937_64& rng, T lo, T hi) {
  return std::uniform_int_distribution<T>(lo, hi)(rng);
}

// Keys around a ring's boundaries: fixed extremes, the lowest and highest
// token and their neighbours, values below the first and above the last token,
// and t - 1, t, t + 1 for every token t (for at most `max_tokens` tokens, drawn
// at random when there are more). `entries` must be sorted and non-empty.
template <class T>
std::vector<T> boundary_keys(std::span<const chbench::RingEntry<T>> entries, std::size_t max_tokens,
                             std::mt19937_64& rng) {
  constexpr T kMax = std::numeric_limits<T>::max();
  const T lo = entries.front().token;
  const T hi = entries.back().token;
  std::vector<T> keys = {0,
                         1,
                         2,
                         kMax,
                         static_cast<T>(kMax - 1),
                         static_cast<T>(kMax / 2),
                         static_cast<T>(kMax / 2 + 1),
                         static_cast<T>(lo - 1),
                         lo,
                         static_cast<T>(lo + 1),
                         static_cast<T>(hi - 1),
                         hi,
                         static_cast<T>(hi + 1)};
  for (int i = 0; i < 32; ++i) {
    keys.push_back(uniform<T>(rng, 0, lo));     // below (or at) the first token
    keys.push_back(uniform<T>(rng, hi, kMax));  // above (or at) the last token
  }
  auto add_neighbours = [&](T t) {
    keys.push_back(static_cast<T>(t - 1));
    keys.push_back(t);
    keys.push_back(static_cast<T>(t + 1));
  };
  if (entries.size() <= max_tokens) {
    for (const auto& e : entries) add_neighbours(e.token);
  } else {
    for (std::size_t i = 0; i < max_tokens; ++i)
      add_neighbours(entries[uniform<std::size_t>(rng, 0, entries.size() - 1)].token);
  }
  return keys;
}

template <class T>
void append_random(std::vector<T>& keys, std::size_t count, std::mt19937_64& rng) {
  for (std::size_t i = 0; i < count; ++i) keys.push_back(static_cast<T>(rng()));
}

// The boundary keys of the fleet's ring (its tokens and their neighbours, 0,
// UINT64_MAX) and `random` uniform keys: enough to tell two placements apart.
inline std::vector<uint64_t> keys_for(const chbench::NodeSet& nodes, std::size_t random,
                                      std::mt19937_64& rng) {
  auto keys = boundary_keys<uint64_t>(chbench::ring_entries(nodes), 1000, rng);
  append_random(keys, random, rng);
  return keys;
}

// ---- Comparing owners ------------------------------------------------------------

inline std::vector<uint32_t> owners_of(const chbench::OwnerTable& table,
                                       std::span<const uint64_t> keys) {
  std::vector<uint32_t> out(keys.size(), kGuard);
  table.owners(keys, out);
  return out;
}

// "" when `got` equals `expected`; otherwise how many differ and the first one.
template <class T>
std::string first_mismatch(std::span<const T> keys, std::span<const uint32_t> expected,
                           std::span<const uint32_t> got) {
  if (expected.size() != got.size() || keys.size() != got.size())
    return "sizes differ: " + std::to_string(keys.size()) + " keys, " +
           std::to_string(expected.size()) + " expected, " + std::to_string(got.size()) + " got";
  std::size_t count = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != expected[i] && count++ == 0) first = i;
  }
  if (count == 0) return {};
  std::ostringstream s;
  s << count << " of " << got.size() << " owners differ; first at [" << first << "]: key 0x"
    << std::hex << uint64_t{keys[first]} << std::dec << " expected " << expected[first] << " got "
    << got[first];
  return s.str();
}

// Runs `table` over `keys` in small batches of odd sizes (0, 1, 2, 3, ... with
// tails that are not a multiple of any lane count or unroll factor), each
// into its own span.
inline std::vector<uint32_t> owners_in_pieces(const chbench::OwnerTable& table,
                                              std::span<const uint64_t> keys) {
  static constexpr std::size_t kSizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 31, 64, 100};
  std::vector<uint32_t> out(keys.size(), kGuard);
  std::size_t at = 0;
  for (std::size_t i = 0; at < keys.size(); ++i) {
    const std::size_t size = std::min(kSizes[i % std::size(kSizes)], keys.size() - at);
    table.owners(keys.subspan(at, size), std::span<uint32_t>(out).subspan(at, size));
    at += size;
  }
  return out;
}

// Checks `table` against the owners `want` of `keys`: one batch with a guard
// slot after its output, then small batches on a prefix.
inline void check_table(const chbench::OwnerTable& table, std::span<const uint64_t> keys,
                        std::span<const uint32_t> want) {
  std::vector<uint32_t> out(keys.size() + 1, kGuard);
  table.owners(keys, std::span<uint32_t>(out).first(keys.size()));
  CHECK(out.back() == kGuard);
  out.pop_back();
  CHECK(first_mismatch<uint64_t>(keys, want, out) == "");
  const auto prefix = keys.first(std::min<std::size_t>(keys.size(), 3000));
  CHECK(first_mismatch<uint64_t>(prefix, want.first(prefix.size()),
                                 owners_in_pieces(table, prefix)) == "");
}

// A scenario of N nodes of which `fraction` leave in a random order drawn
// from `seed`.
inline chbench::Scenario random_removals(uint32_t nodes, double fraction, uint64_t seed) {
  chbench::Scenario s;
  s.nodes = nodes;
  s.order = chbench::RemovalOrder::kRandom;
  s.remove_fraction = fraction;
  s.seed = seed;
  return s;
}

}  // namespace chbench_test
