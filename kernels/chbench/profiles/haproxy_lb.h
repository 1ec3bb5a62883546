// HAProxy 2.6's two hash-based placements (docs/profiles/proxies.md): the
// consistent-hash tree of `hash-type consistent` (src/lb_chash.c) and the
// server map of `hash-type map-based` (src/lb_map.c), both from HAProxy
// v2.6.12. A cluster's node i is the backend's (i + 1)-th `server` line,
// whose name is names[i], whose weight is weights[i] (1 ... 256; empty: all
// 1) and whose id (puid) is i + 1, as HAProxy numbers servers without an
// explicit `id`.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "chbench/profiles/profiles.h"
#include "chbench/ring/ring.h"

namespace chbench {

// BE_WEIGHT_SCALE: a server of weight w has w x 16 points in the tree.
inline constexpr uint32_t kHaproxyWeightScale = 16;
// SRV_UWGHT_MAX: the largest `weight` of a server line.
inline constexpr uint32_t kHaproxyMaxWeight = 256;
// SRV_EWGHT_RANGE: point j of server id s is full_hash(s x 4096 + j).
inline constexpr uint32_t kHaproxyPointRange = kHaproxyMaxWeight * kHaproxyWeightScale;
// The most servers whose point numbers s x 4096 + j stay below 2^32, so that
// no two points share a key (full_hash is a bijection).
inline constexpr uint32_t kHaproxyMaxChashServers = 0xffffffffu / kHaproxyPointRange;

// The checks both profiles share: weights empty or one per node, each 1 ...
// 256 (HAProxy takes 0 ... 256; a weight 0 server takes no traffic, which the
// lab's fleets do not model); every name a valid HAProxy server name (letters,
// digits, '.', ':', '_', '-'; tools.c invalid_char). `profile` names the
// profile in the message. Throws std::invalid_argument with one line.
void check_haproxy_servers(std::string_view profile, const ProfileCluster& cluster);

// ---- hash-type consistent ---------------------------------------------------------

// The haproxy_consistent profile's limits: at most kHaproxyMaxChashServers
// servers, and check_haproxy_servers. Throws std::invalid_argument.
void check_haproxy_chash(const ProfileCluster& cluster);

// The tree's points (key, node index), sorted by key: node i has
// weights[i] x 16 points, point j being full_hash((i + 1) x 4096 + j)
// (chash_init_server_tree). The keys are distinct. Throws like
// check_haproxy_chash.
std::vector<RingEntry<uint32_t>> haproxy_chash_points(const ProfileCluster& cluster);

// chash_get_server_hash over `points` (sorted, distinct keys, non-empty) for a
// 32-bit key hash: `next` is the first point >= hash (the first point when
// none is), `prev` the point before `next` (the last when `next` is the
// first); the owner is prev's when hash - prev <= next - hash (mod 2^32),
// else next's. Returns the owner's node index.
uint32_t haproxy_chash_owner(std::span<const RingEntry<uint32_t>> points, uint32_t hash) noexcept;

// The same lookup as "first entry >= hash" on the 64-bit circle, for the ring
// kernels: each point p, followed by q, becomes the entries p and
// p + floor((q - p) / 2) (mod 2^32; both owned by p's server; the second left
// out when it is p), every entry shifted left by 32, sorted by (value, node).
// A key hash h is looked up as h << 32. Throws std::invalid_argument when
// `points` is empty.
std::vector<RingEntry<uint64_t>> haproxy_chash_entries_64(
    std::span<const RingEntry<uint32_t>> points);

// ---- hash-type map-based ------------------------------------------------------------

// The haproxy_map profile's limits: T x N at most kHaproxyMaxMapSteps (T the
// map's length below), and check_haproxy_servers. Throws
// std::invalid_argument.
void check_haproxy_map(const ProfileCluster& cluster);

// The server map of recalc_server_map: weights divided by their greatest
// common divisor (init_server_map), the map as long as their sum T, and slot
// o given, after every server's score grew by its weight, to the first server
// (in node order) of the highest (score + T) / T, whose score then drops by
// T. A key hash h is owned by map[h % T]. Throws like check_haproxy_map.
std::vector<uint32_t> haproxy_server_map(const ProfileCluster& cluster);

// The largest T x N haproxy_server_map builds (T slots, a visit of each of the
// N servers per slot): about a second's work.
inline constexpr uint64_t kHaproxyMaxMapSteps = uint64_t{1} << 31;

}  // namespace chbench
