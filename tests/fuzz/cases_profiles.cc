// The differential fuzzer's production profiles case (differential.cc).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "chbench/profiles/go_redis_ring.h"
#include "chbench/profiles/groupcache.h"
#include "chbench/profiles/haproxy_lb.h"
#include "chbench/profiles/nginx.h"
#include "chbench/profiles/profiles.h"
#include "chbench/profiles/ring_hash.h"
#include "chbench/profiles/twemproxy_ketama.h"
#include "chbench/ring/ring.h"
#include "harness.h"

namespace chbench_fuzz {

namespace {

// A key hash moved into the profile's domain, as profile_key_hash() makes
// them: ketama an MD5 word, groupcache a CRC-32 and haproxy_consistent a
// 32-bit hash in the top 32 bits, haproxy_map one in the low 32, redis a slot,
// kafka a non-negative 31-bit murmur2; cassandra, maglev, envoy_maglev and
// go_redis_ring take any 64-bit value.
uint64_t in_domain(chbench::Profile profile, uint64_t h) {
  switch (profile) {
    case chbench::Profile::kKetama:
    case chbench::Profile::kKetamaUnweighted:
    case chbench::Profile::kGroupcache:
    case chbench::Profile::kTwemproxyKetama:
    case chbench::Profile::kNginxConsistent:
      return h & 0xffffffff00000000u;
    case chbench::Profile::kNginxHash:
      return h & 0x7fffu;
    case chbench::Profile::kRedis:
      return h % 16384;
    case chbench::Profile::kKafka:
      return h & 0x7fffffffu;
    case chbench::Profile::kHaproxyConsistent:
      return h & 0xffffffff00000000u;
    case chbench::Profile::kHaproxyMap:
      return h & 0xffffffffu;
    default:
      return h;
  }
}

// Sometimes another spelling of a name's ketama server: "host" as
// "host:11211", "host:port" as "host:0port" or "host" alone at 11211.
void add_server_spellings(FuzzedDataProvider& in, std::vector<std::string>& names) {
  if (names.empty() || in.ConsumeIntegralInRange<int>(0, 3) != 0) return;
  const auto server =
      chbench::ketama_server(names[in.ConsumeIntegralInRange<std::size_t>(0, names.size() - 1)]);
  const std::string port = std::to_string(server.port);
  switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0:
      names.push_back(server.host + ":" + port);
      break;
    case 1:
      names.push_back(server.host + ":0" + port);
      break;
    default:
      names.push_back(server.port == 11211 ? server.host : server.host + ":00" + port);
      break;
  }
}

// Mostly the host:port servers nutcracker needs: each name gets port 11211
// (nutcracker leaves it out of the point strings) or 11212 + its index; the
// names as decoded otherwise (refused unless they end in a port).
void add_twemproxy_ports(FuzzedDataProvider& in, std::vector<std::string>& names) {
  if (in.ConsumeIntegralInRange<int>(0, 3) == 0) return;
  for (std::size_t i = 0; i < names.size(); ++i)
    names[i] += in.ConsumeBool() ? ":11211" : ":" + std::to_string(11212 + i);
}

// An accepted ketama cluster has no two names of one server.
void check_distinct_servers(const Context& c, chbench::Profile profile,
                            const chbench::ProfileCluster& cluster) {
  if (profile != chbench::Profile::kKetama && profile != chbench::Profile::kKetamaUnweighted)
    return;
  std::vector<std::pair<std::string, uint32_t>> servers;
  for (const auto& name : cluster.nodes.names) {
    const auto server = chbench::ketama_server(name);
    servers.emplace_back(server.host, server.port);
  }
  std::sort(servers.begin(), servers.end());
  if (std::adjacent_find(servers.begin(), servers.end()) != servers.end())
    fail(c, "validate_profile", "two names of one server were accepted");
}

}  // namespace

