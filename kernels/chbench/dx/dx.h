// DxHash: Dong, Feng and Wang, "DxHash: A Scalable Consistent Hash Based on
// the Pseudo-Random Sequence", arXiv:2107.07930. A bit array of A buckets (the
// paper's NSArray) marks which are active; a key walks its own pseudo-random
// sequence of bucket numbers and belongs to the first active one. A removal
// clears the bucket's bit, a re-add sets it again: only the removed bucket's
// keys move, and they come back when it does. Expected probes per key: A
// over the active buckets.
//
// The exact definition (docs/schemes/dx.md): A = fleet_capacity (10 x the
// initial N by default); x_0 = fmix64(h), x_{i+1} = x_i * kDxLcgMultiplier +
// kDxLcgIncrement (mod 2^64); probe i is bucket ((x_i >> 32) * A) >> 32
// (Lemire's multiply-shift). Removed buckets are re-added last removed first.
// The public implementations' sequences and re-add rules are profiles
// (DxProfile) of the same tables and kernels, so that their vector files are
// reproduced row for row. The reference (reference.cc) walks the sequences
// with plain code; the kernels are dx/scalar and dx/simd.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/scheme.h"

namespace chbench {

// Most buckets a DxHash table holds: the SIMD kernel gathers with signed
// 32-bit bucket numbers.
inline constexpr uint32_t kDxMaxCapacity = 0x7fffffffu;

// The LCG of the scheme's own sequence (Knuth's MMIX constants, TAOCP vol. 2,
// 3.3.4): full period 2^64, so every bucket is reached and no cap is needed.
inline constexpr uint64_t kDxLcgMultiplier = 6364136223846793005ULL;
inline constexpr uint64_t kDxLcgIncrement = 1442695040888963407ULL;

// Whose sequence of buckets a key walks, and how a join picks its bucket.
enum class DxProfile : uint8_t {
  kChbench,  // the scheme's own (above); a join restores the last removed bucket
  // ChaosD/DxHash (acadb66fb953, src/DxHash.cpp, DxHash(N, W)): key = the low
  // 32 bits of h, key2 = key * 421757 + 1 (mod 2^32), bs = crc32q(key, key2)
  // then bs = crc32q(bs, key2), probe bs % A. A join takes the first inactive
  // bucket of key 1228's sequence (its updateAddition).
  kChaosD,
  // SUPSI's DxEngine (java-consistent-hashing-algorithms 68803f8):
  // java.util.Random(h).nextInt(A) again and again; a join restores the last
  // removed bucket.
  kSupsi,
};

// The buckets of a fleet (dx.cc): bit b % 32 of words[b / 32] is set iff
// bucket b is active (32-bit words, which the SIMD kernel gathers 16 at a
// time); owner[b] is the owner index (the position in fleet.nodes().names)
// of active bucket b. Only the buckets ever used can be active, so words
// covers limit + 1 bits, limit = the buckets ever used (at most A), and bit
// `limit` is clear: the kernels clamp a probe b to min(b, limit), which reads
// a clear bit for every bucket never used and for a draw a sequence rejects
// (bucket A). At N = 10^6 and A = 10^7 the bits read fit in L2, not L3.
// owner covers the buckets ever used.
struct DxState {
  uint32_t capacity = 0;  // A
  uint32_t active = 0;    // buckets set in words
  uint32_t limit = 0;     // buckets ever used; bit `limit` of words is clear
  std::vector<uint32_t> words;
  std::vector<uint32_t> owner;

  bool is_active(uint32_t b) const noexcept {
    return (b >> 5) < words.size() && ((words[b >> 5] >> (b & 31)) & 1);
  }
  std::size_t bytes() const noexcept { return (words.size() + owner.size()) * sizeof(uint32_t); }
};

// The capacity A of a fleet for DxHash: validate(nodes), then
// fleet_capacity(fleet, kDxMaxCapacity). Throws std::invalid_argument.
uint32_t dx_capacity(const Fleet& fleet);

// Throws std::invalid_argument (one line) unless the scheme can be built over
// `fleet`: dx_capacity, and no join beyond A buckets (a join restores a
// removed bucket or takes the next never used one). Builds no table.
void validate_dx(const Fleet& fleet);

// The buckets after the fleet's history: buckets 0 ... N0-1 active for the
// initial names, then each leave clears its node's bucket and each join sets
// the bucket `profile` picks (the last removed, or a new one, or for kChaosD
// the first inactive bucket of key 1228's sequence) and gives it the joining
// name. Throws std::invalid_argument as validate_dx, and for kChaosD when key
// 1228 finds no inactive bucket in 4A probes (where the original fails).
DxState dx_state(const Fleet& fleet, DxProfile profile = DxProfile::kChbench);

// Peak bytes of dx_state (the tables, and the name map of a fleet with
// history while it is replayed), an upper estimate. Saturates.
uint64_t dx_state_bytes(const Fleet& fleet);

// The bucket of key hash h under `profile` and the probes it took (buckets
// read, the active one included): the kernels' sequences (sequence.h), and
// the reference's plain ones (reference.cc). Precondition: state.active >= 1.
uint32_t dx_bucket(const DxState& state, DxProfile profile, uint64_t h, uint32_t* probes);
uint32_t dx_reference_bucket(const DxState& state, DxProfile profile, uint64_t h, uint32_t* probes);

// Tables over a fleet under any profile (the registry's reference and kernels
// are kChbench): owner = state.owner[bucket]. Throw as dx_state.
std::unique_ptr<OwnerTable> make_dx_reference(const Fleet& fleet, DxProfile profile);
std::unique_ptr<OwnerTable> make_dx_scalar(const Fleet& fleet, DxProfile profile);
std::unique_ptr<OwnerTable> make_dx_simd(const Fleet& fleet, DxProfile profile);

namespace simd {

// The owners of a batch of key hashes, the keys in lanes (simd.cc): each lane
// walks one key's sequence; the keys not done after their first probes wait
// on a list whose rounds keep the lanes busy whatever each key's probe count. Shapes:
// out.size() == key_hashes.size(). Throws std::invalid_argument if the sizes
// differ. Precondition: state.active >= 1.
void dx_owners(const DxState& state, DxProfile profile, std::span<const uint64_t> key_hashes,
               std::span<uint32_t> out);

}  // namespace simd

}  // namespace chbench
