// Multi-probe consistent hashing: Appleton and O'Reilly, "Multi-probe
// consistent hashing", arXiv:1505.00062, 2015. Each node places one token on
// the 64-bit circle; a key is hashed k times (its probes), each probe finds
// the first token clockwise, and the probe closest to its token wins. The
// paper's claim: a peak-to-average load of 1 + eps with 1 + 1/eps probes
// (k = 21 for eps = 0.05), where the ring needs many tokens per node.
//
// The exact definition (docs/schemes/multiprobe.md):
// - node n's token is SPEC.md's ring token 0, XXH3_64bits("<name>#0"): the
//   circle is the ring's with V = 1 (equal tokens: the lower node index);
// - probe 0 of key hash h is h itself, probe j (1 <= j < k) is
//   fmix64(h + j * 0x9e3779b97f4a7c15) (the MurmurHash3 finalizer of SPEC.md
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

// The sorted tokens of a circle, searched through a bucket index on their
// top b bits (2^b buckets, two to four a token: tokens are uniform hashes,
// so a probe rarely scans past its bucket's start): bucket i starts at the
// first token >= i << (64 - b), and a probe scans forward from its bucket's
// start to the first token >= it. The scan stops at a sentinel above the
// last token (UINT64_MAX, never below a probe), so no bound is checked;
// position n (past the last token) stands for the circle's first token.
struct MultiprobeIndex {
  // Builds over `ring` (non-empty; from_entries of multiprobe_entries) for k
  // probes per key. Throws std::invalid_argument for an empty ring,
  // std::bad_alloc when it does not fit in memory.
  MultiprobeIndex(const SortedRing<uint64_t>& ring, uint32_t probes);

  uint32_t owner(uint64_t h) const noexcept;
  std::size_t memory_bytes() const noexcept {
    return (buckets + 1) * sizeof(int64_t) + (n + 1) * (sizeof(uint64_t) + sizeof(uint32_t));
  }

  std::size_t n;                // tokens
  uint32_t probes;              // k
  unsigned shift;               // 64 - b
  std::size_t buckets;          // 2^b
  uint64_t first;               // the circle's first token (position n)
  TableArray<int64_t> start;    // buckets + 1 positions, start[buckets] == n
  TableArray<uint64_t> scan;    // n tokens ascending, then the sentinel UINT64_MAX
  TableArray<uint32_t> owners;  // n + 1 owners, owners[n] == owners[0]
};

// A kernel's batch over the index: out[i] = the owner of h[i]. Shapes:
// out.size() == h.size(); throws std::invalid_argument if they differ.
using MultiprobeBatch = void (*)(const MultiprobeIndex& index, std::span<const uint64_t> h,
                                 std::span<uint32_t> out);

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
