// Production placement profiles (see chbench/profiles/profiles.h and docs/profiles.md).
// Compiled with -ffp-contract=off: ketama's point counts and Redis's slot
// ranges are computed in float exactly as libmemcached and redis-cli do.
#include "chbench/profiles/profiles.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "chbench/hash.h"
#include "chbench/maglev/maglev.h"
#include "chbench/profiles/profile_hash.h"

namespace chbench {

namespace {

constexpr std::array<Profile, 6> kProfiles = {Profile::kKetama, Profile::kRedis,
                                              Profile::kKafka,  Profile::kCassandra,
                                              Profile::kMaglev, Profile::kKetamaUnweighted};

constexpr uint32_t kMemcachedDefaultPort = 11211;
constexpr uint32_t kKetamaPointsPerServer = 160;  // MEMCACHED_POINTS_PER_SERVER_KETAMA

// ---- ketama reference ------------------------------------------------------------

// libmemcached's dispatch_host for ketama (hash.cc): the first point whose
// value is >= the key's 32-bit hash, by the same halving search, or the first
// point when none is.
class KetamaReference final : public OwnerTable {
 public:
  explicit KetamaReference(std::vector<RingEntry<uint32_t>> continuum)
      : continuum_(std::move(continuum)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) {
      const auto hash = static_cast<uint32_t>(h[i] >> 32);
      std::size_t left = 0, right = continuum_.size();
      while (left < right) {
        const std::size_t middle = left + (right - left) / 2;
        if (continuum_[middle].token < hash)
          left = middle + 1;
        else
          right = middle;
      }
      out[i] = continuum_[right == continuum_.size() ? 0 : right].node;
    }
  }
  std::size_t memory_bytes() const noexcept override {
    return continuum_.size() * sizeof(RingEntry<uint32_t>);
  }

 private:
  std::vector<RingEntry<uint32_t>> continuum_;
};

// ---- Redis and Cassandra references -------------------------------------------------

class RedisReference final : public OwnerTable {
 public:
  explicit RedisReference(uint32_t nodes) : slot_owner_(redis_slot_owners(nodes)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = slot_owner_[h[i] % kRedisSlots];
  }
  std::size_t memory_bytes() const noexcept override {
    return slot_owner_.size() * sizeof(uint32_t);
  }

 private:
  std::vector<uint32_t> slot_owner_;
};

class CassandraReference final : public OwnerTable {
 public:
  explicit CassandraReference(const NodeSet& nodes) : ring_(cassandra_ring(nodes)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = ring_reference_owner<uint64_t>(ring_, h[i]);
  }
  std::size_t memory_bytes() const noexcept override {
    return ring_.size() * sizeof(RingEntry<uint64_t>);
  }

 private:
  std::vector<RingEntry<uint64_t>> ring_;
};

// ---- kernels over a profile's own ring -------------------------------------------------

// Every ring kernel of the registry, over the profile's own ring.
std::unique_ptr<OwnerTable> ring_kernel(std::string_view kernel,
                                        const std::vector<RingEntry<uint64_t>>& entries) {
  return build_ring_kernel(kernel, SortedRing<uint64_t>::from_entries(entries));
}

// Every lookup-table kernel of the registry (Maglev's), over the profile's own table.
std::unique_ptr<OwnerTable> table_kernel(std::string_view kernel, std::vector<uint32_t> entries) {
  const KernelInfo& k = find_kernel(Scheme::kMaglev, kernel);
  if (k.make_over_table == nullptr)
    throw std::logic_error(k.full_name() + " takes no table of its own (make_over_table)");
  return k.make_over_table(std::move(entries));
}

// The continuum scaled to the 64-bit circle: p << 32 >= h << 32 exactly when
// p >= h, and the (value, index) order is kept, so the 64-bit ring kernels
// find libmemcached's point.
std::vector<RingEntry<uint64_t>> ketama_entries_64(
    const std::vector<RingEntry<uint32_t>>& continuum) {
  std::vector<RingEntry<uint64_t>> entries;
  entries.reserve(continuum.size());
  for (const auto& e : continuum) entries.push_back({uint64_t{e.token} << 32, e.node});
  return entries;
}

}  // namespace

// ---- names -----------------------------------------------------------------------------

