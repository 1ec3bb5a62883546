// The groupcache profile: golang/groupcache's consistent hash (groupcache.h,
// docs/profiles/clients.md): CRC-32 IEEE points and keys on a 32-bit ring, looked up
// by the ring kernels on the ring scaled to the 64-bit circle.
#include "chbench/profiles/groupcache.h"

#include <zlib.h>

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

uint64_t hash(std::string_view key) { return uint64_t{groupcache_crc32(key)} << 32; }

void check(const ProfileCluster& cluster) {
  if (uint64_t{cluster.nodes.size()} * cluster.nodes.vnodes > 0xffffffffu)
    throw std::invalid_argument(
        "groupcache: N * replicas exceeds the 2^32 - 1 points a ring "
        "indexes");
}

// Map.Get as groupcache writes it: the sorted point values, a value -> peer
// map written in Add's order, the first value >= the key's hash (wrapping to
// the first), and that value's peer.
class GroupcacheReference final : public OwnerTable {
 public:
  explicit GroupcacheReference(const NodeSet& nodes) {
    for (const auto& p : groupcache_points(nodes.names, nodes.vnodes)) {
      keys_.push_back(p.token);
      peer_of_[p.token] = p.node;
    }
    std::sort(keys_.begin(), keys_.end());
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) {
      const auto key = static_cast<uint32_t>(h[i] >> 32);
      auto it = std::lower_bound(keys_.begin(), keys_.end(), key);
      if (it == keys_.end()) it = keys_.begin();
      out[i] = peer_of_.at(*it);
    }
  }
  std::size_t memory_bytes() const noexcept override {
    return keys_.size() * sizeof(uint32_t) + peer_of_.size() * 2 * sizeof(uint32_t);
  }

 private:
  std::vector<uint32_t> keys_;
  std::unordered_map<uint32_t, uint32_t> peer_of_;
};

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return std::make_unique<GroupcacheReference>(cluster.nodes);
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return profile_glue::ring_kernel(kernel, profile_glue::ketama_entries_64(groupcache_ring(
                                               cluster.nodes.names, cluster.nodes.vnodes)));
}

}  // namespace

uint32_t groupcache_crc32(std::string_view bytes) noexcept {
  // zlib's crc32 takes at most 2^32 - 1 bytes a call.
  uLong crc = crc32(0L, Z_NULL, 0);
  while (!bytes.empty()) {
    const auto n = static_cast<uInt>(std::min<std::size_t>(bytes.size(), 1u << 30));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), n);
    bytes.remove_prefix(n);
  }
  return static_cast<uint32_t>(crc);
}

std::vector<RingEntry<uint32_t>> groupcache_points(const std::vector<std::string>& peers,
                                                   uint32_t replicas, GroupcacheHash hash) {
  if (replicas == 0 || uint64_t{peers.size()} * replicas > 0xffffffffu)
    throw std::invalid_argument("groupcache: 1 ... 2^32 - 1 points in all (N * replicas)");
  std::vector<RingEntry<uint32_t>> points;
  points.reserve(peers.size() * std::size_t{replicas});
  for (uint32_t n = 0; n < peers.size(); ++n)
    for (uint32_t i = 0; i < replicas; ++i)
      points.push_back({hash(std::to_string(i) + peers[n]), n});
  return points;
}

std::vector<RingEntry<uint32_t>> groupcache_ring(const std::vector<std::string>& peers,
                                                 uint32_t replicas, GroupcacheHash hash) {
  std::vector<RingEntry<uint32_t>> ring = groupcache_points(peers, replicas, hash);
  std::sort(ring.begin(), ring.end());
  // Equal values sort by node: the last of a run is the last peer added.
  for (std::size_t i = ring.size(); i-- > 1;)
    if (ring[i - 1].token == ring[i].token) ring[i - 1].node = ring[i].node;
  return ring;
}

constinit const ProfileInfo profiles::groupcache{
    .id = Profile::kGroupcache,
    .name = "groupcache",
    .scheme = Scheme::kRing,
    .follows_scheme = true,
    .params = kParamVnodes,
    .default_vnodes = kGroupcacheDefaultReplicas,
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
