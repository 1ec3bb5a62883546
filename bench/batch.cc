#include "batch.h"

#include <algorithm>
#include <string_view>

#include "chbench/hash.h"

namespace chbench::bench {

namespace {

// The opaque zero that chains latency lookups: the compiler cannot see that it
// is zero, so each key waits for the previous owner.
volatile uint64_t g_chain_zero = 0;

}  // namespace

void hashed_owners(const OwnerTable& table, const KeyBytes& keys, std::size_t first,
                   std::size_t last, std::span<uint32_t> out) {
  constexpr std::size_t kBlock = 1024;
  uint64_t hashes[kBlock];
  for (std::size_t begin = first; begin < last; begin += kBlock) {
    const std::size_t n = std::min<std::size_t>(kBlock, last - begin);
    for (std::size_t i = 0; i < n; ++i) {
      const uint32_t from = keys.offsets[begin + i], to = keys.offsets[begin + i + 1];
      hashes[i] = key_hash(std::string_view(keys.bytes + from, to - from));
    }
    table.owners(std::span<const uint64_t>(hashes, n), out.subspan(begin - first, n));
  }
}

void chained_owners(const OwnerTable& table, std::span<const uint64_t> keys, std::size_t first,
                    std::size_t last, std::span<uint32_t> out) {
  const uint64_t zero = g_chain_zero;
  uint32_t previous = 0;
  for (std::size_t i = first; i < last; ++i) {
    previous = table.owner(keys[i] ^ (previous & zero));
    out[i - first] = previous;
  }
}

}  // namespace chbench::bench
