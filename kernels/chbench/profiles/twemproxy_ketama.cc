// The twemproxy_ketama profile: nutcracker 0.5.0's ketama distribution with
// its default fnv1a_64 key hash (twemproxy_ketama.h, docs/profiles/memcached.md): MD5
// points of "<server name>-<i>", 160 a server scaled by its weight, keys
// hashed by FNV-1a in 32 bits, looked up by the ring kernels on the continuum
// scaled to the 64-bit circle.
// Compiled with -ffp-contract=off: the point counts are float arithmetic that
// must round as nutcracker's does.
#include "chbench/profiles/twemproxy_ketama.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_hash.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

constexpr uint32_t kOffsetBasis32 = 0x84222325u;  // (uint32_t) 0xcbf29ce484222325
constexpr uint32_t kPrime32 = 0x1b3u;             // (uint32_t) 0x100000001b3
constexpr uint32_t kPointsPerServer = 160;        // KETAMA_POINTS_PER_SERVER
constexpr uint32_t kContinuumAddition = 10;       // KETAMA_CONTINUUM_ADDITION
constexpr std::size_t kMaxPointString = 272;      // KETAMA_MAX_HOSTLEN - 1
constexpr uint32_t kDefaultKetamaPort = 11211;    // CONF_DEFAULT_KETAMA_PORT
constexpr uint64_t kMaxWeight = 0x7fffffffu;      // nc_atoi reads an int

[[noreturn]] void refuse(const std::string& why) {
  throw std::invalid_argument("twemproxy_ketama: " + why);
}

// The port after the address's last ':', as nc_atoi and nc_valid_port take it.
uint32_t parse_port(std::string_view node, std::string_view digits) {
  uint32_t port = 0;
  const char* end = digits.data() + digits.size();
  const auto [stop, ec] = std::from_chars(digits.data(), end, port);
  if (digits.empty() || ec != std::errc() || stop != end || port < 1 || port > 65535)
    refuse("server '" + std::string(node) + "' has no port 1 ... 65535 after its last ':'");
  return port;
}

// The nutcracker server index of each lab node: nodes sorted by name, shorter
// first, then byte by byte (conf_server_name_cmp, string_compare).
std::vector<uint32_t> server_order(const std::vector<TwemproxyServer>& servers) {
  std::vector<uint32_t> order(servers.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const std::string& x = servers[a].name;
    const std::string& y = servers[b].name;
    return x.size() != y.size() ? x.size() < y.size() : x < y;
  });
  return order;
}

std::vector<TwemproxyServer> servers_of(const NodeSet& nodes) {
  std::vector<TwemproxyServer> servers;
  servers.reserve(nodes.size());
  for (const auto& name : nodes.names) servers.push_back(twemproxy_server(name));
  return servers;
}

uint64_t weight_of(const ProfileCluster& cluster, uint32_t i) {
  return cluster.weights.empty() ? 1 : cluster.weights[i];
}

void check_weights(const ProfileCluster& cluster) {
  const uint32_t n = cluster.nodes.size();
  if (!cluster.weights.empty() && cluster.weights.size() != n)
    refuse(std::to_string(cluster.weights.size()) + " weights for " + std::to_string(n) +
           " servers");
  uint64_t total = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t w = weight_of(cluster, i);
    if (w == 0 || w > kMaxWeight) refuse("every weight must be 1 ... 2^31 - 1");
    total += w;
  }
  if (total > 0xffffffffu) refuse("the total weight must be below 2^32 (a uint32_t in nutcracker)");
}

void check(const ProfileCluster& cluster) {
  const NodeSet& nodes = cluster.nodes;
  check_weights(cluster);
  if ((uint64_t{nodes.size()} + kContinuumAddition) * kPointsPerServer > 0xffffffffu)
    refuse("too many servers for a continuum of 2^32 - 1 points");
  const auto servers = servers_of(nodes);
  const auto order = server_order(servers);
  for (std::size_t k = 1; k < order.size(); ++k) {
    const uint32_t a = order[k - 1], b = order[k];
    if (servers[a].name == servers[b].name)
      refuse("'" + nodes.names[a] + "' and '" + nodes.names[b] + "' have one server name '" +
             servers[a].name + "' (nutcracker refuses servers with the same name)");
  }
}

// Nutcracker's own lookup (ketama_dispatch, nc_ketama.c): the first point
// whose value is >= the key hash (h >> 32) by halving, or the first point
// when none is, over the continuum exactly as ketama_update sorts it.
class Reference final : public OwnerTable {
 public:
  explicit Reference(std::vector<RingEntry<uint32_t>> continuum)
      : continuum_(std::move(continuum)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = dispatch(static_cast<uint32_t>(h[i] >> 32));
  }
  std::size_t memory_bytes() const noexcept override {
    return continuum_.size() * sizeof(RingEntry<uint32_t>);
  }

