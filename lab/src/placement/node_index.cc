#include "placement/node_index.h"

#include <charconv>
#include <string_view>

namespace chbench::lab {

namespace {

// Name -> index of a node list.
std::unordered_map<std::string_view, uint32_t> index_of(const NodeSet& nodes) {
  std::unordered_map<std::string_view, uint32_t> index;
  index.reserve(nodes.names.size());
  for (uint32_t i = 0; i < nodes.size(); ++i) index.emplace(nodes.names[i], i);
  return index;
}

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

}  // namespace

NodeIndex::NodeIndex(const Fleet& fleet) : fleet_(fleet) {
  if (fleet.named()) map_ = index_of(fleet.nodes());
}

uint32_t NodeIndex::find(std::string_view name) const {
  if (!fleet_.named()) return bucket_index(name, fleet_.size());
  const auto it = map_.find(name);
  return it == map_.end() ? kNone : it->second;
}

}  // namespace chbench::lab
