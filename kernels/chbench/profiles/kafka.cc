// The kafka profile: Kafka's default partitioner for keyed records
// (docs/profiles/stores.md): toPositive(murmur2(key)) mod partitions, by the mod-N
// kernels.
#include <stdexcept>

#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_hash.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

uint64_t hash(std::string_view key) { return kafka_positive_hash(key); }

void check(const ProfileCluster& cluster) {
  if (cluster.nodes.size() > 0x7fffffffu)
    throw std::invalid_argument("Kafka takes at most 2^31 - 1 partitions");
}

}  // namespace

constinit const ProfileInfo profiles::kafka{
    .id = Profile::kKafka,
    .name = "kafka",
    .scheme = Scheme::kModN,
    .follows_scheme = true,
    .params = 0,
    .default_vnodes = 0,
    .places_by_position = true,
    .removal_refusal =
        "Kafka cannot take partitions away from a topic (kafka-topics --alter only adds them)",
    .hash_name = "hash",
    .hash_text = profile_glue::decimal_text,
    .key_hash = hash,
    .key_hashes = profile_glue::hash_each<hash>,
    .check = check,
    .reference = profile_glue::scheme_reference<Scheme::kModN>,
    .table = profile_glue::scheme_table<Scheme::kModN>,
};

}  // namespace chbench
