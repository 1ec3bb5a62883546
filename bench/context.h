// Machine and build facts recorded in every results JSON.
#pragma once

#include <string>

namespace chbench::bench {

// Adds chbench_* fields to Google Benchmark's "context": commit, build type,
// compiler and flags, CPU model and flags, Highway targets (compiled, supported,
// chosen), oneTBB / Google Benchmark / xxHash versions, hardware threads, sweep.
void add_run_context(const std::string& sweep);

}  // namespace chbench::bench