std::string_view profile_name(Profile profile) noexcept {
  switch (profile) {
    case Profile::kKetama:
      return "ketama";
    case Profile::kRedis:
      return "redis";
    case Profile::kKafka:
      return "kafka";
    case Profile::kCassandra:
      return "cassandra";
    case Profile::kMaglev:
      return "maglev";
    case Profile::kKetamaUnweighted:
      return "ketama_unweighted";
  }
  return "?";
}

Profile parse_profile(std::string_view name) {
  std::string known;
  for (Profile p : kProfiles) {
    if (profile_name(p) == name) return p;
    known += (known.empty() ? "" : ", ") + std::string(profile_name(p));
  }
  throw std::invalid_argument("unknown profile '" + std::string(name) + "' (known: " + known + ")");
}

std::span<const Profile> all_profiles() noexcept { return kProfiles; }

Scheme profile_scheme(Profile profile) noexcept {
  switch (profile) {
    case Profile::kKetama:
    case Profile::kKetamaUnweighted:
    case Profile::kCassandra:
      return Scheme::kRing;
    case Profile::kKafka:
      return Scheme::kModN;
    case Profile::kRedis:
    case Profile::kMaglev:
      return Scheme::kMaglev;
  }
  return Scheme::kRing;
}

std::optional<Scheme> profile_placement_scheme(Profile profile) noexcept {
  if (profile == Profile::kRedis) return std::nullopt;
  return profile_scheme(profile);
}

unsigned profile_params(Profile profile) noexcept {
  switch (profile) {
    case Profile::kKetama:
      return kParamWeights;
    case Profile::kCassandra:
      return kParamVnodes;
    case Profile::kMaglev:
      return kParamTableSize;
    case Profile::kRedis:
    case Profile::kKafka:
    case Profile::kKetamaUnweighted:
      return 0;
  }
  return 0;
}

std::string_view default_profile_kernel(Profile profile) noexcept {
  return default_kernel(profile_scheme(profile)).name;
}

// ---- key hashes -----------------------------------------------------------------------------

uint64_t profile_key_hash(Profile profile, std::string_view key) {
  switch (profile) {
    case Profile::kKetama:
      return uint64_t{ketama_key_hash(key)} << 32;
    case Profile::kRedis:
      return redis_key_slot(key);
    case Profile::kKafka:
      return kafka_positive_hash(key);
    case Profile::kCassandra:
      return ordered_token(cassandra_token(key));
    case Profile::kMaglev:
      return key_hash(key);
    case Profile::kKetamaUnweighted:
      return uint64_t{one_at_a_time(key)} << 32;
  }
  return 0;
}

void profile_key_hashes(Profile profile, std::span<const std::string_view> keys,
                        std::span<uint64_t> out) {
  if (keys.size() != out.size())
    throw std::invalid_argument("keys and key hashes differ in length");
  switch (profile) {
    case Profile::kKetama:
      ketama_key_hashes_shifted(keys, out);
      return;
    case Profile::kRedis:
      for (std::size_t i = 0; i < keys.size(); ++i) out[i] = redis_key_slot(keys[i]);
      return;
    case Profile::kKafka:
      for (std::size_t i = 0; i < keys.size(); ++i) out[i] = kafka_positive_hash(keys[i]);
      return;
    case Profile::kCassandra:
      for (std::size_t i = 0; i < keys.size(); ++i)
        out[i] = ordered_token(cassandra_token(keys[i]));
      return;
    case Profile::kMaglev:
      for (std::size_t i = 0; i < keys.size(); ++i) out[i] = key_hash(keys[i]);
      return;
    case Profile::kKetamaUnweighted:
      for (std::size_t i = 0; i < keys.size(); ++i) out[i] = uint64_t{one_at_a_time(keys[i])} << 32;
      return;
  }
}

// ---- ketama ------------------------------------------------------------------------------

KetamaServer ketama_server(std::string_view name) {
  const std::size_t colon = name.rfind(':');
  if (colon != std::string_view::npos && colon + 1 < name.size() && colon > 0) {
    const std::string_view digits = name.substr(colon + 1);
    uint32_t port = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (ec == std::errc() && end == digits.data() + digits.size() && port >= 1 && port <= 65535)
      return {std::string(name.substr(0, colon)), port};
  }
  return {std::string(name), kMemcachedDefaultPort};
}

