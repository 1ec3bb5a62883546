#include "chbench/fleet.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

namespace chbench {

Fleet::Fleet(NodeSet nodes) : nodes_(std::move(nodes)) {}

Fleet Fleet::of_buckets(uint32_t n) {
  if (n == 0) throw std::invalid_argument("the bucket count must be at least 1 (N = 0)");
  Fleet f;
  f.buckets_ = n;
  return f;
}

void Fleet::name_buckets() {
  if (named()) return;
  nodes_.names = default_nodes(buckets_, nodes_.vnodes).names;
  buckets_ = 0;
}

void Fleet::keep_initial() {
  if (history_.empty()) initial_ = nodes_.names;
}

void Fleet::erase_weights(const std::unordered_set<std::string>& gone) {
  if (nodes_.weights.empty()) return;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < nodes_.names.size(); ++i)
    if (gone.count(nodes_.names[i]) == 0) nodes_.weights[kept++] = nodes_.weights[i];
  nodes_.weights.resize(kept);
}

std::vector<std::string> Fleet::removed() const {
  std::vector<std::string> out;
  for (const auto& c : history_) {
    if (c.kind == FleetChange::Kind::kLeave) {
      out.push_back(c.node);
    } else {
      std::erase(out, c.node);
    }
  }
  return out;
}

Fleet& Fleet::join(std::string name) {
  if (name.empty()) throw std::invalid_argument("a joining node needs a name");
  name_buckets();
  auto& names = nodes_.names;
  if (std::find(names.begin(), names.end(), name) != names.end())
    throw std::invalid_argument("node '" + name + "' is already in the fleet");
  keep_initial();
  names.push_back(name);
  if (!nodes_.weights.empty()) nodes_.weights.push_back(1);
  history_.push_back({FleetChange::Kind::kJoin, std::move(name)});
  return *this;
}

Fleet& Fleet::leave(std::string_view name) {
  name_buckets();
  auto& names = nodes_.names;
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    throw std::invalid_argument("no node '" + std::string(name) + "' in the fleet");
  if (names.size() == 1)
    throw std::invalid_argument("node '" + std::string(name) +
                                "' is the last one; a fleet keeps at least one node");
  // `name` may view the very string erased here (leave(nodes().names[i])):
  // keep the node's own name before the erase moves or frees it.
  keep_initial();
  std::string gone = std::move(*it);
  if (!nodes_.weights.empty()) nodes_.weights.erase(nodes_.weights.begin() + (it - names.begin()));
  names.erase(it);
  history_.push_back({FleetChange::Kind::kLeave, std::move(gone)});
  return *this;
}

Fleet& Fleet::leave_all(std::span<const std::string> names) {
  name_buckets();
  std::unordered_set<std::string> gone;  // copies: `names` may view nodes_.names
  gone.reserve(names.size());
  for (const std::string& name : names)
    if (!gone.insert(name).second) throw std::invalid_argument("node '" + name + "' leaves twice");
  std::size_t found = 0;
  for (const std::string& name : nodes_.names) found += gone.count(name);
  if (found != gone.size()) {
    for (const std::string& name : names)
      if (std::find(nodes_.names.begin(), nodes_.names.end(), name) == nodes_.names.end())
        throw std::invalid_argument("no node '" + name + "' in the fleet");
  }
  if (!names.empty() && names.size() >= nodes_.names.size())
    throw std::invalid_argument("removing every node; a fleet keeps at least one node");
  keep_initial();
  for (const std::string& name : names) history_.push_back({FleetChange::Kind::kLeave, name});
  erase_weights(gone);
  std::erase_if(nodes_.names, [&](const std::string& name) { return gone.count(name) != 0; });
  return *this;
}

Fleet& Fleet::join_all(std::span<const std::string> names) {
  if (names.empty()) return *this;
  name_buckets();
  {
    // Views of the names in service: checked before any is appended (an
    // append may move them).
    const std::unordered_set<std::string_view> present(nodes_.names.begin(), nodes_.names.end());
    std::unordered_set<std::string_view> seen;
    for (const std::string& name : names) {
      if (name.empty()) throw std::invalid_argument("a joining node needs a name");
      if (present.contains(name))
        throw std::invalid_argument("node '" + name + "' is already in the fleet");
      if (!seen.insert(name).second) throw std::invalid_argument("node '" + name + "' joins twice");
    }
  }
  keep_initial();
  nodes_.names.reserve(nodes_.names.size() + names.size());
  history_.reserve(history_.size() + names.size());
  for (const std::string& name : names) {
    nodes_.names.push_back(name);
    history_.push_back({FleetChange::Kind::kJoin, name});
  }
  if (!nodes_.weights.empty()) nodes_.weights.resize(nodes_.names.size(), 1);
  return *this;
}

Fleet& Fleet::weigh(std::vector<uint32_t> weights) {
  if (!weights.empty() && weights.size() != size())
    throw std::invalid_argument(std::to_string(weights.size()) + " weights for " +
                                std::to_string(size()) + " nodes");
  name_buckets();
  nodes_.weights = std::move(weights);
  return *this;
}

Fleet& Fleet::apply(const FleetChange& change) {
  return change.kind == FleetChange::Kind::kJoin ? join(change.node) : leave(change.node);
}

}  // namespace chbench
