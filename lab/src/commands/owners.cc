#include "commands/owners.h"

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "chbench/profiles/profile_info.h"
#include "writers/writer.h"

namespace chbench::lab {

const char* hash_column(Profile p) { return profile_info(p).hash_name.data(); }

std::string hash_value(Profile p, uint64_t h) { return profile_info(p).hash_text(h); }

std::unique_ptr<ReplicaTable> make_replica_table(const Setup& s, const Fleet& f) {
  if (s.kernel == "reference") return build_replica_reference(s.scheme, f, s.replicas);
  if (!s.kernel.empty()) return build_replicas(find_kernel(s.scheme, s.kernel), f, s.replicas);
  const KernelInfo* best = default_replica_kernel(s.scheme);
  if (best == nullptr) return build_replica_reference(s.scheme, f, s.replicas);  // throws
  return build_replicas(*best, f, s.replicas);
}

const KernelInfo* default_replica_kernel(Scheme scheme) {
  const KernelInfo* best = nullptr;
  for (const KernelInfo* k : replica_kernels_of(scheme))
    if (best == nullptr || k->rank < best->rank) best = k;
  return best;
}

namespace {

// owners --replicas: each slice's key hashes, their R-sets, a row per key.
void run_replica_owners(const Setup& s, const KeySet& keys, Writer& writer) {
  const auto table = make_replica_table(s);
  const uint32_t r = s.replicas;
  writer.owners_begin(s, keys);
  constexpr uint64_t kSlice = uint64_t{1} << 14;
  std::vector<uint64_t> hashes(std::min(kSlice, keys.size()));
  std::vector<uint32_t> sets(hashes.size() * r);
  std::vector<std::string> names(r);
  std::string key;
  for (uint64_t first = 0; first < keys.size(); first += kSlice) {
    const std::size_t count = std::min(kSlice, keys.size() - first);
    keys.hashes(first, std::span(hashes).first(count));
    table->replicas(std::span(hashes).first(count), std::span(sets).first(count * r));
    for (std::size_t i = 0; i < count; ++i) {
      key.clear();
      keys.append_key(first + i, key);
      for (uint32_t j = 0; j < r; ++j) names[j] = owner_name(s.fleet, sets[i * r + j]);
      writer.owner({first + i, key, names[0], {}, names});
    }
  }
  writer.owners_end();
}

}  // namespace

void run_owners(const Setup& s, const KeySet& keys, Writer& writer) {
  if (s.replicas != 0) return run_replica_owners(s, keys, writer);
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
      writer.owner({first + i, key, owner, hash, {}});
    }
  }
  writer.owners_end();
}

}  // namespace chbench::lab
