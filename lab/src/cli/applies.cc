#include "cli/applies.h"

#include <stdexcept>
#include <string>

#include "cli/help.h"
#include "param_options.h"

namespace chbench::lab {

namespace {

// Refuses --capacity where no bucket capacity is read, naming the schemes
// that read one (the registry's kParamCapacity).
void check_capacity_option(const Setup& s, uint32_t capacity) {
  if (!uses_capacity(s)) {
    const std::string takers = schemes_taking(kParamCapacity);
    throw std::invalid_argument(
        "--capacity applies to the schemes that keep a bucket capacity above N" +
        (takers.empty() ? std::string(", and no scheme of this build does")
                        : " (" + takers + ") only, not to " + placement_name(s)));
  }
  if (capacity == 0)
    throw std::invalid_argument(
        "--capacity must be at least the node count (leave it out for the default, 10 x N)");
}

// Refuses --vnodes and --table-size where the placement reads no such
// parameter (param_options.h), and M above the lab's bound.
void check_parameter_options(const Setup& s, const Options& o) {
  const std::string name =
      s.placement.profile ? "the " + placement_name(s) + " profile" : placement_name(s);
  if (o.vnodes) check_applies(s.placement, kParamVnodes, "--vnodes", name);
  if (o.table_size) {
    check_applies(s.placement, kParamTableSize, "--table-size", name);
    check_table_size_bound(*o.table_size);
  }
}

// The profiles whose ProfileInfo::params take kParamWeights, comma-separated.
std::string profiles_taking_weights() {
  std::string names;
  for (const Profile p : all_profiles())
    if (profile_params(p) & kParamWeights)
      names += (names.empty() ? "" : ", ") + std::string(profile_name(p));
  return names;
}

// --weights: the profiles and the schemes that take kParamWeights.
void check_weights_apply(const Setup& s) {
  const bool takes = s.placement.profile ? (profile_params(*s.placement.profile) & kParamWeights)
                                         : scheme_info(s.scheme).takes(kParamWeights);
  if (!takes)
    throw std::invalid_argument("--weights applies to the profiles " + profiles_taking_weights() +
                                " and to the schemes " + schemes_taking(kParamWeights) +
                                ", not to " + placement_name(s));
}

}  // namespace

void refuse_inapplicable(const Setup& s, const Options& o) {
  check_parameter_options(s, o);
  if (o.capacity) check_capacity_option(s, *o.capacity);
  if (o.probes && (s.placement.profile || !scheme_info(s.scheme).takes(kParamProbes)))
    throw std::invalid_argument("--probes applies to " + schemes_taking(kParamProbes) +
                                " only, not to " + placement_name(s));
  if (!o.weights.empty()) check_weights_apply(s);
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
