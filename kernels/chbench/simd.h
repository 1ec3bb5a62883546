// SIMD kernels written with Google Highway (1.0.3) and its run-time dispatch:
// every function below is compiled for each target Highway generates (on x86:
// AVX3, AVX2, SSE4, SSSE3 and the one-lane SCALAR fallback, or from the level
// of an x86-64-vN build up; on aarch64: NEON, SVE, SVE2, SVE_256, SVE2_128;
// SVE blocks are one vector, see simd_ops-inl.h), and each call runs
// the best one the CPU supports, as hwy::SetSupportedTargetsForTest may narrow
// it. Every kernel returns exactly the owners of its scheme's reference
// (../shared/SPEC.md) on every target: scores, LCG steps and divisions are the
// scalar ones, lane by lane, not cheaper look-alikes.
//
// Batches: any length, including 0 and lengths that are not a multiple of the
// lane count. The last partial vector goes through padded copies on the stack,
// so no kernel reads a key or writes an owner outside the spans it is given.
// This header shows no vector types; the per-target code lives in
// src/simd_*.cc (one file per scheme).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "chbench/memory.h"
#include "chbench/nodes.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"

namespace chbench::simd {

// ---- targets ---------------------------------------------------------------

// The Highway target (an HWY_* bit, e.g. HWY_AVX2) that the kernels of this
// library dispatch to right now: the best target both compiled and supported,
// after any hwy::SetSupportedTargetsForTest narrowing; on a CPU with 128- or
// 256-bit SVE2 vectors that is SVE2_128 or SVE_256. (A direct call of
// hwy::SupportedTargets() makes Highway 1.0.3 dispatch to SVE2 there until the
// next change of forcing; runnable_targets() leaves dispatch as it should be.)
// Never throws.
int64_t dispatched_target() noexcept;

// Its name as hwy::TargetName spells it ("AVX3", "AVX2", "SSE4", "SSSE3",
// "SCALAR", ...).
std::string dispatched_target_name();

// Targets the library was compiled for (HWY_TARGETS), best first.
std::vector<int64_t> compiled_targets();

// The compiled targets this CPU can run, best first: those a caller may force
// with ForcedTarget. Ignores any forcing in effect. Never empty.
std::vector<int64_t> runnable_targets();

// hwy::TargetName of one target bit.
std::string target_name(int64_t target);

// Comma-separated names of the targets set in a bit field, best first.
std::string target_names(int64_t targets);

// Comma-separated names of a list of targets (e.g. runnable_targets()), in
// its order.
std::string target_names(const std::vector<int64_t>& targets);

// Makes every kernel dispatch to `target` (one HWY_* bit from
// runnable_targets()) until destroyed, then restores normal dispatch. It sets
// process-global state (hwy::SetSupportedTargetsForTest): create and destroy it
// on one thread, outside any TBB parallel region, and never nest two. target ==
// 0 leaves dispatch alone. Throws std::invalid_argument if `target` is not a
// single runnable target.
class ForcedTarget {
 public:
  explicit ForcedTarget(int64_t target);
  ~ForcedTarget();
  ForcedTarget(const ForcedTarget&) = delete;
  ForcedTarget& operator=(const ForcedTarget&) = delete;

 private:
  bool active_;
};


// ---- mod-N -------------------------------------------------------------------

// out[i] = key_hashes[i] % n, exactly, for every uint64_t hash and 1 <= n < 2^32,
// without a division instruction: the divisor is normalised (shifted until its
// top bit is set) and the 96-bit shifted dividend is reduced by two 2-by-1
// word divisions with a precomputed reciprocal (Moller & Granlund, "Improved
// Division by Invariant Integers", IEEE Trans. Computers 60(2), 2011,
// algorithm 4, with 32-bit words in 64-bit lanes). Shapes: out.size() ==
// key_hashes.size(). Throws std::invalid_argument if n == 0 or the sizes
// differ.
void mod_n_owners(std::span<const uint64_t> key_hashes, uint32_t n, std::span<uint32_t> out);

// ---- jump --------------------------------------------------------------------

// Jump consistent hash (Lamping & Veach, arXiv:1406.2294, figure 1) for a batch
// of keys, the keys in lanes: each lane runs the paper's 64-bit LCG and its
// double-precision jump length, IEEE operation for operation (no fused
// multiply-add), and stops on its own, so out[i] == jump_hash(key_hashes[i],
// num_buckets) bit for bit. Shapes: out.size() == key_hashes.size(). Throws
// std::invalid_argument if num_buckets is 0 or above kJumpMaxBuckets, or the
// sizes differ.
void jump_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                 std::span<uint32_t> out);

