// The SIMD rendezvous kernels' shared table (Highway): hrw/simd_nodes (node
// seeds in lanes, simd_nodes.cc) and hrw/simd_keys (keys in lanes,
// simd_keys.cc), both over the pre-mixed seeds RendezvousSimd holds (rendezvous_simd.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "chbench/fleet.h"
#include "chbench/memory.h"

namespace chbench::simd {

// Rendezvous / HRW (Thaler & Ravishankar 1998, section 3) over node seeds, with
// docs/spec.md §7's full 64-bit score fmix64(h ^ seed) and its tie rule (the lower node
// index wins). The first xor-shift of fmix64 distributes over the xor, so the
// table keeps seed ^ (seed >> 33) per node and each key is pre-mixed once; the
// scores themselves are unchanged.
class RendezvousSimd {
 public:
  // Shape: seeds[n] is node n's seed; equal seeds are allowed (equal scores).
  // Throws std::invalid_argument if seeds is empty or has 2^32 or more entries.
  explicit RendezvousSimd(std::span<const uint64_t> seeds);

  // Across nodes: one key at a time (four interleaved), node seeds in lanes;
  // each lane keeps its first maximum, then a max-reduction over the lanes
  // takes the lowest index among equal best scores. From 512 nodes on, a lane
  // compares the maximum of four vectors of scores with its best, remembers
  // the group, and the lanes holding the final maximum rescore their group to
  // find the node. Shapes: out.size() == key_hashes.size(); throws
  // std::invalid_argument if they differ.
  void owners_across_nodes(std::span<const uint64_t> key_hashes, std::span<uint32_t> out) const;

  // Across keys: vectors of key hashes in lanes (four interleaved), a loop over
  // the nodes keeping the best score and its index per lane (strictly greater
  // replaces, so the lower index keeps a tie). From 128 nodes on, the loop
  // takes four nodes at a time and compares their maximum with the best,
  // remembering the group; the winning group is rescored at the end (gathers)
  // to find the first node reaching the maximum. Shapes and throws as
  // owners_across_nodes.
  void owners_across_keys(std::span<const uint64_t> key_hashes, std::span<uint32_t> out) const;

  uint32_t size() const noexcept { return n_; }
  std::size_t memory_bytes() const noexcept { return padded_ * sizeof(uint64_t); }

 private:
  uint32_t n_;
  std::size_t padded_;          // n_ rounded up to 256: whole groups of 4 vectors
  TableArray<uint64_t> mixed_;  // seed ^ (seed >> 33); padding repeats node 0
};

// KernelInfo::table_bytes of the SIMD rendezvous kernels: the seeds, as the
// reference's estimate, and a table of them padded to whole groups of 256
// (RendezvousSimd), at least 2 KiB. Saturates.
uint64_t rendezvous_simd_bytes(const Fleet& fleet);

}  // namespace chbench::simd
