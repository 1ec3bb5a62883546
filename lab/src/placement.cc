#include "placement.h"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "chbench/hash.h"
#include "chbench/memory.h"
#include "chbench/ring/ring.h"

namespace chbench::lab {

namespace {

// Keys per block: the hashes and both owner arrays of a block (32 KiB) stay in
// L1/L2 while the kernels run, and 10^7 keys still make thousands of tasks.
constexpr uint64_t kBlock = 2048;

// Runs body(first, hashes) over keys [begin, end) in blocks of kBlock, in
// parallel; `hashes` holds the key hashes of keys first ... first + size - 1.
template <class Body>
void for_each_block(const KeySet& keys, uint64_t begin, uint64_t end,
                    std::optional<Profile> profile, const Body& body) {
  const uint64_t blocks = (end - begin + kBlock - 1) / kBlock;
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, blocks), [&](const auto& range) {
    std::array<uint64_t, kBlock> hashes;
    for (uint64_t b = range.begin(); b != range.end(); ++b) {
      const uint64_t first = begin + b * kBlock;
      const std::span<uint64_t> h(hashes.data(), std::min(kBlock, end - first));
      keys.hashes(first, h, profile);
      body(first, std::span<const uint64_t>(h));
    }
  });
}

// Name -> index of a node list.
std::unordered_map<std::string_view, uint32_t> index_of(const NodeSet& nodes) {
  std::unordered_map<std::string_view, uint32_t> index;
  index.reserve(nodes.names.size());
  for (uint32_t i = 0; i < nodes.size(); ++i) index.emplace(nodes.names[i], i);
  return index;
}

void check_distinct(std::span<const std::string> names, const char* option) {
  std::unordered_set<std::string_view> seen;
  for (const auto& name : names)
    if (!seen.insert(name).second)
      throw std::invalid_argument("node '" + name + "' is listed twice in " + option);
}

// The kernel of the placement's scheme that make_table builds for `kernel`
// ("" = default_kernel_name). Throws std::invalid_argument for an unknown one.
// A profile names itself in the message.
const KernelInfo& kernel_of(const Placement& placement, std::string_view kernel) {
  const std::string_view name = kernel.empty() ? default_kernel_name(placement) : kernel;
  if (!placement.profile) return find_kernel(placement.scheme, name);
  try {
    return find_kernel(placement.scheme, name);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(
        "the " + std::string(profile_name(*placement.profile)) + " profile's lookups run on the " +
        std::string(scheme_name(placement.scheme)) + " kernels or its reference: " + e.what());
  }
}

// A node list whose table in the profile's scheme holds as many entries as
// the profile's own table: ketama's continuum points as ring tokens (rounded
// up to whole tokens per server; ketama_unweighted's 100), Redis's slot table as a Maglev table of
// 16384 slots; the other profiles' tables are their scheme's over as many
// nodes. The estimates read only N, V and M, so its names are left empty:
// no name is copied (N empty strings, 32 B each, freed before any table is
// built).
NodeSet profile_sized_nodes(const Placement& placement, const NodeSet& nodes) {
  NodeSet sized;
  sized.names.resize(nodes.size());
  sized.vnodes = nodes.vnodes;
  sized.probes = nodes.probes;
  sized.table_size = placement.profile == Profile::kRedis ? 16384 : nodes.table_size;
  if (placement.profile == Profile::kKetamaUnweighted) sized.vnodes = kKetamaUnweightedPoints;
  if (placement.profile != Profile::kKetama) return sized;
  const uint64_t n = nodes.size();
  const uint64_t points = ketama_point_count(placement, nodes);
  const uint64_t per_server = n == 0 ? 0 : (points + n - 1) / n;
  sized.vnodes = static_cast<uint32_t>(std::min<uint64_t>(per_server, 0xffffffffu));
  return sized;
}

}  // namespace

