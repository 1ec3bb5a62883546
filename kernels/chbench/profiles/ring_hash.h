// The ring that Envoy's ring_hash load balancer and gRPC's xDS ring_hash
// policy build (docs/profiles/ring_hash.md, "envoy_ring_hash" and "grpc_ring_hash"):
// weights normalized to sum 1, a scale that gives the lightest host a whole
// number of points within [minimum, maximum] ring size, points XXH64("<name>_<i>")
// counted by running sums carried from host to host, sorted by point value;
// and the two systems' own search over it (a port of libketama's
// ketama_get_server).
//
// Sources: envoyproxy/envoy source/extensions/load_balancing_policies/
// ring_hash/ring_hash_lb.cc at 0d2acde2e8d72f305977c5638cd3c707aa8dad6f and
// source/common/upstream/thread_aware_lb_impl.cc at
// 049608543f4c5815842332ae5d317333ca9c3961 (normalizeHostWeights); grpc/grpc
// src/core/load_balancing/ring_hash/ring_hash.cc at
// 07235094e4d84111241053925c5f19bd2616a274; grpc/grpc-go
// balancer/ringhash/ring.go at 40245426fe1ff21159d28d639bd52cf69bd4b59a.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/profiles/profiles.h"
#include "chbench/ring/ring.h"

namespace chbench::ring_hash {

// The largest ring size either system accepts (Envoy's proto bound on
// minimum_ring_size and maximum_ring_size, gRPC's [1, 8388608] check).
inline constexpr uint64_t kRingSizeLimit = 8388608;
// Envoy's defaults: minimum_ring_size 1024, maximum_ring_size 8388608.
inline constexpr uint64_t kEnvoyMinRingSize = 1024;
inline constexpr uint64_t kEnvoyMaxRingSize = 8388608;
// gRPC's: minRingSize 1024, and every ring size clamped to the ring size cap
// (GRPC_ARG_RING_HASH_LB_RING_SIZE_CAP, default 4096).
inline constexpr uint64_t kGrpcMinRingSize = 1024;
inline constexpr uint64_t kGrpcRingSizeCap = 4096;

// How a ring is built: the ring size bounds, and whether the hosts are walked
// in name order (grpc-go sorts its endpoints by hash key) or as listed (Envoy).
struct RingOptions {
  uint64_t min_ring_size;
  uint64_t max_ring_size;
  bool sort_by_name;
};

// envoy_ring_hash's options: minimum ring size nodes.vnodes, maximum
// kEnvoyMaxRingSize, the hosts as listed.
RingOptions envoy_options(const NodeSet& nodes);

// grpc_ring_hash's: minimum min(nodes.vnodes, kGrpcRingSizeCap), maximum
// kGrpcRingSizeCap, the hosts in name order.
RingOptions grpc_options(const NodeSet& nodes);

// The string hashed for point i of a host: "<name>_<i>", i in decimal.
std::string point_string(std::string_view name, uint64_t i);

// XXH64 with seed 0 (Envoy's HashUtil::xxHash64, gRPC's XXH64(..., 0)): the
// key hash and the point hash of both profiles.
uint64_t xxh64(std::string_view bytes);

// Each host's normalized weight, weight / sum of the weights in double (all 1
// when cluster.weights is empty), in cluster order.
std::vector<double> normalized_weights(const ProfileCluster& cluster);

// Each host's number of points, in cluster order, as the running sums give
// them: scale = min(ceil(w_min * min) / w_min, max) in double, host k's
// target the running sum of scale * w_k, points added while the running
// count is below the target. `cluster` must have been checked (check_cluster).
std::vector<uint64_t> point_counts(const ProfileCluster& cluster, const RingOptions& options);

// The ring: (XXH64(point_string(name, i)), host index) for every host and
// i < its count, sorted by (point, host index). Both systems sort by the
// point alone with std::sort (unstable), so the order of equal points there is
// unspecified; here the lower host index comes first.
std::vector<RingEntry<uint64_t>> build_ring(const ProfileCluster& cluster,
                                            const RingOptions& options);

// The systems' own search over `ring` (non-empty), a port of
// ketama_get_server: signed low/high/mid indices, high starting at the ring
// size, stopping at mid when ring[mid - 1] < h <= ring[mid] (ring[-1] taken
// as 0), mid = size or low > high giving index 0. Returns the ring index.
std::size_t ketama_search(std::span<const RingEntry<uint64_t>> ring, uint64_t h);

// The systems' lookup as an OwnerTable: each key hash's owner is the host of
// ring[ketama_search(ring, h)]. `ring` must be non-empty.
std::unique_ptr<OwnerTable> reference_table(std::vector<RingEntry<uint64_t>> ring);

// Refuses what the system refuses, naming `profile`: weights not one a host or
// not 1 ... 2^32 - 1, a weight sum above 2^32 - 1 when `limit_sum` (Envoy
// refuses it; gRPC sums in 64 bits), a minimum ring size (nodes.vnodes) of 0
// or above kRingSizeLimit. Throws std::invalid_argument with one line.
void check_cluster(std::string_view profile, const ProfileCluster& cluster, bool limit_sum);

}  // namespace chbench::ring_hash
