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
//
// The keys of what is shared: plan_keys.h; what each configuration costs in
// bytes and seconds (the memory and time models): plan_cost.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "config.h"
#include "plan_cost.h"
#include "plan_keys.h"

namespace chbench::bench {

// Tables up to this estimate (KernelInfo::table_bytes) are kept to their last
// use, as long as those kept add up to at most kKeptTablesBytes; larger ones
// are freed before the next configuration that times another is prepared.
inline constexpr uint64_t kKeepTableBytes = uint64_t{32} << 20;
inline constexpr uint64_t kKeptTablesBytes = uint64_t{256} << 20;

// ---- the estimate -------------------------------------------------------------------

// The configurations [first, last) of the run that form one comparison
// group (rounds.h).
struct GroupSpan {
  std::size_t first = 0, last = 0;
};

// The run's comparison groups in order: maximal runs of consecutive
// configurations with the same Config::group.
std::vector<GroupSpan> comparison_groups(std::span<const Config> configs);

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
  double seconds = 0;             // the estimate of its first visit, preparation and timing
  double later_seconds = 0;       // the estimate of its later visits together (TimeModel::visits)
  uint64_t peak_bytes = 0;        // memory held at the peak of this step, caches included
  unsigned rounds = 0;            // its group's (group_rounds of the estimated batch times)
  unsigned visits = 1;            // its group's (group_visits)
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
  void add_step(const Step& s, unsigned visit, std::size_t i);

  std::vector<Step> steps_;
  std::map<ReferenceKey, uint64_t> reference_pools_;
  std::map<RingKey, std::size_t> ring_last_;
  std::map<ReferenceKey, std::size_t> reference_last_;
  std::map<TableKey, std::size_t> table_last_;
};

// "1:05" for 65 seconds; "12:00:05" past an hour.
std::string clock_string(double seconds);

}  // namespace chbench::bench
