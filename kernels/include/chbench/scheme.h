// The one kernel interface shared by every scheme, and the registry of kernels
// that tests and benchmarks iterate over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/nodes.h"
#include "chbench/ring.h"

namespace chbench {

// The placement schemes of SPEC.md, and Maglev (docs/profiles.md).
enum class Scheme { kModN, kRing, kRendezvous, kJump, kMaglev };

// Short name used on command lines and in benchmark names: "modn", "ring",
// "hrw", "jump", "maglev".
std::string_view scheme_name(Scheme scheme) noexcept;

// Parses a short name (also accepts "rendezvous" for "hrw"). Throws
// std::invalid_argument naming the valid schemes for anything else.
Scheme parse_scheme(std::string_view name);

// Every scheme, in a fixed order.
std::span<const Scheme> all_schemes() noexcept;

// A placement table built once from a node list; answers batches of lookups.
// Implementations are immutable after construction, so `owners` may be called
// from many threads at once on disjoint output ranges.
class OwnerTable {
 public:
  virtual ~OwnerTable() = default;

  // For each key hash key_hashes[i], writes the owner's node index to out[i].
  // Shapes: out.size() == key_hashes.size() (checked by callers; a shorter
  // `out` is a precondition violation). Any batch size, including 0.
  virtual void owners(std::span<const uint64_t> key_hashes, std::span<uint32_t> out) const = 0;

  // Bytes of lookup structure held by the table (not counting the node names).
  virtual std::size_t memory_bytes() const noexcept = 0;

  // The owner of one key hash, as owners() on a batch of one answers: for
  // callers whose next key depends on this answer (the bench's latency
  // family). Kernels with a cheaper single-key path override it.
  virtual uint32_t owner(uint64_t key_hash) const {
    uint32_t out = 0;
    owners(std::span<const uint64_t>(&key_hash, 1), std::span<uint32_t>(&out, 1));
    return out;
  }
};

// One kernel of one scheme: a named way to build an OwnerTable.
struct KernelInfo {
  Scheme scheme;
  std::string_view name;     // unique within the scheme, e.g. "eytzinger"
  std::string_view summary;  // one line for --help and reports
  // Builds the table. Throws std::invalid_argument on an invalid node list
  // (see validate()) or a node count the scheme cannot represent (jump: more
  // than 2^31 - 1 buckets), std::length_error for a ring of more than 2^32 - 1
  // tokens, std::bad_alloc when the table does not fit in memory.
  std::unique_ptr<OwnerTable> (*build)(const NodeSet& nodes);

  // "scheme/name", e.g. "ring/eytzinger".
  std::string full_name() const;
};

// Every kernel of every scheme (references excluded), grouped by scheme.
std::span<const KernelInfo> all_kernels() noexcept;

// The kernels of one scheme.
std::vector<const KernelInfo*> kernels_of(Scheme scheme);

// Looks a kernel up by scheme and name. Throws std::invalid_argument listing
// the scheme's kernels when there is no such kernel.
const KernelInfo& find_kernel(Scheme scheme, std::string_view name);

// The scheme's reference: the plainest implementation of SPEC.md, which every
// kernel must match owner for owner. Throws like KernelInfo::build.
std::unique_ptr<OwnerTable> build_reference(Scheme scheme, const NodeSet& nodes);

// ---- rings not made from node names ---------------------------------------------

// Ring kernel `name` of the registry (scheme ring) built over a given ring
// rather than from a node list: for rings the bench and the tests make
// themselves, such as clustered tokens. `in_flight` sets the keys in flight of
// the kernels that have that knob (stree: the lockstep group, 1 to 256;
// bucketed: the prefetch distance, 0 to 1024); 0 or absent keeps the kernel's
// default, and the other kernels ignore it. Throws std::invalid_argument for
// an unknown kernel name or an in_flight the kernel refuses.
std::unique_ptr<OwnerTable> build_ring_kernel(std::string_view name,
                                              const SortedRing<uint64_t>& ring,
                                              unsigned in_flight = 0);

// SPEC.md's ring reference over given entries (sorted by (token, node),
// non-empty; throws std::invalid_argument otherwise).
std::unique_ptr<OwnerTable> build_ring_reference(std::vector<RingEntry<uint64_t>> entries);

// An adversarial ring: SPEC.md's tokens squeezed into a window of 2^window_bits
// values starting at kClusterBase (token -> kClusterBase + (token >> (64 -
// window_bits))), sorted by (token, node). With a narrow window every token
// falls in one bucket of a bucket index, and into_cluster() maps key hashes
// into the same window. window_bits: 1 to 63, else std::invalid_argument;
// other throws as ring_entries.
inline constexpr uint64_t kClusterBase = 0x5a5a'0000'0000'0000;
std::vector<RingEntry<uint64_t>> clustered_ring_entries(const NodeSet& nodes, unsigned window_bits);
inline uint64_t into_cluster(uint64_t key_hash, unsigned window_bits) noexcept {
  return kClusterBase + (key_hash >> (64 - window_bits));
}

}  // namespace chbench
