#include "plan_cost.h"

#include <algorithm>
#include <cmath>

#include "chbench/saturate.h"
#include "chbench/simd.h"
#include "plan_keys.h"

namespace chbench::bench {

using namespace cost;  // the parts plan_cost.h declares for the plan, defined here

// ---- the memory model ---------------------------------------------------------------

namespace {

// estimate(fleet) over the configuration's fleet, or, past kEstimateNodes
// nodes, over kEstimateNodes nodes (with the same share removed, and
// Maglev's table size in proportion) scaled up (config_bytes): no large
// fleet of names is built to estimate. A change build is estimated as its
// configuration (one node more or less).
template <class Estimate>
uint64_t scaled_estimate(const Config& c, const Estimate& estimate) {
  Config base = c;
  base.change = Change::kNone;
  if (c.nodes <= kEstimateNodes || !config_named(c)) return estimate(*config_fleet(base));
  base.nodes = kEstimateNodes;
  if (const uint64_t m = c.count(kParamTableSize);
      m != 0)  // not a prime: the estimates only read it
    base.counts[param_index(kParamTableSize)] =
        static_cast<uint32_t>((m * kEstimateNodes + c.nodes - 1) / c.nodes);
  const uint64_t small = estimate(*config_fleet(base));
  return saturating_mul(small / kEstimateNodes + 1, c.nodes);
}

// The pool's own memory: hashes, the kernel's owners, the reference's owners
// of the checked keys, and key strings where the path needs them.
uint64_t pool_bytes(const Config& c) {
  return saturating_add(
      saturating_mul(c.pool(), 8 + 4 + (c.needs_key_bytes() ? kKeyStringBytes : 0)),
      saturating_mul(c.checked(), 4));
}

}  // namespace

namespace cost {

uint64_t reference_bytes(const Config& c) {
  if (c.is_floor() || c.profile) return 0;
  return scaled_estimate(
      c, [&](const Fleet& f) { return c.kernel->scheme_info().reference_bytes(f); });
}

uint64_t table_bytes(const Config& c) {
  if (c.profile) {
    // A ring (cassandra, ketama: 160 points per node) or a table as large as
    // Maglev's, in the reference and the kernel.
    return saturating_add(saturating_mul(uint64_t{c.nodes} * std::max<uint64_t>(c.vnodes, 160), 56),
                          65537 * 16);
  }
  return scaled_estimate(c, [&](const Fleet& f) { return c.kernel->table_bytes(f); });
}

uint64_t shared_ring_bytes(const Config& c) {
  return ring_key(c) ? saturating_mul(c.tokens(), kEntryBytes + kSortedRingBytes) : 0;
}

}  // namespace cost

uint64_t fleet_name_bytes(uint64_t n) { return saturating_mul(n, 32 + 56); }

uint64_t scenario_name_bytes(uint64_t n) { return saturating_mul(n, 2 * (32 + 32 + 40) + 56); }

uint64_t config_bytes(const Config& c) {
  const uint64_t names = !config_named(c) ? 0
                         : c.removals     ? scenario_name_bytes(c.nodes)
                                          : fleet_name_bytes(c.nodes);
  if (c.profile)
    return saturating_add(
        names, saturating_add(saturating_mul(c.pool(), 8 + 4 + 4 + 24 + 16), table_bytes(c)));
  if (c.is_floor()) return saturating_add(pool_bytes(c), table_bytes(c));
  // A change build's table, one at a time beside the configuration's own.
  const uint64_t change = change_builds(c).empty() ? 0 : table_bytes(c);
  return saturating_add(names, saturating_add(saturating_add(pool_bytes(c), change),
                                              saturating_add(reference_bytes(c), table_bytes(c))));
}

uint64_t group_member_bytes(const Config& c) {
  const uint64_t table = table_bytes(c);
  return saturating_add(table - std::min(table, shared_ring_bytes(c)),
                        saturating_mul(c.checked(), 4));
}

// ---- the time model -----------------------------------------------------------------

unsigned group_rounds(const TimeModel& model, double slowest_batch_s) {
  // No minimum time: nothing to keep each member near, every round runs.
  if (model.min_time_s <= 0 || slowest_batch_s <= model.min_time_s) return model.rounds;
  const double fit = model.rounds * model.min_time_s / slowest_batch_s;
  return std::min(model.rounds, std::max(model.min_rounds, static_cast<unsigned>(fit)));
}

unsigned group_visits(const TimeModel& model, unsigned rounds) {
  return std::max(1u, std::min(model.visits, rounds));
}

unsigned visit_rounds(const TimeModel& model, unsigned rounds, unsigned v) {
  const unsigned visits = group_visits(model, rounds);
  return rounds * (v + 1) / visits - rounds * v / visits;
}

namespace {

// The model's constants: a 2-core AMD EPYC (KVM) at 2.6 GHz, the class of
// machine the quick sweep's budgets are for, read from the committed results
// (results/amd-epyc-2c: build_ms, iteration times) and the family times of the
// quick sweep (each family run alone, 2026-12-02). kConfigSeconds and the
// constants of building: plan_cost.h.

// Nanoseconds a key takes per pass, by path: a typical kernel, not the slowest
// (the bucketed ring takes 3 ns; rendezvous, below, N scores).
double lookup_ns(Path path) {
  switch (path) {
    case Path::kThroughput:
      return 25;
    case Path::kLatency:
      return 150;
    case Path::kHashed:
      return 60;
    case Path::kProfile:
      return 150;
    case Path::kBounded:
      return 40;
  }
  return 25;
}
// A scheme that scores every node (SchemeInfo::scores_every_node) pays N
// scores a key, more than any path's typical kernel past a few dozen nodes:
// nanoseconds a score of a scalar kernel (rendezvous; weighted rendezvous,
// whose score takes a logarithm), and the share of it a SIMD kernel takes
// at the dispatched target (forced to a lesser one, its lanes are narrower:
// counted as scalar). Read from results/amd-epyc-2c: hrw/scalar at N = 1,000
// to 4,096 took 0.9-1.1 ns a node, hrw/simd_keys 0.09, hrw_weighted/scalar
// 11-13, hrw_weighted/simd 1.1.
constexpr double kScoreNs = 1.0;
constexpr double kWeightedScoreNs = 12.0;
constexpr double kSimdScoreShare = 0.1;
// The reference's owner of a key, for a scheme that does not score every node.
constexpr double kReferenceNs = 60;

// A score of configuration c's kernel; `scalar`: of its scheme's scalar
// kernels (the reference).
double score_ns(const Config& c, bool scalar) {
  const double ns = c.kernel->scheme_info().takes(kParamWeights) ? kWeightedScoreNs : kScoreNs;
  const bool full_width = c.target == 0 || c.target == simd::dispatched_target();
  return c.kernel->simd && full_width && !scalar ? ns * kSimdScoreShare : ns;
}

bool scores_every_node(const Config& c) {
  return !c.profile && c.kernel && !c.is_floor() && c.kernel->scheme_info().scores_every_node;
}

// A ring search grows with the ring and slows past each cache: nanoseconds a
// key of a ring kernel takes, the mean over the ring's kernels, by tokens
// N x V. Read from the quick sweep's family tokens (one thread, batches of
// 10^5 keys; AMD EPYC Zen 4 KVM, 2026-12-03): 14 ns at 10^3 tokens, 36 at
// 6.6 x 10^4, 90 at 3 x 10^5, 187 at 10^6, 464 at 1.6 x 10^7, where the
// scalar branchless search took 2.1 us and the bucketed ring 16 ns. Between
// the points: straight in log tokens and log ns; beyond them: the end point.
struct RingPoint {
  double tokens, ns;
};
constexpr RingPoint kRingSearch[] = {{1e3, 14},  {1e4, 23},  {6.55e4, 36}, {3e5, 90},
                                     {1e6, 187}, {3e6, 261}, {1e7, 382},   {1.6e7, 464}};
// A key that waits for the previous key's owner (Path::kLatency) pays the
// whole miss chain: about 2.5 x the batch's mean at 1.6 x 10^7 tokens.
constexpr double kRingLatencyFactor = 2.5;

double ring_search_ns(double tokens) {
  const auto& first = kRingSearch[0];
  const auto& last = kRingSearch[std::size(kRingSearch) - 1];
  if (tokens <= first.tokens) return first.ns;
  if (tokens >= last.tokens) return last.ns;
  std::size_t i = 1;
  while (kRingSearch[i].tokens < tokens) ++i;
  const RingPoint a = kRingSearch[i - 1], b = kRingSearch[i];
  const double t = std::log(tokens / a.tokens) / std::log(b.tokens / a.tokens);
  return a.ns * std::pow(b.ns / a.ns, t);
}

// The stream baseline, a key hash read and an owner written: 0.3 ns a key in
// cache to 1.3 ns from memory (K = 10^7) on the CPUs on record; the compute
// floor counted as it. The random-read floor, a guess until measured: its
// share of a ring search at its tokens, one line a key where a search misses
// one a level (4.6 ns at 1.6 x 10^7 tokens), at least kStreamNs.
constexpr double kStreamNs = 1.5;
constexpr double kRandomReadShare = 1.0 / 100;
// A SIMD kernel of a scheme that places keys by the bucket count alone (jump
// hash's SIMD kernel at most, 2.5-5 ns a key on a Zen 5; its successors'
// under 2.5): what lets family dram's batches of 10^7 keys into the quick
// sweep (kQuickMaxBatchSeconds).
constexpr double kBucketCountSimdNs = 5;
bool bucket_count_simd(const Config& c) {
  return !c.profile && c.kernel && c.kernel->simd && c.kernel->scheme_info().buckets_only &&
         !c.removals;
}

// The path's typical kernel, or for a ring kernel searching a large ring its
// search (ring_search_ns) where that is slower.
double typical_ns(const Config& c) {
  if (c.path == Path::kThroughput && c.is_floor())
    return c.kernel != &random_read_floor()
               ? kStreamNs
               : std::max(kStreamNs,
                          ring_search_ns(static_cast<double>(c.tokens())) * kRandomReadShare);
  if (c.path == Path::kThroughput && bucket_count_simd(c)) return kBucketCountSimdNs;
  const double typical = lookup_ns(c.path);
  const bool searched =
      ring_key(c) && !c.is_floor() && (c.path == Path::kThroughput || c.path == Path::kLatency);
  if (!searched) return typical;
  const double ring = ring_search_ns(static_cast<double>(c.tokens()));
  return std::max(typical, c.path == Path::kLatency ? ring * kRingLatencyFactor : ring);
}

// Building a table (or a reference, or a change build) from a fleet of named
// nodes (config_named) other than over the shared sorted ring, per node of
// the fleet's initial N: the names and their hashes, the history a
// scenario's fleet replays (Config::removals), the copy a change build makes
// of it, the table's per-node state. Read from results/amd-epyc-2c: at
// N = 10^6 with half removed, each build of a DxHash, AnchorHash, MementoHash
// or JumpBackAnchor table took 0.6-1.9 s and its fleet about as long again,
// where the bytes (kBuildNsPerByte) saw tens of milliseconds.
constexpr double kNamedNodeNs = 1000;

}  // namespace

namespace cost {

double key_ns(const Config& c) {
  const double typical = typical_ns(c);
  return scores_every_node(c) ? std::max(typical, c.survivors() * score_ns(c, false)) : typical;
}

double named_build_seconds(const Config& c) {
  const bool named = !c.profile && c.kernel && !c.is_floor() && config_named(c) && !ring_key(c);
  return named ? c.nodes * kNamedNodeNs * 1e-9 : 0;
}

double reference_key_ns(const Config& c) {
  return scores_every_node(c) ? std::max(kReferenceNs, c.survivors() * score_ns(c, true))
                              : kReferenceNs;
}

double timing_seconds(const Config& c, const TimeModel& m, unsigned rounds, bool calibrated) {
  const double batch_s = batch_seconds(c);
  const double warmup_s = std::min<uint64_t>(c.keys, kWarmupKeys) * key_ns(c) * 1e-9;
  const double slice_s = std::max(batch_s, m.min_time_s);
  return rounds * (slice_s + warmup_s) + (calibrated ? 0 : 2 * batch_s);
}

}  // namespace cost

double batch_seconds(const Config& c) { return c.keys * key_ns(c) * 1e-9; }

}  // namespace chbench::bench
