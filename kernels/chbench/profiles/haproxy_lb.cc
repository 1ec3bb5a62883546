// HAProxy 2.6's consistent-hash tree and server map (haproxy_lb.h), from
// HAProxy v2.6.12 src/lb_chash.c, src/lb_map.c and src/cfgparse.c.
#include "chbench/profiles/haproxy_lb.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "chbench/profiles/haproxy_hash.h"

namespace chbench {

namespace {

uint32_t weight_of(const ProfileCluster& cluster, uint32_t i) {
  return cluster.weights.empty() ? 1 : cluster.weights[i];
}

bool valid_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == ':' || c == '_' || c == '-';
}

void check_name(std::string_view profile, const std::string& name) {
  const auto bad = std::find_if_not(name.begin(), name.end(), valid_name_char);
  if (bad == name.end()) return;
  throw std::invalid_argument(std::string(profile) + ": server name '" + name +
                              "' holds a character HAProxy refuses in a server name (it takes " +
                              "letters, digits, '.', ':', '_' and '-')");
}

}  // namespace

void check_haproxy_servers(std::string_view profile, const ProfileCluster& cluster) {
  const NodeSet& nodes = cluster.nodes;
  const std::string p(profile);
  if (!cluster.weights.empty() && cluster.weights.size() != nodes.size())
    throw std::invalid_argument(p + ": " + std::to_string(cluster.weights.size()) +
                                " weights for " + std::to_string(nodes.size()) + " servers");
  for (uint32_t w : cluster.weights)
    if (w == 0 || w > kHaproxyMaxWeight)
      throw std::invalid_argument(p + ": every weight must be 1 ... 256 (a server's weight, " +
                                  std::to_string(w) + " given)");
  for (const auto& name : nodes.names) check_name(profile, name);
}

// ---- hash-type consistent ---------------------------------------------------------

void check_haproxy_chash(const ProfileCluster& cluster) {
  if (cluster.nodes.size() > kHaproxyMaxChashServers)
    throw std::invalid_argument(
        "haproxy_consistent: at most " + std::to_string(kHaproxyMaxChashServers) +
        " servers (their point numbers id x 4096 + j must stay below 2^32)");
  check_haproxy_servers("haproxy_consistent", cluster);
}

std::vector<RingEntry<uint32_t>> haproxy_chash_points(const ProfileCluster& cluster) {
  check_haproxy_chash(cluster);
  const NodeSet& nodes = cluster.nodes;
  std::vector<RingEntry<uint32_t>> points;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    const uint32_t first = (i + 1) * kHaproxyPointRange;  // the server's id is i + 1
    const uint32_t count = weight_of(cluster, i) * kHaproxyWeightScale;
    for (uint32_t j = 0; j < count; ++j) points.push_back({haproxy_full_hash(first + j), i});
  }
  std::sort(points.begin(), points.end());
  return points;
}

uint32_t haproxy_chash_owner(std::span<const RingEntry<uint32_t>> points, uint32_t hash) noexcept {
  auto next =
      std::lower_bound(points.begin(), points.end(), hash,
                       [](const RingEntry<uint32_t>& e, uint32_t h) { return e.token < h; });
  if (next == points.end()) next = points.begin();
  const auto prev = next == points.begin() ? points.end() - 1 : next - 1;
  const uint32_t dp = hash - prev->token;
  const uint32_t dn = next->token - hash;
  return dp <= dn ? prev->node : next->node;
}

std::vector<RingEntry<uint64_t>> haproxy_chash_entries_64(
    std::span<const RingEntry<uint32_t>> points) {
  if (points.empty()) throw std::invalid_argument("haproxy_consistent: no points");
  std::vector<RingEntry<uint64_t>> entries;
  entries.reserve(2 * points.size());
  for (std::size_t k = 0; k < points.size(); ++k) {
    const uint32_t p = points[k].token;
    const uint32_t q = points[(k + 1) % points.size()].token;
    const uint32_t half = (q - p) / 2;  // prev wins up to p + half, a tie included
    entries.push_back({uint64_t{p} << 32, points[k].node});
    if (half != 0) entries.push_back({uint64_t{p + half} << 32, points[k].node});
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

// ---- hash-type map-based ------------------------------------------------------------

namespace {

// init_server_map's effective weights: each weight over their greatest common divisor.
std::vector<int64_t> map_weights(const ProfileCluster& cluster) {
  const uint32_t n = cluster.nodes.size();
  uint32_t divisor = 0;
  for (uint32_t i = 0; i < n; ++i) divisor = std::gcd(divisor, weight_of(cluster, i));
  std::vector<int64_t> eweight(n);
  for (uint32_t i = 0; i < n; ++i) eweight[i] = weight_of(cluster, i) / divisor;
  return eweight;
}

}  // namespace

void check_haproxy_map(const ProfileCluster& cluster) {
  check_haproxy_servers("haproxy_map", cluster);
  const uint64_t n = cluster.nodes.size();
  uint64_t total = 0;  // the map's length: at most 256 x N
  for (int64_t w : map_weights(cluster)) total += static_cast<uint64_t>(w);
  if (total * n > kHaproxyMaxMapSteps)
    throw std::invalid_argument(
        "haproxy_map: a map of " + std::to_string(total) + " slots over " + std::to_string(n) +
        " servers takes more than 2^31 steps to build (the profile's bound)");
}

std::vector<uint32_t> haproxy_server_map(const ProfileCluster& cluster) {
  check_haproxy_map(cluster);
  const uint32_t n = cluster.nodes.size();
  const std::vector<int64_t> eweight = map_weights(cluster);
  const int64_t total = std::accumulate(eweight.begin(), eweight.end(), int64_t{0});
  std::vector<uint32_t> map(static_cast<std::size_t>(total));
  std::vector<int64_t> score(n, 0);
  for (auto& slot : map) {
    if (total == 1) {  // one server: HAProxy takes the first without scoring
      slot = 0;
      continue;
    }
    uint32_t best = 0;
    int64_t max = 0;
    for (uint32_t i = 0; i < n; ++i) {
      score[i] += eweight[i];
      const int64_t v = (score[i] + total) / total;  // C division: towards zero
      if (i == 0 || v > max) {
        max = v;
        best = i;
      }
    }
    slot = best;
    score[best] -= total;
  }
  return map;
}

}  // namespace chbench
