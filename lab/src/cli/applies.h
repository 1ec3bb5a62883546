// The one place where the lab refuses an option that does not apply to the
// scheme or profile given: each option of a parameter, a weight, a replica
// count, a removal scenario or a load bound names the schemes and profiles
// that take it. Combinations of options that exclude each other are refused
// where they are read (cli/setup_from.cc, commands/load.cc).
#pragma once

#include "cli/options.h"
#include "commands/setup.h"

namespace chbench::lab {

// Throws std::invalid_argument for the first option of `o` that the
// placement of `s` (s.scheme and s.placement.profile set) does not read:
// --vnodes, --table-size (and M above the lab's bound), --capacity (and 0),
// --probes, --weights, --replicas, the removal scenario (--removed,
// --remove-fraction), --bounded-load. The message names who takes it.
void refuse_inapplicable(const Setup& s, const Options& o);

}  // namespace chbench::lab
