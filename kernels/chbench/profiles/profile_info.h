// The profiles' registry: what each production profile is, in one entry
// (ProfileInfo) defined in the profile's own file (chbench/profiles/<name>.cc)
// and listed in profiles.def. profiles.h's functions read these entries; the
// bench, the lab and the tests iterate over all_profile_infos().
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "chbench/profiles/profiles.h"
#include "chbench/scheme.h"

namespace chbench {

struct ProfileInfo {
  Profile id;
  std::string_view name;  // as --profile names it: "ketama", "redis", ...
  // The registry scheme whose kernels answer its lookups (profile_scheme).
  Scheme scheme;
  // False when the profile follows no scheme's placement rule (Redis: its
  // slot table only borrows Maglev's table kernels); profile_placement_scheme.
  bool follows_scheme;
  // The Param bits it reads from its cluster besides the names (profile_params).
  unsigned params;
  // Its num_tokens when it reads kParamVnodes and none is given; 0 otherwise.
  uint32_t default_vnodes;
  // True when a key's owner is a position in the node list, not a name
  // (Kafka's partition i, Redis's slot ranges over the masters in order).
  bool places_by_position;
  // Why the system cannot remove a node, or "" when it can (Kafka: a topic
  // never loses partitions).
  std::string_view removal_refusal;
  // The key hash as the system states it, for reports: its name ("hash",
  // "slot", "token") and its decimal text from key_hash's value (ketama's
  // 32-bit point hash, Cassandra's signed token).
  std::string_view hash_name;
  std::string (*hash_text)(uint64_t h);
  // The key hash of one key, the plain way, and of a batch, the fast way
  // (out.size() == keys.size(), checked by profile_key_hashes).
  uint64_t (*key_hash)(std::string_view key);
  void (*key_hashes)(std::span<const std::string_view> keys, std::span<uint64_t> out);
  // The profile's own limits, after validate(nodes) and the weights' rule
  // (only ketama takes weights): throws std::invalid_argument with one line.
  void (*check)(const ProfileCluster& cluster);
  // Its reference and a kernel of `scheme` by name over its own table, for a
  // cluster already checked (build_profile_reference, build_profile_table).
  std::unique_ptr<OwnerTable> (*reference)(const ProfileCluster& cluster);
  std::unique_ptr<OwnerTable> (*table)(const ProfileCluster& cluster, std::string_view kernel);
};

// The entries, one a line of profiles.def, each defined in its profile's file.
namespace profiles {
#define CHBENCH_PROFILE(file, enumerator) extern const ProfileInfo file;
#include "chbench/profiles/profiles.def"
#undef CHBENCH_PROFILE
}  // namespace profiles

// Every profile's entry, in profiles.def's order. Never throws.
std::span<const ProfileInfo* const> all_profile_infos() noexcept;

// The entry of `profile`. Never throws.
const ProfileInfo& profile_info(Profile profile) noexcept;

}  // namespace chbench
