// An independent model of AnchorHash (docs/schemes/anchor.md) for a fleet
// that never changed: N working buckets 0 ... N-1 in an anchor of a = 10 N
// by default, written from the definition, not from the library. Without
// removals after INITANCHOR, every removed bucket b >= N has A[b] = b and
// K[b] = b, so GETBUCKET's walk is: draw b in [0, a); while b >= N, draw b
// in [0, b).
#pragma once

#include <cstdint>

namespace chbench_test {

// The i-th SplitMix64 output from state h (i = 1, 2, ...), reduced to [0, n)
// by the 128-bit product's high word.
struct ModelDraws {
  uint64_t state;
  uint32_t next(uint32_t n) {
    state += 0x9e3779b97f4a7c15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<uint32_t>((static_cast<unsigned __int128>(z) * n) >> 64);
  }
};

inline uint32_t model_anchor(uint64_t h, uint32_t n, uint32_t capacity = 0) {
  ModelDraws draws{h};
  uint32_t b = draws.next(capacity != 0 ? capacity : 10 * n);
  while (b >= n) b = draws.next(b);
  return b;
}

}  // namespace chbench_test
