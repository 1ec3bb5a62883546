// The one kernel interface shared by every scheme, and the registry: what each
// scheme and each kernel is (SchemeInfo, KernelInfo), so that the bench, the
// lab, the tests, the fuzzer and the plot scripts ask the registry instead of
// comparing name strings. The bench writes the registry into its JSON
// context, where the plot scripts read it. The registry's lists are
// kernels.def (one line per scheme, naming its kernels); each scheme's folder,
// chbench/<scheme>/, holds its reference and one file per kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/nodes.h"
#include "chbench/params.h"

namespace chbench {

// The placement schemes of docs/spec.md (§5 to §8), and Maglev (docs/profiles/maglev.md): one
// enumerator k<Enumerator> per CHBENCH_SCHEME(scheme, Enumerator, ...) line of
// kernels.def, in its order (scheme_info() indexes the registry by it).
enum class Scheme {
#define CHBENCH_SCHEME(scheme, enumerator, ...) k##enumerator,
#include "chbench/kernels.def"
};

template <class Token>
struct RingEntry;  // chbench/ring/ring.h: a token and its node
template <class Token>
struct SortedRing;  // chbench/ring/ring.h: the ring's sorted tokens

// A placement table built once from a fleet; answers batches of lookups.
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

// R distinct owners per key in preference order (Dynamo's preference list):
// a placement table built once from a fleet for one replica count R.
// Immutable after construction, as OwnerTable: replicas() may be called from
// many threads on disjoint output ranges.
class ReplicaTable {
 public:
  virtual ~ReplicaTable() = default;

  // For each key hash key_hashes[i], writes its R owners' node indices to
  // out[i * R] ... out[i * R + R - 1], the most preferred first, all
  // distinct; out[i * R] is the scheme's owner. Shapes: out.size() ==
  // key_hashes.size() * replica_count(); throws std::invalid_argument
  // otherwise. Any batch size, including 0.
  virtual void replicas(std::span<const uint64_t> key_hashes, std::span<uint32_t> out) const = 0;

  // R, 1 ... the fleet's node count.
  virtual uint32_t replica_count() const noexcept = 0;

  // Bytes of lookup structure held by the table (not counting the node names).
  virtual std::size_t memory_bytes() const noexcept = 0;
};

// ---- schemes -------------------------------------------------------------------------

// The parameters a scheme reads (Param, kParams) are chbench/params.h's table.

// Which nodes may leave a fleet while the scheme keeps every other key where
// it was.
enum class Removal {
  kAnyNode,   // any node (ring, rendezvous; Maglev moves few keys between survivors)
  kLastOnly,  // only the last node of the list (jump: buckets are 0..N-1)
  kNone,      // no node without moving keys between survivors (mod-N)
};

// The expected shares of the keys that a growth from n to n + 1 nodes of
// equal weight moves: in all, and between nodes that were there before (key
// hashes taken as uniform).
struct GrowthShares {
  double moved = 0;
  double between_old = 0;
};

// Minimal disruption: only the newcomer's keys move, 1 / (n + 1) of them on
// average, none between the old nodes (the monotonicity of Karger et al.,
// STOC 1997, section 4): the ring, rendezvous, jump hash and its successors.
inline GrowthShares minimal_growth(uint64_t n) noexcept {
  return {1.0 / (static_cast<double>(n) + 1), 0.0};
}

// What a scheme is. One entry per scheme in the registry.
struct SchemeInfo {
  Scheme id;
  std::string_view name;                      // on command lines and in benchmark names: "hrw"
  std::span<const std::string_view> aliases;  // other accepted names: "rendezvous"
  std::string_view title;                     // for plots and reports: "rendezvous (HRW)"
  std::string_view source;        // the algorithm's source: paper and section, or the document
  unsigned params;                // Param bits the scheme reads from a fleet
  Removal removal;                // which nodes may leave
  std::string_view removal_note;  // one line for the lab: what a leave means here
  uint64_t max_nodes;             // most nodes the scheme can represent

  // The scheme's reference: the plainest implementation of docs/spec.md §5 to §8 (or of the
  // scheme's own document), which every kernel must match owner for owner.
  // Throws std::invalid_argument on an invalid fleet (see check()).
  std::unique_ptr<OwnerTable> (*reference)(const Fleet& fleet);