std::string ketama_point_string(const KetamaServer& server, uint32_t i) {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on ":" + string.
  std::string s = server.host;
  if (server.port != kMemcachedDefaultPort) {
    s += ':';
    s += std::to_string(server.port);
  }
  s += '-';
  s += std::to_string(i);
  return s;
}

uint32_t ketama_points_per_server(uint64_t weight, uint64_t total_weight, uint32_t count) {
  // hosts.cc: pct * 160 / 4 * live_servers + 0.0000000001F, all in float,
  // floored, times 4.
  const float pct = static_cast<float>(weight) / static_cast<float>(total_weight);
  const float groups =
      pct * static_cast<float>(kKetamaPointsPerServer) / 4.0f * static_cast<float>(count) +
      0.0000000001F;
  return static_cast<uint32_t>(std::floor(static_cast<double>(groups)) * 4);
}

std::vector<RingEntry<uint32_t>> ketama_continuum(const ProfileCluster& cluster) {
  validate_profile(Profile::kKetama, cluster);
  const NodeSet& nodes = cluster.nodes;
  auto weight = [&](uint32_t i) -> uint64_t {
    return cluster.weights.empty() ? 1 : cluster.weights[i];
  };
  uint64_t total = 0;
  for (uint32_t i = 0; i < nodes.size(); ++i) total += weight(i);
  std::vector<RingEntry<uint32_t>> continuum;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    const KetamaServer server = ketama_server(nodes.names[i]);
    const uint32_t points = ketama_points_per_server(weight(i), total, nodes.size());
    // Four points per MD5 digest of "host:port-g" (ketama_server_hash).
    for (uint32_t g = 0; g < points / 4; ++g) {
      const auto digest = md5(ketama_point_string(server, g));
      for (unsigned k = 0; k < 4; ++k) continuum.push_back({md5_word(digest, k), i});
    }
  }
  if (continuum.size() > 0xffffffffu)
    throw std::length_error("the ketama continuum exceeds 2^32 - 1 points");
  std::sort(continuum.begin(), continuum.end());
  return continuum;
}

std::vector<RingEntry<uint32_t>> ketama_unweighted_continuum(const ProfileCluster& cluster) {
  validate_profile(Profile::kKetamaUnweighted, cluster);
  const NodeSet& nodes = cluster.nodes;
  std::vector<RingEntry<uint32_t>> continuum;
  continuum.reserve(std::size_t{nodes.size()} * kKetamaUnweightedPoints);
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    const KetamaServer server = ketama_server(nodes.names[i]);
    for (uint32_t p = 0; p < kKetamaUnweightedPoints; ++p)
      continuum.push_back({one_at_a_time(ketama_point_string(server, p)), i});
  }
  if (continuum.size() > 0xffffffffu)
    throw std::length_error("the ketama continuum exceeds 2^32 - 1 points");
  std::sort(continuum.begin(), continuum.end());
  return continuum;
}

// ---- Redis ---------------------------------------------------------------------------------

std::vector<uint32_t> redis_slot_owners(uint32_t nodes) {
  if (nodes == 0 || nodes > kRedisSlots)
    throw std::invalid_argument("Redis Cluster takes 1 ... 16384 masters (one slot each at least)");
  // redis-cli's clusterManagerCommandCreate (src/redis-cli.c, Redis 7.0).
  std::vector<uint32_t> owner(kRedisSlots, 0);
  const float slots_per_node = static_cast<float>(kRedisSlots) / static_cast<float>(nodes);
  long first = 0;
  float cursor = 0.0f;
  for (uint32_t i = 0; i < nodes; ++i) {
    long last = std::lround(static_cast<double>(cursor + slots_per_node - 1));
    if (last > static_cast<long>(kRedisSlots) || i == nodes - 1) last = kRedisSlots - 1;
    if (last < first) last = first;
    for (long s = first; s <= last && s < static_cast<long>(kRedisSlots); ++s)
      owner[static_cast<std::size_t>(s)] = i;
    first = last + 1;
    cursor += slots_per_node;
  }
  return owner;
}

// ---- Cassandra ------------------------------------------------------------------------------

