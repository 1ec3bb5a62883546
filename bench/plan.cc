#include "plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "chbench/saturate.h"
#include "chbench/simd.h"

namespace chbench::bench {

// ---- keys ---------------------------------------------------------------------------

std::optional<RingKey> ring_key(const Config& c) {
  if (c.profile || !c.kernel || !c.kernel->make_over_ring) return std::nullopt;
  return RingKey{c.nodes, c.vnodes, c.window_bits, c.removals, c.change};
}

std::vector<Config> change_builds(const Config& c) {
  if (!c.removals || c.profile || c.is_floor()) return {};
  std::vector<Config> out;
  // With none removed, the re-add is a new node: no room for it in a
  // capacity of exactly N.
  const uint32_t capacity = c.count(kParamCapacity);
  const bool full = c.survivors() == c.nodes && capacity != 0 && capacity <= c.nodes;
  for (Change change : {Change::kRemoveOne, Change::kReaddOne}) {
    if (change == Change::kRemoveOne && c.survivors() < 2) continue;
    if (change == Change::kReaddOne && full) continue;
    out.push_back(c);
    out.back().change = change;
  }
  return out;
}

std::optional<ReferenceKey> reference_key(const Config& c) {
  if (c.profile)
    return ReferenceKey{-1, static_cast<int>(*c.profile), c.nodes, c.vnodes, 0, std::nullopt, {}};
  if (c.is_floor()) return std::nullopt;
  const bool vnodes = c.kernel->scheme_info().takes(kParamVnodes);
  return ReferenceKey{static_cast<int>(c.kernel->scheme),
                      -1,
                      c.nodes,
                      vnodes ? c.vnodes : 0,
                      c.window_bits,
                      c.removals,
                      c.named_counts(),
                      c.scheme_weighted()};
}

TableKey table_key(const Config& c) {
  return TableKey{c.client ? 0 : reinterpret_cast<std::uintptr_t>(c.kernel),
                  c.profile ? static_cast<int>(*c.profile) : -1,
                  c.nodes,
                  c.vnodes,
                  c.window_bits,
                  c.in_flight,
                  c.target,
                  c.removals,
                  c.named_counts(),
                  c.scheme_weighted(),
                  c.replicas};
}

CheckKey check_key(const Config& c) {
  return CheckKey{table_key(c), c.path, c.path == Path::kThroughput ? c.threads : 1};
}

// ---- memory ---------------------------------------------------------------------------

namespace {

// Key strings "user:<i>" back to back with their offsets: about 16 bytes a key
// at the pools' sizes, counted as 24.
constexpr uint64_t kKeyStringBytes = 24;
// The shared sorted ring: 8-byte tokens and 4-byte owners.
constexpr uint64_t kSortedRingBytes = 12;
// The sorted (token, node) entries the ring and the ring reference are made from.
constexpr uint64_t kEntryBytes = 16;

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

// The pool's own memory: hashes, the kernel's owners, the reference's owners,
// and key strings where the path needs them.
uint64_t pool_bytes(const Config& c) {
  return saturating_mul(c.pool(), 8 + 4 + 4 + (c.needs_key_bytes() ? kKeyStringBytes : 0));
}

}  // namespace

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

// ---- comparison groups -------------------------------------------------------------

std::vector<GroupSpan> comparison_groups(std::span<const Config> configs) {
  std::vector<GroupSpan> out;
  for (std::size_t i = 0; i < configs.size(); ++i)
    if (out.empty() || configs[i].group != configs[i - 1].group)
      out.push_back({i, i + 1});
    else
      out.back().last = i + 1;
  return out;
}

// ---- the time model ---------------------------------------------------------------------

unsigned group_rounds(const TimeModel& model, double slowest_batch_s) {
  // No minimum time: nothing to keep each member near, every round runs.
  if (model.min_time_s <= 0 || slowest_batch_s <= model.min_time_s) return model.rounds;
  const double fit = model.rounds * model.min_time_s / slowest_batch_s;
  return std::min(model.rounds, std::max(model.min_rounds, static_cast<unsigned>(fit)));
}

namespace {

// The model's constants: a 2-core AMD EPYC (KVM) at 2.6 GHz, the class of
// machine the quick sweep's budgets are for, read from the committed results
// (results/amd-epyc-2c: build_ms, iteration times) and the family times of the
// quick sweep (each family run alone, 2026-12-02).
//
// Per configuration: Google Benchmark's bookkeeping, a thread team, the
// pool's owners, console and JSON, freeing what the configuration built;
// and the noise canary (kCanaryEstimateSeconds). Measured: a configuration
// of a small ring in family tokens took 25 ms more than its timed runs and
// the search before them (stderr's progress lines time-stamped, 2026-12-02).
constexpr double kConfigSeconds = 0.03;
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

// Nanoseconds a key of configuration `c` takes per pass: the path's typical
// kernel (typical_ns), or N scores where the scheme scores every node.
double key_ns(const Config& c) {
  const double typical = typical_ns(c);
  return scores_every_node(c) ? std::max(typical, c.survivors() * score_ns(c, false)) : typical;
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

double named_build_seconds(const Config& c) {
  const bool named = !c.profile && c.kernel && !c.is_floor() && config_named(c) && !ring_key(c);
  return named ? c.nodes * kNamedNodeNs * 1e-9 : 0;
}

// The reference's owner of a key: kReferenceNs, or N scalar scores where the
// scheme scores every node.
double reference_key_ns(const Config& c) {
  return scores_every_node(c) ? std::max(kReferenceNs, c.survivors() * score_ns(c, true))
                              : kReferenceNs;
}

// Making a pool key: its hash; its string.
constexpr double kKeyHashNs = 40;
constexpr double kKeyStringNs = 60;
// The shared sorted ring: hashing a token's label, sorting it, the ring arrays
// (measured: 2.6 s for the first kernel of a ring of 1.6 x 10^7 tokens, 1.8 s
// for 10^7, reference and check included).
constexpr double kRingTokenNs = 160;
// Building a table, or a reference other than the ring's, per byte of its
// registry estimate (table_bytes less the shared sorted ring's part for a
// table built over it). Measured: ring/bucketed's own build over a ring of
// 1.6 x 10^7 tokens, 1.1-1.6 s for about 10^9 bytes of its estimate.
constexpr double kBuildNsPerByte = 1.0;

// A member's rounds: a slice of at least min time (whole batches, one at
// least) and its warm-up each round, and the calibration of the slice
// before the first (rounds.cc).
double timing_seconds(const Config& c, const TimeModel& m, unsigned rounds) {
  const double batch_s = batch_seconds(c);
  const double warmup_s = std::min<uint64_t>(c.keys, kWarmupKeys) * key_ns(c) * 1e-9;
  const double slice_s = std::max(batch_s, m.min_time_s);
  return rounds * (slice_s + warmup_s) + 2 * batch_s;
}

// The part of a ring-based table's estimate that the shared sorted ring (and
// the entries it is made from) already paid for.
uint64_t shared_ring_bytes(const Config& c) {
  return ring_key(c) ? saturating_mul(c.tokens(), kEntryBytes + kSortedRingBytes) : 0;
}

}  // namespace

double batch_seconds(const Config& c) { return c.keys * key_ns(c) * 1e-9; }

uint64_t group_member_bytes(const Config& c) {
  const uint64_t table = table_bytes(c);
  return saturating_add(table - std::min(table, shared_ring_bytes(c)), saturating_mul(c.pool(), 4));
}

namespace {

// What a sweep holds between configurations, as the runner does, and what
// each configuration adds.
class Simulation {
 public:
  Simulation(const std::map<ReferenceKey, uint64_t>& pools,
             const std::map<RingKey, std::size_t>& ring_last,
             const std::map<ReferenceKey, std::size_t>& reference_last,
             const std::map<TableKey, std::size_t>& table_last)
      : pools_(pools),
        ring_last_(ring_last),
        reference_last_(reference_last),
        table_last_(table_last) {}

