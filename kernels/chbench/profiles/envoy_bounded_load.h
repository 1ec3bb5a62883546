// Envoy's bounded load for hash load balancers (hash_balance_factor), over
// the envoy_ring_hash ring: a request stream placed one request at a time
// as Envoy's BoundedLoadHashingLoadBalancer::chooseHost places it, every
// request still active when the next arrives (docs/profiles/ring_hash.md).
//
// Source: envoyproxy/envoy source/common/upstream/thread_aware_lb_impl.cc at
// 049608543f4c5815842332ae5d317333ca9c3961 (hostOverloadFactor, chooseHost).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "chbench/ring/ring.h"

namespace chbench::ring_hash {

struct EnvoyBoundedAssignment {
  std::vector<uint32_t> host;  // per request, in stream order: its host index
  std::vector<uint64_t> load;  // per host: requests taken
  uint64_t probed = 0;         // requests not on the ring owner of their hash
};

// Host k's slots when `active` requests are active in all:
// max(1, ceil(ceil((active + 1) * factor / 100) * weight_k)), in Envoy's
// 32-bit integer and double arithmetic. A host is within its slots (accepted)
// while its own active count is at most that.
uint32_t envoy_slots(uint32_t active, uint32_t factor, double weight);

// Places `request_hashes` in order on `ring` (as build_ring gives it for
// `weights`, the normalized weight of each host, summing to 1): the ring
// owner (ketama_search) if within its slots; else the hosts in a
// Fisher-Yates shuffle seeded with the hash (std::mt19937, j drawn in
// [0, N - i) as rng() / (2^32 / (N - i)), redrawn while >= N - i), skipping
// the owner, the first within its slots; else the least loaded relative to
// its slots, ties to the first seen. Throws std::invalid_argument for an
// empty ring, factor < 100 (Envoy's proto bound) or more than 2^32 - 1
// requests.
EnvoyBoundedAssignment envoy_bounded_assign(std::span<const RingEntry<uint64_t>> ring,
                                            std::span<const double> weights,
                                            std::span<const uint64_t> request_hashes,
                                            uint32_t factor);

}  // namespace chbench::ring_hash
