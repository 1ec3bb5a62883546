// What one configuration costs by the plan's two models, which plan.h's Plan
// adds up over a sweep with what configurations share: the memory model,
// bytes from the registry's estimates (KernelInfo::table_bytes,
// SchemeInfo::reference_bytes) over the configuration's fleet, its node
// names and its key pool; and the time model, seconds from constants read
// from the committed results of the machine the quick sweep's budgets are
// for (plan_cost.cc says which).
#pragma once

#include <cstdint>

#include "config.h"

namespace chbench::bench {

// ---- the memory model ---------------------------------------------------------------

// Peak bytes one configuration needs on its own, without what earlier ones
// left: its key pool, owners and reference owners, the node names of its
// fleet (fleet_name_bytes, scenario_name_bytes), the reference
// (SchemeInfo::reference_bytes) and the table (KernelInfo::table_bytes, twice
// with change builds) from the registry's estimates; a profile's estimate for
// profiles. An upper estimate; saturates. Builds no
// fleet over kEstimateNodes nodes: the registry's estimates read only N, V
// and M and grow linearly in N (or N V) past their small-table steps, so a
// larger N is estimated from a fleet of kEstimateNodes nodes scaled by
// N / kEstimateNodes (fixed parts scaled too: an overestimate).
inline constexpr uint32_t kEstimateNodes = 1u << 16;
uint64_t config_bytes(const Config& c);

// Bytes the node names of a default fleet of n nodes take while it is alive:
// 32 B per std::string (node-0 ... node-4294967295 are at most 15 characters,
// held in the string itself, so no heap bytes), once (a Fleet without history
// keeps no initial list of its own), plus validate()'s set of names
// while SchemeInfo::check runs (about 56 B a name). Saturates.
uint64_t fleet_name_bytes(uint64_t n);

// The same for a scenario's fleet of n initial nodes (Config::removals): the
// names in service, the initial list and the history (40 B a change), each
// counted for all n, twice (the copy a change build makes), and validate()'s
// set. Saturates.
uint64_t scenario_name_bytes(uint64_t n);

// Bytes a member adds to what its group holds through its rounds, by the
// registry's estimate: its table (less the shared sorted ring's part) and
// its owners. Saturates.
uint64_t group_member_bytes(const Config& c);

// ---- the time model -----------------------------------------------------------------

// How each comparison group is timed (rounds.h): `rounds` rounds, each
// running every member once for a slice of at least `min_time_s` seconds
// (whole batches, at least one) after its warm-up.
// A group whose slowest member's batch is longer than the slice runs fewer
// rounds (group_rounds), at least `min_rounds`.
//
// The rounds are split over `visits` passes of the whole run (visit_rounds):
// each group is timed again after every other group was, its tables built
// anew, so that a state of the host (or of the process's memory) that lasts
// minutes weighs on one share of a member's rounds, not on all of them.
struct TimeModel {
  unsigned rounds = 30;
  double min_time_s = 0.005;
  unsigned min_rounds = 10;
  unsigned visits = 2;
  // A visit that ran more than this fraction slower than its group's fastest
  // is timed again at the end of the run (revisits.h); 0: never.
  double revisit_margin = 0.10;
  // Each figure keeps the rounds whose pace (the other members') is within
  // this fraction of the second fastest round's (fastest_rounds.h); 0:
  // every round.
  double state_margin = 0.03;
};

// The visits a group of `rounds` rounds takes: model.visits, but no more
// than its rounds (at least 1).
unsigned group_visits(const TimeModel& model, unsigned rounds);

// The rounds of visit `v` (0-based, below group_visits) of a group of
// `rounds` rounds: shares that differ by at most one and add up to `rounds`.
unsigned visit_rounds(const TimeModel& model, unsigned rounds, unsigned v);

// The rounds of a group whose slowest member takes `slowest_batch_s` seconds
// a batch: model.rounds while that fits in a slice (or min_time_s is 0); else as many as keep each
// member's time near rounds x min_time_s, but at least min_rounds (and never
// more than rounds). The plan decides each group's from its estimated batch
// times (Step::rounds), so a configuration runs the same rounds in every run
// and on every machine, and its benchmark name (which Google Benchmark ends
// with /repeats:<rounds>) stays the same.
unsigned group_rounds(const TimeModel& model, double slowest_batch_s);

// The time model's estimate of one batch of configuration c (c.keys keys
// through its kernel), in seconds: the machine of the quick sweep's budgets,
// a typical kernel of c's path, N scores a key for a scheme that scores
// every node. Never negative; 0 for a configuration without keys.
double batch_seconds(const Config& c);

// Keys a member looks up untimed before each of its slices, so that its
// tables come back into the caches the members before it took: one batch,
// up to this many keys of it.
inline constexpr uint64_t kWarmupKeys = 16'384;

// ---- the parts the plan's simulation of a sweep adds up (plan.cc) ------------------

namespace cost {

// Key strings "user:<i>" back to back with their offsets: about 16 bytes a key
// at the pools' sizes, counted as 24.
inline constexpr uint64_t kKeyStringBytes = 24;
// The shared sorted ring: 8-byte tokens and 4-byte owners.
inline constexpr uint64_t kSortedRingBytes = 12;
// The sorted (token, node) entries the ring and the ring reference are made from.
inline constexpr uint64_t kEntryBytes = 16;

// The reference's estimate (SchemeInfo::reference_bytes) over c's fleet; 0
// for a floor or a profile. Saturates.
uint64_t reference_bytes(const Config& c);
// The table's estimate (KernelInfo::table_bytes) over c's fleet; a profile's
// own estimate for profiles. Saturates.
uint64_t table_bytes(const Config& c);
// The part of a ring-based table's estimate that the shared sorted ring (and
// the entries it is made from) already paid for.
uint64_t shared_ring_bytes(const Config& c);

// Per configuration: Google Benchmark's bookkeeping, a thread team, the
// pool's owners, console and JSON, freeing what the configuration built;
// and the noise canary (kCanaryEstimateSeconds). Measured: a configuration
// of a small ring in family tokens took 25 ms more than its timed runs and
// the search before them (stderr's progress lines time-stamped, 2026-12-02).
inline constexpr double kConfigSeconds = 0.03;
// Making a pool key: its hash; its string.
inline constexpr double kKeyHashNs = 40;
inline constexpr double kKeyStringNs = 60;
// The shared sorted ring: hashing a token's label, sorting it (both cores),
// the ring arrays on huge pages (measured: 1.1-1.6 s for a ring of 1.6 x 10^7
// tokens, 0.7-0.9 s for 10^7; build_shared_ms, Zen 5, 2 vCPUs, 2026-12-07).
inline constexpr double kRingTokenNs = 90;
// Building a table, or a reference other than the ring's, per byte of its
// registry estimate (table_bytes less the shared sorted ring's part for a
// table built over it). Measured: ring/bucketed's own build over a ring of
// 1.6 x 10^7 tokens, 1.1-1.6 s for about 10^9 bytes of its estimate.
inline constexpr double kBuildNsPerByte = 1.0;

// Nanoseconds a key of configuration `c` takes per pass: the path's typical
// kernel, or N scores where the scheme scores every node.
double key_ns(const Config& c);
// Seconds building c's table (or reference, or change build) from a fleet of
// named nodes takes besides its bytes; 0 over the shared sorted ring.
double named_build_seconds(const Config& c);
// The reference's owner of a key: kReferenceNs, or N scalar scores where the
// scheme scores every node.
double reference_key_ns(const Config& c);
// A member's rounds in one visit: a slice of at least min time (whole
// batches, one at least) and its warm-up each round, and in the first visit
// (`calibrated` false) the calibration of the slice before the first
// (rounds.cc); later visits keep the first's slice.
double timing_seconds(const Config& c, const TimeModel& m, unsigned rounds, bool calibrated);

}  // namespace cost

}  // namespace chbench::bench
