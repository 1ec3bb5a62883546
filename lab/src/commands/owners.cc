#include "commands/owners.h"

#include <algorithm>
#include <span>
#include <vector>

#include "writers/writer.h"

namespace chbench::lab {

const char* hash_column(Profile p) {
  return p == Profile::kRedis ? "slot" : p == Profile::kCassandra ? "token" : "hash";
}

std::string hash_value(Profile p, uint64_t h) {
  if (p == Profile::kKetama || p == Profile::kKetamaUnweighted) return std::to_string(h >> 32);
  if (p == Profile::kCassandra)
    return std::to_string(static_cast<int64_t>(h ^ (uint64_t{1} << 63)));
  return std::to_string(h);
}

void run_owners(const Setup& s, const KeySet& keys, Writer& writer) {
  const auto table = make_table(s.placement, s.fleet, s.kernel);
  const std::optional<Profile> profile = s.placement.profile;
  writer.owners_begin(s, keys);
  constexpr uint64_t kSlice = uint64_t{1} << 16;
  std::vector<uint32_t> owners(std::min(kSlice, keys.size()));
  std::vector<uint64_t> hashes(profile ? owners.size() : 0);
  std::string key, hash, owner;
  for (uint64_t first = 0; first < keys.size(); first += kSlice) {
    const std::span<uint32_t> slice(owners.data(), std::min(kSlice, keys.size() - first));
    lookup_owners(*table, keys, first, slice, profile);
    if (profile) keys.hashes(first, std::span(hashes).first(slice.size()), profile);
    for (std::size_t i = 0; i < slice.size(); ++i) {
      key.clear();
      keys.append_key(first + i, key);
      if (profile) hash = hash_value(*profile, hashes[i]);
      owner = owner_name(s.fleet, slice[i]);
      writer.owner({first + i, key, owner, hash});
    }
  }
  writer.owners_end();
}

}  // namespace chbench::lab
