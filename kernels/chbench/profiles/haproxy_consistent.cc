// The haproxy_consistent profile: HAProxy 2.6 `hash-type consistent`, its
// default key hash sdbm with the avalanche modifier (docs/profiles/proxies.md): a
// tree of weight x 16 points a server, the key owned by the nearer of the
// points around its hash, looked up by the ring kernels over the points and
// the midpoints between them (haproxy_chash_entries_64).
#include <utility>

#include "chbench/profiles/haproxy_hash.h"
#include "chbench/profiles/haproxy_lb.h"
#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

uint64_t hash(std::string_view key) {
  return uint64_t{haproxy_key_hash(HaproxyHashFunction::kSdbm, true, key)} << 32;
}

// chash_get_server_hash over the sorted points, for h = hash << 32.
class Reference final : public OwnerTable {
 public:
  explicit Reference(std::vector<RingEntry<uint32_t>> points) : points_(std::move(points)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i)
      out[i] = haproxy_chash_owner(points_, static_cast<uint32_t>(h[i] >> 32));
  }
  std::size_t memory_bytes() const noexcept override {
    return points_.size() * sizeof(RingEntry<uint32_t>);
  }

 private:
  std::vector<RingEntry<uint32_t>> points_;
};

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return std::make_unique<Reference>(haproxy_chash_points(cluster));
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return profile_glue::ring_kernel(kernel, haproxy_chash_entries_64(haproxy_chash_points(cluster)));
}

}  // namespace

constinit const ProfileInfo profiles::haproxy_consistent{
    .id = Profile::kHaproxyConsistent,
    .name = "haproxy_consistent",
    .scheme = Scheme::kRing,
    .follows_scheme = true,
    .params = kParamWeights,
    .default_vnodes = 0,
    .places_by_position = false,
    .removal_refusal = "",
    .hash_name = "hash",
    .hash_text = profile_glue::shifted_text,
    .key_hash = hash,
    .key_hashes = profile_glue::hash_each<hash>,
    .check = check_haproxy_chash,
    .reference = reference,
    .table = table,
};

}  // namespace chbench