  // Throws std::invalid_argument with a one-line message when the scheme
  // cannot be built over `fleet` (validate(), more than max_nodes, Maglev's M
  // not a prime above... ), std::length_error when a structure would exceed
  // what the scheme indexes (a ring of more than 2^32 - 1 tokens). Does not
  // allocate.
  void (*check)(const Fleet& fleet);

  // Peak bytes that building and holding the reference takes, an upper
  // estimate computed without building it. Saturates instead of overflowing.
  uint64_t (*reference_bytes)(const Fleet& fleet);

  // True for a scheme that places keys on buckets 0 ... N-1 by the bucket
  // count alone (mod-N, jump hash and its successors): it builds from
  // Fleet::of_buckets(N), which holds no names, so the bench and the lab take
  // it to max_nodes without a byte per node.
  bool buckets_only = false;

  // True for a scheme whose placement depends on the fleet's history, which
  // nodes left and in what order (AnchorHash, DxHash, MementoHash): a fleet
  // that got to its nodes by other changes may place keys differently. The
  // others place keys from the current node list alone.
  bool reads_history = false;

  // True for a scheme whose lookup scores every node (rendezvous and weighted
  // rendezvous: O(N) per key, in the kernels and the reference). The bench's
  // families give it fewer nodes or keys, and the tests cap its keys.
  bool scores_every_node = false;

  // The scheme's replica reference (ReplicaTable): R distinct owners per
  // key in the preference order its source defines, or nullptr where the
  // source defines none (replicas_note says why). Throws
  // std::invalid_argument as `reference`, and for R = 0 or R above the node
  // count.
  std::unique_ptr<ReplicaTable> (*replicas_reference)(const Fleet& fleet, uint32_t r) = nullptr;
  // One line for a refusal: what the scheme's source says of replicas.
  std::string_view replicas_note = "its source defines one owner per key, no replica set";

  // The expected shares a growth n -> n + 1 moves (GrowthShares), which the
  // lab prints beside what it measures, or nullptr where the scheme has no
  // closed form (Maglev, whose table shifts between old nodes too): the lab
  // then prints none.
  GrowthShares (*growth)(uint64_t n) noexcept = nullptr;

  bool takes(Param p) const noexcept { return (params & p) != 0; }
};

// Every scheme, in the registry's order (the order of plots and tables).
std::span<const SchemeInfo> all_scheme_infos() noexcept;
const SchemeInfo& scheme_info(Scheme scheme) noexcept;

// Short name used on command lines and in benchmark names: "modn", "ring",
// "hrw", "jump", "maglev".
std::string_view scheme_name(Scheme scheme) noexcept;

// Parses a name or alias ("rendezvous" for "hrw"). Throws
// std::invalid_argument naming the valid schemes for anything else.
Scheme parse_scheme(std::string_view name);

// Every scheme, in the registry's order.
std::vector<Scheme> all_schemes();

// ---- kernels -------------------------------------------------------------------------

// A kernel's tuning knob: the keys it keeps in flight (a lockstep group, a
// prefetch distance). Value 0 always means "the kernel's own default", which
// may depend on the table's size (`default_rule`).
struct Knob {
  std::string_view name;            // "lockstep group", "prefetch distance"
  std::string_view default_rule;    // "32 up to a 16 MiB tree, 128 above"
  unsigned min, max;                // accepted values besides 0
  std::span<const unsigned> sweep;  // the values a sweep over the knob tries
};

// What a kernel is. One entry per kernel in the registry; the kernel's own
// file defines it.
struct KernelInfo {
  Scheme scheme;
  std::string_view name;     // unique within the scheme, e.g. "eytzinger"
  std::string_view summary;  // one line for --help and reports
  bool simd;                 // dispatches through Highway (family targets forces each target)
  // The kernel of the same scheme this one is compared with in the targets
  // family and plot (its scalar rival, named as &registry::<scheme>_<kernel>
  // of registry.h), or nullptr for none.
  const KernelInfo* rival = nullptr;
  // A slow baseline kept for comparison (std::lower_bound), left out where
  // only the kernels a client would pick are timed (family profiles).
  bool baseline;
  // Where the kernel stands in its scheme by measured speed: lower is faster,
  // and the lowest is the scheme's default. Unique within a scheme; never
  // lowest for a baseline. Ranks are spaced by 10 (10, 20, 30, ...) so a new
  // kernel takes a free value between its neighbours, saying where it stands,
  // without renumbering other kernels' files.
  int rank;
  const Knob* knob;  // nullptr when the kernel has none

