// THE PARAMETER TABLE: every parameter a scheme or a profile reads from a
// fleet besides its node names, declared once. Each entry says what the
// parameter is, the option that sets it, how the bench names and counts it
// and where a fleet keeps it; the lab's options and --help, the bench's name
// segments and counters, the exported registry (chbench_registry's "params")
// and the plot scripts read the entry instead of spelling the parameter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "chbench/nodes.h"

namespace chbench {

// A parameter, one bit each: SchemeInfo::params and ProfileInfo::params are
// sets of them. A command refuses an option for a parameter the scheme or
// profile does not take.
enum Param : unsigned {
  kParamVnodes = 1u << 0,     // virtual nodes (ring tokens) per node
  kParamTableSize = 1u << 1,  // Maglev's lookup table size M
  kParamWeights = 1u << 2,    // per-node weights (weighted rendezvous, the ring)
  kParamCapacity = 1u << 3,   // a bucket capacity above N (AnchorHash, DxHash)
  kParamProbes = 1u << 4,     // multi-probe's probes k per key
};

// What a parameter's value is.
enum class ParamKind : uint8_t {
  kCount,    // one whole number for the fleet (NodeSet::*count)
  kPerNode,  // one whole number per node, or none for all 1 (NodeSet::*per_node)
};

// One parameter. Values are whole numbers from `min` to `max` (for kPerNode:
// each node's; the schemes' checks refuse the rest, and may be narrower);
// `default_value` is what the lab takes when the option is not given, and
// what a NodeSet holds by default except V (NodeSet's 1, a ring of one token
// a node; the lab's 100). 0 for a kCount parameter means the scheme's own
// rule (the capacity's 10 x N).
struct ParamInfo {
  Param param;
  std::string_view name;  // the NodeSet field and the registry's name: "vnodes"
  ParamKind kind;
  std::string_view option;  // the lab's option that sets it: "--vnodes"
  std::string_view symbol;  // in formulas, headings and bench names: "V" of "/V:100"
  std::string_view help;    // what it is, a phrase for --help and reports
  uint32_t min, max;
  uint32_t default_value;
  // Where the bench's results carry it: the name segment's key ("" for none)
  // and the field the scripts read it into, which is also the name of its
  // counter where the bench writes one.
  std::string_view segment;
  std::string_view field;
  bool counter;                        // the bench writes a counter `field` per configuration
  uint32_t NodeSet::*count = nullptr;  // kCount
  std::vector<uint32_t> NodeSet::*per_node = nullptr;  // kPerNode
};

// Every parameter, in bit order: the one list of them.
inline constexpr ParamInfo kParams[] = {
    {.param = kParamVnodes,
     .name = "vnodes",
     .kind = ParamKind::kCount,
     .option = "--vnodes",
     .symbol = "V",
     .help = "tokens (virtual nodes) per node",
     .min = 1,
     .max = 0xffffffffu,
     .default_value = 100,
     .segment = "V",
     .field = "vnodes",
     .counter = true,
     .count = &NodeSet::vnodes},
    {.param = kParamTableSize,
     .name = "table_size",
     .kind = ParamKind::kCount,
     .option = "--table-size",
     .symbol = "M",
     .help = "lookup table size M, a prime at least N",
     .min = 2,
     .max = 0x7fffffffu,
     .default_value = 65537,
     .segment = "M",
     .field = "table_size",
     .counter = true,
     .count = &NodeSet::table_size},
    {.param = kParamWeights,
     .name = "weights",
     .kind = ParamKind::kPerNode,
     .option = "--weights",
     .symbol = "W",
     .help = "one weight per node, W1,W2,...",
     .min = 0,
     .max = kMaxWeight,
     .default_value = 1,
     .segment = "weights",
     .field = "weights",
     .counter = false,
     .per_node = &NodeSet::weights},
    {.param = kParamCapacity,
     .name = "capacity",
     .kind = ParamKind::kCount,
     .option = "--capacity",
     .symbol = "A",
     .help = "bucket capacity A, at least N (default 10 x N)",
     .min = 1,
     .max = 0xffffffffu,
     .default_value = 0,
     .segment = "capacity",
     .field = "fleet_capacity",
     .counter = false,
     .count = &NodeSet::capacity},
    {.param = kParamProbes,
     .name = "probes",
     .kind = ParamKind::kCount,
     .option = "--probes",
     .symbol = "k",
     .help = "probes k per key",
     .min = 1,
     .max = 4096,
     .default_value = 21,
     .segment = "",
     .field = "probes",
     .counter = false,
     .count = &NodeSet::probes},
};

inline constexpr std::size_t kParamCount = std::size(kParams);

// The entry of `p` (one bit). Every Param has one (tests/test_registry.cc).
constexpr const ParamInfo& param_info(Param p) noexcept {
  std::size_t i = 0;
  while (i + 1 < kParamCount && kParams[i].param != p) ++i;
  return kParams[i];
}

// p's place in kParams: an index for arrays of values, one per parameter.
constexpr std::size_t param_index(Param p) noexcept {
  return static_cast<std::size_t>(&param_info(p) - kParams);
}

// The value of a kCount parameter in `nodes`; nullopt for a kPerNode one.
inline std::optional<uint32_t> count_of(const ParamInfo& p, const NodeSet& nodes) noexcept {
  if (p.kind != ParamKind::kCount) return std::nullopt;
  return nodes.*p.count;
}

// Sets a kCount parameter in `nodes`; does nothing for a kPerNode one. Does
// not check the range (validate() and the schemes' checks do).
inline void set_count(const ParamInfo& p, NodeSet& nodes, uint32_t value) noexcept {
  if (p.kind == ParamKind::kCount) nodes.*p.count = value;
}

// "int" for kCount, "per_node" for kPerNode: the exported registry's word.
constexpr std::string_view param_kind_name(ParamKind kind) noexcept {
  return kind == ParamKind::kCount ? "int" : "per_node";
}

}  // namespace chbench
