// Key hashing and node seeds, exactly as docs/spec.md §2 and §7 fix them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace chbench {

// Key hash of docs/spec.md §2: XXH3_64bits over the key's bytes (xxHash 0.8, seed 0).
// Any byte string is accepted, including the empty one. Never throws.
uint64_t key_hash(std::string_view bytes) noexcept;

// The MurmurHash3 64-bit finalizer (Appleby, MurmurHash3.cpp, `fmix64`): a
// bijection on uint64_t used by the rendezvous score. Never throws.
constexpr uint64_t fmix64(uint64_t k) noexcept {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

// Default key number i (i >= 1): "user:<i>", decimal, no padding.
std::string default_key(uint64_t i);

// Key hashes of the default keys user:<first> ... user:<first+count-1>, in order.
// Shape: `count` hashes. Throws std::bad_alloc if `count` cannot be allocated.
std::vector<uint64_t> default_key_hashes(uint64_t count, uint64_t first = 1);

// Default node name number i: "node-<i>".
std::string default_node_name(uint64_t i);

}  // namespace chbench
