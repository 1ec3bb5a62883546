// AnchorHash: Mendelson, Vargaftik, Barabash, Lorenz, Keslassy and Orda,
// "AnchorHash: A Scalable Consistent Hash", IEEE/ACM Transactions on
// Networking 29(2), 2021 (arXiv:1812.09674), section IV and Algorithm 3. A
// fixed anchor of `a` buckets (the capacity) of which N work; a removed
// bucket b remembers A[b], the size of the working set just after it left,
// and K[b], the bucket that took its place. A key draws a bucket in [0, a);
// while that bucket is removed, it draws again in [0, A[b]) and follows K
// from there until it reaches a bucket that was still working when b left.
// Any bucket may leave; only its keys move, and a re-add (the last removed
// bucket first) brings exactly those keys back.
//
// The exact definition (hash, draws, ranges, how a fleet's history becomes
// removals and re-adds) is docs/schemes/anchor.md. The reference
// (reference.cc) is Algorithm 3 with its arrays A, W, L, K and the stack R;
// the kernels anchor/scalar and anchor/simd look keys up in the packed table
// of anchor.cc, built by the memory-saving variant of the authors' mem/
// README (A and K only), so the two derivations check each other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "chbench/fleet.h"
#include "chbench/memory.h"
#include "chbench/scheme.h"

