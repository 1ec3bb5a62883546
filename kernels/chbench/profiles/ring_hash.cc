// The ring of Envoy's ring_hash and gRPC's ring_hash (ring_hash.h).
#include "chbench/profiles/ring_hash.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace chbench::ring_hash {

namespace {

uint64_t weight_of(const ProfileCluster& cluster, uint32_t i) {
  return cluster.weights.empty() ? 1 : cluster.weights[i];
}

// The host indices in the order the ring is built from.
std::vector<uint32_t> walk_order(const ProfileCluster& cluster, bool sort_by_name) {
  std::vector<uint32_t> order(cluster.nodes.size());
  std::iota(order.begin(), order.end(), 0u);
  if (sort_by_name)
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return cluster.nodes.names[a] < cluster.nodes.names[b];
    });
  return order;
}

class KetamaSearchTable final : public OwnerTable {
 public:
  explicit KetamaSearchTable(std::vector<RingEntry<uint64_t>> ring) : ring_(std::move(ring)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = ring_[ketama_search(ring_, h[i])].node;
  }
  std::size_t memory_bytes() const noexcept override {
    return ring_.size() * sizeof(RingEntry<uint64_t>);
  }

 private:
  std::vector<RingEntry<uint64_t>> ring_;
};

}  // namespace

RingOptions envoy_options(const NodeSet& nodes) { return {nodes.vnodes, kEnvoyMaxRingSize, false}; }

RingOptions grpc_options(const NodeSet& nodes) {
  return {std::min<uint64_t>(nodes.vnodes, kGrpcRingSizeCap), kGrpcRingSizeCap, true};
}

std::string point_string(std::string_view name, uint64_t i) {
  std::string s(name);
  s += '_';
  s += std::to_string(i);
  return s;
}

uint64_t xxh64(std::string_view bytes) { return XXH64(bytes.data(), bytes.size(), 0); }

std::vector<double> normalized_weights(const ProfileCluster& cluster) {
  const uint32_t n = cluster.nodes.size();
  uint64_t sum = 0;
  for (uint32_t i = 0; i < n; ++i) sum += weight_of(cluster, i);
  std::vector<double> normalized(n);
  for (uint32_t i = 0; i < n; ++i)
    normalized[i] = static_cast<double>(weight_of(cluster, i)) / static_cast<double>(sum);
  return normalized;
}

std::vector<uint64_t> point_counts(const ProfileCluster& cluster, const RingOptions& options) {
  const uint32_t n = cluster.nodes.size();
  const std::vector<double> normalized = normalized_weights(cluster);
  double min_weight = 1.0;
  for (double w : normalized) min_weight = std::min(min_weight, w);
  const double scale =
      std::min(std::ceil(min_weight * static_cast<double>(options.min_ring_size)) / min_weight,
               static_cast<double>(options.max_ring_size));
  std::vector<uint64_t> counts(n, 0);
  double current = 0.0;
  double target = 0.0;
  for (uint32_t i : walk_order(cluster, options.sort_by_name)) {
    target += scale * normalized[i];
    for (; current < target; current += 1.0) ++counts[i];
  }
  return counts;
}

std::vector<RingEntry<uint64_t>> build_ring(const ProfileCluster& cluster,
                                            const RingOptions& options) {
  const std::vector<uint64_t> counts = point_counts(cluster, options);
  std::vector<RingEntry<uint64_t>> ring;
  ring.reserve(std::accumulate(counts.begin(), counts.end(), uint64_t{0}));
  for (uint32_t i = 0; i < counts.size(); ++i)
    for (uint64_t p = 0; p < counts[i]; ++p)
      ring.push_back({xxh64(point_string(cluster.nodes.names[i], p)), i});
  std::sort(ring.begin(), ring.end());
  return ring;
}

std::size_t ketama_search(std::span<const RingEntry<uint64_t>> ring, uint64_t h) {
  const auto size = static_cast<int64_t>(ring.size());
  int64_t low = 0;
  int64_t high = size;
  while (true) {
    const int64_t mid = (low + high) / 2;
    if (mid == size) return 0;
    const uint64_t at = ring[mid].token;
    const uint64_t before = mid == 0 ? 0 : ring[mid - 1].token;
    if (h <= at && h > before) return static_cast<std::size_t>(mid);
    if (at < h)
      low = mid + 1;
    else
      high = mid - 1;
    if (low > high) return 0;
  }
}

std::unique_ptr<OwnerTable> reference_table(std::vector<RingEntry<uint64_t>> ring) {
  return std::make_unique<KetamaSearchTable>(std::move(ring));
}

void check_cluster(std::string_view profile, const ProfileCluster& cluster, bool limit_sum) {
  const std::string who(profile);
  const uint32_t n = cluster.nodes.size();
  if (!cluster.weights.empty() && cluster.weights.size() != n)
    throw std::invalid_argument(who + ": " + std::to_string(cluster.weights.size()) +
                                " weights for " + std::to_string(n) + " hosts");
  uint64_t sum = 0;
  for (uint32_t w : cluster.weights) {
    if (w == 0) throw std::invalid_argument(who + ": every weight must be 1 ... 2^32 - 1");
    sum += w;
  }
  if (limit_sum && sum > 0xffffffffu)
    throw std::invalid_argument(who + ": the weights sum to " + std::to_string(sum) +
                                ", above 2^32 - 1");
  const uint64_t min_ring = cluster.nodes.vnodes;
  if (min_ring == 0 || min_ring > kRingSizeLimit)
    throw std::invalid_argument(who + ": the minimum ring size (--vnodes " +
                                std::to_string(min_ring) + ") must be 1 ... " +
                                std::to_string(kRingSizeLimit));
}

}  // namespace chbench::ring_hash
