// MultiprobeIndex (multiprobe.h): the bucket index over the circle's tokens
// that the multi-probe kernels search, and its scalar lookup.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "chbench/kernel_glue.h"
#include "chbench/multiprobe/multiprobe.h"
#include "chbench/ring/table.h"

namespace chbench {

namespace {

// b: two to four buckets a token (2^b = 4 x N rounded down to a power of
// two), at least 1 bit (a shift of 64 is undefined) and at most 32. With a
// quarter to half a token a bucket, most probes find their token at the
// bucket's start and few scan on: at k = 21 on the Zen 5 of this project
// this made the scalar kernel 2.2x and the SIMD kernel 1.3x faster at
// N = 1,000 than one to two tokens a bucket (scalar 240 -> 109 ns/key,
// SIMD 48.6 -> 37.2), for 16 to 32 B a node instead of 4 to 8.
unsigned bucket_bits(std::size_t n) {
  return static_cast<unsigned>(std::clamp<int>(std::bit_width(n) + 1, 1, 32));
}

}  // namespace

MultiprobeIndex::MultiprobeIndex(const SortedRing<uint64_t>& ring, uint32_t k)
    : n(glue::checked_size(ring)),
      probes(k),
      shift(64 - bucket_bits(n)),
      buckets(std::size_t{1} << bucket_bits(n)),
      first(ring.tokens.front()),
      start(allocate_table<int64_t>(buckets + 1)),
      scan(allocate_table<uint64_t>(n + 1)),
      owners(allocate_table<uint32_t>(n + 1)) {
  std::copy(ring.tokens.begin(), ring.tokens.end(), scan.get());
  scan[n] = UINT64_MAX;
  std::copy(ring.owners.begin(), ring.owners.end(), owners.get());  // n + 1, the wrap included
  std::size_t pos = 0;
  for (std::size_t i = 0; i < buckets; ++i) {
    const uint64_t low = uint64_t{i} << shift;
    while (pos < n && ring.tokens[pos] < low) ++pos;
    start[i] = static_cast<int64_t>(pos);
  }
  start[buckets] = static_cast<int64_t>(n);
}

uint32_t MultiprobeIndex::owner(uint64_t h) const noexcept {
  uint64_t input = h, p = h, best = 0;
  std::size_t best_pos = 0;
  for (uint32_t j = 0; j < probes; ++j, input += kMultiprobeGamma, p = fmix64(input)) {
    auto pos = static_cast<std::size_t>(start[p >> shift]);
    while (scan[pos] < p) ++pos;  // the sentinel stops it at n
    const uint64_t distance = (pos < n ? scan[pos] : first) - p;
    if (j == 0 || distance < best) {  // strictly less: the earlier probe keeps a tie
      best = distance;
      best_pos = pos;
    }
  }
  return owners[best_pos];
}

// The entries (16 B), the SortedRing (12 B) and the index (8 B of scan, 4 of
// owners and at most 32 of bucket starts) a node, and a page for the rest.
uint64_t multiprobe_index_bytes(const Fleet& f) {
  return glue::saturating_add(glue::saturating_mul(f.size(), 16 + 12 + 44), 4096);
}

}  // namespace chbench