  // Before a group's first member: its tables are held together until its
  // rounds end, and the large tables of earlier groups go.
  void begin_group(std::span<const Config> members, const TimeModel& model) {
    double slowest = 0;
    for (const Config& c : members) slowest = std::max(slowest, batch_seconds(c));
    rounds_ = group_rounds(model, slowest);
    pinned_.clear();
    for (const Config& c : members) pinned_.insert(table_key(c));
    std::erase_if(tables_, [&](const auto& t) {
      if (t.second <= kKeepTableBytes || pinned_.count(t.first)) return false;
      std::erase(table_order_, t.first);
      return true;
    });
    group_owners_ = 0;
    canary_ = kCanaryEstimateSeconds;
  }

  // `i` is the configuration's index; `last` that of its group's last member.
  Step step(const Config& c, std::size_t i, std::size_t last, const TimeModel& model) {
    Step s;
    prep_ = 0;
    transient_ = 0;
    group_owners_ =
        saturating_add(group_owners_, saturating_mul(c.pool(), 4));  // the kernel's owners
    keys(c, s);
    ring(c, s);
    reference(c, s);
    table(c, s);
    changes(c, s);
    check(c, s);
    s.peak_bytes = saturating_add(held_bytes(), saturating_add(group_owners_, transient_));
    s.seconds = kConfigSeconds + canary_ + prep_ + timing_seconds(c, model, rounds_);
    s.rounds = rounds_;
    canary_ = 0;  // once a group
    last_ = last;
    if (i == last) drop_group();
    return s;
  }

