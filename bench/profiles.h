// The "profiles" family: production placement profiles looked up from key
// strings (key hashing included) through the library's fast kernels, and
// through each system's own lookup on the same keys: libmemcached's own server
// choice for ketama, the profile's reference of the system's own search for
// the others.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "chbench/profiles/profiles.h"
#include "config.h"

namespace chbench::bench {

// Key strings back to back: key i is bytes[offsets[i] ... offsets[i + 1]).
struct KeyBytes {
  const char* bytes;
  std::span<const uint32_t> offsets;  // count + 1 entries
};

// The cluster a profile configuration runs on: N default names node-0 ...
// (ketama servers on the default port), every weight 1 for a profile that
// reads weights (profile_params: weighted ketama), V tokens per node for
// cassandra, Maglev's default table.
ProfileCluster bench_cluster(Profile profile, uint32_t nodes, uint32_t vnodes);

// One side of a profile configuration, from key strings to owners.
class ProfileLookup {
 public:
  virtual ~ProfileLookup() = default;
  // Owners of keys [first, last) into out[0, last - first).
  virtual void owners(const KeyBytes& keys, std::size_t first, std::size_t last,
                      std::span<uint32_t> out) const = 0;
  virtual std::size_t memory_bytes() const noexcept = 0;
};

// Ours: blocks of keys hashed by profile_key_hashes, then the kernel
// c.kernel of the profile's table. Or, with c.client, the system's own lookup
// (own_lookup_name): the real client for ketama (libmemcached, one
// memcached_generate_hash per key), the profile's reference over the
// one-key hash for the others. Throws std::invalid_argument for ketama with
// libmemcached past 100 servers (libmemcached 1.1 aborts there), and as
// build_profile_table / build_profile_reference.
std::unique_ptr<ProfileLookup> make_profile_lookup(const Config& c);

// The owners every side must return: the profile's reference over the keys'
// plain hashes (profile_key_hash, MD5 by OpenSSL).
std::vector<uint32_t> profile_reference_owners(const Config& c, const KeyBytes& keys,
                                               std::size_t count);

// "libmemcached 1.1.4" as the library reports itself.
std::string libmemcached_version();

// The largest server list libmemcached 1.1 takes with ketama (MEMCACHED_CONTINUUM_SIZE).
inline constexpr uint32_t kLibmemcachedMaxServers = 100;

}  // namespace chbench::bench