// ---- rendezvous ----------------------------------------------------------------

// Rendezvous / HRW (Thaler & Ravishankar 1998, section 3) over node seeds, with
// SPEC.md's full 64-bit score fmix64(h ^ seed) and its tie rule (the lower node
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

// ---- ring ----------------------------------------------------------------------

// Branchless binary search (Khuong & Morin, ACM JEA 22, 2017, section 2.1)
// with a vector of keys in lanes: every lane takes the same halvings, each a
// gather from the sorted tokens and a masked add, then one more gather decides
// the position. Tokens are stored with their top bit flipped so that targets
// without an unsigned 64-bit compare use the signed one.
class RingSimdBranchless {
 public:
  // Throws std::invalid_argument if the ring has no token (SortedRing never
  // does).
  explicit RingSimdBranchless(const SortedRing<uint64_t>& ring);

  // Owner of each key hash (SPEC.md's ring rule). Shapes: out.size() ==
  // key_hashes.size(); throws std::invalid_argument if they differ.
  void owners(std::span<const uint64_t> key_hashes, std::span<uint32_t> out) const;
  std::size_t memory_bytes() const noexcept {
    return n_ * sizeof(uint64_t) + (n_ + 1) * sizeof(uint32_t);
  }

 private:
  std::size_t n_;
  TableArray<int64_t> biased_;   // tokens ^ 2^63, ascending as signed values
  TableArray<uint32_t> owners_;  // n_ + 1 entries, the last repeats the first
};

// Eytzinger (BFS) layout (Khuong & Morin 2017, section 3.1) searched with a
// vector of keys in lanes: every lane descends the complete levels with one
// gather each, then takes the last, partial level where its path is still in
// the tree (elsewhere the gather is clamped to the last slot and its result
// ignored); the position is recovered from the path as in RingEytzinger.
// AVX-512 targets gather four lanes at a time here: on this AMD CPU their
// 512-bit gathers made the descent slower than AVX2's 256-bit ones.
class RingSimdEytzinger {
 public:
  // Throws std::invalid_argument if the ring has no token.
  explicit RingSimdEytzinger(const SortedRing<uint64_t>& ring);

  // Shapes and throws as RingSimdBranchless::owners.
  void owners(std::span<const uint64_t> key_hashes, std::span<uint32_t> out) const;
  std::size_t memory_bytes() const noexcept {
    return (n_ + 1) * (sizeof(uint64_t) + sizeof(uint32_t));
  }

 private:
  std::size_t n_;
  unsigned levels_;              // complete levels: floor(log2(n_ + 1))
  TableArray<int64_t> biased_;   // BFS order in slots 1 ... n_, slot 0 unused
  TableArray<uint32_t> owners_;  // BFS order, slot 0 holds the wrap owner
};

// ---- registry builders -------------------------------------------------------------

// OwnerTable builders for the registry (scheme.h): "modn/simd", "jump/simd",
// "hrw/simd_nodes", "hrw/simd_keys", "ring/simd_branchless",
// "ring/simd_eytzinger". Each throws like KernelInfo::build: std::invalid_argument
// on an invalid node list (validate()), and for jump on more than
// kJumpMaxBuckets nodes; the ring builders std::length_error on more than 2^32 - 1
// tokens.
std::unique_ptr<OwnerTable> build_modn_simd(const NodeSet& nodes);
std::unique_ptr<OwnerTable> build_jump_simd(const NodeSet& nodes);
std::unique_ptr<OwnerTable> build_hrw_simd_nodes(const NodeSet& nodes);
std::unique_ptr<OwnerTable> build_hrw_simd_keys(const NodeSet& nodes);
std::unique_ptr<OwnerTable> build_ring_simd_branchless(const NodeSet& nodes);
std::unique_ptr<OwnerTable> build_ring_simd_eytzinger(const NodeSet& nodes);
// The same two ring kernels over a given ring (see build_ring_kernel).
std::unique_ptr<OwnerTable> build_ring_simd_branchless(const SortedRing<uint64_t>& ring);
std::unique_ptr<OwnerTable> build_ring_simd_eytzinger(const SortedRing<uint64_t>& ring);

}  // namespace chbench::simd
