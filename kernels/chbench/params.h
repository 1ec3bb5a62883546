// THE PARAMETER TABLE: every parameter a scheme or a profile reads from a
// fleet besides its node names, declared once, as its line of params.def.
// Each entry says what the parameter is, the option that sets it, how the
// bench names and counts it and where a fleet keeps it; the lab's options and
// --help, the bench's name segments and counters, the exported registry
// (chbench_registry's "params") and the plot scripts read the entry instead
// of spelling the parameter.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "chbench/nodes.h"

namespace chbench {

// A parameter's place in params.def, from 0: its bit's position, and its
// index into arrays of values, one per parameter (NodeSet::counts).
enum ParamPlace : unsigned {
#define CHBENCH_PARAM(Name, ...) kParamPlace##Name,
#include "chbench/params.def"
#undef CHBENCH_PARAM
  kParamPlaces
};

// A parameter, one bit each (1 << its place): SchemeInfo::params and
// ProfileInfo::params are sets of them. A command refuses an option for a
// parameter the scheme or profile does not take.
enum Param : unsigned {
#define CHBENCH_PARAM(Name, ...) kParam##Name = 1u << kParamPlace##Name,
#include "chbench/params.def"
#undef CHBENCH_PARAM
};

// What a parameter's value is.
enum class ParamKind : uint8_t {
  kCount,    // one whole number for the fleet (NodeSet::*count)
  kPerNode,  // one whole number per node, or none for all 1 (NodeSet::*per_node)
};

// One parameter (its line in params.def). Values are whole numbers from
// `min` to `max` (for kPerNode: each node's; the schemes' checks refuse the
// rest, and may be narrower); `default_value` is what the lab takes when the
// option is not given, and what a NodeSet holds by default except V
// (NodeSet's 1, a ring of one token a node; the lab's 100). 0 for a kCount
// parameter means the scheme's own rule (the capacity's 10 x N).
struct ParamInfo {
  Param param;
  std::string_view name;  // the registry's name, and the NodeSet member's: "vnodes"
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
  bool counter;  // the bench writes a counter `field` per configuration
  // The bench names it (and counts it) wherever a configuration sets it, for
  // a scheme that does not read it too (V, every point's N x V; the capacity
  // of a removal scenario); otherwise only for the schemes that take it.
  bool name_everywhere;
  // Where a NodeSet keeps it: its own member (`count` for kCount, `per_node`
  // for kPerNode), or for a kCount parameter without one NodeSet::counts at
  // its place.
  uint32_t NodeSet::*count = nullptr;
  std::vector<uint32_t> NodeSet::*per_node = nullptr;
};

// Every parameter, in bit order: the one list of them (params.def).
inline constexpr ParamInfo kParams[] = {
#define CHBENCH_PARAM(Name, ...) {.param = kParam##Name, __VA_ARGS__},
#include "chbench/params.def"
#undef CHBENCH_PARAM
};

inline constexpr std::size_t kParamCount = std::size(kParams);

static_assert(kParamCount == kParamPlaces);
static_assert(kParamCount <= kMaxCountParams, "NodeSet::counts has no slot for every parameter");
static_assert(kParamCount <= 32, "a Param is a bit of an unsigned");

// p's place in kParams (its bit's position): an index for arrays of values,
// one per parameter.
constexpr std::size_t param_index(Param p) noexcept {
  return static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(p)));
}

// The entry of `p` (one bit).
constexpr const ParamInfo& param_info(Param p) noexcept { return kParams[param_index(p)]; }

// The value of a kCount parameter in `nodes` (its member, or NodeSet::counts
// at its place); nullopt for a kPerNode one. The one way to read a count
// parameter: a scheme reads its own as *count_of(param_info(kParamX), nodes),
// or count_of(kParamX, nodes).
inline std::optional<uint32_t> count_of(const ParamInfo& p, const NodeSet& nodes) noexcept {
  if (p.kind != ParamKind::kCount) return std::nullopt;
  return p.count ? nodes.*p.count : nodes.counts[param_index(p.param)];
}

// The value of the kCount parameter `p` in `nodes`; 0 for a kPerNode one.
inline uint32_t count_of(Param p, const NodeSet& nodes) noexcept {
  return count_of(param_info(p), nodes).value_or(0);
}

// Sets a kCount parameter in `nodes`; does nothing for a kPerNode one. Does
// not check the range (validate() and the schemes' checks do).
inline void set_count(const ParamInfo& p, NodeSet& nodes, uint32_t value) noexcept {
  if (p.kind != ParamKind::kCount) return;
  (p.count ? nodes.*p.count : nodes.counts[param_index(p.param)]) = value;
}

// "int" for kCount, "per_node" for kPerNode: the exported registry's word.
constexpr std::string_view param_kind_name(ParamKind kind) noexcept {
  return kind == ParamKind::kCount ? "int" : "per_node";
}

}  // namespace chbench
