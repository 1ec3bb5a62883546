// chbench-lab's set-up from its options: the scheme or profile, the fleet of
// --nodes (a fleet of buckets where no names are needed), the removal
// scenario, weights, kernel and replicas, each checked before any command
// prints a byte.
#pragma once

#include <string>

#include "cli/options.h"
#include "commands/setup.h"

namespace chbench::lab {

// --format: "text", "csv" or "json". Throws std::invalid_argument otherwise.
Format parse_format(const std::string& s);

// Everything a command needs, parsed and checked before anything is printed:
// the options that do not apply refused (cli/applies.h), the fleet made
// within the memory guard (keys.h: check_memory), the scheme's own limits
// (SchemeInfo::check) or the profile's. Throws std::invalid_argument for bad
// input, with one line naming the option; std::length_error for a fleet past
// the kernels' limits.
Setup setup_from(const Options& o);

}  // namespace chbench::lab
