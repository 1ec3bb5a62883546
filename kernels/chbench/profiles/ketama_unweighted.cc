// The ketama_unweighted profile: libmemcached 1.1 under
// MEMCACHED_BEHAVIOR_KETAMA alone (docs/profiles/memcached.md): 100 points a server,
// keys and points hashed one-at-a-time, no weights; the ring kernels.
#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_hash.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

uint64_t hash(std::string_view key) { return uint64_t{one_at_a_time(key)} << 32; }

void check(const ProfileCluster& cluster) { profile_glue::check_distinct_servers(cluster.nodes); }

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return profile_glue::ketama_reference(ketama_unweighted_continuum(cluster));
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return profile_glue::ring_kernel(
      kernel, profile_glue::ketama_entries_64(ketama_unweighted_continuum(cluster)));
}

}  // namespace

constinit const ProfileInfo profiles::ketama_unweighted{
    .id = Profile::kKetamaUnweighted,
    .name = "ketama_unweighted",
    .scheme = Scheme::kRing,
    .follows_scheme = true,
    .params = 0,
    .default_vnodes = 0,
    .places_by_position = false,
    .removal_refusal = "",
    .hash_name = "hash",
    .hash_text = profile_glue::shifted_text,
    .key_hash = hash,
    .key_hashes = profile_glue::hash_each<hash>,
    .check = check,
    .reference = reference,
    .table = table,
};

}  // namespace chbench