namespace {

// Calls f(points) for each server of `nodes` in order: ketama_points_per_server
// of its weight (placement.weights by name, 1 if not listed).
template <class F>
void for_each_ketama_points(const Placement& placement, const NodeSet& nodes, const F& f) {
  const uint64_t n = nodes.size();
  if (placement.profile == Profile::kKetamaUnweighted) {
    for (uint64_t i = 0; i < n; ++i) f(kKetamaUnweightedPoints);
    return;
  }
  if (placement.weights.empty()) {
    const uint32_t points = ketama_points_per_server(1, n, nodes.size());
    for (uint64_t i = 0; i < n; ++i) f(points);
    return;
  }
  auto weight = [&](const std::string& name) -> uint64_t {
    const auto w = placement.weights.find(name);
    return w == placement.weights.end() ? 1 : w->second;
  };
  uint64_t total_weight = 0;
  for (const auto& name : nodes.names) total_weight += weight(name);
  for (const auto& name : nodes.names)
    f(ketama_points_per_server(weight(name), total_weight, nodes.size()));
}

}  // namespace

bool is_ketama(const Placement& placement) noexcept {
  return placement.profile == Profile::kKetama || placement.profile == Profile::kKetamaUnweighted;
}

uint64_t ketama_point_count(const Placement& placement, const NodeSet& nodes) {
  uint64_t points = 0;
  for_each_ketama_points(placement, nodes, [&](uint32_t p) { points += p; });
  return points;
}

std::vector<uint32_t> ketama_points(const Placement& placement, const NodeSet& nodes) {
  std::vector<uint32_t> points;
  points.reserve(nodes.size());
  for_each_ketama_points(placement, nodes, [&](uint32_t p) { points.push_back(p); });
  return points;
}

namespace {

// The estimate of kernel (or "reference") over `fleet`.
uint64_t scheme_table_bytes(const Placement& placement, const Fleet& fleet,
                            std::string_view kernel) {
  if (kernel == "reference") return scheme_info(placement.scheme).reference_bytes(fleet);
  return kernel_of(placement, kernel).table_bytes(fleet);
}

}  // namespace

// ---- Tables -----------------------------------------------------------------------

std::string_view default_kernel_name(const Placement& placement) noexcept {
  return placement.profile ? default_profile_kernel(*placement.profile)
                           : default_kernel(placement.scheme).name;
}

std::string kernel_full_name(const Placement& placement, std::string_view kernel) {
  if (kernel != "reference") return kernel_of(placement, kernel).full_name();
  return std::string(placement.profile ? profile_name(*placement.profile)
                                       : scheme_name(placement.scheme)) +
         "/reference";
}

std::unique_ptr<OwnerTable> make_table(Scheme scheme, const Fleet& fleet, std::string_view kernel) {
  if (kernel == "reference") return build_reference(scheme, fleet);
  return (kernel.empty() ? default_kernel(scheme) : find_kernel(scheme, kernel)).build(fleet);
}

ProfileCluster profile_cluster(const Placement& placement, const NodeSet& nodes) {
  ProfileCluster cluster{nodes, {}};
  if (placement.profile == Profile::kKetama && !placement.weights.empty())
    for (const auto& name : nodes.names) {
      const auto it = placement.weights.find(name);
      cluster.weights.push_back(it == placement.weights.end() ? 1 : it->second);
    }
  validate_profile(*placement.profile, cluster);
  return cluster;
}

std::unique_ptr<OwnerTable> make_table(const Placement& placement, const Fleet& fleet,
                                       std::string_view kernel) {
  if (!placement.profile) return make_table(placement.scheme, fleet, kernel);
  const ProfileCluster cluster = profile_cluster(placement, fleet.nodes());
  if (kernel == "reference") return build_profile_reference(*placement.profile, cluster);
  return build_profile_table(*placement.profile, cluster, kernel);
}

uint64_t table_bytes(const Placement& placement, const Fleet& fleet, std::string_view kernel) {
  // A scheme's estimate reads `fleet` itself: never a copy of it.
  if (!placement.profile) return scheme_table_bytes(placement, fleet, kernel);
  return scheme_table_bytes(placement, Fleet(profile_sized_nodes(placement, fleet.nodes())),
                            kernel);
}

// ---- Fleet changes ----------------------------------------------------------------

std::string owner_name(const Fleet& fleet, uint32_t i) {
  return fleet.named() ? fleet.nodes().names[i] : default_node_name(i);
}

