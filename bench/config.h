// What the bench times: one Config per benchmark.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/params.h"
#include "chbench/profiles/profiles.h"
#include "chbench/scenario.h"
#include "chbench/scheme.h"
#include "segments.h"

namespace chbench::bench {

// What one timed batch does with its keys.
enum class Path {
  kThroughput,  // the kernel's owners() over independent key hashes, on a team of threads
  kLatency,     // one key at a time, each waiting for the previous owner
  kHashed,      // XXH3 of the key strings, then owners(): a client's whole cost
  kProfile,     // a production profile from key strings (its own key hash), see profiles.h
  kBounded,     // a ring kernel's owners(), then bounded loads (balance_factor) on the team
};

// Family removals and a custom run's --removed-fraction: the default fleet of
// N nodes after removal_count(fraction, N) of them left in `order` (LIFO, FIFO
// or random with the seed kRemovalSeed), at the configuration's capacity
// (Config::counts; 10 x N by default, scenario.h). The schemes that read only
// the nodes in service (ring, rendezvous, Maglev) are rebuilt from the
// survivors; those that read the fleet's history (AnchorHash, DxHash,
// MementoHash) replay it.
struct Removals {
  double fraction = 0;                         // [0, 1)
  RemovalOrder order = RemovalOrder::kRandom;  // kLifo, kFifo or kRandom
  friend auto operator<=>(const Removals&, const Removals&) = default;
};

// A configuration's count parameters besides V (kParams, at their places):
// 0 for the default (the entry's, or the scheme's own rule: the capacity's
// 10 x N).
using ParamCounts = std::array<uint32_t, kParamCount>;

// The seed of the random removal order (random_removals), the same in every
// run so that every run removes the same nodes.
inline constexpr uint64_t kRemovalSeed = 13;

// The kernel name of a profile's own lookup (Config::client): "libmemcached"
// for ketama, whose real client library is timed; "own_lookup" for the
// others, whose own search the profile's reference reproduces from the
// system's source (docs/profiles.md). Never throws.
inline std::string_view own_lookup_name(Profile profile) noexcept {
  return profile == Profile::kKetama ? "libmemcached" : "own_lookup";
}

// One more change to a configuration's fleet: the remove_us and readd_us
// builds. kRemoveOne removes the next node of the order (the next of the
// seeded shuffle, or the last node in service for LIFO); kReaddOne brings the
// last removed node back (or, with none removed, a new node node-N joins;
// not built when the capacity is N, which has no room for it).
// Such a configuration is built and never timed.
enum class Change : uint8_t { kNone, kRemoveOne, kReaddOne };

// The scheme cannot honour the removal order: "" when it can, else why not,
// one line (mod-N moves keys between survivors on any removal; jump hash and
// its successors let only the last node leave, LIFO). Goes by
// SchemeInfo::removal alone.
std::string removal_refusal(const SchemeInfo& s, RemovalOrder order);

// One timed configuration: a kernel, a node list of `nodes` default names with
// `vnodes` virtual nodes, a batch of `keys` default key hashes, `threads` TBB
// threads. `family` groups configurations for plots (families/family.h lists
// them; "custom" for a run of values given on the command line), `path` says
// what a batch does.
// `target` is one Highway target bit (HWY_AVX2, ...) that a SIMD kernel is
// forced to while it is prepared and timed, or 0 for the target dispatch
// picks. `in_flight` sets the kernel's knob (KernelInfo::knob), 0 its
// default; `window_bits` != 0 squeezes tokens and keys into a window of
// 2^window_bits (clustered_ring_entries, into_cluster; ring kernels only).
struct Config {
  std::string family;
  const KernelInfo* kernel = nullptr;
  uint32_t nodes = 1;
  uint32_t vnodes = 1;
  uint64_t keys = 1;
  unsigned threads = 1;
  int64_t target = 0;
  unsigned in_flight = 0;
  unsigned window_bits = 0;
  Path path = Path::kThroughput;
  // Path kProfile: the profile, looked up by `kernel` (a kernel of
  // profile_scheme(*profile)) or, with `client`, by the system's own lookup
  // (own_lookup_name: libmemcached itself for ketama, the profile's reference
  // of the system's own search for the others; `kernel` is then null).
  std::optional<Profile> profile;
  bool client = false;
  // Path kThroughput: record the CPU time each thread of the team spent in
  // the timed loop (ThreadTeam::count_cpu_time; family threads, whose batches
  // are long enough for the two clock reads per chunk not to count).
  bool thread_cpu = false;
  // The fleet after removals (family removals, --removed-fraction), or the
  // default fleet when unset.
  std::optional<Removals> removals;
  // The fleet's count parameters besides V (ParamCounts): Maglev's M, the
  // bucket capacity, ... Part of every configuration's fleet, so that the
  // configurations of one point share them; only the schemes that take one
  // have it in their name, counters and keys (named_count).
  ParamCounts counts{};
  // The fleet with one more change, for the remove_us / readd_us builds.
  Change change = Change::kNone;
  // Path kBounded: the balance factor c (chbench/ring/bounded_loads.h); each
  // batch of K keys is one stream of K requests, capacity ceil(c K / N).
  double balance_factor = 0;
  // The fleet's nodes weigh kWeightPattern's weights (family weighted); read
  // only by the schemes that take weights (scheme_weighted()).
  bool weighted = false;
  // Family replicas: R owners a key (KernelInfo::make_replicas), 0 for the
  // kernel's owners(). A replica configuration's table answers each batch
  // with its R-sets (replica_owners.h) and is checked by their first
  // members against the scheme's owners.
  uint32_t replicas = 0;
  // The comparison group (rounds.h): configurations with the same group,
  // consecutive in the run, are timed together, interleaved in rounds. The
  // sweep gives each point of a family its own (family.h); a custom run's
  // configurations are one group; either is split where its tables would
  // hold more than kMaxGroupBytes together (assign_groups, sweep.h).
  uint32_t group = 0;

