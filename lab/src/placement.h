// The placement lab's measurements: which keys move when the node list changes,
// and how evenly keys (and, for the ring, the circle) spread over the nodes.
// Owners come from the library's fast kernels (scheme.h), batches run on oneTBB
// in the current task arena, so a caller limits the threads by running these
// functions inside its own tbb::task_arena. Placement rules are SPEC.md's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/nodes.h"
#include "chbench/profiles/profiles.h"
#include "chbench/scheme.h"

namespace chbench::lab {

// ---- Kernels ----------------------------------------------------------------------

// The kernel the lab uses by default for a scheme: the fastest the registry
// has, from a fixed preference order measured on 10^7 keys (2-core AMD EPYC):
// ring simd_eytzinger then eytzinger, rendezvous simd_keys then scalar, jump
// simd then interleaved, mod-N simd then scalar. The SIMD kernels run whatever
// Highway target dispatch picks; every kernel returns the reference's owners.
// Never throws.
std::string_view fastest_kernel(Scheme scheme) noexcept;

// Builds a placement table over `nodes`: kernel "" means fastest_kernel(scheme),
// "reference" the scheme's reference, anything else a kernel of the registry.
// Throws std::invalid_argument for an unknown kernel or an invalid node list,
// std::length_error when a ring would exceed 2^32 - 1 tokens.
std::unique_ptr<OwnerTable> make_table(Scheme scheme, const NodeSet& nodes,
                                       std::string_view kernel = {});

// What places the keys: a scheme (keys hashed as SPEC.md says, XXH3) or a
// production profile of profiles.h (keys hashed as that system hashes them,
// looked up by kernels of profile_scheme(profile)).
struct Placement {
  Scheme scheme = Scheme::kRing;
  std::optional<Profile> profile;
  // ketama: weight of a server by name; servers not listed weigh 1.
  std::map<std::string, uint32_t, std::less<>> weights;
};

// The profile's cluster over `nodes` (weights looked up by name). Throws like
// validate_profile().
ProfileCluster profile_cluster(const Placement& placement, const NodeSet& nodes);

// make_table for a placement: for a profile, kernel "" is the profile's
// default, "reference" the profile's reference, anything else a kernel of
// profile_scheme(profile). Throws like make_table and validate_profile.
std::unique_ptr<OwnerTable> make_table(const Placement& placement, const NodeSet& nodes,
                                       std::string_view kernel = {});

// ---- Inputs -----------------------------------------------------------------------

// Most keys a command takes. Counted keys are looked up, never stored, but
// 10^10 lookups already take minutes on two cores: more is refused.
inline constexpr uint64_t kMaxKeys = 10'000'000'000;

// Longest key of a key file, in bytes. A longer line is not a key but a file
// given by mistake (binary, minified JSON, a log), and is refused.
inline constexpr std::size_t kMaxKeyBytes = 65536;

// Refuses work that would not fit in memory before anything is allocated:
// throws std::invalid_argument ("<what> would need about X GiB but only Y GiB
// of memory is available") when `bytes` exceeds nine tenths of
// available_memory_bytes(). Does nothing when the available memory is unknown.
void check_memory(uint64_t bytes, const std::string& what);

// The keys a command works on: either the default keys user:1 ... user:K, kept
// as a count only (their hashes are recomputed where needed, so memory does not
// grow with K), or the lines of a file, kept as bytes plus precomputed hashes.
class KeySet {
 public:
  // user:1 ... user:count. Throws std::invalid_argument if count == 0 or
  // count > kMaxKeys.
  static KeySet counted(uint64_t count);

  // One key per line. A line ends at '\n'; a '\r' right before it (CRLF) is not
  // part of the key; the last line needs no '\n'; empty lines are skipped, since
  // an empty key cannot be told apart from a blank line. `source` names the
  // input in messages. Throws std::invalid_argument when no key is left ("...
  // contains no keys"), on a line longer than kMaxKeyBytes, on a NUL byte
  // (a binary file, not keys), on more than kMaxKeys keys, or on a read error.
  static KeySet from_stream(std::istream& in, std::string_view source);

  // Keys given directly (tests, small tools); empty strings are kept as keys.
  // Throws std::invalid_argument if `keys` is empty.
  static KeySet from_strings(std::span<const std::string> keys);

  uint64_t size() const noexcept { return count_; }
  bool is_counted() const noexcept { return offsets_.empty(); }

  // Writes the SPEC.md key hashes of keys first ... first + out.size() - 1 to
  // `out` (0-based key positions), or with a profile that profile's key hashes
  // (profile_key_hashes). Precondition: first + out.size() <= size(). Throws
  // only what profile_key_hashes throws.
  void hashes(uint64_t first, std::span<uint64_t> out,
              std::optional<Profile> profile = std::nullopt) const;