namespace {

constexpr uint32_t kNone = 0xffffffffu;

// The bucket a default name names in a fleet of n buckets: i for "node-<i>"
// (decimal, no leading zero) with i < n, else kNone.
uint32_t bucket_index(std::string_view name, uint32_t n) {
  constexpr std::string_view kPrefix = "node-";
  if (!name.starts_with(kPrefix)) return kNone;
  const std::string_view digits = name.substr(kPrefix.size());
  if (digits.empty() || (digits.size() > 1 && digits[0] == '0')) return kNone;
  uint32_t i = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), i);
  return ec == std::errc() && end == digits.data() + digits.size() && i < n ? i : kNone;
}

// A fleet's node index by name: a map over a named fleet's names (about
// 56 B a node), bucket_index() for a fleet of buckets.
class NodeIndex {
 public:
  explicit NodeIndex(const Fleet& fleet) : fleet_(fleet) {
    if (fleet.named()) map_ = index_of(fleet.nodes());
  }
  uint32_t find(std::string_view name) const {
    if (!fleet_.named()) return bucket_index(name, fleet_.size());
    const auto it = map_.find(name);
    return it == map_.end() ? kNone : it->second;
  }

 private:
  const Fleet& fleet_;
  std::unordered_map<std::string_view, uint32_t> map_;
};

// Refuses, for a scheme whose nodes can only leave from the end of the list
// (Removal::kLastOnly), a removal (`gone`: distinct indices) that is not a
// suffix of the list.
void check_last_only(Scheme scheme, const Fleet& before, std::span<const uint32_t> gone) {
  if (gone.empty()) return;
  const uint32_t n = before.size();
  const std::size_t removals = gone.size(), keep = n - removals;
  const uint32_t first = *std::min_element(gone.begin(), gone.end());
  if (first >= keep) return;
  const std::string last = removals == 1 ? "only the last, '" + owner_name(before, n - 1) + "',"
                                         : "only the last " + std::to_string(removals) + ", '" +
                                               owner_name(before, static_cast<uint32_t>(keep)) +
                                               "' ... '" + owner_name(before, n - 1) + "',";
  throw std::invalid_argument(std::string(scheme_info(scheme).title) +
                              " can only remove the last bucket(s): '" + owner_name(before, first) +
                              "' is bucket " + std::to_string(first) + " of 0.." +
                              std::to_string(n - 1) + ", so " + last + " can be removed");
}

// Why `name`, given to --remove, is not in service: removed already (by the
// scenario that made `before`), or never in --nodes.
std::string not_in_service(const Fleet& before, const std::string& name) {
  const std::vector<std::string> gone = before.removed();
  if (std::find(gone.begin(), gone.end(), name) != gone.end())
    return "node '" + name +
           "' in --remove is not in service: it left already, in the removal scenario";
  return "unknown node '" + name + "' in --remove (not in --nodes)";
}

// The names a change must give (distinct, known leavers, new joiners), the
// leaves the scheme takes, and a fleet left non-empty; true when the result
// is again a fleet of buckets (bucket_change).
bool check_change(Scheme scheme, const Fleet& before, std::span<const std::string> add,
                  std::span<const std::string> remove) {
  check_distinct(add, "--add");
  check_distinct(remove, "--remove");
  const uint32_t n = before.size();
  std::vector<uint32_t> gone;
  {
    // The index (about 56 B a node when named) is gone before apply_change's copy.
    const NodeIndex index(before);
    for (const auto& name : remove) {
      gone.push_back(index.find(name));
      if (gone.back() == kNone) throw std::invalid_argument(not_in_service(before, name));
    }
    if (scheme_info(scheme).removal == Removal::kLastOnly) check_last_only(scheme, before, gone);
    for (const auto& name : add)
      if (index.find(name) != kNone)
        throw std::invalid_argument("node '" + name + "' in --add is already in --nodes");
  }
  if (remove.size() == n)
    throw std::invalid_argument(add.empty() ? "removing every node leaves no node (N = 0)"
                                            : "removing every node leaves no node (N = 0) "
                                              "before the added ones join");
  // validate()'s limit and messages; the rest of validate(after) holds
  // already: `before` is valid, the removed names exist, the added ones are
  // distinct and new. Not running it spares its set of every name.
  if (uint64_t{n} - remove.size() + add.size() > 0xffffffffu)
    throw std::invalid_argument("more than 2^32 - 1 nodes cannot be indexed by uint32_t");
  const uint64_t kept = n - remove.size();
  for (std::size_t j = 0; j < add.size(); ++j)
    if (add[j].empty())
      throw std::invalid_argument("node " + std::to_string(kept + j) + " has an empty name");
  if (before.named()) return false;
  for (uint32_t i : gone)
    if (i < kept) return false;
  for (std::size_t j = 0; j < add.size(); ++j)
    if (add[j] != default_node_name(kept + j)) return false;
  return true;
}

}  // namespace