  // "<family>/<scheme>/<kernel>/N:<n>/V:<v>/K:<k>/threads:<t>", the kernel
  // written "<kernel>@<TARGET>" (hwy::TargetName, e.g. simd@AVX2) when a
  // target is forced, then "/inflight:<g>" and "/window:<w>" when set,
  // "/c:<c>" for path kBounded, "/removed:<percent>/order:<lifo|fifo|random>"
  // with removals, "/change:<remove|readd>" for a change build, "/R:<r>" for
  // replica sets, and "/<segment>:<value>" for each parameter the
  // configuration names (param_text), all in all_segments()'s order (M after
  // the window, the capacity after the order, the weights after the change);
  // for profiles the profile stands for the scheme and
  // own_lookup_name(*profile) for the client's kernel.
  std::string name() const;
  // The parameters name() writes after "<family>/<scheme>/<kernel>", each
  // (key, value) as segments.h lists them, in that order.
  Segments segments() const;
  // True for a floor (KernelInfo::floor: the stream baseline, the compute and
  // random-read floors), which looks nothing up and has no reference.
  bool is_floor() const noexcept;
  // Key strings are needed (paths kHashed and kProfile), not only hashes.
  bool needs_key_bytes() const noexcept { return path == Path::kHashed || path == Path::kProfile; }
  // Ring tokens survivors() * V when the kernel's scheme takes virtual nodes
  // (N * V without removals), else 0.
  uint64_t tokens() const;
  // Keys in the pool the timed loop cycles through (pool_windows).
  uint64_t pool() const noexcept;
  // Keys of the pool checked against the reference: its first whole batches,
  // at least kMinChecked keys (all of the pool when it is no longer).
  uint64_t checked() const noexcept;
  // The kernel's scheme takes p (and the configuration is no profile's).
  bool scheme_takes(Param p) const noexcept;
  // A count parameter's value: vnodes for V, else counts at p's place (0:
  // the default).
  uint32_t count(Param p) const noexcept;
  // The count parameter p's value as the name and the counters carry it:
  // where it is set (not 0) and either scheme_takes(p) or its entry names it
  // everywhere (ParamInfo::name_everywhere: V, the capacity); else nullopt (a
  // kPerNode parameter too).
  std::optional<uint32_t> named_count(const ParamInfo& p) const noexcept;
  // p's value as the name writes it: named_count's, or for a kPerNode
  // parameter the bench's weight pattern "1-4" where scheme_weighted(); else
  // nullopt. Never for a parameter without a segment.
  std::optional<std::string> param_text(const ParamInfo& p) const;
  // counts where named_count names them, else 0: what the plan's keys hold.
  ParamCounts named_counts() const noexcept;
  // weighted, for a kernel whose scheme takes weights (kParamWeights).
  bool scheme_weighted() const noexcept;
  // Nodes in service in the fleet: N less the removed ones, one fewer or one
  // more for a change build.
  uint32_t survivors() const;
};

// Each timed iteration looks up a fresh batch of K keys: the keys are a pool of
// pool_windows(K) consecutive batches, at least kMinPool keys in all, and
// iteration i takes batch i mod windows. Repeating one small batch would let
// the branch predictor learn its keys (lower_bound at K = 1,000 ran 10x faster
// than at K = 10^5 before this) and measure a replay, not lookups. A pool of
// 10^5 keys is still learnt: on a Zen 5 (AVX3) the SIMD kernels whose lanes
// redraw ran at N = 10^6 and K = 10^4 at 0.42 (jumpback), 0.26 (binomial) and
// 0.40 ns a key (power) over a pool of 100,003 keys, 0.97, 0.94 and 1.14 over
// 1,000,003, as fast as over fresh keys at K = 10^6 and more (their vectors'
// "any lane redraws" branch repeats every 6,000 vectors of the small pool); at
// N = 1,024, where no lane redraws, the pools ran alike. The keys of a pool of
// 10^6 stream from the L3 cache: the stream floor reads them at 0.11 ns a key,
// as from the smaller pool. A smaller pool is always a prefix of a larger one
// (default keys user:1, user:2, ...).
inline constexpr uint64_t kMinPool = 1'000'000;
// The keys checked against the reference before the timing (Config::checked):
// the pool's first batches, at least this many keys in all. Checking the whole
// pool would cost ten times the reference's work for no more assurance: the
// tests check every kernel over many more fleets and keys.
inline constexpr uint64_t kMinChecked = 100'003;
// Batches of K keys that hold at least `least` keys (1 when K alone does).
inline uint64_t windows_of(uint64_t keys, uint64_t least) {
  return keys >= least ? 1 : (least + keys - 1) / keys;
}
inline uint64_t pool_windows(uint64_t keys) { return windows_of(keys, kMinPool); }

// The fleet of default names node-0 ... node-(n-1) with `vnodes` virtual nodes
// each and the count parameters `counts` (those not 0; the others at
// NodeSet's defaults), each node weighing weight_pattern's when `weighted`,
// shared by every caller that asks for the same one (a few are kept). Throws
// like default_nodes.
std::shared_ptr<const Fleet> default_fleet(uint32_t n, uint32_t vnodes,
                                           const ParamCounts& counts = {}, bool weighted = false);

// The bench's fixed weight pattern: node n weighs 1 + n mod 4 (1, 2, 3, 4, 1,
// ...), written "/weights:1-4" in a configuration's name.
std::vector<uint32_t> weight_pattern(uint32_t n);

// The fleet a configuration is built from: Fleet::of_buckets(c.survivors()),
// no names, for a scheme that places by the bucket count alone
// (SchemeInfo::buckets_only; with removals, LIFO only), else
// default_fleet(c.nodes, c.vnodes, c.counts), or with removals the
// scenario's fleet (scenario_fleet, seed kRemovalSeed) and its change. All
// but the change builds' fleets are shared by the callers that ask for the
// same one. Throws like default_nodes and scenario_fleet, and
// std::invalid_argument with removal_refusal's text.
std::shared_ptr<const Fleet> config_fleet(const Config& c);

// True when the configuration's fleet holds node names (config_fleet): all
// but those of the buckets_only schemes without removals or after LIFO ones.
bool config_named(const Config& c);

// The stream baseline, listed as kernel "ring/stream": the registry's
// stream_floor() (scheme.h), no lookup, the memory-bound floor under every
// ring kernel; never checked against a reference.
const KernelInfo& stream_baseline() noexcept;

}  // namespace chbench::bench
