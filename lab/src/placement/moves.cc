#include "placement/moves.h"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <array>
#include <unordered_map>

#include "placement/blocks.h"
#include "placement/node_index.h"

namespace chbench::lab {

namespace {

// How the nodes of the two fleets correspond: each node's index in the other
// list (kNone if absent) and its rank among the removed / added nodes (kNone
// if it stays). By name, in arrays over both lists; for two fleets of
// buckets by index (the first min(N, N') buckets stay), with no array.
// Fills result.removed and result.added.
class NodeMatch {
 public:
  NodeMatch(const Fleet& before, const Fleet& after, MoveResult& result);

  uint32_t old_to_new(uint32_t b) const {
    return by_index_ ? (b < kept_ ? b : kNone) : old_to_new_[b];
  }
  uint32_t new_to_old(uint32_t a) const {
    return by_index_ ? (a < kept_ ? a : kNone) : new_to_old_[a];
  }
  uint32_t removed_rank(uint32_t b) const { return by_index_ ? b - kept_ : removed_rank_[b]; }
  uint32_t added_rank(uint32_t a) const { return by_index_ ? a - kept_ : added_rank_[a]; }

 private:
  bool by_index_ = false;
  uint32_t kept_ = 0;
  std::vector<uint32_t> old_to_new_, new_to_old_, removed_rank_, added_rank_;
};

NodeMatch::NodeMatch(const Fleet& before, const Fleet& after, MoveResult& result) {
  const uint32_t n_before = before.size(), n_after = after.size();
  if (!before.named() && !after.named()) {
    by_index_ = true;
    kept_ = std::min(n_before, n_after);
    for (uint32_t b = kept_; b < n_before; ++b) result.removed.push_back(b);
    for (uint32_t a = kept_; a < n_after; ++a) result.added.push_back(a);
    return;
  }
  old_to_new_.assign(n_before, kNone);
  new_to_old_.assign(n_after, kNone);
  removed_rank_.assign(n_before, kNone);
  added_rank_.assign(n_after, kNone);
  const NodeIndex new_index(after);
  for (uint32_t b = 0; b < n_before; ++b) {
    const uint32_t a = new_index.find(owner_name(before, b));
    if (a != kNone) {
      old_to_new_[b] = a;
      new_to_old_[a] = b;
    } else {
      removed_rank_[b] = static_cast<uint32_t>(result.removed.size());
      result.removed.push_back(b);
    }
  }
  for (uint32_t a = 0; a < n_after; ++a)
    if (new_to_old_[a] == kNone) {
      added_rank_[a] = static_cast<uint32_t>(result.added.size());
      result.added.push_back(a);
    }
}

// Runs body(first, from, to) over keys 0 ... K-1 in parallel blocks: from[i]
// and to[i] are key first + i's owners in the two tables.
template <class Body>
void for_each_owner_pair(const OwnerTable& old_table, const OwnerTable& new_table,
                         const KeySet& keys, std::optional<Profile> profile, const Body& body) {
  for_each_block(keys, 0, keys.size(), profile,
                 [&](uint64_t first, std::span<const uint64_t> hashes) {
                   std::array<uint32_t, kBlock> from_buf, to_buf;
                   const std::span<uint32_t> from(from_buf.data(), hashes.size()),
                       to(to_buf.data(), hashes.size());
                   old_table.owners(hashes, from);
                   new_table.owners(hashes, to);
                   body(first, std::span<const uint32_t>(from), std::span<const uint32_t>(to));
                 });
}

// Flow cells: removed_to's [rank][after node] first, then added_from's
// [rank][before node], flattened. Up to this many, each thread counts every
// cell; above (a fleet of 2^31 buckets), only those keys moved through.
constexpr uint64_t kDenseFlowCells = uint64_t{1} << 20;

// One thread's counts.
struct Tally {
  uint64_t moved = 0, between_old = 0, from_removed = 0, to_added = 0;
  std::vector<uint64_t> dense;                    // every cell, when few
  std::unordered_map<uint64_t, uint64_t> sparse;  // else the cells used
  void flow(uint64_t cell) {
    if (!dense.empty())
      ++dense[cell];
    else
      ++sparse[cell];
  }
};

// Adds every thread's counts into `result` (whose removed / added are set):
// the flows as lists of the cells used, ascending.
void merge(const tbb::enumerable_thread_specific<Tally>& tallies, uint32_t before_size,
           uint32_t after_size, MoveResult& result) {
  const uint64_t removed_cells = uint64_t{result.removed.size()} * after_size;
  std::unordered_map<uint64_t, uint64_t> sums;
  for (const Tally& t : tallies) {
    result.moved += t.moved;
    result.between_old += t.between_old;
    result.from_removed += t.from_removed;
    result.to_added += t.to_added;
    for (uint64_t c = 0; c < t.dense.size(); ++c)
      if (t.dense[c] != 0) sums[c] += t.dense[c];
    for (const auto& [c, keys] : t.sparse) sums[c] += keys;
  }
  std::vector<std::pair<uint64_t, uint64_t>> cells(sums.begin(), sums.end());
  std::sort(cells.begin(), cells.end());
  result.removed_to.assign(result.removed.size(), {});
  result.added_from.assign(result.added.size(), {});
  for (const auto& [c, keys] : cells) {
    if (c < removed_cells) {
      result.removed_to[c / after_size].emplace_back(static_cast<uint32_t>(c % after_size), keys);
    } else {
      const uint64_t d = c - removed_cells;
      result.added_from[d / before_size].emplace_back(static_cast<uint32_t>(d % before_size), keys);
    }
  }
}

}  // namespace

MoveResult measure_move(Scheme scheme, const Fleet& before, const Fleet& after, const KeySet& keys,
                        bool list, std::string_view kernel) {
  return measure_move(Placement{scheme, std::nullopt, {}}, before, after, keys, list, kernel);
}

MoveResult measure_move(const Placement& placement, const Fleet& before, const Fleet& after,
                        const KeySet& keys, bool list, std::string_view kernel) {
  const auto old_table = make_table(placement, before, kernel);
  const auto new_table = make_table(placement, after, kernel);
  MoveResult result;
  result.keys = keys.size();
  const NodeMatch m(before, after, result);
  const uint64_t n_before = before.size(), n_after = after.size();
  const uint64_t removed_cells = result.removed.size() * n_after;
  const uint64_t cells = removed_cells + result.added.size() * n_before;
  tbb::enumerable_thread_specific<Tally> tallies([&] {
    Tally t;
    if (cells <= kDenseFlowCells) t.dense.assign(cells, 0);
    return t;
  });
  // With `list`, each block's moved keys go to that block's slot, so that the
  // list comes out in key order however the blocks were scheduled.
  const uint64_t blocks = (keys.size() + kBlock - 1) / kBlock;
  std::vector<std::vector<MovedKey>> moved_per_block(list ? blocks : 0);

  for_each_owner_pair(
      *old_table, *new_table, keys, placement.profile,
      [&](uint64_t first, std::span<const uint32_t> from, std::span<const uint32_t> to) {
        Tally& t = tallies.local();
        std::vector<MovedKey>* listed = list ? &moved_per_block[first / kBlock] : nullptr;
        for (std::size_t i = 0; i < from.size(); ++i) {
          const uint32_t b = from[i], a = to[i];
          if (m.old_to_new(b) == a) continue;
          ++t.moved;
          const bool left = m.old_to_new(b) == kNone, arrived = m.new_to_old(a) == kNone;
          t.between_old += !left && !arrived;
          if (left) {
            ++t.from_removed;
            t.flow(m.removed_rank(b) * n_after + a);
          }
          if (arrived) {
            ++t.to_added;
            t.flow(removed_cells + m.added_rank(a) * n_before + b);
          }
          if (listed) listed->push_back({first + i, b, a});
        }
      });

  merge(tallies, before.size(), after.size(), result);
  if (list) {
    result.moved_keys.reserve(result.moved);
    for (auto& block : moved_per_block) {
      result.moved_keys.insert(result.moved_keys.end(), block.begin(), block.end());
      std::vector<MovedKey>().swap(block);
    }
  }
  return result;
}

ReturnResult measure_return(const Placement& placement, const Fleet& initial, const Fleet& after,
                            uint32_t first_readded, const KeySet& keys, std::string_view kernel) {
  const auto old_table = make_table(placement, initial, kernel);
  const auto new_table = make_table(placement, after, kernel);
  MoveResult unused;
  const NodeMatch m(initial, after, unused);
  tbb::enumerable_thread_specific<ReturnResult> tallies;
  for_each_owner_pair(*old_table, *new_table, keys, placement.profile,
                      [&](uint64_t, std::span<const uint32_t> from, std::span<const uint32_t> to) {
                        ReturnResult& t = tallies.local();
                        for (std::size_t i = 0; i < from.size(); ++i) {
                          const uint32_t was = m.old_to_new(from[i]);  // kNone: still removed
                          const bool readded = was != kNone && was >= first_readded;
                          t.old_keys += readded;
                          t.returned += readded && to[i] == was;
                          t.relocated += to[i] != was;
                        }
                      });
  ReturnResult r;
  r.keys = keys.size();
  for (const ReturnResult& t : tallies) {
    r.old_keys += t.old_keys;
    r.returned += t.returned;
    r.relocated += t.relocated;
  }
  return r;
}

}  // namespace chbench::lab
