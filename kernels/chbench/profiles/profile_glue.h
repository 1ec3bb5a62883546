// The pieces several profiles' files build their tables with (profiles.cc):
// the registry's kernels over a profile's own ring or table, libmemcached's
// continuum search as a reference, and ketama's check of server names.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/nodes.h"
#include "chbench/profiles/profiles.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"

namespace chbench::profile_glue {

// Every ring kernel of the registry, over the profile's own ring. Throws
// std::invalid_argument for an unknown kernel.
std::unique_ptr<OwnerTable> ring_kernel(std::string_view kernel,
                                        const std::vector<RingEntry<uint64_t>>& entries);

// Every lookup-table kernel of the registry (Maglev's), over the profile's
// own table of node indices. Throws std::invalid_argument for an unknown kernel.
std::unique_ptr<OwnerTable> table_kernel(std::string_view kernel, std::vector<uint32_t> entries);

// A ketama continuum scaled to the 64-bit circle (point p as p << 32), its
// (value, index) order kept, so the 64-bit ring kernels find libmemcached's point.
std::vector<RingEntry<uint64_t>> ketama_entries_64(
    const std::vector<RingEntry<uint32_t>>& continuum);

// libmemcached's dispatch_host for ketama (hash.cc) over `continuum`: the
// first point whose value is >= the key's 32-bit hash (h >> 32), by the same
// halving search, or the first point when none is.
std::unique_ptr<OwnerTable> ketama_reference(std::vector<RingEntry<uint32_t>> continuum);

// The key_hashes of a profile whose batch is its one-key hash in a loop.
// A profile that places as its scheme does: the scheme's reference, and the
// scheme's kernel `kernel`, over the cluster's nodes (ProfileInfo::reference,
// ::table). find_kernel throws std::invalid_argument for an unknown kernel.
template <Scheme S>
std::unique_ptr<OwnerTable> scheme_reference(const ProfileCluster& cluster) {
  return build_reference(S, cluster.nodes);
}
template <Scheme S>
std::unique_ptr<OwnerTable> scheme_table(const ProfileCluster& cluster, std::string_view kernel) {
  return find_kernel(S, kernel).build(cluster.nodes);
}

template <uint64_t (*Hash)(std::string_view)>
void hash_each(std::span<const std::string_view> keys, std::span<uint64_t> out) {
  for (std::size_t i = 0; i < keys.size(); ++i) out[i] = Hash(keys[i]);
}

// A key hash as a system writes it: h in decimal; the 32-bit hash of
// ketama's h >> 32; Cassandra's signed token of an ordered_token value.
std::string decimal_text(uint64_t h);
std::string shifted_text(uint64_t h);
std::string token_text(uint64_t h);

// Refuses two names of one ketama server (the same host and port as
// libmemcached reads them, ketama_server): the second would own nothing.
void check_distinct_servers(const NodeSet& nodes);

}  // namespace chbench::profile_glue
