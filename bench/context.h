// Machine and build facts recorded in every results JSON.
#pragma once

#include <string>

namespace chbench::bench {

// Why this process looks emulated, so that its timings mean nothing, or ""
// when nothing says so. Each sign found is named in the text:
// - `cpuinfo` (normally /proc/cpuinfo) describes a CPU of another architecture
//   than the one this binary was compiled for: qemu-user (Debian's qemu-aarch64
//   7.2) shows the host's own file to the program it emulates;
// - its model name is QEMU's generic virtual CPU ("QEMU Virtual CPU ...");
// - binfmt_misc hands this architecture's binaries to qemu (an enabled
//   /proc/sys/fs/binfmt_misc/qemu-<arch> entry), which a native machine has
//   no reason to do.
// An unreadable file is no sign. Never throws.
std::string emulation_evidence(const std::string& cpuinfo);

// Adds chbench_* fields to Google Benchmark's "context": commit, build type,
// compiler and flags, toolchain, preset, x86-64 baseline, target architecture
// and whether it was cross-compiled, CPU model and flags (read from `cpuinfo`),
// whether the run is emulated (`emulated`: emulation_evidence's text, "" for
// no), Highway targets (compiled, supported, chosen), oneTBB / Google Benchmark
// / xxHash versions, hardware threads, sweep, the registry
// (chbench_registry, see registry_json.h) and the families (chbench_families,
// see families_json.h).
void add_run_context(const std::string& sweep, const std::string& cpuinfo,
                     const std::string& emulated);

}  // namespace chbench::bench
