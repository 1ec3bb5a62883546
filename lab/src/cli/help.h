// The lab's help texts that come from the registry: the schemes, their
// aliases, parameters, default kernels, what a leave means, their limits.
#pragma once

#include <string>

#include "chbench/scheme.h"

namespace chbench::lab {

// "modn, ring, hrw (rendezvous), jump, maglev": every scheme with its aliases.
std::string scheme_list();

// The schemes that take parameter `p`: "ring", "ring, maglev".
std::string schemes_taking(Param p);

// "modn/simd, ring/...": each scheme's default kernel (the lowest rank).
std::string default_kernels();

// One line per scheme, each starting with a line break and two spaces: what a
// leave means for it (SchemeInfo::removal_note).
std::string removal_notes();

// The schemes that place keys by the bucket count alone, with their limits:
// "modn (N <= 4294967295), jump (N <= 2147483647)".
std::string bucket_schemes();

// The schemes whose nodes can only leave from the end: " (jump: only the last
// ones)", or "" when none.
std::string last_only_schemes();

// How every format prints a key so that its exact bytes can be read back.
std::string key_output_rules();

}  // namespace chbench::lab
