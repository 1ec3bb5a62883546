// What a sweep builds and checks before timing, shared between configurations,
// and how long it takes: the plan the runner (workbench.h) follows and the
// estimate that --list prints and the quick sweep's budgets select points by.
//
// Sharing: configurations run in order, and each reuses what an earlier one
// built, until the last configuration that needs it has run:
// - the key pool (hashes, and key strings for the hashed and profile paths):
//   one pool for the longest any configuration needs so far, since a shorter
//   pool is a prefix of a longer one;
// - the reference's owners per fleet (scheme or profile, N, V, cluster
//   window), computed once over the longest pool any configuration of that
//   fleet needs, whatever its family;
// - the sorted ring per ring size and window, which every kernel with
//   KernelInfo::make_over_ring is built over (the hashing and sorting of the
//   tokens happen once per ring, not once per kernel);
// - built tables (kernel, fleet, window, knob, target), kept to their last use
//   when they are small (threads, batch and hashed use the same tables);
// - the check: a table's owners on a path and thread count are compared with
//   the reference once, over the longest pool; later configurations only warm
//   up on one batch.
// A fleet after removals (Config::removals, family removals) is another fleet:
// its references, rings and tables are its own. Its change builds (remove_us,
// readd_us) build a table each, dropped at once, a ring kernel's over a
// sorted ring of the changed fleet, shared like the others.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "config.h"

namespace chbench::bench {

// ---- what is shared, by key ---------------------------------------------------------

// Every key holds the configuration's removals (Config::removals), so that
// rings, references and tables of different fleets are never shared, and
// the count parameters the scheme takes (Maglev's M, the capacity, ...).
struct RingKey {
  uint32_t n = 0, v = 0;
  unsigned window = 0;
  std::optional<Removals> removals;
  Change change = Change::kNone;  // the rings of the remove_us / readd_us builds
  friend auto operator<=>(const RingKey&, const RingKey&) = default;
};

struct ReferenceKey {
  int scheme = -1, profile = -1;  // Scheme or Profile as int; -1 for none
  uint32_t n = 0, v = 0;          // v is 0 for schemes that take no virtual nodes
  unsigned window = 0;
  std::optional<Removals> removals;
  ParamCounts counts{};   // Config::named_counts()
  bool weighted = false;  // Config::scheme_weighted()
  friend auto operator<=>(const ReferenceKey&, const ReferenceKey&) = default;
};

struct TableKey {
  std::uintptr_t kernel = 0;  // the KernelInfo's address; 0 for a profile's client
  int profile = -1;
  uint32_t n = 0, v = 0;
  unsigned window = 0, knob = 0;
  int64_t target = 0;
  std::optional<Removals> removals;
  ParamCounts counts{};   // Config::named_counts()
  bool weighted = false;  // Config::scheme_weighted()
  uint32_t replicas = 0;  // Config::replicas
  friend auto operator<=>(const TableKey&, const TableKey&) = default;
};

struct CheckKey {
  TableKey table;
  Path path = Path::kThroughput;
  unsigned threads = 1;  // 1 on the single-threaded paths
  friend auto operator<=>(const CheckKey&, const CheckKey&) = default;
};

// The sorted ring a configuration's table is built over, or none (a kernel
// without make_over_ring, the stream baseline, a profile).
std::optional<RingKey> ring_key(const Config& c);
// The change builds a configuration makes before it is timed (remove_us,
// readd_us): with removals, the fleet with one more removal (unless one node
// is left) and with one re-add; none otherwise, nor for the stream baseline
// or a profile. Each is `c` with Config::change set.
std::vector<Config> change_builds(const Config& c);
// The reference a configuration is checked against, or none (the stream
// baseline).
std::optional<ReferenceKey> reference_key(const Config& c);
TableKey table_key(const Config& c);
CheckKey check_key(const Config& c);

// Tables up to this estimate (KernelInfo::table_bytes) are kept to their last
// use, as long as those kept add up to at most kKeptTablesBytes; larger ones
// are freed before the next configuration that times another is prepared.
inline constexpr uint64_t kKeepTableBytes = uint64_t{32} << 20;
inline constexpr uint64_t kKeptTablesBytes = uint64_t{256} << 20;

// ---- the estimate -------------------------------------------------------------------

// How each comparison group is timed (rounds.h): `rounds` rounds, each
// running every member once for a slice of at least `min_time_s` seconds
// (whole batches, at least one) after its warm-up.
// A group whose slowest member's batch is longer than the slice runs fewer
// rounds (group_rounds), at least `min_rounds`.
struct TimeModel {
  unsigned rounds = 30;
  double min_time_s = 0.005;
  unsigned min_rounds = 10;
};

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

// The configurations [first, last) of the run that form one comparison
// group (rounds.h).
struct GroupSpan {
  std::size_t first = 0, last = 0;
};

// The run's comparison groups in order: maximal runs of consecutive
// configurations with the same Config::group.
std::vector<GroupSpan> comparison_groups(std::span<const Config> configs);

// Bytes a member adds to what its group holds through its rounds, by the
// registry's estimate: its table (less the shared sorted ring's part) and
// its owners. Saturates.
uint64_t group_member_bytes(const Config& c);

// A point whose members would hold more than this together is split into
// consecutive groups that hold at most this each (one member at least), so
// that the quick sweep fits a machine with a few GiB free.
inline constexpr uint64_t kMaxGroupBytes = uint64_t{2} << 30;

// The estimate's share of the noise canary (canary.h) before each
// comparison group: 3 rounds of two ~0.5 ms loops and the buffer's warm-up.
inline constexpr double kCanaryEstimateSeconds = 0.004;

// One configuration's part of the plan, in run order.
struct Step {
  uint64_t new_key_hashes = 0;    // key hashes generated for the pool
  uint64_t new_key_bytes = 0;     // key strings generated for the pool
  bool new_ring = false;          // the shared sorted ring is built
  uint64_t reference_pool = 0;    // != 0: the reference's owners are computed over this many keys
  bool new_table = false;         // the table is built
  bool check = false;             // owners compared with the reference over the pool
  std::size_t change_builds = 0;  // tables built for remove_us and readd_us (change_builds)
  double seconds = 0;             // the estimate, preparation and timing
  uint64_t peak_bytes = 0;        // memory held at the peak of this step, caches included
  unsigned rounds = 0;            // its group's (group_rounds of the estimated batch times)
};

// The plan of a list of configurations run in this order.
class Plan {
 public:
  Plan(std::span<const Config> configs, const TimeModel& model);

  const Step& step(std::size_t i) const { return steps_[i]; }
  std::size_t size() const noexcept { return steps_.size(); }
  double seconds() const noexcept;
  // The configuration whose step holds the most memory, and that memory.
  std::size_t peak_step() const noexcept;

  // The longest pool any configuration checked against `key` needs.
  uint64_t reference_pool(const ReferenceKey& key) const;
  // The index of the last configuration of the last comparison group that
  // uses the key (what a group uses lives until its rounds end), or 0 if
  // none.
  std::size_t last_use(const RingKey& key) const;
  std::size_t last_use(const ReferenceKey& key) const;
  std::size_t last_use(const TableKey& key) const;

 private:
  std::vector<Step> steps_;
  std::map<ReferenceKey, uint64_t> reference_pools_;
  std::map<RingKey, std::size_t> ring_last_;
  std::map<ReferenceKey, std::size_t> reference_last_;
  std::map<TableKey, std::size_t> table_last_;
};

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

// "1:05" for 65 seconds; "12:00:05" past an hour.
std::string clock_string(double seconds);

}  // namespace chbench::bench
