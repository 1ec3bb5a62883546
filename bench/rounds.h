// Comparison groups timed interleaved. A group is the configurations one
// plot, table or goal compares at one configuration: one point of a family
// (families/family.h), or every kernel of a custom run (Config::group). Its
// members are all prepared and checked first, then timed in rounds: each
// round runs every member once, for a slice of at least TimeModel::min_time_s
// (whole batches, after a short warm-up), in a fresh random order (of its
// schemes, each scheme's members side by side: round_order.h), so that a
// disturbance longer than a round hits every member alike (randomized
// multiple interleaved trials: Abedi and Brecht, "Conducting Repeatable
// Experiments in Highly Variable Cloud Computing Environments", ICPE 2017,
// section 4). From the rounds: each member's median ns/key with its 95 %
// interval, and its ratio to its group's reference from the per-round
// ratios, with its own interval (intervals.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "canary.h"
#include "config.h"
#include "intervals.h"
#include "plan.h"
#include "progress.h"
#include "revisits.h"
#include "workbench.h"

namespace chbench::bench {

// The seed of the rounds' member orders, the same in every run (recorded in
// the results' chbench_timing).
inline constexpr uint64_t kRoundSeed = 20170422;

// What the rounds measured of one configuration, with what its counters
// report (timed.h).
struct MemberRounds {
  std::string error;                    // non-empty: not timed
  std::vector<double> ns_per_key;       // one a round, in round order
  uint64_t batches = 0;                 // batches of K keys in each slice
  std::optional<Interval> ns_interval;  // of ns_median
  // Its per-round ratios to the member of the group it is compared with
  // (reference_of): their median and interval.
  std::optional<double> ratio;
  std::optional<Interval> ratio_interval;
  std::size_t group = 0;  // the group's index in the run
  NoiseRecord noise;
  // From Prepared: what the counters report.
  std::size_t memory_bytes = 0;
  double build_ms = 0, build_shared_ms = 0, remove_us = -1, readd_us = -1;
  uint64_t capacity = 0;  // path kBounded: the capacity of one batch
  unsigned threads_ran = 0;
  std::vector<uint64_t> thread_cpu_ns;  // Config::thread_cpu: per slot, every visit's slices
  // Its group's visit found disturbed (revisits.h): whether it was timed
  // again (the budget can stop the revisits) and the new rounds took its place.
  struct Revisit {
    Disturbed visit;
    bool timed = false, replaced = false;
  };
  std::optional<Revisit> revisit;
  // The median and the count of the rounds its figures use (those of the
  // visits kept, revisits.h, that the host ran in its fastest state by the
  // other members' pace, fastest_rounds.h); when a visit was left out, the
  // visits kept (0-based) and each visit's rounds.
  double ns_median = 0;
  std::size_t rounds_kept = 0;
  std::vector<unsigned> kept_visits, visit_sizes;
};

// The member of the group a configuration is compared with, as an index
// into `configs`: its kernel's scalar rival (KernelInfo::rival) at dispatch
// in the same group; else its scheme's baseline kernel (KernelInfo::baseline,
// such as ring/lower_bound) when it is not that kernel itself; else none. The
// two must differ in kernel and target alone, so they are of one scheme at
// one point: one block of a round's order (round_order.h).
std::optional<std::size_t> reference_of(std::span<const Config> configs, GroupSpan group,
                                        std::size_t i);

// Times every group of the run in order: the canary before each group, its
// members prepared (Workbench::prepare: built, checked), then the group's
// rounds (Step::rounds of `plan`, made for `configs` and `model`); progress
// after each group. After the visits, the visits a state of the host slowed
// (revisits.h) are timed again and replaced where the new rounds ran
// faster. One entry per
// configuration. Members that failed carry their error and are not timed.
std::vector<MemberRounds> time_groups(std::span<const Config> configs, Workbench& bench,
                                      NoiseMonitor& noise, const Plan& plan, const TimeModel& model,
                                      Progress& progress);

// The results' "chbench_groups": every group's members (configuration
// names, in run order) and each member's ns/key per round (null for a member
// not timed), as a JSON text.
std::string groups_json(std::span<const Config> configs, std::span<const MemberRounds> rounds);

// The results' "chbench_timing": the method, the order within a round
// (round_order.h: kBlockedOrder), rounds, visits, margins, minimum slice,
// seed, warm-up keys and confidence, as a JSON text.
std::string timing_json(const TimeModel& model);

}  // namespace chbench::bench
