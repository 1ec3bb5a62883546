// The grpc_ring_hash profile: gRPC's xDS ring_hash policy (gRFC A42) as
// grpc-go builds it (docs/profiles/ring_hash.md): hosts walked in name order, minimum
// ring size --vnodes (default 1024) and maximum 8388608, both clamped to the
// ring size cap 4096, looked up by the ring kernels on its own ring.
#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_info.h"
#include "chbench/profiles/ring_hash.h"

namespace chbench {

namespace {

void check(const ProfileCluster& cluster) {
  ring_hash::check_cluster("grpc_ring_hash", cluster, false);
}

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return ring_hash::reference_table(
      ring_hash::build_ring(cluster, ring_hash::grpc_options(cluster.nodes)));
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return profile_glue::ring_kernel(
      kernel, ring_hash::build_ring(cluster, ring_hash::grpc_options(cluster.nodes)));
}

}  // namespace

constinit const ProfileInfo profiles::grpc_ring_hash{
    .id = Profile::kGrpcRingHash,
    .name = "grpc_ring_hash",
    .scheme = Scheme::kRing,
    .follows_scheme = true,
    .params = kParamVnodes | kParamWeights,
    .default_vnodes = ring_hash::kGrpcMinRingSize,
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
