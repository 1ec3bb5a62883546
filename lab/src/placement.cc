#include "placement.h"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
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
const KernelInfo& kernel_of(const Placement& placement, std::string_view kernel) {
  return find_kernel(placement.scheme, kernel.empty() ? default_kernel_name(placement) : kernel);
}

// A node list whose table in the profile's scheme holds as many entries as
// the profile's own table: ketama's continuum points as ring tokens (rounded
// up to whole tokens per server), Redis's slot table as a Maglev table of
// 16384 slots; the other profiles' tables are their scheme's over as many
// nodes. The estimates read only N, V and M, so its names are left empty:
// no name is copied (N empty strings, 32 B each, freed before any table is
// built).
NodeSet profile_sized_nodes(const Placement& placement, const NodeSet& nodes) {
  NodeSet sized;
  sized.names.resize(nodes.size());
  sized.vnodes = nodes.vnodes;
  sized.table_size = placement.profile == Profile::kRedis ? 16384 : nodes.table_size;
  if (placement.profile != Profile::kKetama) return sized;
  const uint64_t n = nodes.size();
  uint64_t total_weight = 0, points = 0;
  auto weight = [&](const std::string& name) -> uint64_t {
    const auto w = placement.weights.find(name);
    return w == placement.weights.end() ? 1 : w->second;
  };
  if (placement.weights.empty()) {
    points = n * ketama_points_per_server(1, n, nodes.size());
  } else {
    for (const auto& name : nodes.names) total_weight += weight(name);
    for (const auto& name : nodes.names)
      points += ketama_points_per_server(weight(name), total_weight, nodes.size());
  }
  const uint64_t per_server = n == 0 ? 0 : (points + n - 1) / n;
  sized.vnodes = static_cast<uint32_t>(std::min<uint64_t>(per_server, 0xffffffffu));
  return sized;
}

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

namespace {

// Refuses, for a scheme whose nodes can only leave from the end of the list
// (Removal::kLastOnly), a removal that is not a suffix of the list.
void check_last_only(Scheme scheme, const NodeSet& before, const std::vector<bool>& gone,
                     std::size_t removals) {
  const std::size_t keep = before.size() - removals;
  for (std::size_t i = 0; i < keep; ++i) {
    if (!gone[i]) continue;
    const std::string last = removals == 1
                                 ? "only the last, '" + before.names.back() + "',"
                                 : "only the last " + std::to_string(removals) + ", '" +
                                       before.names[keep] + "' ... '" + before.names.back() + "',";
    throw std::invalid_argument(
        std::string(scheme_info(scheme).title) + " can only remove the last bucket(s): '" +
        before.names[i] + "' is bucket " + std::to_string(i) + " of 0.." +
        std::to_string(before.size() - 1) + ", so " + last + " can be removed");
  }
}

}  // namespace