bool bucket_change(Scheme scheme, const Fleet& before, std::span<const std::string> add,
                   std::span<const std::string> remove) {
  return check_change(scheme, before, add, remove);
}

Fleet apply_change(Scheme scheme, const Fleet& before, std::span<const std::string> add,
                   std::span<const std::string> remove) {
  if (check_change(scheme, before, add, remove))
    return Fleet::of_buckets(static_cast<uint32_t>(before.size() - remove.size() + add.size()));
  Fleet after = before;     // a fleet of buckets names its buckets on the first change
  after.leave_all(remove);  // as leave() and join() in order, in linear time
  after.join_all(add);
  return after;
}

void lookup_owners(const OwnerTable& table, const KeySet& keys, uint64_t first,
                   std::span<uint32_t> out, std::optional<Profile> profile) {
  for_each_block(keys, first, first + out.size(), profile,
                 [&](uint64_t block_first, std::span<const uint64_t> hashes) {
                   table.owners(hashes, out.subspan(block_first - first, hashes.size()));
                 });
}

// ---- Moves ------------------------------------------------------------------------

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

// ---- Balance ----------------------------------------------------------------------

namespace {

// Up to this many nodes each thread counts its keys apart; above, the
// threads add into the one array (per-thread copies would cost 8 B a node
// each: 16 GiB at 2^31 buckets).
constexpr uint32_t kThreadCountsMax = 1u << 16;

}  // namespace

Balance measure_balance(Scheme scheme, const Fleet& fleet, const KeySet& keys,
                        std::string_view kernel) {
  return measure_balance(Placement{scheme, std::nullopt, {}}, fleet, keys, kernel);
}

Balance measure_balance(const Placement& placement, const Fleet& fleet, const KeySet& keys,
                        std::string_view kernel) {
  const auto table = make_table(placement, fleet, kernel);
  const uint32_t n = fleet.size();
  Balance balance;
  balance.keys = keys.size();
  balance.node_keys.assign(n, 0);
  auto count_blocks = [&](const auto& count) {
    for_each_block(keys, 0, keys.size(), placement.profile,
                   [&](uint64_t, std::span<const uint64_t> hashes) {
                     std::array<uint32_t, kBlock> owner_buf;
                     const std::span<uint32_t> owners(owner_buf.data(), hashes.size());
                     table->owners(hashes, owners);
                     count(std::span<const uint32_t>(owners));
                   });
  };
  if (n <= kThreadCountsMax) {
    tbb::enumerable_thread_specific<std::vector<uint64_t>> counts(
        [&] { return std::vector<uint64_t>(n, 0); });
    count_blocks([&](std::span<const uint32_t> owners) {
      auto& c = counts.local();
      for (uint32_t o : owners) ++c[o];
    });
    for (const auto& c : counts)
      for (std::size_t i = 0; i < c.size(); ++i) balance.node_keys[i] += c[i];
  } else {
    static_assert(std::atomic_ref<uint64_t>::required_alignment == alignof(uint64_t));
    count_blocks([&](std::span<const uint32_t> owners) {
      for (uint32_t o : owners)
        std::atomic_ref<uint64_t>(balance.node_keys[o]).fetch_add(1, std::memory_order_relaxed);
    });
  }
  if (!placement.profile && placement.scheme == Scheme::kRing)
    balance.circle = circle_shares(fleet.nodes());
  return balance;
}