void run_profiles(FuzzedDataProvider& in, Context& c) {
  const auto profiles = chbench::all_profiles();
  const auto profile = profiles[in.ConsumeIntegralInRange<std::size_t>(0, profiles.size() - 1)];
  const Scheme scheme = chbench::profile_scheme(profile);
  chbench::ProfileCluster cluster;
  cluster.nodes = decode_nodes(in, scheme);
  if (cluster.nodes.names.size() > kMaxProfileNodes) cluster.nodes.names.resize(kMaxProfileNodes);
  add_server_spellings(in, cluster.nodes.names);
  if (profile == chbench::Profile::kTwemproxyKetama) add_twemproxy_ports(in, cluster.nodes.names);
  if ((chbench::profile_params(profile) & chbench::kParamWeights) && in.ConsumeBool()) {
    // One weight per node (0 must be refused), or sometimes one too few.
    const std::size_t count = cluster.nodes.names.size() - (in.ConsumeBool() ? 0 : 1);
    for (std::size_t i = 0; i < count && count <= cluster.nodes.names.size(); ++i)
      cluster.weights.push_back(in.ConsumeIntegralInRange<uint32_t>(0, 5));
  }
  if ((profile == chbench::Profile::kHaproxyConsistent ||
       profile == chbench::Profile::kHaproxyMap) &&
      in.ConsumeBool()) {
    // One weight per node, 0 and 257 to be refused; sometimes one too few.
    const std::size_t count = cluster.nodes.names.size() - (in.ConsumeBool() ? 0 : 1);
    for (std::size_t i = 0; i < count && count <= cluster.nodes.names.size(); ++i)
      cluster.weights.push_back(in.ConsumeBool() ? in.ConsumeIntegralInRange<uint32_t>(1, 4)
                                                 : in.ConsumeIntegralInRange<uint32_t>(0, 257));
  }
  c.what = "profile " + std::string(chbench::profile_name(profile)) +
           ", N = " + std::to_string(cluster.nodes.size()) +
           ", V = " + std::to_string(cluster.nodes.vnodes) +
           ", M = " + std::to_string(cluster.nodes.table_size) + ", " +
           std::to_string(cluster.weights.size()) + " weights";
  std::string ref_error;
  const auto reference =
      build([&] { return chbench::build_profile_reference(profile, cluster); }, ref_error);
  Batch batch;
  Owners want;
  if (reference) check_distinct_servers(c, profile, cluster);
  if (reference) {
    Keys anchors;
    if (profile == chbench::Profile::kKetama)
      for (const auto& e : chbench::ketama_continuum(cluster))
        anchors.push_back(uint64_t{e.token} << 32);
    if (profile == chbench::Profile::kKetamaUnweighted)
      for (const auto& e : chbench::ketama_unweighted_continuum(cluster))
        anchors.push_back(uint64_t{e.token} << 32);
    if (profile == chbench::Profile::kTwemproxyKetama)
      for (const auto& e : chbench::twemproxy_continuum(cluster))
        anchors.push_back(uint64_t{e.token} << 32);
    if (profile == chbench::Profile::kCassandra)
      for (const auto& e : chbench::cassandra_ring(cluster.nodes)) anchors.push_back(e.token);
    if (profile == chbench::Profile::kMaglev || profile == chbench::Profile::kEnvoyMaglev)
      anchors = anchors_of(Scheme::kMaglev, cluster.nodes);
    if (profile == chbench::Profile::kGoRedisRing)
      anchors = chbench::go_redis_shard_hashes(cluster.nodes);
    if (profile == chbench::Profile::kGroupcache)
      for (const auto& e : chbench::groupcache_ring(cluster.nodes.names, cluster.nodes.vnodes))
        anchors.push_back(uint64_t{e.token} << 32);
    if (profile == chbench::Profile::kHaproxyConsistent)
      for (const auto& e :
           chbench::haproxy_chash_entries_64(chbench::haproxy_chash_points(cluster)))
        for (uint64_t d : {uint64_t{0}, uint64_t{1} << 32, uint64_t{0} - (uint64_t{1} << 32)})
          anchors.push_back(e.token + d);  // each point and midpoint, and its neighbours
    if (profile == chbench::Profile::kHaproxyMap) {
      const uint64_t t = chbench::haproxy_server_map(cluster).size();
      for (uint64_t m : {uint64_t{1}, uint64_t{2}, 0xffffffffu / t}) anchors.push_back(m * t);
    }
    if (profile == chbench::Profile::kNginxConsistent)
      for (const auto& e : chbench::nginx_chash_points(cluster))
        anchors.push_back(uint64_t{e.token} << 32);
    if (profile == chbench::Profile::kEnvoyRingHash || profile == chbench::Profile::kGrpcRingHash) {
      const auto options = profile == chbench::Profile::kEnvoyRingHash
                               ? chbench::ring_hash::envoy_options(cluster.nodes)
                               : chbench::ring_hash::grpc_options(cluster.nodes);
      for (const auto& e : chbench::ring_hash::build_ring(cluster, options))
        anchors.push_back(e.token);
    }
    batch = decode_batch(in, anchors);
    for (auto& h : batch.keys) h = in_domain(profile, h);
    want.resize(batch.keys.size());
    reference->owners(batch.keys, want);
  }
  check_kernels(c, scheme, ref_error, batch, want,
                [&](const chbench::KernelInfo& kernel, unsigned) {
                  return chbench::build_profile_table(profile, cluster, kernel.name);
                });
}

}  // namespace chbench_fuzz
