// Rendezvous / highest random weight hashing: Thaler & Ravishankar, "Using
// Name-Based Mappings to Increase Hit Rates", IEEE/ACM ToN 6(1), 1998 (tech.
// report 1996), section 3. Every node scores the key; the highest score wins.
// Score and ties are docs/spec.md §7's: w(h, n) = fmix64(h ^ seed_n), lower index wins.
// The reference (reference.cc) scores node by node; the kernels are one file
// each, as kernels.def lists them (the SIMD ones share RendezvousSimd,
// rendezvous_simd.h).
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "chbench/hash.h"
#include "chbench/nodes.h"

namespace chbench {

// Node seeds s_n = XXH3_64bits(name_n), in node order. Throws
// std::invalid_argument on an invalid node list.
std::vector<uint64_t> rendezvous_seeds(const NodeSet& nodes);

// A copy of chosen seeds for a kernel made over them
// (KernelInfo::make_over_seeds). Throws std::invalid_argument if seeds is
// empty or has 2^32 or more entries (owners are 32-bit node indices).
inline std::vector<uint64_t> chosen_seeds(std::span<const uint64_t> seeds) {
  if (seeds.empty() || seeds.size() > UINT32_MAX)
    throw std::invalid_argument("rendezvous needs 1 to 2^32 - 1 node seeds");
  return {seeds.begin(), seeds.end()};
}

// The score of docs/spec.md §7 of key hash h at a node with seed s.
constexpr uint64_t rendezvous_score(uint64_t h, uint64_t seed) noexcept { return fmix64(h ^ seed); }

// Scalar HRW over contiguous seeds: one pass over the N seeds, keeping the first
// maximum. Precondition: seeds is non-empty. O(N) per key.
inline uint32_t rendezvous_owner(uint64_t h, std::span<const uint64_t> seeds) noexcept {
  uint64_t best = rendezvous_score(h, seeds[0]);
  uint32_t owner = 0;
  for (uint32_t n = 1; n < seeds.size(); ++n) {
    const uint64_t w = rendezvous_score(h, seeds[n]);
    // Strictly greater: on equal scores the lower index keeps the key.
    if (w > best) {
      best = w;
      owner = n;
    }
  }
  return owner;
}

}  // namespace chbench