std::vector<RingEntry<uint64_t>> cassandra_ring(const NodeSet& nodes) {
  auto entries = ring_entries(nodes);  // XXH3 of "<name>#<i>", validated
  for (auto& e : entries) {
    auto token = static_cast<int64_t>(e.token);
    if (token == INT64_MIN) token = INT64_MAX;
    e.token = ordered_token(token);
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

// ---- clusters -----------------------------------------------------------------------------

namespace {

// Two names of one ketama server (the same host and port as libmemcached
// reads them, ketama_server) would get identical points, the second owning
// nothing: refused.
void check_distinct_servers(const NodeSet& nodes) {
  std::map<std::pair<std::string, uint32_t>, uint32_t> seen;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    KetamaServer server = ketama_server(nodes.names[i]);
    const auto [it, fresh] = seen.try_emplace({std::move(server.host), server.port}, i);
    if (!fresh)
      throw std::invalid_argument("ketama: '" + nodes.names[it->second] + "' and '" +
                                  nodes.names[i] + "' are one server (host '" + it->first.first +
                                  "', port " + std::to_string(it->first.second) +
                                  "): it would own nothing");
  }
}

}  // namespace

void validate_profile(Profile profile, const ProfileCluster& cluster) {
  const NodeSet& nodes = cluster.nodes;
  validate(nodes);
  if (profile != Profile::kKetama && !cluster.weights.empty())
    throw std::invalid_argument("weights apply to the ketama profile only");
  switch (profile) {
    case Profile::kKetama:
      if (!cluster.weights.empty() && cluster.weights.size() != nodes.size())
        throw std::invalid_argument("ketama: " + std::to_string(cluster.weights.size()) +
                                    " weights for " + std::to_string(nodes.size()) + " servers");
      for (uint32_t w : cluster.weights)
        if (w == 0 || w > 0x80000000u)
          throw std::invalid_argument("ketama: every weight must be 1 ... 2^31");
      check_distinct_servers(nodes);
      break;
    case Profile::kRedis:
      if (nodes.size() > kRedisSlots)
        throw std::invalid_argument("Redis Cluster takes at most 16384 masters");
      break;
    case Profile::kKafka:
      if (nodes.size() > 0x7fffffffu)
        throw std::invalid_argument("Kafka takes at most 2^31 - 1 partitions");
      break;
    case Profile::kCassandra:
      if (uint64_t{nodes.size()} * nodes.vnodes > 0xffffffffu)
        throw std::invalid_argument("N * num_tokens exceeds the 2^32 - 1 tokens a ring indexes");
      break;
    case Profile::kMaglev:
      validate_maglev(nodes);
      break;
    case Profile::kKetamaUnweighted:
      check_distinct_servers(nodes);
      break;
  }
}

std::unique_ptr<OwnerTable> build_profile_reference(Profile profile,
                                                    const ProfileCluster& cluster) {
  validate_profile(profile, cluster);
  switch (profile) {
    case Profile::kKetama:
      return std::make_unique<KetamaReference>(ketama_continuum(cluster));
    case Profile::kKetamaUnweighted:
      return std::make_unique<KetamaReference>(ketama_unweighted_continuum(cluster));
    case Profile::kRedis:
      return std::make_unique<RedisReference>(cluster.nodes.size());
    case Profile::kKafka:
      return build_reference(Scheme::kModN, cluster.nodes);
    case Profile::kCassandra:
      return std::make_unique<CassandraReference>(cluster.nodes);
    case Profile::kMaglev:
      return build_reference(Scheme::kMaglev, cluster.nodes);
  }
  throw std::invalid_argument("unknown profile");
}

std::unique_ptr<OwnerTable> build_profile_table(Profile profile, const ProfileCluster& cluster,
                                                std::string_view kernel) {
  validate_profile(profile, cluster);
  if (kernel.empty()) kernel = default_profile_kernel(profile);
  switch (profile) {
    case Profile::kKetama:
      return ring_kernel(kernel, ketama_entries_64(ketama_continuum(cluster)));
    case Profile::kKetamaUnweighted:
      return ring_kernel(kernel, ketama_entries_64(ketama_unweighted_continuum(cluster)));
    case Profile::kRedis:
      return table_kernel(kernel, redis_slot_owners(cluster.nodes.size()));
    case Profile::kKafka:
      return find_kernel(Scheme::kModN, kernel).build(cluster.nodes);
    case Profile::kCassandra:
      return ring_kernel(kernel, cassandra_ring(cluster.nodes));
    case Profile::kMaglev:
      return find_kernel(Scheme::kMaglev, kernel).build(cluster.nodes);
  }
  throw std::invalid_argument("unknown profile");
}

}  // namespace chbench
