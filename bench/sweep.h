// What the bench times: one Config per benchmark, grouped into families.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chbench/profiles/profiles.h"
#include "chbench/scheme.h"

namespace chbench::bench {

// One timed configuration: a kernel, a node list of `nodes` default names with
// `vnodes` virtual nodes, a batch of `keys` default key hashes, `threads` TBB
// threads. `family` groups configurations for plots: tokens, latency (each key
// waits for the previous owner), inflight (the S-tree's group and the bucket
// index's prefetch distance), clustered (tokens and keys in one narrow
// window), nodes, batch, threads, hashed (lookups including XXH3 of the key
// strings), targets (SIMD kernels forced to each Highway target), profiles
// (production profiles from key strings, see profiles.h), custom.
// `target` is one Highway target bit (HWY_AVX2, ...) that a SIMD kernel is
// forced to while it is prepared and timed, or 0 for the target dispatch
// picks. `in_flight` (ring/stree, ring/bucketed) sets their keys in flight, 0
// their default; `window_bits` != 0 squeezes tokens and keys into a window of
// 2^window_bits (clustered_ring_entries, into_cluster).
struct Config {
  std::string family;
  const KernelInfo* kernel = nullptr;
  uint32_t nodes = 1;
  uint32_t vnodes = 1;
  uint64_t keys = 1;
  unsigned threads = 1;
  int64_t target = 0;
  unsigned in_flight = 0;
  unsigned window_bits = 0;
  // Family "profiles": the profile, looked up by `kernel` (a kernel of
  // profile_scheme(*profile)) or, with `client`, by the real client
  // (libmemcached; `kernel` is then null).
  std::optional<Profile> profile;
  bool client = false;

  // "<family>/<scheme>/<kernel>/N:<n>/V:<v>/K:<k>/threads:<t>", the kernel
  // written "<kernel>@<TARGET>" (hwy::TargetName, e.g. simd_keys@AVX2) when a
  // target is forced, then "/inflight:<g>" and "/window:<w>" when set; for
  // profiles the profile stands for the scheme and "libmemcached" for the
  // client's kernel.
  std::string name() const;
  // True for the stream baseline, which looks nothing up.
  bool is_stream() const noexcept;
  // Peak bytes the bench holds while preparing and timing this configuration
  // (keys, owners, reference and kernel tables), an upper estimate.
  uint64_t peak_bytes() const;
};

// Each timed iteration looks up a fresh batch of K keys: the keys are a pool of
// pool_windows(K) consecutive batches, at least kMinPool keys in all, and
// iteration i takes batch i mod windows. Repeating one small batch would let
// the branch predictor learn its keys (lower_bound at K = 1,000 ran 10x faster
// than at K = 10^5 before this) and measure a replay, not lookups.
inline constexpr uint64_t kMinPool = 100'003;
inline uint64_t pool_windows(uint64_t keys) {
  return keys >= kMinPool ? 1 : (kMinPool + keys - 1) / keys;
}

// The stream baseline, listed as kernel "ring/stream": reads each key hash and
// writes one owner (its low 32 bits), no lookup: the memory-bound floor under
// every ring kernel. Not in the registry (it matches no reference), never
// checked against one.
const KernelInfo& stream_baseline() noexcept;

// Which configurations to generate.
struct SweepOptions {
  bool full = false;                       // the complete sweep for target machines
  std::vector<std::string> families;       // empty: all
  std::vector<const KernelInfo*> kernels;  // empty: all
  unsigned max_threads = 1;                // thread sweep runs 1 ... max_threads
};

// The default (quick) or full sweep: ring token counts ~10 to ~16M, rendezvous
// N 2 to 4,096, jump and mod-N N up to 10^6, batch sizes 10^3 to 10^7
// log-spaced and off the powers of two, threads 1 to max_threads, and the
// targets family: each SIMD kernel at dispatch and forced to every target this
// CPU runs, beside its scalar counterparts, one thread (rendezvous N 64 and
// 1,000, jump N 1,000 and 10^6, a ring of 65,500 tokens, mod-N N 1,000).
// The profiles family: ketama at 10 and 100 servers with libmemcached beside
// the ring kernels, and at 1,000 and 10,000 servers without it; Redis, Kafka,
// Cassandra and Maglev at two sizes each, key hashing included, one thread.
// Configurations are ordered so that those sharing a node list and key batch
// are adjacent.
std::vector<Config> make_sweep(const SweepOptions& options);

}  // namespace chbench::bench