  // Builds the table; `knob` 0 keeps the kernel's default. Throws like
  // SchemeInfo::check, std::invalid_argument for a knob outside its range,
  // std::bad_alloc when the table does not fit in memory.
  std::unique_ptr<OwnerTable> (*make)(const Fleet& fleet, unsigned knob);

  // Peak bytes that building and holding the table takes (the structures
  // alive at once while it is built, and the table itself), an upper estimate
  // computed without building. Saturates instead of overflowing.
  uint64_t (*table_bytes)(const Fleet& fleet);

  // The builders below take inputs only some schemes have; a kernel that has
  // none of them leaves them unset.

  // Ring kernels only (nullptr elsewhere): the kernel over a given ring rather
  // than one made from node names (clustered tokens, rings of chosen tokens).
  // Throws as make.
  std::unique_ptr<OwnerTable> (*make_over_ring)(const SortedRing<uint64_t>& ring,
                                                unsigned knob) = nullptr;

  // Lookup-table kernels only (Maglev; nullptr elsewhere): the kernel over a
  // given table, owner = entries[h mod entries.size()], for tables not made by
  // the scheme itself (Redis Cluster's slot table). Throws
  // std::invalid_argument if entries is empty or has 2^32 or more entries.
  std::unique_ptr<OwnerTable> (*make_over_table)(std::vector<uint32_t> entries) = nullptr;

  // Rendezvous kernels only (nullptr elsewhere): the kernel over given node
  // seeds rather than seeds hashed from node names (seeds[n] is node n's,
  // equal seeds allowed: equal scores, the lower index wins), for seeds no
  // node list yields (repeated or equal ones). Over rendezvous_seeds(nodes)
  // it places every key as make(nodes) does. Throws std::invalid_argument if
  // seeds is empty or has 2^32 or more entries, std::bad_alloc as make.
  std::unique_ptr<OwnerTable> (*make_over_seeds)(std::span<const uint64_t> seeds) = nullptr;

  // The kernel's replica lookup (ReplicaTable) for R owners per key, or
  // nullptr for a kernel without one (the scheme's replica kernels are those
  // that have it). Throws as make, and std::invalid_argument for R = 0 or R
  // above the node count.
  std::unique_ptr<ReplicaTable> (*make_replicas)(const Fleet& fleet, uint32_t r) = nullptr;

  // A floor's kind (floor_kernels() below: "stream", "compute",
  // "random_read"), empty for every kernel of all_kernels(). A floor looks
  // nothing up: it bounds from below what the kernels it is timed beside can
  // cost, and matches no reference.
  std::string_view floor = {};

