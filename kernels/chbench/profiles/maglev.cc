// The maglev profile: the Maglev scheme (maglev.h) with the docs/spec.md §2 key hash
// (docs/profiles.md), by the Maglev kernels.
#include "chbench/maglev/maglev.h"

#include "chbench/hash.h"
#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_hash.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

uint64_t hash(std::string_view key) { return key_hash(key); }

void check(const ProfileCluster& cluster) { validate_maglev(cluster.nodes); }

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return build_reference(Scheme::kMaglev, cluster.nodes);
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return find_kernel(Scheme::kMaglev, kernel).build(cluster.nodes);
}

}  // namespace

constinit const ProfileInfo profiles::maglev{
    .id = Profile::kMaglev,
    .name = "maglev",
    .scheme = Scheme::kMaglev,
    .follows_scheme = true,
    .params = kParamTableSize,
    .default_vnodes = 0,
    .places_by_position = false,
    .removal_refusal = "",
    .hash_name = "hash",
    .hash_text = profile_glue::decimal_text,
    .key_hash = hash,
    .key_hashes = profile_glue::hash_each<hash>,
    .check = check,
    .reference = reference,
    .table = table,
};

}  // namespace chbench
