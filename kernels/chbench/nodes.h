// The node list every scheme is built from (docs/spec.md §3, its refusals §4).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace chbench {

// An ordered list of distinct node names; a node's owner index is its position.
// `vnodes` is the number of virtual nodes (ring tokens) per node and is used by
// the ring only; every scheme still requires it to be at least 1.
// `table_size` is Maglev's lookup table size M (a prime; see maglev.h), used by
// Maglev only. `capacity` is the bucket capacity A of the schemes that keep
// room for more buckets than nodes (AnchorHash, DxHash; kParamCapacity): 0
// means the default, 10 times the fleet's initial node count, as SUPSI's
// framework. `weights` are the per-node weights of the schemes that take them
// (kParamWeights: weighted rendezvous, the ring): weights[n] is node n's, 0 to
// 2^31; empty means every weight is 1. `probes` is multi-probe consistent
// hashing's probe count k per key (kParamProbes; multiprobe/multiprobe.h),
// used by that scheme only.
struct NodeSet {
  std::vector<std::string> names;
  uint32_t vnodes = 1;
  uint32_t table_size = 65537;
  uint32_t capacity = 0;
  std::vector<uint32_t> weights = {};
  uint32_t probes = 21;

  uint32_t size() const noexcept { return static_cast<uint32_t>(names.size()); }
  // Node n's weight: weights[n], or 1 when no weights are given.
  uint32_t weight(uint32_t n) const noexcept { return weights.empty() ? 1 : weights[n]; }
};

// The largest node weight, 2^31 (the profiles' bound too).
inline constexpr uint32_t kMaxWeight = 0x80000000u;

// Throws std::invalid_argument with a one-line message when `nodes` is empty,
// has more than 2^32 - 1 names, an empty name, a duplicate name, vnodes == 0,
// or weights that are not one per node, above kMaxWeight or all 0.
void validate(const NodeSet& nodes);

// The default node list node-0 ... node-(n-1) with `vnodes` virtual nodes each.
// Throws std::invalid_argument if n == 0 or vnodes == 0.
NodeSet default_nodes(uint32_t n, uint32_t vnodes = 1);

}  // namespace chbench
