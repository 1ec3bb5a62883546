#include "chbench/hash.h"

#include <xxhash.h>

namespace chbench {

uint64_t key_hash(std::string_view bytes) noexcept {
  return XXH3_64bits(bytes.data(), bytes.size());
}

std::string default_key(uint64_t i) { return "user:" + std::to_string(i); }

std::vector<uint64_t> default_key_hashes(uint64_t count, uint64_t first) {
  std::vector<uint64_t> hashes(count);
  std::string key = "user:";
  for (uint64_t i = 0; i < count; ++i) {
    key.resize(5);
    key += std::to_string(first + i);
    hashes[i] = key_hash(key);
  }
  return hashes;
}

std::string default_node_name(uint64_t i) { return "node-" + std::to_string(i); }

}  // namespace chbench
