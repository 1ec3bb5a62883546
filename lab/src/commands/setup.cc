#include "commands/setup.h"

#include "param_options.h"

namespace chbench::lab {

bool uses_vnodes(const Setup& s) { return placement_takes(s.placement, kParamVnodes); }

bool uses_capacity(const Setup& s) {
  return !s.placement.profile && scheme_info(s.scheme).takes(kParamCapacity);
}

uint64_t capacity_of(const Setup& s) {
  const uint32_t given = nodes_fleet(s).nodes().capacity;
  return given != 0 ? given : uint64_t{10} * nodes_fleet(s).size();
}

std::optional<uint64_t> param_value(const Setup& s, const ParamInfo& p) {
  if (p.kind != ParamKind::kCount || !placement_takes(s.placement, p.param)) return std::nullopt;
  if (p.param == kParamCapacity) return capacity_of(s);
  return *count_of(p, nodes_fleet(s).nodes());
}

std::string placement_name(const Setup& s) {
  return std::string(s.placement.profile ? profile_name(*s.placement.profile)
                                         : scheme_name(s.scheme));
}

std::string tables_label(const Setup& s) {
  const Fleet& f = nodes_fleet(s);
  const std::string n = std::to_string(f.size());
  if (is_ketama(s.placement))
    return "the " + placement_name(s) + " profile's continuum of " +
           std::to_string(ketama_point_count(s.placement, f.nodes())) + " points over N = " + n +
           " servers";
  std::string label = "the " + placement_name(s) + (s.placement.profile ? " profile's" : "") +
                      " table(s) of N = " + n;
  if (uses_vnodes(s))
    label +=
        (s.placement.profile ? ", num_tokens = " : ", V = ") + std::to_string(f.nodes().vnodes);
  return label;
}

std::string scheme_label(const Setup& s, uint32_t vnodes) {
  std::string label = placement_name(s);
  if (s.placement.profile) label += " profile";
  if (is_ketama(s.placement))
    label +=
        " (continuum of " + std::to_string(ketama_point_count(s.placement, s.nodes())) + " points)";
  if (uses_vnodes(s))
    label += (s.placement.profile ? " (num_tokens = " : " (V = ") + std::to_string(vnodes) + ")";
  for (const ParamInfo& p : kParams)
    if (const std::optional<uint64_t> v = param_value(s, p); v && p.param != kParamVnodes)
      label += " (" + std::string(p.symbol) + " = " + std::to_string(*v) + ")";
  return label;
}

}  // namespace chbench::lab
