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
// "floor": null | "stream" | "compute" | "random_read", "knob": null | {"name",
// "default", "min", "max", "sweep": [...]}}, ...] in registry order, then the
// floors (floor_kernels(): "rank": null, "floor" their kind; the stream
// baseline ring/stream also "stream": true, as runs before the other floors
// marked it)}. The families are in chbench_families (families_json.h).
std::string registry_json();

}  // namespace chbench::bench
