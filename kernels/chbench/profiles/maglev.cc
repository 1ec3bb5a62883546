// The maglev profile: the Maglev scheme (maglev.h) with the docs/spec.md §2 key hash
// (docs/profiles/maglev.md), by the Maglev kernels.
#include "chbench/maglev/maglev.h"

#include "chbench/hash.h"
#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_hash.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

uint64_t hash(std::string_view key) { return key_hash(key); }

void check(const ProfileCluster& cluster) { validate_maglev(cluster.nodes); }

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
    .reference = profile_glue::scheme_reference<Scheme::kMaglev>,
    .table = profile_glue::scheme_table<Scheme::kMaglev>,
};

}  // namespace chbench
