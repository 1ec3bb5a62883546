// chbench-lab tokens: the rows of the token allocation experiment
// (allocation.h) in each output format, for the writers of writers/writer.h.
// `ring`, "cassandra profile" or "ring", names the ring in the header.
#pragma once

#include <string>
#include <vector>

#include "allocation.h"
#include "writers/out.h"

namespace chbench::lab {

void tokens_text(Out& out, const std::string& ring, const std::vector<AllocationRow>& rows);
void tokens_csv(Out& out, const std::vector<AllocationRow>& rows);
void tokens_json(Out& out, const std::string& ring, const std::vector<AllocationRow>& rows);

}  // namespace chbench::lab