 private:
  // The longest pool so far.
  void keys(const Config& c, Step& s) {
    if (c.pool() > key_hashes_) {
      s.new_key_hashes = c.pool() - key_hashes_;
      key_hashes_ = c.pool();
    }
    if (c.needs_key_bytes() && c.pool() > key_strings_) {
      s.new_key_bytes = c.pool() - key_strings_;
      key_strings_ = c.pool();
    }
    prep_ += (s.new_key_hashes * kKeyHashNs + s.new_key_bytes * kKeyStringNs) * 1e-9;
  }

  void ring(const Config& c, Step& s) {
    const auto key = ring_key(c);
    if (!key || rings_.count(*key)) return;
    s.new_ring = true;
    rings_[*key] = saturating_mul(c.tokens(), kSortedRingBytes);
    transient_ = saturating_add(transient_, saturating_mul(c.tokens(), kEntryBytes));
    prep_ += c.tokens() * kRingTokenNs * 1e-9;
  }

  void reference(const Config& c, Step& s) {
    const auto key = reference_key(c);
    if (!key || references_.count(*key)) return;
    s.reference_pool = pools_.at(*key);
    references_[*key] = saturating_mul(s.reference_pool, 4);
    const uint64_t bytes = c.profile ? table_bytes(c) : reference_bytes(c);
    transient_ = saturating_add(transient_, bytes);
    // A ring reference copies the entries the shared ring was made from.
    prep_ += (ring_key(c) ? c.tokens() * 5.0 : bytes * kBuildNsPerByte) * 1e-9 +
             named_build_seconds(c) + s.reference_pool * reference_key_ns(c) * 1e-9;
  }

  void table(const Config& c, Step& s) {
    const TableKey key = table_key(c);
    if (tables_.count(key)) return;
    s.new_table = true;
    const uint64_t bytes = table_bytes(c);
    prep_ += (bytes - std::min(bytes, shared_ring_bytes(c))) * kBuildNsPerByte * 1e-9 +
             named_build_seconds(c);
    tables_[key] = bytes;
    table_order_.push_back(key);
    uint64_t kept = 0;
    for (const auto& t : tables_) kept = saturating_add(kept, t.second);
    // The oldest go first, but none of the group's own.
    for (std::size_t j = 0; kept > kKeptTablesBytes && j < table_order_.size();) {
      const TableKey oldest = table_order_[j];
      if (pinned_.count(oldest)) {
        ++j;
        continue;
      }
      kept -= tables_[oldest];
      drop_table(oldest);
    }
  }

  // The change builds (remove_us, readd_us): a ring of their own for a ring
  // kernel, kept as the configuration's ring is, then the table, built and
  // dropped; one at a time beside the configuration's table.
  void changes(const Config& c, Step& s) {
    const auto builds = change_builds(c);
    if (builds.empty()) return;
    const uint64_t bytes = table_bytes(c);
    for (const Config& b : builds) {
      if (const auto key = ring_key(b); key && !rings_.count(*key)) {
        rings_[*key] = saturating_mul(c.tokens(), kSortedRingBytes);
        prep_ += c.tokens() * kRingTokenNs * 1e-9;
      }
      prep_ += (bytes - std::min(bytes, shared_ring_bytes(c))) * kBuildNsPerByte * 1e-9 +
               named_build_seconds(b);
    }
    s.change_builds = builds.size();
    transient_ = saturating_add(transient_, bytes);
  }

  void check(const Config& c, Step& s) {
    const CheckKey key = check_key(c);
    s.check = reference_key(c) && checked_[key] < c.pool();
    if (s.check) checked_[key] = c.pool();
    const double passes = s.check ? (c.path == Path::kLatency ? 2.0 : 1.0) * c.pool() : c.keys;
    prep_ += passes * key_ns(c) * 1e-9;
  }

