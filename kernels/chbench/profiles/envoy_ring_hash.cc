// The envoy_ring_hash profile: Envoy's ring_hash load balancer with XXH64
// (docs/profiles/ring_hash.md): hosts as listed, minimum ring size --vnodes (default
// 1024), maximum 8388608, looked up by the ring kernels on its own ring.
#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_info.h"
#include "chbench/profiles/ring_hash.h"

namespace chbench {

namespace {

void check(const ProfileCluster& cluster) {
  ring_hash::check_cluster("envoy_ring_hash", cluster, true);
}

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return ring_hash::reference_table(
      ring_hash::build_ring(cluster, ring_hash::envoy_options(cluster.nodes)));
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return profile_glue::ring_kernel(
      kernel, ring_hash::build_ring(cluster, ring_hash::envoy_options(cluster.nodes)));
}

}  // namespace

constinit const ProfileInfo profiles::envoy_ring_hash{
    .id = Profile::kEnvoyRingHash,
    .name = "envoy_ring_hash",
    .scheme = Scheme::kRing,
    .follows_scheme = true,
    .params = kParamVnodes | kParamWeights,
    .default_vnodes = ring_hash::kEnvoyMinRingSize,
    .places_by_position = false,
    .removal_refusal = "",
    .hash_name = "hash",
    .hash_text = profile_glue::decimal_text,
    .key_hash = ring_hash::xxh64,
    .key_hashes = profile_glue::hash_each<ring_hash::xxh64>,
    .check = check,
    .reference = reference,
    .table = table,
};

}  // namespace chbench
