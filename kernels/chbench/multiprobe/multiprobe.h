// Multi-probe consistent hashing: Appleton and O'Reilly, "Multi-probe
// consistent hashing", arXiv:1505.00062, 2015. Each node places one token on
// the 64-bit circle; a key is hashed k times (its probes), each probe finds
// the first token clockwise, and the probe closest to its token wins. The
// paper's claim: a peak-to-average load of 1 + eps with 1 + 1/eps probes
// (k = 21 for eps = 0.05), where the ring needs many tokens per node.
//
// The exact definition (docs/schemes/multiprobe.md):
// - node n's token is docs/spec.md §6's ring token 0, XXH3_64bits("<name>#0"): the
//   circle is the ring's with V = 1 (equal tokens: the lower node index);
// - probe 0 of key hash h is h itself, probe j (1 <= j < k) is
//   fmix64(h + j * 0x9e3779b97f4a7c15) (the MurmurHash3 finalizer of docs/spec.md §7
//   at SplitMix64's odd increment): k - 1 distinct values, as fmix64 is a
//   bijection (double hashing, h + j * (fmix64(h) | 1), measured a worse
//   balance: docs/schemes/multiprobe.md);
// - a probe's distance is (t - p) mod 2^64 to its token t, the first >= p,
//   or the circle's first token when none is (the ring closes);
// - the owner is the node of the token of the probe with the smallest
//   distance; equal distances: the earlier probe.
// With k = 1 the scheme is the ring with V = 1 exactly.
//
// The kernels (scalar.cc, simd.cc) share MultiprobeIndex below: the sorted
// tokens with a bucket index on their top bits.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/hash.h"
#include "chbench/kernel_glue.h"
#include "chbench/memory.h"
#include "chbench/nodes.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"

namespace chbench {

// Probes per key a fleet may ask for (NodeSet::probes): 1 ... this many.
inline constexpr uint32_t kMultiprobeMaxProbes = 4096;

// The increment between the inputs of a key's hashed probes (SplitMix64's,
// odd: h + j * kMultiprobeGamma differ for every j < 2^64).
inline constexpr uint64_t kMultiprobeGamma = 0x9e3779b97f4a7c15ULL;

// Probe j of key hash h: h for j = 0, fmix64(h + j * kMultiprobeGamma) after.
constexpr uint64_t multiprobe_probe(uint64_t h, uint32_t j) noexcept {
  return j == 0 ? h : fmix64(h + uint64_t{j} * kMultiprobeGamma);
}

// The N entries of the circle: node n's token XXH3_64bits("<name>#0"),
// sorted by (token, node). Throws std::invalid_argument on an invalid node
// list (validate()).
std::vector<RingEntry<uint64_t>> multiprobe_entries(const NodeSet& nodes);

// Throws std::invalid_argument with a one-line message unless the fleet's
// node list is valid and its probes k are 1 ... kMultiprobeMaxProbes.
void multiprobe_check_probes(const Fleet& fleet);

// The fine bits of a bucket's 16-bit token offsets (MultiprobeIndex::fields):
// a unit is 2^-11 of a bucket, and an offset reaches 2^5 = 32 buckets on.
inline constexpr unsigned kFieldFineBits = 11;

// The largest pairs table (MultiprobeIndex::pairs) built: 512 KiB, half the
// L2 of the Zen 4 and Zen 5 (N up to 16,383). Past it the pairs miss the L2
// and the scalar kernel was faster through start and scan: at k = 21 on the
// Zen 5 of this project, pairs 78-80 ns/key against 117-137 at N = 1,000 and
// 204-284 against 147-198 at N = 10^5 (docs/schemes/multiprobe.md).
inline constexpr std::size_t kPairedMaxBytes = std::size_t{512} << 10;

// The sorted tokens of a circle and a bucket index on their top b bits
// (2^b buckets, two to four a token: tokens are uniform hashes). Bucket i
// covers [i << shift, (i + 1) << shift) and starts at start[i], the first
// token >= i << shift. Three views of the buckets serve the kernels:
// - scan: the tokens in order, then the sentinel UINT64_MAX (never below a
//   probe), so a scan from a bucket's start checks no bound; position n
//   stands for the circle's first token;
// - pairs (built while they fit kPairedMaxBytes): each bucket's first two
//   tokens from its start, so a probe resolves with one load and no scan
//   unless it is above two tokens of its own bucket (about 1 in 30);
// - fields: the offsets of the next four tokens clockwise from the bucket's
//   low end, in units of 2^unit_shift, 16 bits each (saturated at 0xffff: a
//   token 32 buckets or more on), in one word: the SIMD kernel gathers one
//   word a probe and compares approximate distances (multiprobe/simd.cc).
struct MultiprobeIndex {
  // Builds over `ring` (non-empty; from_entries of multiprobe_entries) for k
  // probes per key. Throws std::invalid_argument for an empty ring,
  // std::bad_alloc when it does not fit in memory.
  MultiprobeIndex(const SortedRing<uint64_t>& ring, uint32_t probes);