  std::unique_ptr<OwnerTable> build(const Fleet& fleet, unsigned knob_value = 0) const {
    return make(fleet, knob_value);
  }
  // "scheme/name", e.g. "ring/eytzinger".
  std::string full_name() const;
  const SchemeInfo& scheme_info() const noexcept { return chbench::scheme_info(scheme); }
};

// Every kernel of every scheme (references excluded), grouped by scheme in
// the registry's scheme order.
std::span<const KernelInfo* const> all_kernels() noexcept;

// The floors (KernelInfo::floor set, rank -1): registry entries that look
// nothing up, timed beside the kernels they bound. None is in all_kernels():
// each matches no reference, and nothing checks it against one.
//
// The stream floor, kernel "ring/stream" (floor "stream"): it writes each key
// hash's low 32 bits as its owner, the memory-bound floor the bench times
// under every ring kernel and at K = 10^7 keys.
const KernelInfo& stream_floor() noexcept;

// The compute floor, kernel "modn/compute" (floor "compute", SIMD): per key
// one multiply-xorshift round, h = h * C, h ^= h >> 32 (C odd), then the
// owner in [0, N) by multiply-shift, ((h mod 2^32) * N) >> 32 (Lemire, "Fast
// Random Integer Generation in an Interval", ACM TOMACS 29(1), 2019): the
// cheapest hash-then-bucket a key can cost, the bound under the schemes that
// place keys by the bucket count alone. floors.h has its scalar formula.
const KernelInfo& compute_floor() noexcept;

// The random-read floor, kernel "ring/random_read" (floor "random_read"): a
// table of the ring's size (N x V tokens of 8 bytes, whole 64-byte lines) and
// per key one read of a line at a position from the key hash, which no
// hardware prefetcher predicts (past 256 KiB it prefetches a distance ahead
// itself); the owner is a word of that line. The bound under a ring kernel
// that reads one line a key (floors.h: its formula).
const KernelInfo& random_read_floor() noexcept;

// The floors in this order: stream, compute, random-read.
std::span<const KernelInfo* const> floor_kernels() noexcept;

// The kernels of one scheme, in registry order.
std::vector<const KernelInfo*> kernels_of(Scheme scheme);

// The scheme's default kernel: the one of lowest rank. Never throws (every
// scheme has a kernel).
const KernelInfo& default_kernel(Scheme scheme) noexcept;

// Looks a kernel up by scheme and name. Throws std::invalid_argument listing
// the scheme's kernels when there is no such kernel.
const KernelInfo& find_kernel(Scheme scheme, std::string_view name);

// Looks a kernel up by its full name "scheme/kernel". Throws
// std::invalid_argument for a malformed name, an unknown scheme or kernel.
const KernelInfo& find_kernel(std::string_view full_name);

// The scheme's reference: scheme_info(scheme).reference(fleet).
std::unique_ptr<OwnerTable> build_reference(Scheme scheme, const Fleet& fleet);

// ---- replica sets ------------------------------------------------------------------

// The kernels of `scheme` that answer replica sets (make_replicas set), in
// registry order; empty for a scheme without a replica reference.
std::vector<const KernelInfo*> replica_kernels_of(Scheme scheme);

// The replica reference of `scheme` for R owners per key. Throws
// std::invalid_argument naming the scheme and its replicas_note where the
// scheme defines no replicas, and for R = 0 or R above the fleet's nodes.
std::unique_ptr<ReplicaTable> build_replica_reference(Scheme scheme, const Fleet& fleet,
                                                      uint32_t r);

// Kernel k's replica table. Throws std::invalid_argument as
// build_replica_reference, and naming the scheme's replica kernels when k
// has none.
std::unique_ptr<ReplicaTable> build_replicas(const KernelInfo& k, const Fleet& fleet, uint32_t r);

// The nodes a replica set may name: those of weight above 0 (a weight-0 node
// holds no ring token, so no walk meets it); fleet.size() when unweighted.
uint32_t replica_candidates(const Fleet& fleet) noexcept;

// Throws std::invalid_argument unless 1 <= r <= replica_candidates(fleet):
// "R = 5 replicas need at least 5 nodes (the fleet has 3)", or "R = 3
// replicas need at least 3 nodes of weight above 0 (the fleet has 2 of its 3
// nodes)". Every replica lookup checks it when built: it is what bounds the
// walk for R distinct owners (R distinct nodes exist among those it meets).
void check_replica_count(const Fleet& fleet, uint32_t r);

// ---- rings not made from node names ---------------------------------------------

// Ring kernel `name` of the registry built over a given ring:
// find_kernel(Scheme::kRing, name).make_over_ring(ring, knob). Throws
// std::invalid_argument for an unknown kernel name or a knob the kernel
// refuses.
std::unique_ptr<OwnerTable> build_ring_kernel(std::string_view name,
                                              const SortedRing<uint64_t>& ring, unsigned knob = 0);

// docs/spec.md §6's ring reference over given entries (sorted by (token, node),
// non-empty; throws std::invalid_argument otherwise).
std::unique_ptr<OwnerTable> build_ring_reference(std::vector<RingEntry<uint64_t>> entries);

// clustered_ring_entries and into_cluster, adversarial rings for these
// builders, are in ring/ring.h.

}  // namespace chbench
