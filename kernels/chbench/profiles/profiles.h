// Production placement profiles: keys placed exactly as real systems place
// them (docs/profiles.md defines each one, with its source). A profile is a
// key hash (the system's own hash of the key bytes, as a uint64_t) and an
// OwnerTable over those hashes, built with the fast kernels of the registry:
//
//   ketama     libmemcached 1.1, weighted ketama, MD5: ring kernels on the
//              32-bit continuum, scaled to the top half of the 64-bit circle;
//   ketama_unweighted  libmemcached 1.1 under MEMCACHED_BEHAVIOR_KETAMA alone:
//              100 points a server, keys and points hashed one-at-a-time
//              (the default hash), weights ignored; the same ring kernels;
//   redis      Redis Cluster: hash slot (CRC16-XMODEM mod 16384, hash tags),
//              slot -> node table as redis-cli --cluster create assigns it;
//   kafka      Kafka's default partitioner for keyed records: toPositive(
//              murmur2(key)) mod partitions, by the mod-N kernels;
//   cassandra  Murmur3Partitioner tokens on a ring of num_tokens (vnodes)
//              tokens per node, by the ring kernels;
//   maglev     the Maglev scheme (maglev.h) with the key hash of docs/spec.md §2;
//   haproxy_consistent  HAProxy 2.6 hash-type consistent (haproxy_lb.h): the
//              nearer of the tree points around the hash, by the ring kernels
//              over the points and their midpoints;
//   haproxy_map  HAProxy 2.6 hash-type map-based: the weighted server map,
//              map[hash % T], by Maglev's table kernels.
//   envoy_maglev  Envoy's Maglev load balancer (envoy_maglev.h): XXH64 keys,
//              hosts sorted by hash key, weighted rounds, Maglev's table kernels;
//   go_redis_ring  go-redis Ring (go_redis_ring.h): rendezvous over XXH64 with
//              its xorshift-multiply mixer, its own scoring loop;
//   groupcache golang/groupcache's peer ring (groupcache.h): CRC-32 points and
//              keys, the last peer keeping a shared point, by the ring kernels.
//   envoy_ring_hash  Envoy's ring_hash load balancer (XXH64 points and keys,
//              minimum ring size = vnodes), by the ring kernels;
//   grpc_ring_hash   gRPC's xDS ring_hash (grpc-go: hosts in name order, ring
//              sizes clamped to 4096), by the ring kernels (ring_hash.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/nodes.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"