std::vector<double> circle_shares(const NodeSet& nodes) {
  const auto entries = ring_entries(nodes);
  const auto ring = SortedRing<uint64_t>::from_entries(entries);
  std::vector<double> shares(nodes.size(), 0.0);
  const std::size_t n = ring.tokens.size();
  if (n == 1) {
    shares[ring.owners[0]] = 1.0;
    return shares;
  }
  // Arc lengths are exact in uint64_t (unsigned wrap gives the first token's
  // arc across 2^64); summing per node in long double keeps 64 bits of them.
  std::vector<long double> sum(nodes.size(), 0.0L);
  sum[ring.owners[0]] += static_cast<long double>(ring.tokens[0] - ring.tokens[n - 1]);
  for (std::size_t i = 1; i < n; ++i)
    sum[ring.owners[i]] += static_cast<long double>(ring.tokens[i] - ring.tokens[i - 1]);
  const long double circle = 18446744073709551616.0L;  // 2^64
  for (std::size_t i = 0; i < shares.size(); ++i) shares[i] = static_cast<double>(sum[i] / circle);
  return shares;
}

namespace {

// share_stats over shares or counts, each taken as a double.
template <class T>
ShareStats stats_of(std::span<const T> shares) {
  const double n = static_cast<double>(shares.size());
  double total = 0, busiest = 0;
  for (T v : shares) {
    const double s = static_cast<double>(v);
    total += s;
    busiest = std::max(busiest, s);
  }
  const double mean = total / n;
  double squares = 0;
  for (T v : shares) squares += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
  return {busiest / mean, 100.0 * std::sqrt(squares / n) / mean};
}

}  // namespace

ShareStats share_stats(std::span<const double> shares) { return stats_of(shares); }

ShareStats share_stats(std::span<const uint64_t> counts) { return stats_of(counts); }

ShareStats fair_share_stats(std::span<const double> shares, std::span<const double> fair) {
  double busiest = 0, squares = 0, weight = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    if (!(fair[i] > 0)) continue;
    const double ratio = shares[i] / fair[i];
    busiest = std::max(busiest, ratio);
    squares += fair[i] * (ratio - 1) * (ratio - 1);
    weight += fair[i];
  }
  return {busiest, 100.0 * std::sqrt(squares / weight)};
}

ShareStats fair_share_stats(std::span<const uint64_t> counts, std::span<const double> fair) {
  double total = 0;
  for (const uint64_t c : counts) total += static_cast<double>(c);
  std::vector<double> shares;
  shares.reserve(counts.size());
  for (const uint64_t c : counts) shares.push_back(total > 0 ? static_cast<double>(c) / total : 0);
  return fair_share_stats(std::span<const double>(shares), fair);
}

NodeSet replica_nodes(const NodeSet& nodes, uint32_t r) {
  NodeSet out = nodes;  // every parameter, and a scheme's weights follow their nodes
  for (auto& name : out.names) name = replica_name(name, r);
  return out;
}

std::string replica_name(std::string_view name, uint32_t r) {
  std::string out(name);
  if (r == 0) return out;
  // Built by appending: GCC 12 warns falsely (-Wrestrict) on "@" + to_string().
  out += '@';
  out += std::to_string(r);
  return out;
}

// ---- Theory -----------------------------------------------------------------------

double ring_share_std_theory(uint64_t n, uint64_t v) {
  const double nd = static_cast<double>(n);
  return std::sqrt((nd - 1) / (nd * static_cast<double>(v) + 1));
}

double key_share_std_theory(uint64_t n, uint64_t v, uint64_t k) {
  const double nd = static_cast<double>(n);
  const double circle = v == 0 ? 0.0 : (nd - 1) / (nd * static_cast<double>(v) + 1);
  return std::sqrt(circle + (nd - 1) / static_cast<double>(k));
}

double ring_busiest_theory_v1(uint64_t n) {
  double h = 0;
  for (uint64_t i = n; i >= 1; --i) h += 1.0 / static_cast<double>(i);
  return h;
}

GrowthTheory growth_theory(Scheme scheme, uint64_t n) {
  const double nd = static_cast<double>(n);
  if (scheme == Scheme::kModN) return {nd / (nd + 1), (nd - 1) / (nd + 1)};
  return {1 / (nd + 1), 0.0};
}

}  // namespace chbench::lab
