// The placement lab's measurements: which keys move when the fleet changes,
// and how evenly keys (and, for the ring, the circle) spread over the nodes.
// Owners come from the library's kernels (scheme.h), each scheme's default
// being the registry's (default_kernel(): its fastest); batches run on oneTBB
// in the current task arena, so a caller limits the threads by running these
// functions inside its own tbb::task_arena. Placement rules are SPEC.md's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/nodes.h"
#include "chbench/profiles/profiles.h"
#include "chbench/scheme.h"
#include "keys.h"

namespace chbench::lab {

// ---- Tables -----------------------------------------------------------------------

// What places the keys: a scheme (keys hashed as SPEC.md says, XXH3) or a
// production profile of profiles.h (keys hashed as that system hashes them,
// looked up by kernels of profile_scheme(profile)).
struct Placement {
  Scheme scheme = Scheme::kRing;
  std::optional<Profile> profile;
  // ketama: weight of a server by name; servers not listed weigh 1.
  std::map<std::string, uint32_t, std::less<>> weights;
};

// The kernel the lab uses when none is named: for a scheme the registry's
// default_kernel() (the lowest rank, the scheme's fastest as measured); for a
// profile default_profile_kernel(), the profile's own choice among the
// kernels of profile_scheme(). Never throws.
std::string_view default_kernel_name(const Placement& placement) noexcept;

// The kernel as reports name it, "scheme/kernel": kernel "" is
// default_kernel_name(placement), "reference" gives "<scheme>/reference" (for
// a profile "<profile>/reference"). Throws std::invalid_argument for a kernel
// the scheme does not have.
std::string kernel_full_name(const Placement& placement, std::string_view kernel);

// Builds a placement table over `fleet`: kernel "" means the scheme's
// default_kernel(), "reference" the scheme's reference, anything else a kernel
// of the registry (KernelInfo::build over the fleet, history included).
// Throws like SchemeInfo::check (std::invalid_argument for an invalid fleet,
// std::length_error for a ring over 2^32 - 1 tokens) and std::invalid_argument
// for an unknown kernel.
std::unique_ptr<OwnerTable> make_table(Scheme scheme, const Fleet& fleet,
                                       std::string_view kernel = {});

// The profile's cluster over `nodes` (weights looked up by name). Throws like
// validate_profile().
ProfileCluster profile_cluster(const Placement& placement, const NodeSet& nodes);

// make_table for a placement: for a profile, kernel "" is the profile's
// default, "reference" the profile's reference, anything else a kernel of
// profile_scheme(profile), over the fleet's current nodes. Throws like
// make_table and validate_profile.
std::unique_ptr<OwnerTable> make_table(const Placement& placement, const Fleet& fleet,
                                       std::string_view kernel = {});

// True for the ketama profiles (weighted and unweighted): a continuum of points.
bool is_ketama(const Placement& placement) noexcept;

// The points of the ketama continuum that make_table builds over `nodes` (the
// profile's servers, weighted by placement.weights): the sum of
// ketama_points_per_server, 160 a server scaled by its weight as
// libmemcached scales it; for ketama_unweighted 100 a server
// (kKetamaUnweightedPoints). Allocates nothing.
uint64_t ketama_point_count(const Placement& placement, const NodeSet& nodes);
// Each server's points, in node order (their sum is ketama_point_count).
std::vector<uint32_t> ketama_points(const Placement& placement, const NodeSet& nodes);

// Peak bytes that make_table(placement, fleet, kernel) takes while building
// and holding the table: the registry's estimate, computed without building
// (KernelInfo::table_bytes, or SchemeInfo::reference_bytes for "reference").
// A profile's table is estimated as its scheme's over the fleet that has as
// many entries (ketama: the continuum's points per server, from
// ketama_points_per_server; Redis: its 16384 slots as a Maglev table).
// Saturates instead of overflowing. Throws std::invalid_argument for an
// unknown kernel.
uint64_t table_bytes(const Placement& placement, const Fleet& fleet, std::string_view kernel = {});

// The name of node `i` of `fleet` as every output prints it: the fleet's own
// name, or for a fleet of buckets (Fleet::of_buckets, names not held) the
// default name node-<i>. Precondition: i < fleet.size().
std::string owner_name(const Fleet& fleet, uint32_t i);

// ---- Fleet changes ----------------------------------------------------------------

// Checks a change of `before` as apply_change does (and throws as it does),
// without changing or naming anything, and tells whether the fleet after it
// is again a fleet of buckets: true when `before` is one (not named()), the
// nodes that leave are its last ones and those that join are named node-<s>,
// node-<s+1>, ... in order (s: the buckets left), so that the names stay the
// default ones. A fleet of buckets is looked up by index (node-<i>, i < N),
// so this costs no memory per node: the lab's commands call it to decide
// whether a move needs names before any memory is estimated.
bool bucket_change(Scheme scheme, const Fleet& before, std::span<const std::string> add,
                   std::span<const std::string> remove);

// The fleet after the nodes of `remove` leave (Fleet::leave, in the order
// given) and then those of `add` join (Fleet::join, appended in order), so
// that the result's history() records the change. The survivors keep their
// order. When the scheme's removal is Removal::kLastOnly (jump: buckets 0 ...
// N-1 by list position, SPEC.md) only the last remove.size() nodes may leave,
// in any order; any other removal is refused with a message that says which
// nodes can go. Throws std::invalid_argument for an unknown node in `remove`,
// a name listed twice, an added name already present or empty, a refused
// removal, or removing every node (N = 0: a fleet is never empty, even on
// its way to the additions). A fleet of buckets whose change is a
// bucket_change() gives Fleet::of_buckets(N') (no names, no history: such a
// fleet is only built for a scheme that places by the bucket count alone);
// after any other change it is named (node-0 ... node-(N-1), then changed).
Fleet apply_change(Scheme scheme, const Fleet& before, std::span<const std::string> add,
                   std::span<const std::string> remove);

// Owners of keys first ... first + out.size() - 1 (0-based positions), looked
// up in parallel blocks: out[i] is the node index of key first + i.
// Precondition: first + out.size() <= keys.size().
void lookup_owners(const OwnerTable& table, const KeySet& keys, uint64_t first,
                   std::span<uint32_t> out, std::optional<Profile> profile = std::nullopt);

// ---- Moves ------------------------------------------------------------------------

// A key whose owner changed: its position and old and new owners (indices into
// the `before` and `after` fleets' node lists).
struct MovedKey {
  uint64_t key;
  uint32_t from;
  uint32_t to;
};

// What a change of the fleet does to K keys. Nodes are matched by name: a key
// "moves" when the name of its owner changes. Counts are keys.
struct MoveResult {
  uint64_t keys = 0;
  uint64_t moved = 0;
  // Moved between two nodes present in both lists: the moves a consistent
  // scheme avoids (mod-N's waste).
  uint64_t between_old = 0;
  // Keys whose old owner is not in `after` (all of them move), and keys whose
  // new owner is not in `before` (all of them moved).
  uint64_t from_removed = 0;
  uint64_t to_added = 0;
  // Indices of the removed nodes into `before`, and of the added ones into
  // `after`, in list order.
  std::vector<uint32_t> removed;
  std::vector<uint32_t> added;
  // removed_to[r]: (after node a, keys of before node removed[r] now owned by
  // a) for every a that received some, ascending by a.
  std::vector<std::vector<std::pair<uint32_t, uint64_t>>> removed_to;
  // added_from[j]: (before node b, keys of after node added[j] formerly owned
  // by b) for every b that gave some, ascending by b.
  std::vector<std::vector<std::pair<uint32_t, uint64_t>>> added_from;
  // With `list`: every moved key, ascending by position. Otherwise empty.
  std::vector<MovedKey> moved_keys;
};

// Builds a table from each fleet (make_table: `after` is typically
// apply_change(before, ...), whose history a scheme may read), looks every key
// up in both, in parallel blocks, and classifies it. Both fleets must be valid
// for the scheme (their vnodes are used for the ring). Two fleets of buckets
// are matched by index (bucket i is node-<i> in both), with no memory per
// node; otherwise by name. Memory: O(threads * block), O(N_before + N_after)
// for matching named fleets, the flows (per thread: dense counts while
// (removed + added) * N stays under 2^20 cells, else only the cells that
// keys moved through), plus 16 bytes per moved key with `list`. Throws like
// make_table().
MoveResult measure_move(Scheme scheme, const Fleet& before, const Fleet& after, const KeySet& keys,
                        bool list = false, std::string_view kernel = {});
MoveResult measure_move(const Placement& placement, const Fleet& before, const Fleet& after,
                        const KeySet& keys, bool list = false, std::string_view kernel = {});

// What re-adding removed nodes gives back (SUPSI's monotonicity figures after
// the restore): the re-added nodes are those of `after` from index
// `first_readded` on (joins append), and each key's owner in `after` is
// compared with its owner in `initial`, the fleet before the removals, by name.
struct ReturnResult {
  uint64_t keys = 0;
  uint64_t old_keys = 0;   // keys a re-added node owned before the removals
  uint64_t returned = 0;   // of those, the keys back on that node
  uint64_t relocated = 0;  // keys whose owner differs from their owner before the removals
};

// Builds a table from each fleet, looks every key up in both (in parallel
// blocks) and counts. Memory: the two tables and O(N) for matching named
// fleets (none for two fleets of buckets). Throws like make_table().
ReturnResult measure_return(const Placement& placement, const Fleet& initial, const Fleet& after,
                            uint32_t first_readded, const KeySet& keys,
                            std::string_view kernel = {});

// ---- Balance ----------------------------------------------------------------------

// Where K keys land, and for the ring where the circle goes.
struct Balance {
  uint64_t keys = 0;
  std::vector<uint64_t> node_keys;  // keys per node, in node order
  std::vector<double> circle;       // ring only: circle_shares(); empty otherwise
};

// Counts each node's keys (in parallel blocks) and, for the ring, its share of
// the circle. Memory: the counts, 8 B a node (up to 2^16 nodes each thread
// also counts apart; above, the threads add into the one array atomically),
// and the circle's. Throws like make_table().
Balance measure_balance(Scheme scheme, const Fleet& fleet, const KeySet& keys,
                        std::string_view kernel = {});
// For a profile there is no circle share (the shares of SPEC.md's circle do
// not describe a profile's own ring): `circle` stays empty.
Balance measure_balance(const Placement& placement, const Fleet& fleet, const KeySet& keys,
                        std::string_view kernel = {});

// Each node's share of SPEC.md's 64-bit ring: the summed length of the arcs it
// owns, an arc running from the previous distinct token (exclusive) to the
// token (inclusive), the first token's arc wrapping around 2^64, divided by
// 2^64. A token hidden by an equal token of a lower node index owns nothing.
// Shape: nodes.size() shares summing to 1 (up to rounding). Throws like
// ring_entries().
std::vector<double> circle_shares(const NodeSet& nodes);

// Summary of one set of shares (any non-negative weights: key counts or arcs).
struct ShareStats {
  double busiest_over_mean = 0;  // max share / mean share
  double std_pct = 0;            // population std of the shares, % of the mean (fair) share
};
// Precondition: shares non-empty with a positive sum. Allocates nothing.
ShareStats share_stats(std::span<const double> shares);
ShareStats share_stats(std::span<const uint64_t> counts);

// Summary of shares against fair shares (weights w_i / sum(w)): busiest is
// the largest share_i / fair_i, the std the deviation of share_i / fair_i
// from 1 weighted by fair_i, sqrt(sum fair_i (share_i / fair_i - 1)^2), in %;
// nodes of fair share 0 are left out. With equal fair shares it is
// share_stats of the shares; a fleet placed exactly at its weights reads
// 1.0 and 0 %. Shapes: shares and fair of one length, each summing to 1
// (counts are divided by their sum). Precondition: some fair share above 0.
ShareStats fair_share_stats(std::span<const double> shares, std::span<const double> fair);
ShareStats fair_share_stats(std::span<const uint64_t> counts, std::span<const double> fair);

// Replica r of a node list, for repeating a measurement over independent rings:
// r = 0 is `nodes` itself, r >= 1 appends "@r" to every name (node-3@2), which
// gives every node new tokens and seeds. Every parameter (vnodes, M,
// capacity, weights, probes) is kept.
NodeSet replica_nodes(const NodeSet& nodes, uint32_t r);
// The name of `name` in replica r: `name` itself for r = 0, else name + "@r".
std::string replica_name(std::string_view name, uint32_t r);

// ---- Theory -----------------------------------------------------------------------

// Expected standard deviation of the node shares of the circle, as a fraction
// of the fair share 1/N, for N nodes with V tokens each drawn independently and
// uniformly: sqrt((N - 1) / (N V + 1)).
// Why: the N V arcs between uniform points on a circle are jointly
// Dirichlet(1, ..., 1) (uniform spacings; Pyke, "Spacings", JRSS B 27, 1965),
// so a node's share, the sum of V of them, is Beta(V, (N - 1) V) with variance
// (N - 1) / (N^2 (N V + 1)); divided by (1/N)^2 that is the formula. It falls as
// 1/sqrt(V) once N V >> 1: about sqrt((N - 1) / (N V)).
double ring_share_std_theory(uint64_t n, uint64_t v);

// The same for key shares when K keys land independently: the circle's
// variance plus the binomial sampling noise of K keys, (N - 1) / K relative to
// (1/N)^2 (conditional variance p (1 - p) / K at mean share p = 1/N).
// For the other schemes (an ideal hash spreads keys uniformly) use v = 0, which
// leaves only the sampling term: sqrt((N - 1) / K).
double key_share_std_theory(uint64_t n, uint64_t v, uint64_t k);

// Expected busiest / mean share of the circle with one token per node: the
// largest of N uniform spacings has mean H_N / N (H_N = 1 + 1/2 + ... + 1/N;
// Pyke 1965, section 4), so busiest / mean is H_N on average.
double ring_busiest_theory_v1(uint64_t n);

// Expected fraction of keys that move when N nodes become N + 1, and the
// fraction that moves between old nodes. mod-N keeps a key only if
// h mod N == h mod (N + 1), i.e. h mod N(N + 1) < N: it moves N / (N + 1), of
// which 1 / (N + 1) go to the newcomer and (N - 1) / (N + 1) between old nodes.
// Ring, rendezvous and jump move only the newcomer's keys, 1 / (N + 1) on
// average, none between old nodes. (h taken as uniform; the bias of reducing a
// 64-bit hash mod N is below N / 2^64.)
struct GrowthTheory {
  double moved = 0;
  double between_old = 0;
};
GrowthTheory growth_theory(Scheme scheme, uint64_t n);

}  // namespace chbench::lab