 private:
  uint32_t dispatch(uint32_t hash) const {
    std::size_t left = 0, right = continuum_.size();
    while (left < right) {
      const std::size_t middle = left + (right - left) / 2;
      if (continuum_[middle].token < hash)
        left = middle + 1;
      else
        right = middle;
    }
    return continuum_[right == continuum_.size() ? 0 : right].node;
  }
  std::vector<RingEntry<uint32_t>> continuum_;
};

uint64_t hash(std::string_view key) { return uint64_t{twemproxy_key_hash(key)} << 32; }

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return std::make_unique<Reference>(twemproxy_continuum(cluster));
}

// The ring kernels want entries sorted by (token, node) and keep the first
// of equal tokens: of each run of equal points only nutcracker's first, the
// one its search finds, is kept, so the kernels find its owner.
std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  std::vector<RingEntry<uint32_t>> continuum = twemproxy_continuum(cluster);
  const auto last = std::unique(continuum.begin(), continuum.end(),
                                [](const auto& a, const auto& b) { return a.token == b.token; });
  continuum.erase(last, continuum.end());
  std::sort(continuum.begin(), continuum.end());
  return profile_glue::ring_kernel(kernel, profile_glue::ketama_entries_64(continuum));
}

}  // namespace

uint32_t twemproxy_fnv1a_64(std::string_view bytes) noexcept {
  uint32_t h = kOffsetBasis32;
  for (const char c : bytes) {
    h ^= static_cast<uint32_t>(static_cast<int32_t>(static_cast<signed char>(c)));
    h *= kPrime32;
  }
  return h;
}

uint32_t twemproxy_key_hash(std::string_view key) noexcept {
  return key.empty() ? 0 : twemproxy_fnv1a_64(key);
}

TwemproxyServer twemproxy_server(std::string_view node) {
  std::string_view address = node, name;
  if (const std::size_t space = node.rfind(' '); space != std::string_view::npos) {
    address = node.substr(0, space);
    name = node.substr(space + 1);
    if (name.empty()) refuse("server '" + std::string(node) + "' ends in a space: no name field");
  }
  if (!address.empty() && address.front() == '/')
    refuse("server '" + std::string(node) + "' is a unix socket path, which is not modelled");
  const std::size_t colon = address.rfind(':');
  if (colon == std::string_view::npos)
    refuse("server '" + std::string(node) + "' needs host:port (nutcracker requires the port)");
  TwemproxyServer server{std::string(address.substr(0, colon)),
                         parse_port(node, address.substr(colon + 1)), std::string(name)};
  if (name.empty())
    server.name = server.port == kDefaultKetamaPort ? server.host : std::string(address);
  return server;
}

std::string twemproxy_point_string(std::string_view name, uint32_t i) {
  std::string s(name);
  s += '-';
  s += std::to_string(i);
  if (s.size() > kMaxPointString) s.resize(kMaxPointString);
  return s;
}

uint32_t twemproxy_points_per_server(uint32_t weight, uint32_t total_weight, uint32_t live) {
  const float pct = static_cast<float>(weight) / static_cast<float>(total_weight);
  float groups = pct * static_cast<float>(kPointsPerServer);
  groups = groups / 4;
  groups = groups * static_cast<float>(live);
  const auto nudged = static_cast<float>(static_cast<double>(groups) + 0.0000000001);
  return static_cast<uint32_t>(std::floor(nudged) * 4);
}

std::vector<RingEntry<uint32_t>> twemproxy_continuum(const ProfileCluster& cluster) {
  validate_profile(Profile::kTwemproxyKetama, cluster);
  const NodeSet& nodes = cluster.nodes;
  const auto servers = servers_of(nodes);
  uint64_t total = 0;
  for (uint32_t i = 0; i < nodes.size(); ++i) total += weight_of(cluster, i);
  std::vector<RingEntry<uint32_t>> continuum;
  for (const uint32_t node : server_order(servers)) {
    const uint32_t points =
        twemproxy_points_per_server(static_cast<uint32_t>(weight_of(cluster, node)),
                                    static_cast<uint32_t>(total), nodes.size());
    for (uint32_t g = 0; g < points / 4; ++g) {
      const auto digest = md5(twemproxy_point_string(servers[node].name, g));
      for (unsigned k = 0; k < 4; ++k) continuum.push_back({md5_word(digest, k), node});
    }
  }
  std::stable_sort(continuum.begin(), continuum.end(),
                   [](const auto& a, const auto& b) { return a.token < b.token; });
  return continuum;
}

constinit const ProfileInfo profiles::twemproxy_ketama{
    .id = Profile::kTwemproxyKetama,
    .name = "twemproxy_ketama",
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