  // After a group's rounds: what no later group needs (the plan's last uses
  // are by group).
  void drop_group() {
    std::erase_if(rings_, [&](const auto& r) { return ring_last_.at(r.first) <= last_; });
    std::erase_if(references_, [&](const auto& r) { return reference_last_.at(r.first) <= last_; });
    for (auto it = tables_.begin(); it != tables_.end();)
      if (table_last_.at(it->first) <= last_) {
        std::erase(table_order_, it->first);
        it = tables_.erase(it);
      } else {
        ++it;
      }
  }

  void drop_table(const TableKey& key) {
    tables_.erase(key);
    std::erase(table_order_, key);
  }

  uint64_t held_bytes() const {
    uint64_t b = saturating_add(saturating_mul(key_hashes_, 8),
                                saturating_mul(key_strings_, kKeyStringBytes));
    for (const auto& r : rings_) b = saturating_add(b, r.second);
    for (const auto& r : references_) b = saturating_add(b, r.second);
    for (const auto& t : tables_) b = saturating_add(b, t.second);
    return b;
  }

  const std::map<ReferenceKey, uint64_t>& pools_;
  const std::map<RingKey, std::size_t>& ring_last_;
  const std::map<ReferenceKey, std::size_t>& reference_last_;
  const std::map<TableKey, std::size_t>& table_last_;
  uint64_t key_hashes_ = 0, key_strings_ = 0;
  std::map<RingKey, uint64_t> rings_;            // bytes of the sorted ring
  std::map<ReferenceKey, uint64_t> references_;  // bytes of owners
  std::map<TableKey, uint64_t> tables_;          // bytes by the registry's estimate
  std::vector<TableKey> table_order_;            // oldest first
  std::map<CheckKey, uint64_t> checked_;         // the longest pool checked
  std::set<TableKey> pinned_;                    // the current group's tables
  std::size_t last_ = 0;                         // the current group's last member
  double prep_ = 0;                              // this configuration's seconds before timing
  double canary_ = 0;                            // the group's canary, on its first member
  unsigned rounds_ = 0;                          // the group's (group_rounds)
  uint64_t transient_ = 0;                       // its bytes alive only while it is prepared
  uint64_t group_owners_ = 0;                    // the owners of the group's members so far
};

}  // namespace

Plan::Plan(std::span<const Config> configs, const TimeModel& model) {
  const auto groups = comparison_groups(configs);
  for (const GroupSpan& g : groups)
    for (std::size_t i = g.first; i < g.last; ++i) {
      const Config& c = configs[i];
      const std::size_t last = g.last - 1;  // what a group uses lives through its rounds
      if (auto r = ring_key(c)) ring_last_[*r] = last;
      for (const Config& b : change_builds(c))
        if (auto r = ring_key(b)) ring_last_[*r] = last;
      if (auto r = reference_key(c)) {
        reference_last_[*r] = last;
        reference_pools_[*r] = std::max(reference_pools_[*r], c.pool());
      }
      table_last_[table_key(c)] = last;
    }
  Simulation simulation(reference_pools_, ring_last_, reference_last_, table_last_);
  for (const GroupSpan& g : groups) {
    simulation.begin_group(configs.subspan(g.first, g.last - g.first), model);
    for (std::size_t i = g.first; i < g.last; ++i)
      steps_.push_back(simulation.step(configs[i], i, g.last - 1, model));
  }
}

double Plan::seconds() const noexcept {
  double total = 0;
  for (const auto& s : steps_) total += s.seconds;
  return total;
}

std::size_t Plan::peak_step() const noexcept {
  std::size_t best = 0;
  for (std::size_t i = 1; i < steps_.size(); ++i)
    if (steps_[i].peak_bytes > steps_[best].peak_bytes) best = i;
  return best;
}

uint64_t Plan::reference_pool(const ReferenceKey& key) const {
  const auto it = reference_pools_.find(key);
  return it == reference_pools_.end() ? 0 : it->second;
}

std::size_t Plan::last_use(const RingKey& key) const {
  const auto it = ring_last_.find(key);
  return it == ring_last_.end() ? 0 : it->second;
}
std::size_t Plan::last_use(const ReferenceKey& key) const {
  const auto it = reference_last_.find(key);
  return it == reference_last_.end() ? 0 : it->second;
}
std::size_t Plan::last_use(const TableKey& key) const {
  const auto it = table_last_.find(key);
  return it == table_last_.end() ? 0 : it->second;
}

std::string clock_string(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

}  // namespace chbench::bench
