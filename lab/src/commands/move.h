// chbench-lab move: which keys change owner when nodes join or leave. The
// before and after tables are built from Fleets: the initial fleet, then its
// leaves and joins (apply_change), so schemes that read a fleet's history get
// it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chbench/fleet.h"
#include "commands/setup.h"
#include "keys.h"
#include "placement.h"

namespace chbench::lab {

// The change asked for: nodes that join (appended) or leave, and whether to
// name every moved key.
struct MoveRequest {
  std::vector<std::string> add, remove;
  bool list = false;
};

// Where one removed node's keys went, or where one added node's came from.
struct Flow {
  uint32_t node = 0;  // the removed node's index in `before`, or the added one's in `after`
  uint64_t keys = 0;  // all of its moved keys
  // Receivers (indices into `after`) or donors (into `before`) with their
  // counts, busiest first, ties in list order; only nodes with keys.
  std::vector<std::pair<uint32_t, uint64_t>> peers;
};

// Which change a move measures. Without a scenario, or with --add/--remove
// after one, the change asked for; with a scenario and no such change, the
// scenario's last step: its re-adds (--readd), else its removals.
enum class MoveStep { kChange, kRemovals, kReadds };

// The result of a move, everything the writers print.
// move --replicas R: how the keys' replica sets (R owners in preference
// order, ReplicaTable) changed, compared as sets of node names.
struct ReplicaMove {
  uint32_t r = 0;
  uint64_t changed = 0;  // keys whose set has a member it did not have before
  uint64_t members = 0;  // over all keys: the members not in the key's set before
  // by_members[m]: the keys with m new members, m = 0 ... R.
  std::vector<uint64_t> by_members;
};

struct MoveReport {
  // `after` made by the move (owned), or one that outlives the report.
  MoveReport(const KeySet& k, const Fleet& b, Fleet&& a)
      : keys(&k),
        before(b),
        owned_after(std::make_unique<Fleet>(std::move(a))),
        after(*owned_after) {}
  MoveReport(const KeySet& k, const Fleet& b, const Fleet& a) : keys(&k), before(b), after(a) {}

  const KeySet* keys = nullptr;  // the keys measured (for the moved-key listing)
  // The fleets before and after the change, by reference: the Setup's (the
  // report must not outlive it) or the one the move made (apply_change: a
  // copy, changed), held on the heap so that it stays put when the report
  // moves.
  const Fleet& before;
  std::unique_ptr<const Fleet> owned_after;
  const Fleet& after;
  MoveStep step = MoveStep::kChange;
  MoveResult result;
  // One per result.removed and result.added, in list order; left empty for
  // a scenario's own step (kRemovals, kReadds: up to millions of nodes, so
  // counts only).
  std::vector<Flow> from_removed;
  std::vector<Flow> to_added;
  // kReadds: what came back, against the fleet before the removals.
  std::optional<ReturnResult> returns;
  // The closed form of a growth N -> N + 1 (SchemeInfo::growth), where the
  // scheme has one and it holds.
  std::optional<GrowthShares> theory;
  bool list = false;                        // result.moved_keys is filled
  std::optional<ReplicaMove> replica_sets;  // with --replicas
};

// Checks the request (a change at all, unless a scenario gives one; Kafka
// only adds partitions; with --list, that every key fits in memory), applies
// it to s.fleet and measures the move (MoveStep says which). Throws
// std::invalid_argument for a refused request, and like apply_change,
// rejoining and measure_move.
MoveReport run_move(const Setup& s, const MoveRequest& request, const KeySet& keys);

// Calls fn(key, from, to) for every moved key in key order: its bytes and the
// names of its old and new owner (owner_name). Each is valid during the call only.
template <class Fn>
void for_each_moved_key(const MoveReport& r, Fn&& fn) {
  std::string key;
  for (const MovedKey& m : r.result.moved_keys) {
    key.clear();
    r.keys->append_key(m.key, key);
    fn(std::string_view(key), owner_name(r.before, m.from), owner_name(r.after, m.to));
  }
}

}  // namespace chbench::lab
