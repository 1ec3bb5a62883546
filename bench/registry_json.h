// The registry as the results record it: Google Benchmark's custom context
// key chbench_registry holds this JSON text, which the plot scripts parse
// (json.loads) instead of keeping tables of kernels of their own.
#pragma once

#include <string>

namespace chbench::bench {

// {"schemes": [{"name", "title", "source", "aliases": [...], "params":
// ["vnodes", "table_size", "weights", "capacity"], "removal": "any" | "last" |
// "none", "max_nodes"}, ...] in registry order,
//  "kernels": [{"name": "scheme/kernel", "scheme", "kernel", "summary", "simd",
// "rival": "scheme/kernel" | null, "baseline", "rank": int | null, "stream",
// "knob": null | {"name", "default", "min", "max", "sweep": [...]}}, ...] in
// registry order, then the stream baseline ring/stream ("stream": true,
// "rank": null)}. The families are in chbench_families (families_json.h).
std::string registry_json();

}  // namespace chbench::bench
