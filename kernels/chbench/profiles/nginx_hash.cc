// The nginx_hash profile: nginx 1.22.1's plain `hash $key`
// (src/http/modules/ngx_http_upstream_hash_module.c, tag release-1.22.1,
// docs/profiles/proxies.md): the key hash (crc32(key) >> 16) & 0x7fff, modulo the
// total weight, walking the servers by weight; the first attempt, which a
// healthy fleet always takes. Looked up by the table kernels over one entry a
// unit of weight (at most 32768: the key hash never reaches further).
#include <zlib.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

constexpr uint64_t kKeyHashes = 0x8000;  // the key hash is 15 bits

uint64_t hash(std::string_view key) {
  const auto crc = static_cast<uint32_t>(
      ::crc32(0, reinterpret_cast<const Bytef*>(key.data()), static_cast<uInt>(key.size())));
  return (crc >> 16) & 0x7fff;
}

uint64_t weight_of(const ProfileCluster& cluster, uint32_t i) {
  return cluster.weights.empty() ? 1 : cluster.weights[i];
}

void check(const ProfileCluster& cluster) {
  if (!cluster.weights.empty() && cluster.weights.size() != cluster.nodes.size())
    throw std::invalid_argument("nginx: " + std::to_string(cluster.weights.size()) +
                                " weights for " + std::to_string(cluster.nodes.size()) +
                                " servers");
  for (uint32_t i = 0; i < cluster.nodes.size(); ++i)
    if (weight_of(cluster, i) == 0) throw std::invalid_argument("nginx: weight=0 is invalid");
}

uint64_t total_weight(const ProfileCluster& cluster) {
  uint64_t total = 0;
  for (uint32_t i = 0; i < cluster.nodes.size(); ++i) total += weight_of(cluster, i);
  return total;
}

// nginx's walk: w = h mod total weight, then past each server while w is at
// least its weight, taking its weight off.
class NginxHashReference final : public OwnerTable {
 public:
  explicit NginxHashReference(const ProfileCluster& cluster) : total_(total_weight(cluster)) {
    for (uint32_t i = 0; i < cluster.nodes.size(); ++i) weights_.push_back(weight_of(cluster, i));
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t n = 0; n < h.size(); ++n) {
      uint64_t w = h[n] % total_;
      uint32_t p = 0;
      while (w >= weights_[p]) w -= weights_[p++];
      out[n] = p;
    }
  }
  std::size_t memory_bytes() const noexcept override { return weights_.size() * sizeof(uint64_t); }

 private:
  uint64_t total_;
  std::vector<uint64_t> weights_;
};

// Entry w is the server whose weight range holds w, for w below the total
// weight and below 32768 (h mod M = h mod total for every 15-bit h).
std::vector<uint32_t> nginx_hash_entries(const ProfileCluster& cluster) {
  const uint64_t size = std::min(total_weight(cluster), kKeyHashes);
  std::vector<uint32_t> entries;
  entries.reserve(size);
  for (uint32_t i = 0; i < cluster.nodes.size() && entries.size() < size; ++i)
    for (uint64_t w = 0; w < weight_of(cluster, i) && entries.size() < size; ++w)
      entries.push_back(i);
  return entries;
}

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return std::make_unique<NginxHashReference>(cluster);
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return profile_glue::table_kernel(kernel, nginx_hash_entries(cluster));
}

}  // namespace

constinit const ProfileInfo profiles::nginx_hash{
    .id = Profile::kNginxHash,
    .name = "nginx_hash",
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
    .check = check,
    .reference = reference,
    .table = table,
};

}  // namespace chbench
