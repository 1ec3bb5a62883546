// chbench-lab tokens: the rows of the token allocation experiment
// (allocation.h) in each output format.
#pragma once

#include <string>
#include <vector>

#include "allocation.h"
#include "commands/setup.h"
#include "writers/out.h"

namespace chbench::lab {

// `ring`: "cassandra profile" or "ring", for the header.
void write_tokens(Format format, Out& out, const std::string& ring,
                  const std::vector<AllocationRow>& rows);

}  // namespace chbench::lab
