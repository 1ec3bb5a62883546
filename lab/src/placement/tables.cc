#include "placement/tables.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "chbench/hash.h"
#include "chbench/profiles/haproxy_lb.h"
#include "chbench/profiles/ring_hash.h"
#include "chbench/profiles/twemproxy_ketama.h"
#include "placement/blocks.h"

namespace chbench::lab {

namespace {

// The kernel of the placement's scheme that make_table builds for `kernel`
// ("" = default_kernel_name). Throws std::invalid_argument for an unknown one.
// A profile names itself in the message.
const KernelInfo& kernel_of(const Placement& placement, std::string_view kernel) {
  const std::string_view name = kernel.empty() ? default_kernel_name(placement) : kernel;
  if (!placement.profile) return find_kernel(placement.scheme, name);
  try {
    return find_kernel(placement.scheme, name);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(
        "the " + std::string(profile_name(*placement.profile)) + " profile's lookups run on the " +
        std::string(scheme_name(placement.scheme)) + " kernels or its reference: " + e.what());
  }
}

// The HAProxy profiles' tables as their scheme's, at most: haproxy_consistent's
// ring of two entries per point (the point and a midpoint), 2 x 16 x the
// largest weight a server; haproxy_map's map of sum(weights / gcd) slots, at
// most N x the largest weight, as a Maglev table of that size.
NodeSet haproxy_sized_nodes(const Placement& placement, NodeSet sized) {
  uint64_t largest = 1;
  for (const auto& entry : placement.weights) largest = std::max<uint64_t>(largest, entry.second);
  if (placement.profile == Profile::kHaproxyConsistent)
    sized.vnodes =
        static_cast<uint32_t>(std::min<uint64_t>(2 * kHaproxyWeightScale * largest, 0xffffffffu));
  else
    sized.table_size =
        static_cast<uint32_t>(std::min<uint64_t>(sized.names.size() * largest, 0xffffffffu));
  return sized;
}

// Envoy's and gRPC's ring hash: the ring's points (ring_hash.h: about
// ceil(scale), scale = min(ceil(w_min * minimum) / w_min, maximum), one more
// for the double running sums) per node, rounded up. Weights by name, 1 if
// not listed.
uint32_t ring_hash_points_per_node(const Placement& placement, const NodeSet& nodes) {
  if (nodes.size() == 0) return 1;
  const auto options = placement.profile == Profile::kEnvoyRingHash
                           ? ring_hash::envoy_options(nodes)
                           : ring_hash::grpc_options(nodes);
  uint64_t sum = 0, lightest = UINT64_MAX;
  for (const auto& name : nodes.names) {
    const auto w = placement.weights.find(name);
    const uint64_t weight = w == placement.weights.end() ? 1 : w->second;
    sum += weight;
    lightest = std::min(lightest, weight);
  }
  const double w_min = static_cast<double>(lightest) / static_cast<double>(sum);
  const double scale =
      std::min(std::ceil(w_min * static_cast<double>(options.min_ring_size)) / w_min,
               static_cast<double>(options.max_ring_size));
  const uint64_t points = static_cast<uint64_t>(std::ceil(scale)) + 1;
  const uint64_t n = nodes.size();
  return static_cast<uint32_t>(std::max<uint64_t>(1, (points + n - 1) / n));
}

// A node list whose table in the profile's scheme holds as many entries as
// the profile's own table: ketama's continuum points as ring tokens (rounded
// up to whole tokens per server; ketama_unweighted's 100), Redis's slot table as a Maglev table of
// 16384 slots; the other profiles' tables are their scheme's over as many
// nodes. The estimates read only N, V and M, so its names are left empty:
// no name is copied (N empty strings, 32 B each, freed before any table is
// built).
NodeSet profile_sized_nodes(const Placement& placement, const NodeSet& nodes) {
  NodeSet sized;
  sized.names.resize(nodes.size());
  sized.vnodes = nodes.vnodes;
  sized.probes = nodes.probes;
  sized.table_size = placement.profile == Profile::kRedis ? 16384 : nodes.table_size;
  if (placement.profile == Profile::kKetamaUnweighted) sized.vnodes = kKetamaUnweightedPoints;
  if (placement.profile == Profile::kHaproxyConsistent || placement.profile == Profile::kHaproxyMap)
    return haproxy_sized_nodes(placement, std::move(sized));
  if (placement.profile == Profile::kEnvoyRingHash || placement.profile == Profile::kGrpcRingHash)
    sized.vnodes = ring_hash_points_per_node(placement, nodes);
  if (placement.profile != Profile::kKetama && placement.profile != Profile::kTwemproxyKetama)
    return sized;
  const uint64_t n = nodes.size();
  const uint64_t points = ketama_point_count(placement, nodes);
  const uint64_t per_server = n == 0 ? 0 : (points + n - 1) / n;
  sized.vnodes = static_cast<uint32_t>(std::min<uint64_t>(per_server, 0xffffffffu));
  return sized;
}

// Calls f(points) for each server of `nodes` in order: ketama_points_per_server
// of its weight (placement.weights by name, 1 if not listed).
template <class F>
void for_each_ketama_points(const Placement& placement, const NodeSet& nodes, const F& f) {
  const uint64_t n = nodes.size();
  if (placement.profile == Profile::kKetamaUnweighted) {
    for (uint64_t i = 0; i < n; ++i) f(kKetamaUnweightedPoints);
    return;
  }
  // Nutcracker's own float formula (totals it refuses are clamped: the
  // estimate runs before the profile's check).
  const auto per_server = [&](uint64_t w, uint64_t total) {
    if (placement.profile != Profile::kTwemproxyKetama)
      return ketama_points_per_server(w, total, nodes.size());
    const auto clamp = [](uint64_t x) {
      return static_cast<uint32_t>(std::min<uint64_t>(x, 0xffffffffu));
    };
    return twemproxy_points_per_server(clamp(w), clamp(total), nodes.size());
  };
  if (placement.weights.empty()) {
    const uint32_t points = per_server(1, n);
    for (uint64_t i = 0; i < n; ++i) f(points);
    return;
  }
  auto weight = [&](const std::string& name) -> uint64_t {
    const auto w = placement.weights.find(name);
    return w == placement.weights.end() ? 1 : w->second;
  };
  uint64_t total_weight = 0;
  for (const auto& name : nodes.names) total_weight += weight(name);
  for (const auto& name : nodes.names) f(per_server(weight(name), total_weight));
}

// The estimate of kernel (or "reference") over `fleet`.
uint64_t scheme_table_bytes(const Placement& placement, const Fleet& fleet,
                            std::string_view kernel) {
  if (kernel == "reference") return scheme_info(placement.scheme).reference_bytes(fleet);
  return kernel_of(placement, kernel).table_bytes(fleet);
}

}  // namespace

bool is_ketama(const Placement& placement) noexcept {
  return placement.profile == Profile::kKetama || placement.profile == Profile::kKetamaUnweighted ||
         placement.profile == Profile::kTwemproxyKetama;
}

uint64_t ketama_point_count(const Placement& placement, const NodeSet& nodes) {
  uint64_t points = 0;
  for_each_ketama_points(placement, nodes, [&](uint32_t p) { points += p; });
  return points;
}

std::vector<uint32_t> ketama_points(const Placement& placement, const NodeSet& nodes) {
  std::vector<uint32_t> points;
  points.reserve(nodes.size());
  for_each_ketama_points(placement, nodes, [&](uint32_t p) { points.push_back(p); });
  return points;
}

std::string_view default_kernel_name(const Placement& placement) noexcept {
  return placement.profile ? default_profile_kernel(*placement.profile)
                           : default_kernel(placement.scheme).name;
}

std::string kernel_full_name(const Placement& placement, std::string_view kernel) {
  if (kernel != "reference") return kernel_of(placement, kernel).full_name();
  return std::string(placement.profile ? profile_name(*placement.profile)
                                       : scheme_name(placement.scheme)) +
         "/reference";
}

std::unique_ptr<OwnerTable> make_table(Scheme scheme, const Fleet& fleet, std::string_view kernel) {
  if (kernel == "reference") return build_reference(scheme, fleet);
  return (kernel.empty() ? default_kernel(scheme) : find_kernel(scheme, kernel)).build(fleet);
}

ProfileCluster profile_cluster(const Placement& placement, const NodeSet& nodes) {
  ProfileCluster cluster{nodes, {}};
  if ((profile_params(*placement.profile) & kParamWeights) && !placement.weights.empty())
    for (const auto& name : nodes.names) {
      const auto it = placement.weights.find(name);
      cluster.weights.push_back(it == placement.weights.end() ? 1 : it->second);
    }
  validate_profile(*placement.profile, cluster);
  return cluster;
}

std::unique_ptr<OwnerTable> make_table(const Placement& placement, const Fleet& fleet,
                                       std::string_view kernel) {
  if (!placement.profile) return make_table(placement.scheme, fleet, kernel);
  const ProfileCluster cluster = profile_cluster(placement, fleet.nodes());
  if (kernel == "reference") return build_profile_reference(*placement.profile, cluster);
  return build_profile_table(*placement.profile, cluster, kernel);
}

uint64_t table_bytes(const Placement& placement, const Fleet& fleet, std::string_view kernel) {
  // A scheme's estimate reads `fleet` itself: never a copy of it.
  if (!placement.profile) return scheme_table_bytes(placement, fleet, kernel);
  return scheme_table_bytes(placement, Fleet(profile_sized_nodes(placement, fleet.nodes())),
                            kernel);
}

std::string owner_name(const Fleet& fleet, uint32_t i) {
  return fleet.named() ? fleet.nodes().names[i] : default_node_name(i);
}

void lookup_owners(const OwnerTable& table, const KeySet& keys, uint64_t first,
                   std::span<uint32_t> out, std::optional<Profile> profile) {
  for_each_block(keys, first, first + out.size(), profile,
                 [&](uint64_t block_first, std::span<const uint64_t> hashes) {
                   table.owners(hashes, out.subspan(block_first - first, hashes.size()));
                 });
}

}  // namespace chbench::lab
