// chbench-lab move: which keys change owner when nodes join or leave. The
// before and after tables are built from Fleets: the initial fleet, then its
// leaves and joins (apply_change), so schemes that read a fleet's history get
// it.
#pragma once

#include <cstdint>
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

// The result of a move, everything the writers print.
struct MoveReport {
  MoveReport(const KeySet& k, const Fleet& b, Fleet a) : keys(&k), before(b), after(std::move(a)) {}

  const KeySet* keys = nullptr;  // the keys measured (for the moved-key listing)
  // The Setup's fleet, by reference (the report must not outlive it), and the
  // fleet after the change (apply_change: a copy, changed).
  const Fleet& before;
  Fleet after;
  MoveResult result;
  std::vector<Flow> from_removed;  // one per result.removed, in list order
  std::vector<Flow> to_added;      // one per result.added, in list order
  // The closed form of a growth N -> N + 1 (growth_theory), where it holds.
  std::optional<GrowthTheory> theory;
  bool list = false;  // result.moved_keys is filled
};

// Checks the request (a change at all; Kafka only adds partitions; with
// --list, that every key fits in memory), applies it to s.fleet and measures
// the move. Throws std::invalid_argument for a refused request, and like
// apply_change and measure_move.
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
