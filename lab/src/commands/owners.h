// chbench-lab owners: each key's owner, streamed a slice of keys at a time
// (millions of keys never sit in memory as rows).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "chbench/profiles/profiles.h"
#include "commands/setup.h"
#include "keys.h"

namespace chbench::lab {

class Writer;

// One key and its owner, as the writers print it. The views stay valid only
// during the Writer::owner call.
struct OwnerRow {
  uint64_t index;          // 0-based key position
  std::string_view key;    // the key's bytes (a key hash given as such: in decimal)
  std::string_view owner;  // the owner's name (owner_name)
  std::string_view hash;   // with a profile, hash_value() of its key hash; else empty
  // With --replicas R: the R owners' names, most preferred first (owner is
  // the first); empty without.
  std::span<const std::string> replicas;
};

// The replica table of owners --replicas: the scheme's replica reference for
// kernel "reference", the named kernel's (build_replicas), or by default the
// scheme's replica kernel of lowest rank. Throws std::invalid_argument where
// the scheme defines no replicas, for a kernel without a replica lookup, and
// for R = 0 or R above the node count.
std::unique_ptr<ReplicaTable> make_replica_table(const Setup& s, const Fleet& fleet);
inline std::unique_ptr<ReplicaTable> make_replica_table(const Setup& s) {
  return make_replica_table(s, s.fleet);
}

// The scheme's replica kernel of lowest rank, or nullptr for a scheme
// without replica kernels.
const KernelInfo* default_replica_kernel(Scheme scheme);

// Looks the keys up in slices of 2^16 (in parallel within a slice) and hands
// them to `writer` in key order: owners_begin, one owner() per key,
// owners_end. Throws like make_table, before anything is written.
void run_owners(const Setup& s, const KeySet& keys, Writer& writer);

// The column owners prints beside a profile's owner: what the system itself
// would show for the key ("slot", "token", "hash"), and its value from the
// profile's key hash (ketama: the 32-bit point, cassandra: the signed token).
const char* hash_column(Profile p);
std::string hash_value(Profile p, uint64_t h);

}  // namespace chbench::lab
