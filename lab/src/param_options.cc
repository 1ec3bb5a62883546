#include "param_options.h"

#include <stdexcept>

#include "chbench/maglev/maglev.h"

namespace chbench::lab {

bool placement_takes(const Placement& placement, Param p) {
  if (placement.profile) return (profile_params(*placement.profile) & p) != 0;
  return scheme_info(placement.scheme).takes(p);
}

std::string takers_of(Param p) {
  std::string schemes, profiles;
  unsigned scheme_count = 0, profile_count = 0;
  for (const SchemeInfo& info : all_scheme_infos())
    if (info.takes(p)) {
      schemes += (schemes.empty() ? "" : ", ") + std::string(info.name);
      ++scheme_count;
    }
  for (Profile profile : all_profiles())
    if ((profile_params(profile) & p) != 0) {
      profiles += (profiles.empty() ? "" : ", ") + std::string(profile_name(profile));
      ++profile_count;
    }
  std::string out;
  if (scheme_count != 0) out = (scheme_count == 1 ? "the scheme " : "the schemes ") + schemes;
  if (profile_count != 0)
    out += (out.empty() ? "" : "; ") +
           std::string(profile_count == 1 ? "the profile " : "the profiles ") + profiles;
  return out.empty() ? "nothing" : out;
}

void check_applies(const Placement& placement, Param p, std::string_view option,
                   std::string_view placement_name) {
  if (placement_takes(placement, p)) return;
  throw std::invalid_argument(std::string(option) + " applies to " + takers_of(p) +
                              " only, not to " + std::string(placement_name));
}

void check_table_size_bound(uint64_t m) {
  if (m <= kLabMaxTableSize && !is_prime(static_cast<uint32_t>(m)))
    throw std::invalid_argument("--table-size must be a prime, 2 ... " +
                                std::to_string(kLabMaxTableSize) + " in the lab (got " +
                                std::to_string(m) + "; the default is " +
                                std::to_string(kDefaultTableSize) + ")");
  if (m <= kLabMaxTableSize) return;
  throw std::invalid_argument(
      "--table-size " + std::to_string(m) +
      " is above the lab's bound, M <= " + std::to_string(kLabMaxTableSize) +
      " (the largest prime below 2^26: about 0.5 GB and 2 s to build; a larger table "
      "takes minutes and gigabytes)");
}

}  // namespace chbench::lab
