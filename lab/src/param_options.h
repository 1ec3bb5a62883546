// The options of a scheme's or a profile's parameters (--vnodes,
// --table-size): where each applies, from the registry (SchemeInfo::params)
// and the profiles (profile_params), and the lab's bound on Maglev's table.
// An option given where it does not apply is refused with one line naming
// the schemes and profiles that take it, never silently ignored.
#pragma once

#include <cstdint>
#include <string>

#include "chbench/scheme.h"
#include "placement.h"

namespace chbench::lab {

// The default of --table-size: Maglev's M in the paper's examples, a prime.
inline constexpr uint32_t kDefaultTableSize = param_info(kParamTableSize).default_value;

// The largest M the lab builds: 67108859, the largest prime below 2^26. A
// table of M entries takes 4 M bytes and about M ln M probes to fill (Maglev,
// Eisenbud et al., NSDI 2016, section 3.4): at this bound 0.5 GB of peak
// memory and about 2 s on one core; 2^31 - 1, Maglev's own limit, would run
// for minutes at 8 GB.
inline constexpr uint32_t kLabMaxTableSize = 67108859;

// True when the placement reads parameter `p`: a scheme's SchemeInfo::takes,
// a profile's profile_params.
bool placement_takes(const Placement& placement, Param p);

// The schemes and profiles that read `p`, from the registry and the
// profiles: "the schemes ring; the profile cassandra". "nothing" when none.
std::string takers_of(Param p);

// Throws std::invalid_argument when the placement does not read `p`, in
// one line as the bench's refusal reads: the option, the scheme (by its
// title) or profile that takes no such parameter, and who does ("--vnodes:
// the kafka profile takes no V (the schemes that take it: ring; the
// profiles that take it: cassandra, groupcache)").
void check_applies(const Placement& placement, const ParamInfo& p);

// The --help line of p's option, from its kParams entry: what it is, the
// schemes and profiles that take it, its default and range, and what only
// the lab adds (the profiles' own V, the lab's bound on M, the profiles'
// weight ranges).
std::string param_help(const ParamInfo& p);

// Throws std::invalid_argument when M is no prime ("--table-size must be a
// prime, 2 ... 67108859 in the lab") or exceeds kLabMaxTableSize, naming the
// bound and why.
void check_table_size_bound(uint64_t m);

}  // namespace chbench::lab
