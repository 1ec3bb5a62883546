#include "cli/applies.h"

#include <stdexcept>
#include <string>

#include "cli/help.h"
#include "param_options.h"

namespace chbench::lab {

namespace {

// Refuses every parameter's option where the placement reads no such
// parameter (param_options.h: one line naming the schemes and profiles that
// take it), M above the lab's bound and a capacity of 0.
void check_parameter_options(const Setup& s, const Options& o) {
  for (const ParamInfo& p : kParams)
    if (o.given(p)) check_applies(s.placement, p);
  if (const auto m = o.count(kParamTableSize)) check_table_size_bound(*m);
  if (o.count(kParamCapacity) == 0u)
    throw std::invalid_argument(
        "--capacity must be at least the node count (leave it out for the default, 10 x N)");
}

}  // namespace

void refuse_inapplicable(const Setup& s, const Options& o) {
  check_parameter_options(s, o);
  if (o.replicas && s.placement.profile)
    throw std::invalid_argument("--replicas applies to --scheme, not to a profile");
  if (s.placement.profile && (!o.removed.empty() || !o.remove_fraction.empty()))
    throw std::invalid_argument(
        "the removal scenario options (--removed, --remove-fraction, --readd) apply to --scheme; "
        "a profile changes its cluster with move --add / --remove");
  if (o.load.bounded && s.placement.profile != Profile::kEnvoyRingHash &&
      (s.placement.profile || s.scheme != Scheme::kRing))
    throw std::invalid_argument(
        "--bounded-load walks the ring: it takes --scheme ring or "
        "--profile envoy_ring_hash, not " +
        placement_name(s) + (s.placement.profile ? " profile" : ""));
}

}  // namespace chbench::lab
