// The go_redis_ring profile: go-redis Ring's shard choice (go_redis_ring.h,
// docs/profiles/clients.md). No registry kernel scores with its mixer, so its table
// under every rendezvous kernel name is its own scoring loop, the reference.
#include "chbench/profiles/go_redis_ring.h"

#include <xxhash.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_hash.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

uint64_t hash(std::string_view key) { return go_redis_key_hash(key); }

void check(const ProfileCluster& cluster) { go_redis_shard_hashes(cluster.nodes); }

// RendezvousHash.Get over the live shards.
class GoRedisRing final : public OwnerTable {
 public:
  explicit GoRedisRing(const NodeSet& nodes) : hashes_(go_redis_shard_hashes(nodes)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = go_redis_shard(h[i], hashes_);
  }
  std::size_t memory_bytes() const noexcept override { return hashes_.size() * sizeof(uint64_t); }

 private:
  std::vector<uint64_t> hashes_;
};

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return std::make_unique<GoRedisRing>(cluster.nodes);
}

// Every rendezvous kernel name is accepted (find_kernel throws for others)
// and answers with the reference: the registry's kernels score with fmix64.
std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  find_kernel(Scheme::kRendezvous, kernel);
  return reference(cluster);
}

}  // namespace

uint64_t go_redis_key_hash(std::string_view key) noexcept {
  const std::string_view tag = redis_hash_tag(key);
  return XXH64(tag.data(), tag.size(), 0);
}

std::vector<uint64_t> go_redis_shard_hashes(const NodeSet& nodes) {
  validate(nodes);
  std::vector<std::pair<uint64_t, uint32_t>> seen;
  std::vector<uint64_t> hashes;
  hashes.reserve(nodes.size());
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    hashes.push_back(XXH64(nodes.names[i].data(), nodes.names[i].size(), 0));
    seen.emplace_back(hashes.back(), i);
  }
  std::sort(seen.begin(), seen.end());
  for (std::size_t i = 1; i < seen.size(); ++i)
    if (seen[i].first == seen[i - 1].first)
      throw std::invalid_argument("go_redis_ring: shards '" + nodes.names[seen[i - 1].second] +
                                  "' and '" + nodes.names[seen[i].second] +
                                  "' have one XXH64 hash: Go's random map order would pick "
                                  "between them");
  return hashes;
}

uint32_t go_redis_shard(uint64_t h, const std::vector<uint64_t>& shard_hashes) noexcept {
  uint32_t best = 0;
  uint64_t best_score = go_redis_mix64(h ^ shard_hashes[0]);
  for (uint32_t i = 1; i < shard_hashes.size(); ++i) {
    const uint64_t score = go_redis_mix64(h ^ shard_hashes[i]);
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

constinit const ProfileInfo profiles::go_redis_ring{
    .id = Profile::kGoRedisRing,
    .name = "go_redis_ring",
    .scheme = Scheme::kRendezvous,
    .follows_scheme = false,
    .params = 0,
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