Fleet apply_change(Scheme scheme, const Fleet& before, std::span<const std::string> add,
                   std::span<const std::string> remove) {
  check_distinct(add, "--add");
  check_distinct(remove, "--remove");
  const NodeSet& nodes = before.nodes();
  {
    // The index (about 56 B a node) is gone before the copy below.
    const auto index = index_of(nodes);
    std::vector<bool> gone(nodes.size(), false);
    for (const auto& name : remove) {
      const auto it = index.find(name);
      if (it == index.end())
        throw std::invalid_argument("unknown node '" + name + "' in --remove (not in --nodes)");
      gone[it->second] = true;
    }
    if (scheme_info(scheme).removal == Removal::kLastOnly)
      check_last_only(scheme, nodes, gone, remove.size());
    for (const auto& name : add)
      if (index.count(name))
        throw std::invalid_argument("node '" + name + "' in --add is already in --nodes");
  }
  if (remove.size() == nodes.size())
    throw std::invalid_argument(add.empty() ? "removing every node leaves no node (N = 0)"
                                            : "removing every node leaves no node (N = 0) "
                                              "before the added ones join");
  // validate()'s limit; the rest of validate(after) holds already: `before`
  // is valid, the removed names exist, the added ones are distinct, new and
  // (below) not empty. Not running it spares its set of every name.
  if (uint64_t{nodes.size()} - remove.size() + add.size() > 0xffffffffu)
    throw std::invalid_argument("more than 2^32 - 1 nodes cannot be indexed by uint32_t");
  Fleet after = before;
  for (const auto& name : remove) after.leave(name);
  for (const auto& name : add) {
    // validate()'s message, before Fleet::join's shorter one.
    if (name.empty())
      throw std::invalid_argument("node " + std::to_string(after.size()) + " has an empty name");
    after.join(name);
  }
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

constexpr uint32_t kNone = 0xffffffffu;

// How the nodes of the two fleets correspond, by name: each node's index in
// the other list (kNone if absent) and its rank among the removed / added
// nodes (kNone if it stays). Fills result.removed and result.added.
struct NodeMatch {
  std::vector<uint32_t> old_to_new, new_to_old, removed_rank, added_rank;
};

NodeMatch match_nodes(const NodeSet& before, const NodeSet& after, MoveResult& result) {
  NodeMatch m;
  m.old_to_new.assign(before.size(), kNone);
  m.new_to_old.assign(after.size(), kNone);
  m.removed_rank.assign(before.size(), kNone);
  m.added_rank.assign(after.size(), kNone);
  const auto new_index = index_of(after);
  for (uint32_t b = 0; b < before.size(); ++b) {
    const auto it = new_index.find(before.names[b]);
    if (it != new_index.end()) {
      m.old_to_new[b] = it->second;
      m.new_to_old[it->second] = b;
    } else {
      m.removed_rank[b] = static_cast<uint32_t>(result.removed.size());
      result.removed.push_back(b);
    }
  }
  for (uint32_t a = 0; a < after.size(); ++a)
    if (m.new_to_old[a] == kNone) {
      m.added_rank[a] = static_cast<uint32_t>(result.added.size());
      result.added.push_back(a);
    }
  return m;
}

// One thread's counts; the flows flattened [rank][node].
struct Tally {
  uint64_t moved = 0, between_old = 0, from_removed = 0, to_added = 0;
  std::vector<uint64_t> removed_to, added_from;
};

// Adds every thread's counts into `result` (whose removed / added are set).
void merge(const tbb::enumerable_thread_specific<Tally>& tallies, uint32_t before_size,
           uint32_t after_size, MoveResult& result) {
  result.removed_to.assign(result.removed.size(), std::vector<uint64_t>(after_size, 0));
  result.added_from.assign(result.added.size(), std::vector<uint64_t>(before_size, 0));
  for (const Tally& t : tallies) {
    result.moved += t.moved;
    result.between_old += t.between_old;
    result.from_removed += t.from_removed;
    result.to_added += t.to_added;
    for (std::size_t c = 0; c < t.removed_to.size(); ++c)
      result.removed_to[c / after_size][c % after_size] += t.removed_to[c];
    for (std::size_t c = 0; c < t.added_from.size(); ++c)
      result.added_from[c / before_size][c % before_size] += t.added_from[c];
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
  const NodeMatch m = match_nodes(before.nodes(), after.nodes(), result);
  const std::size_t n_before = before.size(), n_after = after.size();
  tbb::enumerable_thread_specific<Tally> tallies([&] {
    Tally t;
    t.removed_to.assign(result.removed.size() * n_after, 0);
    t.added_from.assign(result.added.size() * n_before, 0);
    return t;
  });
  // With `list`, each block's moved keys go to that block's slot, so that the
  // list comes out in key order however the blocks were scheduled.
  const uint64_t blocks = (keys.size() + kBlock - 1) / kBlock;
  std::vector<std::vector<MovedKey>> moved_per_block(list ? blocks : 0);

  for_each_block(keys, 0, keys.size(), placement.profile,
                 [&](uint64_t first, std::span<const uint64_t> hashes) {
                   std::array<uint32_t, kBlock> from_buf, to_buf;
                   const std::span<uint32_t> from(from_buf.data(), hashes.size()),
                       to(to_buf.data(), hashes.size());
                   old_table->owners(hashes, from);
                   new_table->owners(hashes, to);
                   Tally& t = tallies.local();
                   std::vector<MovedKey>* listed =
                       list ? &moved_per_block[first / kBlock] : nullptr;
                   for (std::size_t i = 0; i < hashes.size(); ++i) {
                     const uint32_t b = from[i], a = to[i];
                     if (m.old_to_new[b] == a) continue;
                     ++t.moved;
                     const bool left = m.old_to_new[b] == kNone, arrived = m.new_to_old[a] == kNone;
                     t.between_old += !left && !arrived;
                     if (left) {
                       ++t.from_removed;
                       ++t.removed_to[std::size_t{m.removed_rank[b]} * n_after + a];
                     }
                     if (arrived) {
                       ++t.to_added;
                       ++t.added_from[std::size_t{m.added_rank[a]} * n_before + b];
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

// ---- Balance ----------------------------------------------------------------------

Balance measure_balance(Scheme scheme, const Fleet& fleet, const KeySet& keys,
                        std::string_view kernel) {
  return measure_balance(Placement{scheme, std::nullopt, {}}, fleet, keys, kernel);
}

Balance measure_balance(const Placement& placement, const Fleet& fleet, const KeySet& keys,
                        std::string_view kernel) {
  const auto table = make_table(placement, fleet, kernel);
  const NodeSet& nodes = fleet.nodes();
  tbb::enumerable_thread_specific<std::vector<uint64_t>> counts(
      [&] { return std::vector<uint64_t>(nodes.size(), 0); });
  for_each_block(keys, 0, keys.size(), placement.profile,
                 [&](uint64_t, std::span<const uint64_t> hashes) {
                   std::array<uint32_t, kBlock> owner_buf;
                   const std::span<uint32_t> owners(owner_buf.data(), hashes.size());
                   table->owners(hashes, owners);
                   auto& c = counts.local();
                   for (uint32_t o : owners) ++c[o];
                 });
  Balance balance;
  balance.keys = keys.size();
  balance.node_keys.assign(nodes.size(), 0);
  for (const auto& c : counts)
    for (std::size_t n = 0; n < c.size(); ++n) balance.node_keys[n] += c[n];
  if (!placement.profile && placement.scheme == Scheme::kRing)
    balance.circle = circle_shares(nodes);
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

ShareStats share_stats(std::span<const double> shares) {
  const double n = static_cast<double>(shares.size());
  double total = 0, busiest = 0;
  for (double s : shares) {
    total += s;
    busiest = std::max(busiest, s);
  }
  const double mean = total / n;
  double squares = 0;
  for (double s : shares) squares += (s - mean) * (s - mean);
  return {busiest / mean, 100.0 * std::sqrt(squares / n) / mean};
}

ShareStats share_stats(std::span<const uint64_t> counts) {
  std::vector<double> shares(counts.begin(), counts.end());
  return share_stats(std::span<const double>(shares));
}

NodeSet replica_nodes(const NodeSet& nodes, uint32_t r) {
  NodeSet out;
  out.vnodes = nodes.vnodes;
  out.table_size = nodes.table_size;
  out.names.reserve(nodes.size());
  for (const auto& name : nodes.names) out.names.push_back(replica_name(name, r));
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
