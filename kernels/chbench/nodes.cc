#include "chbench/nodes.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>

#include "chbench/hash.h"
#include "chbench/params.h"

namespace chbench {

namespace {

void validate_weights(const NodeSet& nodes) {
  if (nodes.weights.empty()) return;
  if (nodes.weights.size() != nodes.names.size())
    throw std::invalid_argument(std::to_string(nodes.weights.size()) + " weights for " +
                                std::to_string(nodes.names.size()) + " nodes");
  bool any = false;
  for (uint32_t w : nodes.weights) {
    if (w > kMaxWeight) throw std::invalid_argument("a node weight is above 2^31");
    any = any || w != 0;
  }
  if (!any) throw std::invalid_argument("every node weight is 0: no node can own a key");
}

}  // namespace

const std::array<uint32_t, kMaxCountParams>& count_defaults() noexcept {
  static constexpr std::array<uint32_t, kMaxCountParams> defaults = [] {
    std::array<uint32_t, kMaxCountParams> out{};
    for (std::size_t i = 0; i < kParamCount; ++i) out[i] = kParams[i].default_value;
    return out;
  }();
  return defaults;
}

void validate(const NodeSet& nodes) {
  if (nodes.names.empty()) throw std::invalid_argument("the node list is empty (N = 0)");
  if (nodes.names.size() > 0xffffffffu)
    throw std::invalid_argument("more than 2^32 - 1 nodes cannot be indexed by uint32_t");
  if (nodes.vnodes == 0)
    throw std::invalid_argument("virtual nodes per node must be at least 1 (V = 0)");
  validate_weights(nodes);
  std::unordered_set<std::string_view> seen;
  seen.reserve(nodes.names.size());
  for (std::size_t i = 0; i < nodes.names.size(); ++i) {
    const std::string& name = nodes.names[i];
    if (name.empty())
      throw std::invalid_argument("node " + std::to_string(i) + " has an empty name");
    if (!seen.insert(name).second)
      throw std::invalid_argument("duplicate node name '" + name + "'");
  }
}

NodeSet default_nodes(uint32_t n, uint32_t vnodes) {
  if (n == 0) throw std::invalid_argument("the node count must be at least 1 (N = 0)");
  if (vnodes == 0) throw std::invalid_argument("virtual nodes per node must be at least 1 (V = 0)");
  NodeSet nodes;
  nodes.vnodes = vnodes;
  nodes.names.reserve(n);
  for (uint32_t i = 0; i < n; ++i) nodes.names.push_back(default_node_name(i));
  return nodes;
}

}  // namespace chbench
