#include "profiles.h"

#include <libmemcached/memcached.h>

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace chbench::bench {

namespace {

std::string_view key_at(const KeyBytes& keys, std::size_t i) {
  return {keys.bytes + keys.offsets[i], keys.offsets[i + 1] - keys.offsets[i]};
}

// Hashes a block of keys at a time into L1-resident buffers, then looks the
// block up: the path from key bytes to owner that a client pays. Ours
// (c.kernel over the profile's table, its batch key hash: profile_key_hashes)
// or the system's own (the profile's reference of its own search, over the
// one-key hash it computes: profile_key_hash).
class BlockLookup final : public ProfileLookup {
 public:
  explicit BlockLookup(const Config& c) : profile_(*c.profile), own_(c.client), table_(build(c)) {}
  void owners(const KeyBytes& keys, std::size_t first, std::size_t last,
              std::span<uint32_t> out) const override {
    constexpr std::size_t kBlock = 1024;
    std::string_view views[kBlock];
    uint64_t hashes[kBlock];
    for (std::size_t begin = first; begin < last; begin += kBlock) {
      const std::size_t n = std::min(kBlock, last - begin);
      for (std::size_t i = 0; i < n; ++i) views[i] = key_at(keys, begin + i);
      if (own_)
        for (std::size_t i = 0; i < n; ++i) hashes[i] = profile_key_hash(profile_, views[i]);
      else
        profile_key_hashes(profile_, std::span<const std::string_view>(views, n),
                           std::span<uint64_t>(hashes, n));
      table_->owners(std::span<const uint64_t>(hashes, n), out.subspan(begin - first, n));
    }
  }
  std::size_t memory_bytes() const noexcept override { return table_->memory_bytes(); }

 private:
  static std::unique_ptr<OwnerTable> build(const Config& c) {
    const ProfileCluster cluster = bench_cluster(*c.profile, c.nodes, c.vnodes);
    return c.client ? build_profile_reference(*c.profile, cluster)
                    : build_profile_table(*c.profile, cluster, c.kernel->name);
  }

  Profile profile_;
  bool own_;
  std::unique_ptr<OwnerTable> table_;
};

// libmemcached as a ketama client sets itself up: weighted ketama (which also
// selects MD5 for the key hash), MD5 for the continuum, servers added in
// order with their weights. No connection is made.
class LibmemcachedLookup final : public ProfileLookup {
 public:
  explicit LibmemcachedLookup(const Config& c) : memc_(memcached_create(nullptr)) {
    if (!memc_) throw std::bad_alloc();
    if (c.nodes > kLibmemcachedMaxServers)
      throw std::invalid_argument("libmemcached 1.1 aborts past 100 ketama servers");
    const ProfileCluster cluster = bench_cluster(*c.profile, c.nodes, c.vnodes);
    bool ok =
        memcached_behavior_set(memc_, MEMCACHED_BEHAVIOR_DISTRIBUTION,
                               MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA) == MEMCACHED_SUCCESS &&
        memcached_behavior_set(memc_, MEMCACHED_BEHAVIOR_KETAMA_HASH, MEMCACHED_HASH_MD5) ==
            MEMCACHED_SUCCESS &&
        memcached_behavior_set(memc_, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1) == MEMCACHED_SUCCESS &&
        memcached_behavior_set(memc_, MEMCACHED_BEHAVIOR_HASH, MEMCACHED_HASH_MD5) ==
            MEMCACHED_SUCCESS;
    for (std::size_t i = 0; ok && i < cluster.nodes.names.size(); ++i) {
      const KetamaServer server = ketama_server(cluster.nodes.names[i]);
      const uint32_t weight = cluster.weights.empty() ? 1 : cluster.weights[i];
      ok = memcached_server_add_with_weight(memc_, server.host.c_str(),
                                            static_cast<in_port_t>(server.port),
                                            weight) == MEMCACHED_SUCCESS;
    }
    if (!ok) {
      memcached_free(memc_);
      throw std::runtime_error("libmemcached refused the ketama set-up");
    }
  }
  ~LibmemcachedLookup() override { memcached_free(memc_); }
  LibmemcachedLookup(const LibmemcachedLookup&) = delete;
  LibmemcachedLookup& operator=(const LibmemcachedLookup&) = delete;

  void owners(const KeyBytes& keys, std::size_t first, std::size_t last,
              std::span<uint32_t> out) const override {
    for (std::size_t i = first; i < last; ++i) {
      const std::string_view key = key_at(keys, i);
      out[i - first] = memcached_generate_hash(memc_, key.data(), key.size());
    }
  }
  // libmemcached's continuum: value and server index, 8 bytes per point.
  std::size_t memory_bytes() const noexcept override {
    return std::size_t{memcached_server_count(memc_)} * 160 * 8;
  }

 private:
  memcached_st* memc_;
};

}  // namespace

ProfileCluster bench_cluster(Profile profile, uint32_t nodes, uint32_t vnodes) {
  // Servers as proxies name them, host and port: node-<i>:11211 (to
  // libmemcached the same server as node-<i>, its default port).
  ProfileCluster cluster{default_nodes(nodes, vnodes), {}};
  for (auto& name : cluster.nodes.names) name += ":11211";
  if (profile_params(profile) & kParamWeights) cluster.weights.assign(nodes, 1);
  return cluster;
}

std::unique_ptr<ProfileLookup> make_profile_lookup(const Config& c) {
  if (!c.client || *c.profile != Profile::kKetama) return std::make_unique<BlockLookup>(c);
  return std::make_unique<LibmemcachedLookup>(c);
}

std::vector<uint32_t> profile_reference_owners(const Config& c, const KeyBytes& keys,
                                               std::size_t count) {
  std::vector<uint64_t> hashes(count);
  for (std::size_t i = 0; i < count; ++i) hashes[i] = profile_key_hash(*c.profile, key_at(keys, i));
  const auto reference =
      build_profile_reference(*c.profile, bench_cluster(*c.profile, c.nodes, c.vnodes));
  std::vector<uint32_t> owners(count);
  reference->owners(hashes, owners);
  return owners;
}

std::string libmemcached_version() {
  return std::string("libmemcached ") + memcached_lib_version();
}

}  // namespace chbench::bench
