// The family list as the results record it: Google Benchmark's custom
// context key chbench_families holds this JSON text, which the plot scripts
// parse for the families' order, titles and parameters and for the name
// segments they read each configuration's parameters from.
#pragma once

#include <string>
#include <vector>

#include "families/family.h"

namespace chbench::bench {

// {"segments": [{"key": "N", "field": "nodes", "kind": "int" | "number" |
// "word", "title"}, ...] in name order (segments.h),
//  "families": [{"name", "title", "quick_budget_s", "params": ["N", "V", ...]},
// ...] in run order (families/list.cc)}.
// A family's params are the keys of the segments its configurations carry,
// in the quick sweep or the full one (the points of `context`, quick and
// full), in name order. Never throws but std::bad_alloc.
std::string families_json(const FamilyContext& context);

// The segment keys (segments.h) that `configs` carry, in name order.
std::vector<std::string> segment_keys(const std::vector<Config>& configs);

}  // namespace chbench::bench
