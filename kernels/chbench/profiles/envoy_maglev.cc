// The envoy_maglev profile: Envoy's Maglev load balancer (envoy_maglev.h,
// docs/profiles/maglev.md): hosts sorted by their hash keys, weighted rounds of
// Pseudocode 1 over XXH64 permutations, a key at entry[XXH64(value) mod M],
// looked up by the Maglev table kernels.
#include "chbench/profiles/envoy_maglev.h"

#include <arpa/inet.h>
#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <numeric>
#include <stdexcept>
#include <string>

#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

bool is_ipv4(const std::string& s) {
  in_addr a{};
  return inet_pton(AF_INET, s.c_str(), &a) == 1;
}

bool is_ipv6(const std::string& s) {
  in6_addr a{};
  return inet_pton(AF_INET6, s.c_str(), &a) == 1;
}

// An IP literal without the port Envoy's address string carries.
bool is_ip_without_port(std::string_view name) {
  if (name.size() > 2 && name.front() == '[' && name.back() == ']')
    return is_ipv6(std::string(name.substr(1, name.size() - 2)));
  return is_ipv4(std::string(name)) || is_ipv6(std::string(name));
}

// "ip:port" or "[ipv6]:port" whose port is not a number 0 ... 65535.
bool has_bad_port(std::string_view name) {
  const std::size_t colon = name.rfind(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view host = name.substr(0, colon);
  const bool bracketed = host.size() > 2 && host.front() == '[' && host.back() == ']';
  const bool ip = bracketed ? is_ipv6(std::string(host.substr(1, host.size() - 2)))
                            : is_ipv4(std::string(host));
  if (!ip) return false;
  const std::string_view digits = name.substr(colon + 1);
  uint32_t port = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
  return ec != std::errc() || end != digits.data() + digits.size() || port > 65535;
}

void check_host_keys(const NodeSet& nodes) {
  for (const std::string& name : nodes.names) {
    if (is_ip_without_port(name))
      throw std::invalid_argument("envoy_maglev: '" + name +
                                  "' is an IP address without its port: Envoy hashes a host's "
                                  "address as ip:port (\"10.0.0.1:80\", \"[::1]:80\") or its "
                                  "hostname");
    if (has_bad_port(name))
      throw std::invalid_argument("envoy_maglev: '" + name + "' has no port 0 ... 65535");
  }
}

void check_weights(const ProfileCluster& cluster) {
  if (cluster.weights.empty()) return;
  if (cluster.weights.size() != cluster.nodes.size())
    throw std::invalid_argument("envoy_maglev: " + std::to_string(cluster.weights.size()) +
                                " weights for " + std::to_string(cluster.nodes.size()) + " hosts");
  uint64_t sum = 0;
  for (uint32_t w : cluster.weights) {
    if (w == 0)
      throw std::invalid_argument(
          "envoy_maglev: every weight must be at least 1 (Envoy's load_balancing_weight)");
    sum += w;
  }
  if (sum > 0xffffffffu)
    throw std::invalid_argument("envoy_maglev: the weights sum to " + std::to_string(sum) +
                                ", above Envoy's bound of 4294967295");
}

// One host's state while the table fills (Envoy's TableBuildEntry).
struct Builder {
  uint32_t node;
  MaglevPermutation permutation;
  double weight;        // normalised: w / sum
  double target = 0.0;  // the round * weight it must reach to claim again
  uint64_t next = 0;    // its next permutation step
};

// The hosts in Envoy's order: sorted by hash key (the names are distinct).
std::vector<Builder> sorted_builders(const ProfileCluster& cluster, double& max_weight) {
  const NodeSet& nodes = cluster.nodes;
  const auto weight = [&](uint32_t i) -> uint64_t {
    return cluster.weights.empty() ? 1 : cluster.weights[i];
  };
  uint64_t sum = 0;
  for (uint32_t i = 0; i < nodes.size(); ++i) sum += weight(i);
  std::vector<uint32_t> order(nodes.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return nodes.names[a] < nodes.names[b]; });
  std::vector<Builder> builders;
  builders.reserve(order.size());
  max_weight = 0.0;
  for (uint32_t i : order) {
    const double w = static_cast<double>(weight(i)) * 1.0 / static_cast<double>(sum);
    max_weight = std::max(max_weight, w);
    builders.push_back({i, envoy_maglev_permutation(nodes.names[i], nodes.table_size), w});
  }
  return builders;
}

uint64_t slot_of(const Builder& b, uint64_t m) {
  return (b.permutation.offset + b.permutation.skip * b.next) % m;
}

uint64_t hash(std::string_view key) { return envoy_key_hash(key); }

void check(const ProfileCluster& cluster) { check_envoy_maglev(cluster); }

// Envoy's chooseHost: the table and hash % M.
class EnvoyMaglevReference final : public OwnerTable {
 public:
  explicit EnvoyMaglevReference(std::vector<uint32_t> table) : table_(std::move(table)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = table_[h[i] % table_.size()];
  }
  std::size_t memory_bytes() const noexcept override { return table_.size() * sizeof(uint32_t); }

 private:
  std::vector<uint32_t> table_;
};

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return std::make_unique<EnvoyMaglevReference>(envoy_maglev_table(cluster));
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return profile_glue::table_kernel(kernel, envoy_maglev_table(cluster));
}

}  // namespace

uint64_t envoy_key_hash(std::string_view value) noexcept {
  return XXH64(value.data(), value.size(), 0);
}

MaglevPermutation envoy_maglev_permutation(std::string_view host_key,
                                           uint32_t table_size) noexcept {
  const uint64_t m = table_size;
  return {static_cast<uint32_t>(XXH64(host_key.data(), host_key.size(), 0) % m),
          static_cast<uint32_t>(XXH64(host_key.data(), host_key.size(), 1) % (m - 1) + 1)};
}

void check_envoy_maglev(const ProfileCluster& cluster) {
  validate(cluster.nodes);
  const uint32_t m = cluster.nodes.table_size;
  if (m < 2 || m > kEnvoyMaglevMaxTableSize || !is_prime(m))
    throw std::invalid_argument(
        "envoy_maglev: the table size must be a prime, 2 ... 5000011 (got " + std::to_string(m) +
        "; Envoy's default is 65537)");
  check_weights(cluster);
  check_host_keys(cluster.nodes);
}

std::vector<uint32_t> envoy_maglev_table(const ProfileCluster& cluster) {
  check_envoy_maglev(cluster);
  const uint64_t m = cluster.nodes.table_size;
  double max_weight = 0.0;
  std::vector<Builder> builders = sorted_builders(cluster, max_weight);
  std::vector<uint32_t> table(m, 0);
  std::vector<bool> taken(m, false);
  uint64_t filled = 0;
  for (uint32_t round = 1; filled < m; ++round) {
    for (std::size_t i = 0; i < builders.size() && filled < m; ++i) {
      Builder& b = builders[i];
      if (static_cast<double>(round) * b.weight < b.target) continue;
      b.target += max_weight;
      uint64_t c = slot_of(b, m);
      while (taken[c]) {
        ++b.next;
        c = slot_of(b, m);
      }
      table[c] = b.node;
      taken[c] = true;
      ++b.next;
      ++filled;
    }
  }
  return table;
}

constinit const ProfileInfo profiles::envoy_maglev{
    .id = Profile::kEnvoyMaglev,
    .name = "envoy_maglev",
    .scheme = Scheme::kMaglev,
    .follows_scheme = true,
    .params = kParamTableSize | kParamWeights,
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
