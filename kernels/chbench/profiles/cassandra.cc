// The cassandra profile: Murmur3Partitioner tokens on a ring of num_tokens
// tokens a node (docs/profiles/stores.md), by the ring kernels.
#include <stdexcept>
#include <vector>

#include "chbench/profiles/profile_glue.h"
#include "chbench/profiles/profile_hash.h"
#include "chbench/profiles/profile_info.h"

namespace chbench {

namespace {

uint64_t hash(std::string_view key) { return ordered_token(cassandra_token(key)); }

void check(const ProfileCluster& cluster) {
  if (uint64_t{cluster.nodes.size()} * cluster.nodes.vnodes > 0xffffffffu)
    throw std::invalid_argument("N * num_tokens exceeds the 2^32 - 1 tokens a ring indexes");
}

// A sorted token list, searched as the ring's reference searches.
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

std::unique_ptr<OwnerTable> reference(const ProfileCluster& cluster) {
  return std::make_unique<CassandraReference>(cluster.nodes);
}

std::unique_ptr<OwnerTable> table(const ProfileCluster& cluster, std::string_view kernel) {
  return profile_glue::ring_kernel(kernel, cassandra_ring(cluster.nodes));
}

}  // namespace

constinit const ProfileInfo profiles::cassandra{
    .id = Profile::kCassandra,
    .name = "cassandra",
    .scheme = Scheme::kRing,
    .follows_scheme = true,
    .params = kParamVnodes,
    .default_vnodes = 256,
    .places_by_position = false,
    .removal_refusal = "",
    .hash_name = "token",
    .hash_text = profile_glue::token_text,
    .key_hash = hash,
    .key_hashes = profile_glue::hash_each<hash>,
    .check = check,
    .reference = reference,
    .table = table,
};

}  // namespace chbench
