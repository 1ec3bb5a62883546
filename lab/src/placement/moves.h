// What a change of the fleet does to the keys: which move, between which
// nodes, and what re-adding removed nodes gives back. Tables and lookups as
// placement/tables.h builds them, in parallel blocks on oneTBB.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/scheme.h"
#include "keys.h"
#include "placement/tables.h"

namespace chbench::lab {

// A key whose owner changed: its position and old and new owners (indices into
// the `before` and `after` fleets' node lists).
struct MovedKey {
  uint64_t key;
  uint32_t from;
  uint32_t to;
};

// What a change of the fleet does to K keys. Nodes are matched by name: a key
// "moves" when the name of its owner changes. Counts are keys.
struct MoveResult {
  uint64_t keys = 0;
  uint64_t moved = 0;
  // Moved between two nodes present in both lists: the moves a consistent
  // scheme avoids (mod-N's waste).
  uint64_t between_old = 0;
  // Keys whose old owner is not in `after` (all of them move), and keys whose
  // new owner is not in `before` (all of them moved).
  uint64_t from_removed = 0;
  uint64_t to_added = 0;
  // Indices of the removed nodes into `before`, and of the added ones into
  // `after`, in list order.
  std::vector<uint32_t> removed;
  std::vector<uint32_t> added;
  // removed_to[r]: (after node a, keys of before node removed[r] now owned by
  // a) for every a that received some, ascending by a.
  std::vector<std::vector<std::pair<uint32_t, uint64_t>>> removed_to;
  // added_from[j]: (before node b, keys of after node added[j] formerly owned
  // by b) for every b that gave some, ascending by b.
  std::vector<std::vector<std::pair<uint32_t, uint64_t>>> added_from;
  // With `list`: every moved key, ascending by position. Otherwise empty.
  std::vector<MovedKey> moved_keys;
};

// Builds a table from each fleet (make_table: `after` is typically
// apply_change(before, ...), whose history a scheme may read), looks every key
// up in both, in parallel blocks, and classifies it. Both fleets must be valid
// for the scheme (their vnodes are used for the ring). Two fleets of buckets
// are matched by index (bucket i is node-<i> in both), with no memory per
// node; otherwise by name. Memory: O(threads * block), O(N_before + N_after)
// for matching named fleets, the flows (per thread: dense counts while
// (removed + added) * N stays under 2^20 cells, else only the cells that
// keys moved through), plus 16 bytes per moved key with `list`. Throws like
// make_table().
MoveResult measure_move(Scheme scheme, const Fleet& before, const Fleet& after, const KeySet& keys,
                        bool list = false, std::string_view kernel = {});
MoveResult measure_move(const Placement& placement, const Fleet& before, const Fleet& after,
                        const KeySet& keys, bool list = false, std::string_view kernel = {});

// What re-adding removed nodes gives back (SUPSI's monotonicity figures after
// the restore): the re-added nodes are those of `after` from index
// `first_readded` on (joins append), and each key's owner in `after` is
// compared with its owner in `initial`, the fleet before the removals, by name.
struct ReturnResult {
  uint64_t keys = 0;
  uint64_t old_keys = 0;   // keys a re-added node owned before the removals
  uint64_t returned = 0;   // of those, the keys back on that node
  uint64_t relocated = 0;  // keys whose owner differs from their owner before the removals
};

// Builds a table from each fleet, looks every key up in both (in parallel
// blocks) and counts. Memory: the two tables and O(N) for matching named
// fleets (none for two fleets of buckets). Throws like make_table().
ReturnResult measure_return(const Placement& placement, const Fleet& initial, const Fleet& after,
                            uint32_t first_readded, const KeySet& keys,
                            std::string_view kernel = {});

}  // namespace chbench::lab