namespace chbench {

// One enumerator per line of profiles.def, in its order; what each profile is
// lives in its ProfileInfo (profile_info.h).
enum class Profile {
#define CHBENCH_PROFILE(file, enumerator) k##enumerator,
#include "chbench/profiles/profiles.def"
#undef CHBENCH_PROFILE
};

// "ketama", "redis", "kafka", "cassandra", "maglev", "ketama_unweighted",
// "haproxy_consistent", "haproxy_map".
std::string_view profile_name(Profile profile) noexcept;

// Parses a profile name. Throws std::invalid_argument naming the profiles.
Profile parse_profile(std::string_view name);

std::span<const Profile> all_profiles() noexcept;

// The registry scheme whose kernels answer a profile's lookups: ring for
// ketama and cassandra, mod-N for kafka, maglev for redis (its slot table is a
// lookup table like Maglev's) and maglev.
Scheme profile_scheme(Profile profile) noexcept;

// The registry scheme whose placement rule the profile follows, for reports
// that name a scheme: a ring for ketama and cassandra, mod-N for kafka, Maglev
// for maglev; std::nullopt for redis, whose slot table is no scheme's (its
// lookups only borrow Maglev's table kernels, profile_scheme()).
std::optional<Scheme> profile_placement_scheme(Profile profile) noexcept;

// The Param bits (scheme.h) a profile reads from its cluster besides the node
// names, as SchemeInfo::params for a scheme: cassandra kParamVnodes
// (num_tokens), maglev kParamTableSize (M), ketama kParamWeights,
// envoy_ring_hash and grpc_ring_hash kParamVnodes (the minimum ring size) and
// kParamWeights; none for
// the others (Redis's 16384 slots and Kafka's partitions are fixed rules).
unsigned profile_params(Profile profile) noexcept;

// ---- key hashes ---------------------------------------------------------------

// The profile's key hash of one key, the plain way (ketama: MD5 by OpenSSL):
//   ketama     uint64_t{md5 word 0} << 32
//   ketama_unweighted  uint64_t{one_at_a_time(key)} << 32
//   redis      the hash slot, 0 ... 16383
//   kafka      murmur2(key) & 0x7fffffff
//   cassandra  ordered_token(cassandra_token(key))
//   maglev     key_hash(key) (XXH3, docs/spec.md §2)
//   haproxy_consistent  uint64_t{full_hash(sdbm(key))} << 32 (haproxy_hash.h)
//   haproxy_map  sdbm(key)
//   envoy_maglev  XXH64(key, seed 0)
//   go_redis_ring  XXH64(hash tag of key, seed 0)
//   groupcache uint64_t{crc32_ieee(key)} << 32
//   envoy_ring_hash, grpc_ring_hash  XXH64(key, seed 0)
// Throws std::runtime_error if OpenSSL fails (ketama).
uint64_t profile_key_hash(Profile profile, std::string_view key);

// The same for a batch, the fast way (ketama: multi-lane MD5). Shapes:
// out.size() == keys.size(); throws std::invalid_argument if they differ.
void profile_key_hashes(Profile profile, std::span<const std::string_view> keys,
                        std::span<uint64_t> out);

// ---- the cluster ----------------------------------------------------------------

// What a profile places keys on: `nodes.names` (ketama: "host" or "host:port";
// kafka: one name per partition, partition i being names[i]), `nodes.vnodes`
// (cassandra: num_tokens), `nodes.table_size` (maglev) and, for ketama,
// `weights` (one per node, each >= 1; empty means all 1).
struct ProfileCluster {
  NodeSet nodes;
  std::vector<uint32_t> weights;
};

// Checks a cluster for a profile: validate(nodes); weights only for the
// profiles whose params take kParamWeights (ketama_unweighted refuses them, as
// that mode ignores them); ketama: weights empty or
// one per node, each 1 ... 2^31; ketama and ketama_unweighted: no two names
// of one server (ketama_server's host and port: "a", "a:11211" and
// "a:011211" are one); redis: at most 16384 nodes; kafka: at most
// 2^31 - 1 partitions; cassandra: N * num_tokens below 2^32; maglev:
// validate_maglev; haproxy_consistent and haproxy_map: check_haproxy_chash and
// check_haproxy_map (haproxy_lb.h: weights 1 ... 256, HAProxy server names).
// Throws std::invalid_argument with one line.
// validate_maglev; envoy_ring_hash and grpc_ring_hash: weights 1 ... 2^32 - 1
// (Envoy: their sum too), minimum ring size 1 ... 8388608
// (ring_hash::check_cluster). Throws std::invalid_argument with one line.
void validate_profile(Profile profile, const ProfileCluster& cluster);

// The profile's reference: the plainest code of its definition (ketama the
// continuum and binary search of libmemcached's hosts.cc / hash.cc; redis the
// slot array; kafka h % N; cassandra a sorted token list; maglev Pseudocode
// 1). Throws like validate_profile, std::bad_alloc when it does not fit.
std::unique_ptr<OwnerTable> build_profile_reference(Profile profile, const ProfileCluster& cluster);

// A kernel of profile_scheme(profile), by name ("" = the profile's default,
// the fastest in the committed results), built over the profile's table.
// Throws std::invalid_argument for an unknown kernel (listing the known
// ones), and like validate_profile.
std::unique_ptr<OwnerTable> build_profile_table(Profile profile, const ProfileCluster& cluster,
                                                std::string_view kernel = {});

// The default kernel of a profile: its scheme's default_kernel() (lowest rank).
std::string_view default_profile_kernel(Profile profile) noexcept;

// ---- the pieces, for tests and the lab --------------------------------------------

// A ketama server name split as libmemcached holds it: "host:port" when the
// part after the last ':' is a port number 1 ... 65535, else the whole name
// with port 11211 (MEMCACHED_DEFAULT_PORT).
struct KetamaServer {
  std::string host;
  uint32_t port;
};
KetamaServer ketama_server(std::string_view name);

// The string libmemcached 1.1 hashes for point group i of a server
// (update_continuum, hosts.cc): "host-i" on port 11211, "host:port-i" else.
std::string ketama_point_string(const KetamaServer& server, uint32_t i);

// Points of server `index` of `count` servers under weighted ketama: 160
// scaled by weight / total weight, rounded down to a multiple of 4, in
// libmemcached's single-precision arithmetic.
uint32_t ketama_points_per_server(uint64_t weight, uint64_t total_weight, uint32_t count);

// libmemcached's continuum: (point value, server index) sorted by value then
// index, as its qsort comparator orders them. Throws like validate_profile.
std::vector<RingEntry<uint32_t>> ketama_continuum(const ProfileCluster& cluster);

// Points per server of the unweighted mode: MEMCACHED_POINTS_PER_SERVER.
inline constexpr uint32_t kKetamaUnweightedPoints = 100;

// libmemcached 1.1's continuum under MEMCACHED_BEHAVIOR_KETAMA alone
// (update_continuum, hosts.cc, not weighted): kKetamaUnweightedPoints points
// a server, point i (0 ... 99) being one_at_a_time(ketama_point_string(server,
// i)), one point per hash; sorted as ketama_continuum. Checked key for key
// against the installed libmemcached (tests/interop_libmemcached.cc). Throws
// like validate_profile (weights are refused: this mode ignores them).
std::vector<RingEntry<uint32_t>> ketama_unweighted_continuum(const ProfileCluster& cluster);

// Redis slot -> node index, 16384 entries, as redis-cli --cluster create
// splits the slots into contiguous ranges over N masters (cursor and slots per
// node in float, lround). Throws std::invalid_argument for N = 0 or N > 16384.
std::vector<uint32_t> redis_slot_owners(uint32_t nodes);

// Cassandra's ring: every node's num_tokens tokens, token i of node n being
// XXH3_64bits("<name>#<i>") as a signed long (Long.MIN_VALUE, which Cassandra
// never hands out, becomes Long.MAX_VALUE), as ordered_token values, sorted by
// (token, node). Throws like validate_profile.
std::vector<RingEntry<uint64_t>> cassandra_ring(const NodeSet& nodes);

}  // namespace chbench
