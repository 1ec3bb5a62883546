// The lab's removal scenarios (chbench/scenario.h): the fleet of --nodes, a
// share of it removed in an order (or the nodes named, in that order), and
// some of the removed joining again. Each scheme takes the orders its
// registry entry allows (SchemeInfo::removal): jump hash and the other
// schemes whose buckets are 0 ... N-1 take LIFO only, and say so; the schemes
// that place keys by the bucket count alone keep a LIFO scenario a fleet of
// buckets (no names, up to the scheme's max_nodes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/scenario.h"
#include "chbench/scheme.h"

namespace chbench::lab {

// What the lab holds per initial node for a scenario over named nodes, on top
// of kNodeBytes: the fleet it makes (its names, its initial list, a history
// entry and a removal-list name per removed node, leave_all's set of them)
// and, for a list of names other than node-0 ... node-(N-1), the scenario's
// copy of it (32 B). Measured like kNodeBytes (peak RSS less the run without
// a scenario, owners --scheme hrw --keys 1, --nodes 10^6 and 10^7, 90%
// removed at random: 153 and 169 B a node), plus the copy, rounded up by
// about a fifth. A move's second fleet (its re-adds) is kMoveNodeBytes'.
inline constexpr uint64_t kScenarioNodeBytes = 240;

// A removal scenario as the command line gives it.
struct ScenarioRequest {
  std::vector<std::string> removed;          // --removed: the names, in removal order; or empty
  std::vector<double> fractions;             // --remove-fraction (empty with --removed)
  RemovalOrder order = RemovalOrder::kLifo;  // --removal-order (kExplicit with --removed)
  uint64_t seed = 0;                         // --seed (kRandom)
  uint32_t readds = 0;                       // --readd: removed nodes joining again

  bool is_explicit() const noexcept { return order == RemovalOrder::kExplicit; }
};

// Refuses an order the scheme cannot honour before any fleet is made: a
// scheme whose only the last node can leave (Removal::kLastOnly) takes LIFO
// only, by fraction (--removal-order lifo) or by name (--removed naming the
// last node in service at each step, the last first). The message names the
// schemes that take any order. Throws std::invalid_argument.
void check_removal_order(Scheme scheme, const Fleet& initial, const ScenarioRequest& r);

// How many nodes the scenario removes from `initial` at `fraction` (an
// explicit list: its length).
uint32_t removed_count(const Fleet& initial, const ScenarioRequest& r, double fraction);

// The fleet after the scenario: `initial` (the --nodes fleet, named or a
// fleet of buckets), the removals at `fraction` (not read for an explicit
// list), then `readds` of the removed joining again, the last removed first.
// A fleet of buckets under a LIFO removal stays one (Fleet::of_buckets of the
// count left, no history: only the schemes that place keys by the bucket count
// alone are given one); any other scenario is scenario_fleet() over the
// initial names, V, M and capacity. Throws std::invalid_argument as
// check_removal_order and scenario_fleet do.
Fleet apply_scenario(Scheme scheme, const Fleet& initial, const ScenarioRequest& r, double fraction,
                     uint32_t readds);

// The nodes that `readds` re-adds bring back to `removed` (a fleet
// apply_scenario made with no re-adds from a fleet of `initial_size` nodes), in
// joining order: the last removed first. Throws std::invalid_argument when
// fewer than `readds` were removed.
std::vector<std::string> rejoining(const Fleet& removed, uint32_t initial_size, uint32_t readds);

// The registry's schemes with removal rule `removal`, by name, in its order:
// "ring, hrw, maglev" for Removal::kAnyNode.
std::string schemes_removing(Removal removal);

// "random order, seed 7", "LIFO order (the last first)", "the order given":
// for reports.
std::string order_label(const ScenarioRequest& r);

}  // namespace chbench::lab
