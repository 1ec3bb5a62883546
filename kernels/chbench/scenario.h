// Fleet scenarios: an initial fleet, a share of it removed in a given order,
// and some of the removed nodes joining again. The schemes whose placement
// depends on which nodes left and in what order (AnchorHash, MementoHash,
// DxHash) are built from the Fleet a scenario makes; the others read only the
// nodes left in service, and jump hash and its successors take LIFO removal
// only (SchemeInfo::removal).
//
// The removal orders are those of SUPSI's benchmark framework
// (SUPSI-DTI-ISIN/java-consistent-hashing-algorithms: FIFO, LIFO, random) and
// an explicit list.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/fleet.h"

namespace chbench {

enum class RemovalOrder {
  kLifo,      // the last node of the list first: node-(N-1), node-(N-2), ...
  kFifo,      // the first node first: node-0, node-1, ...
  kRandom,    // a seeded random order (random_removals)
  kExplicit,  // the names given, in that order
};

// "lifo", "fifo", "random", "explicit"; parse_removal_order takes the first
// three (an explicit order is a list, not a word) and returns nullopt
// otherwise.
std::string_view removal_order_name(RemovalOrder order) noexcept;
std::optional<RemovalOrder> parse_removal_order(std::string_view name) noexcept;

struct Scenario {
  uint32_t nodes = 1;           // initial N: node-0 ... node-(N-1), when `names` is empty
  uint32_t vnodes = 1;          // NodeSet::vnodes
  uint32_t table_size = 65537;  // NodeSet::table_size
  uint32_t capacity = 0;        // NodeSet::capacity (0: 10 x N)
  uint32_t probes = 21;         // NodeSet::probes (multi-probe's k)
  // NodeSet::counts: the count parameters without a member of their own.
  std::array<uint32_t, kMaxCountParams> counts = count_defaults();
  RemovalOrder order = RemovalOrder::kLifo;
  double remove_fraction = 0;        // share of N removed (not kExplicit), [0, 1)
  uint64_t seed = 0;                 // kRandom's seed
  std::vector<std::string> removed;  // kExplicit: the names removed, in order
  uint32_t readds = 0;               // removed nodes joining again, last removed first
  // The initial nodes by name, in list order, instead of the default list
  // (empty: node-0 ... node-(N-1)). When given it is the list: N is
  // names.size() and `nodes` is not read; LIFO removes its last name first,
  // FIFO its first, a random order takes the positions random_removals gives,
  // and an explicit order names members of it.
  std::vector<std::string> names;
};

// Sets s's parameters to those of `nodes`: V, M, the capacity, k and the
// counts (every NodeSet member but the names and the weights).
void take_params(Scenario& s, const NodeSet& nodes);

// The bucket capacity A of a fleet for the schemes that keep room for more
// buckets than nodes (kParamCapacity): fleet.nodes().capacity, or 10 times
// the initial node count when that is 0. Throws std::invalid_argument when
// A is below the initial node count or above `max`.
uint32_t fleet_capacity(const Fleet& fleet, uint32_t max);

// How many nodes a fraction f of n removes: round(f * n), and at most n - 1
// (a fleet keeps one node). Throws std::invalid_argument unless 0 <= f < 1.
uint32_t removal_count(double fraction, uint32_t n);

// The first `count` nodes of a seeded random removal order of node-0 ...
// node-(n-1): a Fisher-Yates shuffle (Knuth, TAOCP vol. 2, 3.4.2, algorithm P)
// stopped after `count` steps, whose i-th step swaps position i with position
// i + floor(r * (n - i) / 2^64), r the i-th output of SplitMix64 (Steele,
// Lea and Flood, OOPSLA 2014: state += 0x9e3779b97f4a7c15, then the mix13
// finaliser) started at `seed`. The same on every platform (no std::shuffle,
// whose algorithm the standard leaves open). Precondition: count <= n.
std::vector<uint32_t> random_removals(uint32_t n, uint32_t count, uint64_t seed);

// The names a scenario removes, in removal order. Throws std::invalid_argument
// for N = 0, a fraction outside [0, 1), an explicit name that is not in the
// initial list (node-0 ... node-(N-1), or s.names) or is listed twice, or
// removing every node.
std::vector<std::string> removal_list(const Scenario& s);

// The fleet after the scenario: the initial list (node-0 ... node-(N-1), or
// s.names) with V, M, the capacity, k and `counts`, then every removal of
// removal_list(s) in order, then s.readds joins of the removed nodes, the last removed first.
// Throws as removal_list does, and std::invalid_argument when readds exceeds the number removed.
Fleet scenario_fleet(const Scenario& s);

}  // namespace chbench
