// Inside the placement measurements: a fleet's node index by name, for a
// change's leavers and joiners and for matching two fleets' nodes.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "chbench/fleet.h"

namespace chbench::lab {

// No such node.
inline constexpr uint32_t kNone = 0xffffffffu;

// A fleet's node index by name: a map over a named fleet's names (about
// 56 B a node), bucket_index() for a fleet of buckets.
class NodeIndex {
 public:
  explicit NodeIndex(const Fleet& fleet);
  // The node named `name`, or kNone. A fleet of buckets names bucket i
  // "node-<i>" (decimal, no leading zero), i < N.
  uint32_t find(std::string_view name) const;

 private:
  const Fleet& fleet_;
  std::unordered_map<std::string_view, uint32_t> map_;
};

}  // namespace chbench::lab
