// Production placement profiles (see chbench/profiles/profiles.h and docs/profiles.md):
// the functions of profiles.h over the registry of profile_info.h, and the
// pieces the profiles' files share (profile_glue.h).
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
#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_hash.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

constexpr uint32_t kMemcachedDefaultPort = 11211;
constexpr uint32_t kKetamaPointsPerServer = 160;  // MEMCACHED_POINTS_PER_SERVER_KETAMA

// profile_glue::ketama_reference's table.
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

}  // namespace

// ---- the pieces of the profiles' files ------------------------------------------------

namespace profile_glue {

std::unique_ptr<OwnerTable> ring_kernel(std::string_view kernel,
                                        const std::vector<RingEntry<uint64_t>>& entries) {
  return build_ring_kernel(kernel, SortedRing<uint64_t>::from_entries(entries));
}

std::unique_ptr<OwnerTable> table_kernel(std::string_view kernel, std::vector<uint32_t> entries) {
  const KernelInfo& k = find_kernel(Scheme::kMaglev, kernel);
  if (k.make_over_table == nullptr)
    throw std::logic_error(k.full_name() + " takes no table of its own (make_over_table)");
  return k.make_over_table(std::move(entries));
}

// p << 32 >= h << 32 exactly when p >= h.
std::vector<RingEntry<uint64_t>> ketama_entries_64(
    const std::vector<RingEntry<uint32_t>>& continuum) {
  std::vector<RingEntry<uint64_t>> entries;
  entries.reserve(continuum.size());
  for (const auto& e : continuum) entries.push_back({uint64_t{e.token} << 32, e.node});
  return entries;
}

std::unique_ptr<OwnerTable> ketama_reference(std::vector<RingEntry<uint32_t>> continuum) {
  return std::make_unique<KetamaReference>(std::move(continuum));
}

std::string decimal_text(uint64_t h) { return std::to_string(h); }

std::string shifted_text(uint64_t h) { return std::to_string(h >> 32); }

std::string token_text(uint64_t h) {
  return std::to_string(static_cast<int64_t>(h ^ (uint64_t{1} << 63)));
}

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

}  // namespace profile_glue

// ---- the registry -----------------------------------------------------------------

namespace {

constexpr const ProfileInfo* kProfileInfos[] = {
#define CHBENCH_PROFILE(file, enumerator) &profiles::file,
#include "chbench/profiles/profiles.def"
#undef CHBENCH_PROFILE
};

// Profile::k<X> in profiles.def's order, as all_profiles() lists them.
constexpr Profile kProfiles[] = {
#define CHBENCH_PROFILE(file, enumerator) Profile::k##enumerator,
#include "chbench/profiles/profiles.def"
#undef CHBENCH_PROFILE
};

}  // namespace

std::span<const ProfileInfo* const> all_profile_infos() noexcept { return kProfileInfos; }

const ProfileInfo& profile_info(Profile profile) noexcept {
  return *kProfileInfos[static_cast<std::size_t>(profile)];
}

// ---- names -----------------------------------------------------------------------------

std::string_view profile_name(Profile profile) noexcept { return profile_info(profile).name; }

Profile parse_profile(std::string_view name) {
  std::string known;
  for (const ProfileInfo* info : all_profile_infos()) {
    if (info->name == name) return info->id;
    known += (known.empty() ? "" : ", ") + std::string(info->name);
  }
  throw std::invalid_argument("unknown profile '" + std::string(name) + "' (known: " + known + ")");
}

std::span<const Profile> all_profiles() noexcept { return kProfiles; }

Scheme profile_scheme(Profile profile) noexcept { return profile_info(profile).scheme; }

std::optional<Scheme> profile_placement_scheme(Profile profile) noexcept {
  const ProfileInfo& info = profile_info(profile);
  if (!info.follows_scheme) return std::nullopt;
  return info.scheme;
}

unsigned profile_params(Profile profile) noexcept { return profile_info(profile).params; }

std::string_view default_profile_kernel(Profile profile) noexcept {
  return default_kernel(profile_scheme(profile)).name;
}

// ---- key hashes -----------------------------------------------------------------------------

uint64_t profile_key_hash(Profile profile, std::string_view key) {
  return profile_info(profile).key_hash(key);
}

void profile_key_hashes(Profile profile, std::span<const std::string_view> keys,
                        std::span<uint64_t> out) {
  if (keys.size() != out.size())
    throw std::invalid_argument("keys and key hashes differ in length");
  profile_info(profile).key_hashes(keys, out);
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

void validate_profile(Profile profile, const ProfileCluster& cluster) {
  validate(cluster.nodes);
  if (!(profile_params(profile) & kParamWeights) && !cluster.weights.empty())
    throw std::invalid_argument("weights apply to the profiles that take them, not to " +
                                std::string(profile_name(profile)));
  profile_info(profile).check(cluster);
}

std::unique_ptr<OwnerTable> build_profile_reference(Profile profile,
                                                    const ProfileCluster& cluster) {
  validate_profile(profile, cluster);
  return profile_info(profile).reference(cluster);
}

std::unique_ptr<OwnerTable> build_profile_table(Profile profile, const ProfileCluster& cluster,
                                                std::string_view kernel) {
  validate_profile(profile, cluster);
  if (kernel.empty()) kernel = default_profile_kernel(profile);
  return profile_info(profile).table(cluster, kernel);
}

}  // namespace chbench
