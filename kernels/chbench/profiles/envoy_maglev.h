// The envoy_maglev profile's pieces (docs/profiles/maglev.md, "Envoy Maglev"):
// Envoy's Maglev load balancer as its source builds and searches it
// (envoyproxy/envoy source/extensions/load_balancing_policies/maglev/
// maglev_lb.cc at a6b64f4b8db11f00fd7255e4dba14c5802547275, maglev_lb.h at
// 8f663f798fe6c50aedb69bd02e05f1c34949e2f1, and the weight normalisation of
// load_balancing_policies/common/thread_aware_lb_impl.cc at
// a9476de01ddfec50bf5809e2cb6602a1aea50486).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "chbench/maglev/maglev.h"
#include "chbench/profiles/profiles.h"

namespace chbench {

// Envoy's table sizes: MaglevTable::DefaultTableSize, and the bound of the
// Maglev policy's table_size field (maglev.proto: lte 5000011, prime).
inline constexpr uint32_t kEnvoyMaglevDefaultTableSize = 65537;
inline constexpr uint32_t kEnvoyMaglevMaxTableSize = 5000011;

// The hash a request's hash policy gives (HashUtil::xxHash64 of a header,
// cookie or parameter value): XXH64 with seed 0, from libxxhash.
uint64_t envoy_key_hash(std::string_view value) noexcept;

// A host's permutation of an M-slot table: offset = XXH64(key, 0) mod M,
// skip = XXH64(key, 1) mod (M - 1) + 1, key being the host's hash key (its
// address as "ip:port", or its hostname). Precondition: table_size >= 2.
MaglevPermutation envoy_maglev_permutation(std::string_view host_key, uint32_t table_size) noexcept;

// Checks a cluster for Envoy: validate(nodes); M = nodes.table_size prime and
// 2 ... kEnvoyMaglevMaxTableSize; weights empty (all 1) or one per host, each
// at least 1, summing to at most 2^32 - 1; no name that is an IP address
// without its port ("10.0.0.1", "[::1]") or with a port above 65535. Throws
// std::invalid_argument with one line.
void check_envoy_maglev(const ProfileCluster& cluster);

// Envoy's filled table, entry[i] the index (in cluster order) of the host
// owning slot i: hosts sorted by their names (byte order), each host's
// normalised weight w / sum, and rounds 1, 2, ... in which every host in
// sorted order whose round * weight reaches its running target claims the
// next free slot of its permutation and raises its target by the largest
// normalised weight, until all M slots are taken (hosts beyond M get none).
// Throws like check_envoy_maglev, std::bad_alloc when M entries do not fit.
std::vector<uint32_t> envoy_maglev_table(const ProfileCluster& cluster);

}  // namespace chbench
