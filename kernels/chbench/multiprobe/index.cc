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
// two), at least 1 bit (a shift of 64 is undefined) and at most 32 (reached at
// 2^30 tokens; past 2^31 tokens, fewer than two buckets a token). With a
// quarter to half a token a bucket, most probes find their token among the
// first two from their bucket's start (docs/schemes/multiprobe.md has the
// layouts measured).
unsigned bucket_bits(std::size_t n) {
  return static_cast<unsigned>(std::clamp<int>(std::bit_width(n) + 1, 1, 32));
}

// Bucket fields: the offsets from `low` of the four tokens clockwise from
// position pos (wrapping past the last, so + 2^64: t - low mod 2^64), in
// units of 2^unit, saturated at 0xffff; a slot past the circle's n tokens
// (n < 4) is 0xffff. Tokens from pos on are >= low and wrapped ones < low,
// so the offsets never decrease.
uint64_t field_word(const SortedRing<uint64_t>& ring, std::size_t pos, uint64_t low,
                    unsigned unit) {
  const std::size_t n = ring.tokens.size();
  uint64_t word = 0;
  for (std::size_t s = 0; s < 4; ++s) {
    uint64_t off = 0xffff;
    if (s < n) {
      const std::size_t q = pos + s;
      const uint64_t t = q < n ? ring.tokens[q] : ring.tokens[q - n];
      off = std::min<uint64_t>((t - low) >> unit, 0xffff);
    }
    word |= off << (16 * s);
  }
  return word;
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
      owners(allocate_table<uint32_t>(n + 1)),
      paired(2 * buckets * sizeof(uint64_t) <= kPairedMaxBytes),
      pairs(allocate_table<uint64_t>(paired ? 2 * buckets : 0)),
      wrap_fix(ring.tokens.back() == UINT64_MAX ? 0 : ring.tokens.front() + 1),
      unit_shift(shift - kFieldFineBits),
      fields(allocate_table<uint64_t>(buckets)) {
  std::copy(ring.tokens.begin(), ring.tokens.end(), scan.get());
  scan[n] = UINT64_MAX;
  std::copy(ring.owners.begin(), ring.owners.end(), owners.get());  // n + 1, the wrap included
  std::size_t pos = 0;
  for (std::size_t i = 0; i < buckets; ++i) {
    const uint64_t low = uint64_t{i} << shift;
    while (pos < n && ring.tokens[pos] < low) ++pos;
    start[i] = static_cast<int64_t>(pos);
    if (paired) {
      pairs[2 * i] = scan[pos];
      pairs[2 * i + 1] = scan[std::min(pos + 1, n)];
    }
    fields[i] = field_word(ring, pos, low, unit_shift);
  }
  start[buckets] = static_cast<int64_t>(n);
}

uint32_t MultiprobeIndex::owner_paired(uint64_t h) const noexcept {
  constexpr uint64_t kScanned = uint64_t{1} << 63;  // a code that holds a position
  uint64_t input = h, p = h, best = 0, best_code = 0;
  for (uint32_t j = 0; j < probes; ++j, input += kMultiprobeGamma, p = fmix64(input)) {
    const uint64_t b = p >> shift;
    const uint64_t t0 = pairs[2 * b], t1 = pairs[2 * b + 1];
    uint64_t distance, code;
    if (p > t1) [[unlikely]] {  // above two tokens of its bucket: scan on
      const std::size_t pos = scan_on(static_cast<std::size_t>(start[b]) + 2, p);
      distance = distance_at(pos, p);
      code = pos | kScanned;
    } else {
      const bool above = p > t0;
      const uint64_t t = above ? t1 : t0;
      distance = t - p + (t == UINT64_MAX ? wrap_fix : 0);  // the sentinel: the first token
      code = (b << 1) | above;
    }
    if (j == 0 || distance < best) {  // strictly less: the earlier probe keeps a tie
      best = distance;
      best_code = code;
    }
  }
  const std::size_t pos = (best_code & kScanned)
                              ? static_cast<std::size_t>(best_code & ~kScanned)
                              : static_cast<std::size_t>(start[best_code >> 1]) + (best_code & 1);
  return owners[pos];
}

uint32_t MultiprobeIndex::owner_scanned(uint64_t h) const noexcept {
  uint64_t input = h, p = h, best = 0;
  std::size_t best_pos = 0;
  for (uint32_t j = 0; j < probes; ++j, input += kMultiprobeGamma, p = fmix64(input)) {
    const std::size_t pos = scan_on(static_cast<std::size_t>(start[p >> shift]), p);
    const uint64_t distance = distance_at(pos, p);
    if (j == 0 || distance < best) {  // strictly less: the earlier probe keeps a tie
      best = distance;
      best_pos = pos;
    }
  }
  return owners[best_pos];
}

// The entries (16 B), the SortedRing (12 B) and the index (8 B of scan, 4 of
// owners and, at most four buckets a node, 32 B a bucket: start, pairs,
// fields) a node, and a page for the rest.
uint64_t multiprobe_index_bytes(const Fleet& f) {
  return glue::saturating_add(glue::saturating_mul(f.size(), 16 + 12 + 12 + 4 * 32), 4096);
}

}  // namespace chbench
