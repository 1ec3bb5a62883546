// The nginx_consistent profile: nginx 1.22.1's `hash $key consistent`
// (src/http/modules/ngx_http_upstream_hash_module.c, tag release-1.22.1,
// docs/profiles/proxies.md): 160 CRC-32 points per unit of weight, the key's CRC-32,
// the first point >= the key hash with wrap, by the ring kernels on the
// 32-bit ring scaled to the 64-bit circle.
#include <zlib.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "chbench/profiles/nginx.h"
#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

constexpr uint64_t kPointsPerWeight = 160;

uint32_t crc32_of(uint32_t crc, const void* bytes, std::size_t size) {
  return static_cast<uint32_t>(
      ::crc32(crc, static_cast<const Bytef*>(bytes), static_cast<uInt>(size)));
}

uint64_t hash(std::string_view key) { return uint64_t{crc32_of(0, key.data(), key.size())} << 32; }

uint64_t weight_of(const ProfileCluster& cluster, uint32_t i) {
  return cluster.weights.empty() ? 1 : cluster.weights[i];
}

void check(const ProfileCluster& cluster) {
  if (!cluster.weights.empty() && cluster.weights.size() != cluster.nodes.size())
    throw std::invalid_argument("nginx: " + std::to_string(cluster.weights.size()) +
                                " weights for " + std::to_string(cluster.nodes.size()) +
                                " servers");
  uint64_t total = 0;
  for (uint32_t i = 0; i < cluster.nodes.size(); ++i) {
    if (weight_of(cluster, i) == 0) throw std::invalid_argument("nginx: weight=0 is invalid");
    total += weight_of(cluster, i);
  }
  if (total * kPointsPerWeight > 0xffffffffu)
    throw std::invalid_argument("nginx: 160 points a unit of weight exceed 2^32 - 1 points");
}

// nginx's find_chash_point: a halving search that stops at an equal point,
// else the first point above; past the last point wraps to the first.
class NginxChashReference final : public OwnerTable {
 public:
  explicit NginxChashReference(std::vector<RingEntry<uint32_t>> points)
      : points_(std::move(points)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t n = 0; n < h.size(); ++n) out[n] = points_[find(h[n] >> 32)].node;
  }
  std::size_t memory_bytes() const noexcept override {
    return points_.size() * sizeof(RingEntry<uint32_t>);
  }

 private:
  std::size_t find(uint64_t hash) const {
    std::size_t i = 0, j = points_.size();
    while (i < j) {
      const std::size_t k = (i + j) / 2;
      if (hash > points_[k].token)
        i = k + 1;
      else if (hash < points_[k].token)
        j = k;
      else
        return k;
    }
    return i % points_.size();
  }
  std::vector<RingEntry<uint32_t>> points_;
};

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return std::make_unique<NginxChashReference>(nginx_chash_points(cluster));
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return profile_glue::ring_kernel(kernel,
                                   profile_glue::ketama_entries_64(nginx_chash_points(cluster)));
}

}  // namespace

// The bytes nginx hashes before a server's points: host, a NUL byte, port.
// The port is the decimal digits after the last ':' when everything after
// it is digits; else (no port written) the whole name is the host and the
// port is empty. "unix:path" hashes the path with an empty port.
std::string nginx_point_base(std::string_view server) {
  std::string_view host = server, port;
  if (server.size() >= 5 && std::equal(server.begin(), server.begin() + 5,
                                       "unix:", [](char a, char b) { return (a | 0x20) == b; })) {
    host = server.substr(5);
  } else {
    const std::size_t digits = server.size() - 1 - server.find_last_not_of("0123456789");
    if (digits < server.size() && server[server.size() - digits - 1] == ':') {
      host = server.substr(0, server.size() - digits - 1);
      port = server.substr(server.size() - digits);
    }
  }
  std::string base(host);
  base += '\0';
  base += port;
  return base;
}

// (point, server index) sorted by point, duplicates dropped keeping the
// earliest server (glibc's merge sort is stable; nginx keeps the first of a run).
std::vector<RingEntry<uint32_t>> nginx_chash_points(const ProfileCluster& cluster) {
  std::vector<RingEntry<uint32_t>> points;
  for (uint32_t i = 0; i < cluster.nodes.size(); ++i) {
    const std::string base = nginx_point_base(cluster.nodes.names[i]);
    const uint32_t base_crc = crc32_of(0, base.data(), base.size());
    uint32_t prev = 0;
    for (uint64_t j = 0; j < weight_of(cluster, i) * kPointsPerWeight; ++j) {
      const unsigned char le[4] = {
          static_cast<unsigned char>(prev), static_cast<unsigned char>(prev >> 8),
          static_cast<unsigned char>(prev >> 16), static_cast<unsigned char>(prev >> 24)};
      prev = crc32_of(base_crc, le, 4);
      points.push_back({prev, i});
    }
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end(),
                           [](const auto& a, const auto& b) { return a.token == b.token; }),
               points.end());
  return points;
}

constinit const ProfileInfo profiles::nginx_consistent{
    .id = Profile::kNginxConsistent,
    .name = "nginx_consistent",
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
    .check = check,
    .reference = reference,
    .table = table,
};

}  // namespace chbench
