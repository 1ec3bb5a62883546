// The haproxy_map profile: HAProxy 2.6 `hash-type map-based`, its default key
// hash sdbm (docs/profiles/proxies.md): the server map of recalc_server_map, a key
// owned by map[hash % T], looked up by Maglev's table kernels over the map.
#include <utility>

#include "chbench/profiles/haproxy_hash.h"
#include "chbench/profiles/haproxy_lb.h"
#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

uint64_t hash(std::string_view key) {
  return haproxy_key_hash(HaproxyHashFunction::kSdbm, false, key);
}

// map_get_server_hash: the map itself, map[h % T].
class Reference final : public OwnerTable {
 public:
  explicit Reference(std::vector<uint32_t> map) : map_(std::move(map)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = map_[h[i] % map_.size()];
  }
  std::size_t memory_bytes() const noexcept override { return map_.size() * sizeof(uint32_t); }

 private:
  std::vector<uint32_t> map_;
};

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return std::make_unique<Reference>(haproxy_server_map(cluster));
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return profile_glue::table_kernel(kernel, haproxy_server_map(cluster));
}

}  // namespace

constinit const ProfileInfo profiles::haproxy_map{
    .id = Profile::kHaproxyMap,
    .name = "haproxy_map",
    .scheme = Scheme::kMaglev,
    .follows_scheme = false,
    .params = kParamWeights,
    .default_vnodes = 0,
    .places_by_position = false,
    .removal_refusal = "",
    .hash_name = "hash",
    .hash_text = profile_glue::decimal_text,
    .key_hash = hash,
    .key_hashes = profile_glue::hash_each<hash>,
    .check = check_haproxy_map,
    .reference = reference,
    .table = table,
};

}  // namespace chbench
