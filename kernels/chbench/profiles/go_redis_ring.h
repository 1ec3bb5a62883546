// The go_redis_ring profile's pieces (docs/profiles/clients.md, "go-redis Ring"):
// the shard a go-redis Ring client sends a key to, rendezvous hashing over
// XXH64 with a xorshift-multiply mixer (redis/go-redis ring.go and
// internal/hashtag/rendezvous.go at 216593cc01faa029006266a5f1fc3d5004312ecf;
// before it, the same rule from dgryski/go-rendezvous rdv.go at
// 9f7001d12a5f0021fd3283525f888b5814ccee27 with cespare/xxhash's Sum64String).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "chbench/nodes.h"

namespace chbench {

// The mixer of a (key hash ^ shard hash) score: x ^= x >> 12, x ^= x << 25,
// x ^= x >> 27, then x times 2685821657736338717 (mod 2^64). A bijection, so
// two shards score a key equally only when their hashes are equal.
constexpr uint64_t go_redis_mix64(uint64_t x) noexcept {
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  return x * 2685821657736338717ull;
}

// A key's hash as Ring hashes it: XXH64 (seed 0, cespare/xxhash Sum64String)
// of the key's hash tag (hashtag.Key: the bytes between the first '{' and the
// first '}' after it when at least one byte is between them, else the whole
// key; the rule redis_hash_tag implements).
uint64_t go_redis_key_hash(std::string_view key) noexcept;

// Each shard's hash, XXH64 of its name (the key of RingOptions.Addrs), in
// node order. Throws std::invalid_argument for an invalid node list or two
// names of equal hash (their tie would be broken by Go's random map order).
std::vector<uint64_t> go_redis_shard_hashes(const NodeSet& nodes);

// The shard of key hash h: the first index of the highest
// go_redis_mix64(h ^ shard_hashes[i]). Precondition: shard_hashes non-empty.
uint32_t go_redis_shard(uint64_t h, const std::vector<uint64_t>& shard_hashes) noexcept;

}  // namespace chbench
