// Everything a configuration needs before it is timed, built once and shared
// as plan.h describes: the key pool, the references' owners, the shared sorted
// rings, the tables; and the check of each table's owners against its
// scheme's reference, before any timing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "chbench/parallel.h"
#include "chbench/ring/bounded_loads.h"
#include "config.h"
#include "plan.h"
#include "profiles.h"

namespace chbench::bench {

// The default keys user:1, user:2, ... as hashes (squeezed into a cluster
// window on request) and as strings: the longest pool asked for so far.
class KeyPool {
 public:
  // The first `count` key hashes, into_cluster(·, window_bits) when
  // window_bits != 0. Valid until the next call.
  std::span<const uint64_t> hashes(uint64_t count, unsigned window_bits);
  // The first `count` key strings (at least). Valid until the next call.
  KeyBytes strings(uint64_t count);

 private:
  std::vector<uint64_t> hashes_;
  std::map<unsigned, std::vector<uint64_t>> clustered_;  // by window bits
  std::vector<char> bytes_;
  std::vector<uint32_t> offsets_{0};
};

// One configuration, ready to time.
struct Prepared {
  std::size_t index = SIZE_MAX;           // of the configuration in the run
  const OwnerTable* table = nullptr;      // the kernel's table (not for profiles)
  const ProfileLookup* lookup = nullptr;  // path kProfile
  std::span<const uint64_t> key_hashes;   // the pool (clustered for a window)
  KeyBytes key_strings{nullptr, {}};      // paths kHashed and kProfile
  std::unique_ptr<ThreadTeam> team;
  // Path kBounded: the ring the walk goes round, its loads, the bounded table.
  std::shared_ptr<const SortedRing<uint64_t>> ring;
  std::unique_ptr<BoundedLoads> loads;
  std::unique_ptr<BoundedLoadsTable> bounded_table;
  std::vector<uint32_t> out;  // the owners of the last batch (or check)
  unsigned threads_ran = 0;
  double build_ms = 0;         // building the table from the node list (shared part included)
  double build_shared_ms = 0;  // the part of build_ms shared with other kernels (the sorted ring)
  std::size_t memory_bytes = 0;
  // With removals: building the table over the fleet with one more removal,
  // and with one re-add (change_builds), as build_ms counts; < 0 where not
  // built (no removals, one node left).
  double remove_us = -1, readd_us = -1;
  std::string error;  // non-empty: not to be timed
};

class Workbench {
 public:
  // `configs` and `plan` outlive the workbench; configurations are prepared
  // in their order (another order only shares less). `corrupt_one_owner` is
  // the test hook that flips one owner of every configuration after its
  // kernel ran (every configuration is then checked).
  Workbench(std::span<const Config> configs, const Plan& plan, bool corrupt_one_owner);

  // Starts comparison group `g` (plan.h): what no configuration from its
  // first on needs goes, and the large tables of earlier groups; the
  // group's tables are then kept together until the next group starts.
  void begin_group(GroupSpan g);
  // Configuration i of the current group, built, warmed up and checked; a
  // mismatch or an exception leaves its text in Prepared::error (and is
  // counted). The same object is returned until the next group starts.
  Prepared& prepare(std::size_t i);
  // Starts a later visit of the run's groups (TimeModel::visits): every ring,
  // reference and table goes, and the tables are built again as the groups
  // are prepared; but the key pool stays, and the configurations are not
  // checked again (every one was, over the same tables, in the first visit)
  // nor their change builds timed (Prepared::remove_us stays -1).
  void revisit();
  // Records an error for configuration i of the current group that was not
  // prepared (a target that could not be forced), counted once.
  void fail(std::size_t i, const std::string& error);
  // Configurations that failed their check or could not be prepared.
  int failures() const noexcept { return failures_; }

 private:
  struct Ring {
    std::shared_ptr<const SortedRing<uint64_t>> ring;
    double ms = 0;
  };
  struct Table {
    std::unique_ptr<OwnerTable> table;
    std::unique_ptr<ProfileLookup> lookup;
    double build_ms = 0, shared_ms = 0;
    uint64_t bytes = 0;  // the registry's estimate, for what is kept
  };

  void drop_unused(std::size_t first);
  void release_entries();
  void refresh_keys();
  const std::vector<RingEntry<uint64_t>>& entries_for(const Config& c);
  const Ring& ring_for(const Config& c);
  const std::vector<uint32_t>& reference_for(const Config& c);
  Table& table_for(const Config& c);
  Table build_table(const Config& c);
  void time_changes(const Config& c, Prepared& p);
  void check(const Config& c, Prepared& p, const std::vector<uint32_t>* want);
  void prepare_bounded(const Config& c, Prepared& p);
  void check_bounded(const Config& c, Prepared& p, const std::vector<uint32_t>* want);

  std::span<const Config> configs_;
  const Plan& plan_;
  bool corrupt_one_owner_;
  int failures_ = 0;
  bool revisit_ = false;  // a later visit: no references, checks or change builds
  KeyPool keys_;
  // The entries of one ring, alive while one configuration is prepared.
  std::optional<RingKey> entries_key_;
  std::vector<RingEntry<uint64_t>> entries_;
  double entries_ms_ = 0;
  std::map<RingKey, Ring> rings_;
  std::map<ReferenceKey, std::vector<uint32_t>> references_;
  std::map<TableKey, Table> tables_;
  std::vector<TableKey> table_order_;  // oldest first
  std::map<CheckKey, uint64_t> checked_;
  std::set<TableKey> pinned_;                 // the current group's tables
  std::map<std::size_t, Prepared> prepared_;  // the current group's members
};

}  // namespace chbench::bench
