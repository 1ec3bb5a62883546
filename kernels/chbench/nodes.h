// The node list every scheme is built from (docs/spec.md §3, its refusals §4).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace chbench {

// The most parameters kParams may list (params.h checks it): the size of
// NodeSet::counts.
inline constexpr std::size_t kMaxCountParams = 16;

// Every parameter's default_value at its place in kParams (0 past the last):
// what NodeSet::counts starts as.
const std::array<uint32_t, kMaxCountParams>& count_defaults() noexcept;

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
// used by that scheme only. `counts` keeps the count parameters that have no
// member of their own (params.h: read and set them with count_of and
// set_count), at their place in kParams, each at its entry's default_value
// until set.
struct NodeSet {
  std::vector<std::string> names;
  uint32_t vnodes = 1;
  uint32_t table_size = 65537;
  uint32_t capacity = 0;
  std::vector<uint32_t> weights = {};
  uint32_t probes = 21;
  std::array<uint32_t, kMaxCountParams> counts = count_defaults();

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
