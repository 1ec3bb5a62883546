// The bench's families: each a sweep of one parameter (tokens, N, K, threads,
// Highway targets, ...) over the kernels of the registry, with a quick and a
// full set of points. One file per family (families/<name>.cc), one list of
// them all (families/list.cc). To add a family: write its file, add its line
// to the list and to bench/CMakeLists.txt.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "../config.h"

namespace chbench::bench {

// What a family's points depend on besides the registry.
struct FamilyContext {
  bool full = false;             // the full sweep's points, else the quick one's
  unsigned max_threads = 1;      // family threads runs 1 ... max_threads
  std::vector<int64_t> targets;  // the Highway targets this CPU runs, best first
  // The command line chose kernels (--kernels, --schemes): a family that
  // times only each scheme's default kernel in the quick sweep offers them all.
  bool kernels_chosen = false;
};

// Whether a family that keeps the quick sweep to each scheme's default kernel
// (threads, removals) times kernel k: always in the full sweep or when the
// command line chose kernels, else only the default kernel of k's scheme.
inline bool quick_kernel(const FamilyContext& context, const KernelInfo* k) noexcept {
  return context.full || context.kernels_chosen || k == &default_kernel(k->scheme);
}

// A point of the quick sweep taken only in the full one.
inline constexpr int kFullOnly = -1;

// The batch K of the quick sweep's throughput families (10^5 keys, a pool of
// two batches: config.h): long enough to leave the caches as the full sweep
// does, short enough that a ring of 1.6 x 10^7 tokens, whose slowest kernel
// takes about 2 us a key, keeps its group's rounds within seconds.
inline constexpr uint64_t kQuickKeys = 100'000;

// A scheme that scores every node for every key (a key costs O(N); the
// registry's SchemeInfo::scores_every_node): the families give it fewer nodes
// or keys, or leave it out.
inline bool scores_every_node(Scheme s) noexcept {
  return chbench::scheme_info(s).scores_every_node;
}

// One point of a family: every kernel it times there, for the whole registry
// (the command line's --kernels and --schemes narrow them afterwards).
struct Point {
  std::vector<Config> configs;
  // Quick sweep: the order in which points are kept under the family's time
  // budget, 0 first (always kept), then 1, 2, ... while the estimate fits.
  // kFullOnly in the full sweep.
  int quick = kFullOnly;
};

struct Family {
  std::string_view name;   // on the command line and in benchmark names
  std::string_view title;  // what varies, for --help and the results' registry
  // Most seconds the quick sweep may spend on this family, by the estimate
  // of plan.h with the quick defaults; the budgets add up to under 4 min 30 s
  // (families/list.cc).
  double quick_budget_s;
  // The quick (context.full false) or full points, in the order they run.
  std::vector<Point> (*points)(const FamilyContext& context);
};

// Every family, in the order the sweep runs them.
std::span<const Family> all_families() noexcept;
// nullptr when no family has that name.
const Family* find_family(std::string_view name) noexcept;

// ---- for the family files -------------------------------------------------------

// A configuration of `family` with the dispatch target and no knob or window.
inline Config make_config(std::string_view family, const KernelInfo* kernel, uint32_t nodes,
                          uint32_t vnodes, uint64_t keys, unsigned threads = 1,
                          Path path = Path::kThroughput) {
  Config c;
  c.family = family;
  c.kernel = kernel;
  c.nodes = nodes;
  c.vnodes = vnodes;
  c.keys = keys;
  c.threads = threads;
  c.path = path;
  return c;
}

// A ring size N x V, for the ring families.
struct Ring {
  uint32_t n, v;
};

// A point's rank in the quick sweep, and kFullOnly in the full one.
inline int quick_rank(const FamilyContext& context, int rank) {
  return context.full ? kFullOnly : rank;
}

// Every family's points function, one per file.
std::vector<Point> tokens_points(const FamilyContext&);
std::vector<Point> latency_points(const FamilyContext&);
std::vector<Point> inflight_points(const FamilyContext&);
std::vector<Point> clustered_points(const FamilyContext&);
std::vector<Point> nodes_points(const FamilyContext&);
std::vector<Point> dense_points(const FamilyContext&);
std::vector<Point> removals_points(const FamilyContext&);
std::vector<Point> dram_points(const FamilyContext&);
std::vector<Point> batch_points(const FamilyContext&);
std::vector<Point> threads_points(const FamilyContext&);
std::vector<Point> hashed_points(const FamilyContext&);
std::vector<Point> targets_points(const FamilyContext&);
std::vector<Point> profiles_points(const FamilyContext&);
std::vector<Point> bounded_points(const FamilyContext&);
std::vector<Point> weighted_points(const FamilyContext&);
std::vector<Point> replicas_points(const FamilyContext&);

}  // namespace chbench::bench
