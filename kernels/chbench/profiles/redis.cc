// The redis profile: Redis Cluster (docs/profiles/stores.md): a key's hash slot
// (CRC16-XMODEM mod 16384, hash tags) and the slot -> master table that
// redis-cli --cluster create assigns, looked up by Maglev's table kernels.
#include <stdexcept>
#include <vector>

#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_hash.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

uint64_t hash(std::string_view key) { return redis_key_slot(key); }

void check(const ProfileCluster& cluster) {
  if (cluster.nodes.size() > kRedisSlots)
    throw std::invalid_argument("Redis Cluster takes at most 16384 masters");
}

// The slot array itself.
class RedisReference final : public OwnerTable {
 public:
  explicit RedisReference(uint32_t nodes) : slot_owner_(redis_slot_owners(nodes)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = slot_owner_[h[i] % kRedisSlots];
  }
  std::size_t memory_bytes() const noexcept override {
    return slot_owner_.size() * sizeof(uint32_t);
  }

 private:
  std::vector<uint32_t> slot_owner_;
};

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return std::make_unique<RedisReference>(cluster.nodes.size());
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return profile_glue::table_kernel(kernel, redis_slot_owners(cluster.nodes.size()));
}

}  // namespace

constinit const ProfileInfo profiles::redis{
    .id = Profile::kRedis,
    .name = "redis",
    .scheme = Scheme::kMaglev,
    .follows_scheme = false,
    .params = 0,
    .default_vnodes = 0,
    .places_by_position = true,
    .removal_refusal = "",
    .hash_name = "slot",
    .hash_text = profile_glue::decimal_text,
    .key_hash = hash,
    .key_hashes = profile_glue::hash_each<hash>,
    .check = check,
    .reference = reference,
    .table = table,
};

}  // namespace chbench
