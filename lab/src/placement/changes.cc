#include "placement/changes.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "chbench/hash.h"
#include "placement/node_index.h"
#include "placement/tables.h"

namespace chbench::lab {

namespace {

void check_distinct(std::span<const std::string> names, const char* option) {
  std::unordered_set<std::string_view> seen;
  for (const auto& name : names)
    if (!seen.insert(name).second)
      throw std::invalid_argument("node '" + name + "' is listed twice in " + option);
}

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

}  // namespace chbench::lab
