#include "commands/setup.h"

namespace chbench::lab {

bool uses_vnodes(const Setup& s) {
  return s.placement.profile ? s.placement.profile == Profile::kCassandra
                             : scheme_info(s.scheme).takes(kParamVnodes);
}

bool uses_capacity(const Setup& s) {
  return !s.placement.profile && scheme_info(s.scheme).takes(kParamCapacity);
}

uint64_t capacity_of(const Setup& s) {
  const uint32_t given = nodes_fleet(s).nodes().capacity;
  return given != 0 ? given : uint64_t{10} * nodes_fleet(s).size();
}

std::string placement_name(const Setup& s) {
  return std::string(s.placement.profile ? profile_name(*s.placement.profile)
                                         : scheme_name(s.scheme));
}

std::string scheme_label(const Setup& s, uint32_t vnodes) {
  std::string label = placement_name(s);
  if (s.placement.profile) label += " profile";
  if (uses_vnodes(s))
    label += (s.placement.profile ? " (num_tokens = " : " (V = ") + std::to_string(vnodes) + ")";
  // Redis's slot table is a Maglev-like table of fixed size: no M to show.
  const bool table_size = s.placement.profile ? s.placement.profile == Profile::kMaglev
                                              : scheme_info(s.scheme).takes(kParamTableSize);
  if (table_size) label += " (M = " + std::to_string(s.nodes().table_size) + ")";
  if (uses_capacity(s)) label += " (A = " + std::to_string(capacity_of(s)) + ")";
  if (!s.placement.profile && scheme_info(s.scheme).takes(kParamProbes))
    label += " (k = " + std::to_string(s.nodes().probes) + ")";
  return label;
}

}  // namespace chbench::lab
