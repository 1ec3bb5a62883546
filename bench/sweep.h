// What the bench times: one Config per benchmark, grouped into families.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chbench/scheme.h"

namespace chbench::bench {

// One timed configuration: a kernel, a node list of `nodes` default names with
// `vnodes` virtual nodes, a batch of `keys` default key hashes, `threads` TBB
// threads. `family` groups configurations for plots: tokens, nodes, batch,
// threads, hashed (lookups including XXH3 of the key strings), custom.
struct Config {
  std::string family;
  const KernelInfo* kernel = nullptr;
  uint32_t nodes = 1;
  uint32_t vnodes = 1;
  uint64_t keys = 1;
  unsigned threads = 1;

  // "<family>/<scheme>/<kernel>/N:<n>/V:<v>/K:<k>/threads:<t>"
  std::string name() const;
  // Peak bytes the bench holds while preparing and timing this configuration
  // (keys, owners, reference and kernel tables), an upper estimate.
  uint64_t peak_bytes() const;
};

// Which configurations to generate.
struct SweepOptions {
  bool full = false;                       // the complete sweep for target machines
  std::vector<std::string> families;       // empty: all
  std::vector<const KernelInfo*> kernels;  // empty: all
  unsigned max_threads = 1;                // thread sweep runs 1 ... max_threads
};

// The default (quick) or full sweep: ring token counts ~10 to ~16M, rendezvous
// N 2 to 4,096, jump and mod-N N up to 10^6, batch sizes 10^3 to 10^7
// log-spaced and off the powers of two, threads 1 to max_threads. Configurations
// are ordered so that those sharing a node list and key batch are adjacent.
std::vector<Config> make_sweep(const SweepOptions& options);

// Bytes of memory the machine can still give (MemAvailable of /proc/meminfo),
// or 0 when unknown.
uint64_t available_memory_bytes();

}  // namespace chbench::bench
