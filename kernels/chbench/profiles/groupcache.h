// The groupcache profile's pieces (docs/profiles/clients.md, "groupcache"): the peer
// that owns a key in golang/groupcache's HTTPPool (consistenthash/
// consistenthash.go and http.go at 2c02b8208cf8c02a3e358cb1d9b60950647543fc):
// a 32-bit ring of CRC-32 points, replicas per peer, the last peer added
// keeping a point two peers share.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/nodes.h"
#include "chbench/ring/ring.h"

namespace chbench {

// HTTPPool's replicas when HTTPPoolOptions.Replicas is 0 (defaultReplicas).
inline constexpr uint32_t kGroupcacheDefaultReplicas = 50;

// CRC-32 IEEE (crc32.ChecksumIEEE) of `bytes`, by zlib: the key hash and the
// point hash of groupcache's default Map.
uint32_t groupcache_crc32(std::string_view bytes) noexcept;

// A Map's hash function (consistenthash.Hash), for Maps of another hash.
using GroupcacheHash = uint32_t (*)(std::string_view bytes);

// The points in the order Map.Add makes them, peer by peer in list order:
// for peer n and i = 0 ... replicas - 1, hash(decimal i + name) with node n.
// Throws std::invalid_argument for replicas = 0 or N * replicas >= 2^32.
std::vector<RingEntry<uint32_t>> groupcache_points(const std::vector<std::string>& peers,
                                                   uint32_t replicas,
                                                   GroupcacheHash hash = groupcache_crc32);

// The ring Map.Get searches: the points sorted by value, each point's owner
// being the last peer in list order that made that value (Add's hashMap
// keeps the last write). Throws like groupcache_points.
std::vector<RingEntry<uint32_t>> groupcache_ring(const std::vector<std::string>& peers,
                                                 uint32_t replicas,
                                                 GroupcacheHash hash = groupcache_crc32);

}  // namespace chbench
