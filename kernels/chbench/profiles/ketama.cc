// The ketama profile: libmemcached 1.1's weighted ketama (docs/profiles/memcached.md):
// keys and points hashed with MD5, 160 points a server scaled by its weight,
// looked up by the ring kernels on the continuum scaled to the 64-bit circle.
#include <stdexcept>
#include <string>

#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_hash.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

uint64_t hash(std::string_view key) { return uint64_t{ketama_key_hash(key)} << 32; }

void check(const ProfileCluster& cluster) {
  const NodeSet& nodes = cluster.nodes;
  if (!cluster.weights.empty() && cluster.weights.size() != nodes.size())
    throw std::invalid_argument("ketama: " + std::to_string(cluster.weights.size()) +
                                " weights for " + std::to_string(nodes.size()) + " servers");
  for (uint32_t w : cluster.weights)
    if (w == 0 || w > 0x80000000u)
      throw std::invalid_argument("ketama: every weight must be 1 ... 2^31");
  profile_glue::check_distinct_servers(nodes);
}

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return profile_glue::ketama_reference(ketama_continuum(cluster));
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return profile_glue::ring_kernel(kernel,
                                   profile_glue::ketama_entries_64(ketama_continuum(cluster)));
}

}  // namespace

constinit const ProfileInfo profiles::ketama{
    .id = Profile::kKetama,
    .name = "ketama",
    .scheme = Scheme::kRing,
    .follows_scheme = true,
    .params = kParamWeights,
    .default_vnodes = 0,
    .places_by_position = false,
    .removal_refusal = "",
    .hash_name = "hash",
    .hash_text = profile_glue::shifted_text,
    .key_hash = hash,
    .key_hashes = ketama_key_hashes_shifted,
    .check = check,
    .reference = reference,
    .table = table,
};

}  // namespace chbench