  // Appends the bytes of key `i` (0-based) to `out`. Precondition: i < size().
  void append_key(uint64_t i, std::string& out) const;
  std::string key(uint64_t i) const;

 private:
  uint64_t count_ = 0;
  std::vector<char> bytes_;        // file keys back to back
  std::vector<uint64_t> offsets_;  // count_ + 1 offsets into bytes_; empty: counted
  std::vector<uint64_t> hashes_;   // file keys only
};

// Parses `--keys`: all decimal digits is a count K (user:1 ... user:K), "-" is
// standard input, anything else a file of one key per line. Throws
// std::invalid_argument for K = 0, K > kMaxKeys, a negative count, a file that
// cannot be opened, or a file that from_stream refuses.
KeySet parse_keys(std::string_view spec);

// Parses `--nodes`: all decimal digits is a count N (node-0 ... node-(N-1)),
// anything else a comma-separated list of names (spaces around a name are
// dropped). The result carries `vnodes` and has passed validate(). Throws
// std::invalid_argument for N = 0, a negative N, N > 2^32 - 1, a node list
// that would not fit in memory (check_memory), an empty or duplicate name, or
// vnodes == 0.
NodeSet parse_nodes(std::string_view spec, uint32_t vnodes);

// The node list after adding `add` (appended in order) or removing `remove`
// (the others keep their order). Both may be given; removals apply first.
// Jump hash numbers buckets 0 ... N-1 by list position (SPEC.md), so for jump a
// node can only leave from the end of the list: removing any node that is not
// among the last remove.size() is refused. Throws std::invalid_argument for an
// unknown node in `remove`, a name listed twice, an added name already present,
// a refused jump removal (the message says why), or an empty result (N = 0).
NodeSet apply_change(Scheme scheme, const NodeSet& before, std::span<const std::string> add,
                     std::span<const std::string> remove);

// Owners of keys first ... first + out.size() - 1 (0-based positions), looked
// up in parallel blocks: out[i] is the node index of key first + i.
// Precondition: first + out.size() <= keys.size().
void lookup_owners(const OwnerTable& table, const KeySet& keys, uint64_t first,
                   std::span<uint32_t> out, std::optional<Profile> profile = std::nullopt);

// ---- Moves ------------------------------------------------------------------------

// A key whose owner changed: its position and old and new owners (indices into
// the `before` and `after` node lists).
struct MovedKey {
  uint64_t key;
  uint32_t from;
  uint32_t to;
};

// What a change of node list does to K keys. Nodes are matched by name: a key
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
  // removed_to[r][a]: keys of before node removed[r] now owned by after node a.
  std::vector<std::vector<uint64_t>> removed_to;
  // added_from[j][b]: keys of after node added[j] formerly owned by before node b.
  std::vector<std::vector<uint64_t>> added_from;
  // With `list`: every moved key, ascending by position. Otherwise empty.
  std::vector<MovedKey> moved_keys;
};

// Looks every key up before and after, in parallel blocks, and classifies it.
// `before` and `after` must be valid node lists of the scheme (their vnodes are
// used for the ring). Memory: O(threads * block + N_before * N_after for the
// flows), plus 16 bytes per moved key with `list`. Throws like make_table().
MoveResult measure_move(Scheme scheme, const NodeSet& before, const NodeSet& after,
                        const KeySet& keys, bool list = false, std::string_view kernel = {});
MoveResult measure_move(const Placement& placement, const NodeSet& before, const NodeSet& after,
                        const KeySet& keys, bool list = false, std::string_view kernel = {});

// ---- Balance ----------------------------------------------------------------------

// Where K keys land, and for the ring where the circle goes.
struct Balance {
  uint64_t keys = 0;
  std::vector<uint64_t> node_keys;  // keys per node, in node order
  std::vector<double> circle;       // ring only: circle_shares(); empty otherwise
};

// Counts each node's keys (in parallel blocks) and, for the ring, its share of
// the circle. Throws like make_table().
Balance measure_balance(Scheme scheme, const NodeSet& nodes, const KeySet& keys,
                        std::string_view kernel = {});
// For a profile there is no circle share (the shares of SPEC.md's circle do
// not describe a profile's own ring): `circle` stays empty.
Balance measure_balance(const Placement& placement, const NodeSet& nodes, const KeySet& keys,
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
// Precondition: shares non-empty with a positive sum.
ShareStats share_stats(std::span<const double> shares);
ShareStats share_stats(std::span<const uint64_t> counts);

// Replica r of a node list, for repeating a measurement over independent rings:
// r = 0 is `nodes` itself, r >= 1 appends "@r" to every name (node-3@2), which
// gives every node new tokens and seeds. vnodes is kept.
NodeSet replica_nodes(const NodeSet& nodes, uint32_t r);

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
