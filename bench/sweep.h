// The sweep: the families' points (families/family.h), the quick ones chosen
// to fit each family's time budget, narrowed to the kernels asked for.
#pragma once

#include <cstdint>
#include <vector>

#include "config.h"
#include "families/family.h"
#include "plan.h"

namespace chbench::bench {

// The quick sweep's defaults: rounds and the least seconds a member is timed
// in each (docs/measurement.md); its points are chosen with these
// whatever the command line says. The full sweep's defaults.
inline constexpr TimeModel kQuickModel{30, 0.005, 10, 2};
inline constexpr TimeModel kFullModel{60, 0.05, 20, 2};
// The quick sweep chooses its points (each family's budget) by kQuickModel's
// estimate of one visit: the second adds its tables' builds and canaries to
// every family alike (docs/measurement.md gives the whole sweep's time).
inline constexpr TimeModel kQuickPointsModel{30, 0.005, 10, 1};

// Which configurations to generate.
struct SweepOptions {
  bool full = false;                       // the complete sweep for target machines
  std::vector<const Family*> families;     // empty: all
  std::vector<const KernelInfo*> kernels;  // empty: all, the stream baseline included
  unsigned max_threads = 1;                // family threads runs 1 ... max_threads
  // Each point its own comparison group (false), or a family's points
  // interleaved together (true), split where their members would hold more
  // than kMaxGroupBytes: its rounds then spread over longer than one point's.
  bool family_groups = false;
};

// The configurations of one family.
struct FamilySweep {
  const Family* family;
  std::vector<Config> configs;
  // The quick sweep: how many of the family's quick points its budget kept,
  // of how many (both 0 for the full sweep and custom configurations).
  std::size_t points_kept = 0, points_quick = 0;
};

// The full sweep: every point of every family. The quick sweep: each family's
// quick points in the order of their rank, as many as fit in the family's
// budget by the estimate of plan.h with kQuickPointsModel (the first always), for
// the whole registry, so that narrowing the kernels never adds points; then
// run in listing order. Either is then narrowed to `kernels` (a profile's
// client goes with the profile's kernels). Families with no configuration
// left are left out.
std::vector<FamilySweep> make_sweep(const SweepOptions& options);

// Makes `configs` (a point, a family's points, or a custom run's kernels)
// comparison groups numbered from `next` on, a new one wherever the members
// so far would hold more than kMaxGroupBytes with the next (one member at
// least); `next` is left at the number after the last group.
void assign_groups(std::vector<Config>& configs, uint32_t& next);

}  // namespace chbench::bench