  // The owner of key hash h, as the reference gives it: through the pairs
  // when they are built (owner_paired: a probe above both scans on from the
  // bucket's third token), else through start and scan (owner_scanned).
  uint32_t owner(uint64_t h) const noexcept { return paired ? owner_paired(h) : owner_scanned(h); }
  uint32_t owner_paired(uint64_t h) const noexcept;  // requires paired
  uint32_t owner_scanned(uint64_t h) const noexcept;
  // The first position from pos whose token is >= p (the sentinel stops it
  // at n), and p's distance to the token there (n: the circle's first).
  std::size_t scan_on(std::size_t pos, uint64_t p) const noexcept {
    while (scan[pos] < p) ++pos;
    return pos;
  }
  uint64_t distance_at(std::size_t pos, uint64_t p) const noexcept {
    return (pos < n ? scan[pos] : first) - p;
  }
  // The position (0 ... n - 1) of a probe's token from its code (the probe
  // >> unit_shift: bucket, then the probe's fine offset op in the low
  // kFieldFineBits): the first of its bucket's four fields not below op.
  // Valid only when no field equals op and one is above it (the SIMD
  // kernel's sure case).
  std::size_t field_position(uint64_t code) const noexcept {
    const uint64_t word = fields[code >> kFieldFineBits];
    const uint64_t op = code & ((uint64_t{1} << kFieldFineBits) - 1);
    std::size_t slot = 0;
    for (unsigned s = 0; s < 64; s += 16) slot += ((word >> s) & 0xffff) < op;
    const std::size_t pos = static_cast<std::size_t>(start[code >> kFieldFineBits]) + slot;
    return pos < n ? pos : pos - n;
  }
  std::size_t memory_bytes() const noexcept {
    return (buckets + 1) * sizeof(int64_t) + (paired ? 3 : 1) * buckets * sizeof(uint64_t) +
           (n + 1) * (sizeof(uint64_t) + sizeof(uint32_t));
  }

  std::size_t n;                // tokens
  uint32_t probes;              // k
  unsigned shift;               // 64 - b
  std::size_t buckets;          // 2^b
  uint64_t first;               // the circle's first token (position n)
  TableArray<int64_t> start;    // buckets + 1 positions, start[buckets] == n
  TableArray<uint64_t> scan;    // n tokens ascending, then the sentinel UINT64_MAX
  TableArray<uint32_t> owners;  // n + 1 owners, owners[n] == owners[0]
  bool paired;                  // pairs built: 16 B x buckets <= kPairedMaxBytes
  TableArray<uint64_t> pairs;   // 2 x buckets: scan[start[i]], scan[min(start[i] + 1, n)]
  uint64_t wrap_fix;            // added to a distance to the sentinel: first + 1 (UINT64_MAX - p
                                // + first + 1 = first - p), 0 if the last token is UINT64_MAX
  unsigned unit_shift;          // shift - kFieldFineBits: a field's unit is 2^unit_shift
  TableArray<uint64_t> fields;  // buckets words: field s (bits 16s ...) the offset of token s on
};

// A kernel's batch over the index: out[i] = the owner of h[i]. Shapes:
// out.size() == h.size(); throws std::invalid_argument if they differ.
using MultiprobeBatch = void (*)(const MultiprobeIndex& index, std::span<const uint64_t> h,
                                 std::span<uint32_t> out);

namespace simd {
// multiprobe/simd's batch on the dispatched Highway target (simd.cc).
void multiprobe_owners(const MultiprobeIndex& index, std::span<const uint64_t> h,
                       std::span<uint32_t> out);
}  // namespace simd

// The OwnerTable of a multi-probe kernel: the index over the fleet's circle,
// batches by `Batch`, single keys by MultiprobeIndex::owner.
template <MultiprobeBatch Batch>
class MultiprobeTable final : public OwnerTable {
 public:
  explicit MultiprobeTable(const NodeSet& nodes)
      : index_(SortedRing<uint64_t>::from_entries(multiprobe_entries(nodes)), nodes.probes) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    Batch(index_, h, out);
  }
  uint32_t owner(uint64_t h) const override { return index_.owner(h); }
  std::size_t memory_bytes() const noexcept override { return index_.memory_bytes(); }

 private:
  MultiprobeIndex index_;
};

// KernelInfo::make of multi-probe kernel K (no knob): the fleet checked
// (multiprobe_check_probes), then MultiprobeTable<Batch> over it.
template <const KernelInfo& K, MultiprobeBatch Batch>
std::unique_ptr<OwnerTable> multiprobe_make(const Fleet& f, unsigned knob) {
  glue::no_knob(K, knob);
  multiprobe_check_probes(f);
  return std::make_unique<MultiprobeTable<Batch>>(f.nodes());
}

// KernelInfo::table_bytes of the kernels over MultiprobeIndex: the entries,
// the SortedRing and the index alive at once while it is built. Saturates.
uint64_t multiprobe_index_bytes(const Fleet& fleet);

}  // namespace chbench