namespace chbench {

// The most buckets an anchor holds (capacity a): 32-bit bucket numbers
// compared as signed 64-bit lanes, and a's table of 8-byte entries.
inline constexpr uint32_t kAnchorMaxCapacity = 0x7fffffffu;

// How a key hash is turned into bucket draws.
enum class AnchorHashing {
  // The scheme's own (docs/schemes/anchor.md): SplitMix64 draws from the key
  // hash, r_i = mix13(h + i * kAnchorGamma) for i = 1, 2, ..., each reduced
  // to [0, n) as floor(r_i * n / 2^64) (anchor_range).
  kSplitMix64,
  // The profile of anchorhash/cpp-anchorhash (3ef98f05cbfe), whose
  // AnchorHashQre and mem/AnchorHash agree: ComputeBucket(h, 0) with
  // bs = crc32c(h, 0), b = bs % a, then bs = crc32c(h - bs, 0 + bs) and
  // bs % A[b] on every removed bucket (anchor_crc32c: SSE4.2's crc32q).
  kCrc32c,
  // The profile of SUPSI's AnchorEngine (SUPSI-DTI-ISIN/
  // java-consistent-hashing-algorithms 68803f8, capacity 16 in its vectors):
  // the key hash is its k = XX32(utf8(key) ++ BE32(0xDEADBEEF)), the low 32
  // bits of h, computed by the caller from the String key; b = k % a, then
  // on every removed bucket b, k = anchor_xx32_chain(k, b) and k % A[b].
  kSupsiXx32,
};

// ---- the scheme's own draws ----------------------------------------------------

// SplitMix64's increment (Steele, Lea and Flood, OOPSLA 2014), the golden
// ratio 2^64 / phi, odd.
inline constexpr uint64_t kAnchorGamma = 0x9e3779b97f4a7c15ULL;

// SplitMix64's finaliser (Stafford's "mix13"), a bijection on uint64_t.
constexpr uint64_t anchor_mix(uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Lemire's multiply-shift range reduction on the whole 64-bit draw:
// floor(r * n / 2^64), in [0, n) for n >= 1 (0 for n = 0).
constexpr uint32_t anchor_range(uint64_t r, uint32_t n) noexcept {
  return static_cast<uint32_t>((static_cast<unsigned __int128>(r) * n) >> 64);
}

// ---- cpp-anchorhash's hash --------------------------------------------------------

// The crc32q instruction of SSE4.2 in portable C++: CRC-32C (Castagnoli,
// reflected polynomial 0x82F63B78) of the 8 little-endian bytes of `data`,
// the register started at `crc`, no inversion at either end. Slicing by 8
// over anchor_crc32c_table().
uint32_t anchor_crc32c(uint64_t data, uint32_t crc) noexcept;

// The slicing-by-8 tables: entry [k * 256 + x] is the CRC register after the
// byte x followed by k zero bytes, from a zero register (k = 0: the classic
// byte table). 2048 entries, widened to 64 bits for SIMD gathers.
const uint64_t* anchor_crc32c_table() noexcept;

// ---- SUPSI's hash ------------------------------------------------------------------

// SUPSI's HashFunction.hash(long k, int b, int 0xDEADBEEF): xxHash32 (seed 0)
// of the 16 bytes BE64(k) ++ BE32(b) ++ BE32(0xDEADBEEF). One stripe: the
// four accumulators take one word each (the bytes read little-endian), then
// the merge, the length and the avalanche of XXH32.
inline constexpr uint32_t kSupsiSeed = 0xDEADBEEFu;

constexpr uint32_t anchor_rotl32(uint32_t x, int r) noexcept { return (x << r) | (x >> (32 - r)); }
constexpr uint32_t anchor_bswap32(uint32_t x) noexcept {
  return (x << 24) | ((x & 0xff00u) << 8) | ((x >> 8) & 0xff00u) | (x >> 24);
}

constexpr uint32_t anchor_xx32_chain(uint64_t k, uint32_t b) noexcept {
  constexpr uint32_t p1 = 0x9E3779B1u, p2 = 0x85EBCA77u, p3 = 0xC2B2AE3Du;
  const uint32_t word[4] = {anchor_bswap32(static_cast<uint32_t>(k >> 32)),
                            anchor_bswap32(static_cast<uint32_t>(k)), anchor_bswap32(b),
                            anchor_bswap32(kSupsiSeed)};
  const uint32_t start[4] = {p1 + p2, p2, 0, 0u - p1};
  uint32_t acc[4];
  for (int i = 0; i < 4; ++i) acc[i] = anchor_rotl32(start[i] + word[i] * p2, 13) * p1;
  uint32_t h = anchor_rotl32(acc[0], 1) + anchor_rotl32(acc[1], 7) + anchor_rotl32(acc[2], 12) +
               anchor_rotl32(acc[3], 18) + 16;
  h = (h ^ (h >> 15)) * p2;
  h = (h ^ (h >> 13)) * p3;
  return h ^ (h >> 16);
}

// ---- the packed lookup table of the kernels -----------------------------------

// The anchor as the kernels hold it. Buckets `used` ... a - 1 have never
// worked (INITANCHOR removed them and no ADDBUCKET has reached them yet:
// additions take the initially unused buckets in increasing order), so they
// still have A[b] = K[b] = b and need no entry: a walk that draws such a
// bucket b draws again in [0, b) at once, which is what GETBUCKET does there
// (b < v, the view of the bucket it was drawn for, so b is resolved afresh;
// K never leads to it). Entries exist for b < used only: the low 32 bits are
// A[b] (0 while b works, otherwise the working-set size just after b left,
// always below `used`), the high 32 bits K[b] for a removed bucket and, for a
// working one, the owner index of its node (a working bucket's K[b] = b is
// never read by a lookup).
struct AnchorTable {
  uint32_t capacity = 0;  // a
  uint32_t used = 0;      // buckets that ever worked: N0 plus the unused ones added since
  TableArray<uint64_t> entries;
};

// Checks a fleet for AnchorHash: validate(nodes), the capacity
// (fleet_capacity: at least the initial node count, at most
// kAnchorMaxCapacity), and that no join finds every bucket in use. Throws
// std::invalid_argument with a one-line message. Does not allocate. Returns
// the number of buckets that ever worked (AnchorTable::used).
uint32_t check_anchor(const Fleet& fleet);

// The capacity a of a fleet as check_anchor takes it, saturated instead of
// checked (for the byte estimates).
uint64_t anchor_capacity_estimate(const Fleet& fleet) noexcept;

// Builds the kernels' table: INITANCHOR(a, N0), then the fleet's history in
// order (a leave removes its node's bucket, a join restores the last removed
// one, LIFO, the initially unused buckets N0, N0+1, ... last), each removal
// finding K[b] as the mem/ variant does (BUCKETATVIEW(N - 1, N)). Throws as
// check_anchor, std::bad_alloc.
AnchorTable anchor_table(const Fleet& fleet);

// Peak bytes of anchor_table: the entries, the removal stack, and a map of
// names to buckets when the fleet has a history.
uint64_t anchor_table_bytes(const Fleet& fleet) noexcept;

// The draws of a key (AnchorHashing): first() in [0, a), then next(n, b) in
// [0, n) for each removed bucket b the walk resolves (n = A[b]).
template <AnchorHashing H>
struct AnchorDraws {
  uint64_t key = 0;
  uint64_t state = 0;  // SplitMix64: the stream's state; CRC: the last bs; SUPSI: k

  AnchorDraws() = default;
  explicit AnchorDraws(uint64_t h) : key(h), state(h) {}
  uint32_t first(uint32_t a) {
    if constexpr (H == AnchorHashing::kCrc32c) {
      state = anchor_crc32c(key, 0);
    } else if constexpr (H == AnchorHashing::kSupsiXx32) {
      state = static_cast<uint32_t>(key);
    } else {
      return next(a, 0);
    }
    return static_cast<uint32_t>(state) % a;
  }
  uint32_t next(uint32_t n, uint32_t b) {
    if constexpr (H == AnchorHashing::kCrc32c) {
      const auto bs = static_cast<uint32_t>(state);
      state = anchor_crc32c(key - bs, bs);
    } else if constexpr (H == AnchorHashing::kSupsiXx32) {
      state = anchor_xx32_chain(state, b);
    } else {
      state += kAnchorGamma;
      return anchor_range(anchor_mix(state), n);
    }
    return static_cast<uint32_t>(state) % n;
  }
};

// A walk of the flat form of GETBUCKET over the packed table: c is the
// bucket reached, v is A[b] of the removed bucket b being resolved
// (UINT32_MAX before the first draw).
template <AnchorHashing H>
struct AnchorWalk {
  AnchorDraws<H> draws;
  uint32_t c = 0, v = UINT32_MAX;
};

// The start of a walk: the first draw and the draws among the never-used
// buckets, which read no memory; c is then a bucket with an entry.
template <AnchorHashing H>
inline AnchorWalk<H> anchor_start(const AnchorTable& t, uint64_t h) noexcept {
  AnchorWalk<H> w{AnchorDraws<H>(h), 0, UINT32_MAX};
  w.c = w.draws.first(t.capacity);
  while (w.c >= t.used) {
    w.v = w.c;
    w.c = w.draws.next(w.c, w.c);
  }
  return w;
}

// The rest of the walk, one entry per step: A = 0 ends it (the owner is in
// the entry), A >= v follows K (b's view), and 0 < A < v starts resolving c
// with a fresh draw in [0, A).
template <AnchorHashing H>
inline uint32_t anchor_finish(const AnchorTable& t, AnchorWalk<H> w) noexcept {
  const uint64_t* entries = t.entries.get();
  for (;;) {
    const uint64_t e = entries[w.c];
    const auto a = static_cast<uint32_t>(e);
    if (a == 0) return static_cast<uint32_t>(e >> 32);
    if (a >= w.v) {
      w.c = static_cast<uint32_t>(e >> 32);
    } else {
      w.v = a;
      w.c = w.draws.next(w.v, w.c);
    }
  }
}

// One lookup: the owner index of key hash h.
template <AnchorHashing H>
inline uint32_t anchor_lookup(const AnchorTable& t, uint64_t h) noexcept {
  return anchor_finish(t, anchor_start<H>(t, h));
}

// The kernels over a fleet with the given hashing (the registry's kernels
// are kSplitMix64; kCrc32c and kSupsiXx32 are the profiles of cpp-anchorhash
// and SUPSI). Throws as anchor_table.
std::unique_ptr<OwnerTable> make_anchor_reference(const Fleet& fleet, AnchorHashing hashing);
std::unique_ptr<OwnerTable> make_anchor_scalar(const Fleet& fleet, AnchorHashing hashing);
std::unique_ptr<OwnerTable> make_anchor_simd(const Fleet& fleet, AnchorHashing hashing);

namespace simd {

// The lookups of anchor_lookup for a batch, keys in lanes (Highway): out[i]
// = anchor_lookup<hashing>(table, key_hashes[i]). Precondition: out.size()
// == key_hashes.size() (not checked).
void anchor_owners(const AnchorTable& table, AnchorHashing hashing,
                   std::span<const uint64_t> key_hashes, std::span<uint32_t> out);

}  // namespace simd

}  // namespace chbench
