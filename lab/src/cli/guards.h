// The lab's guards before a command builds anything: the memory its tables
// and per-node state would take, and the time its lookups would take, each
// refused with the estimate (keys.h: check_memory, check_time).
#pragma once

#include <cstdint>

#include "cli/options.h"
#include "commands/setup.h"

namespace chbench::lab {

// What the lab holds per node besides the tables (keys.h: kNodeBytes for
// every command), measured like kNodeBytes (peak RSS at N = 10^6 and 10^7,
// jump and hrw, 2 threads, while a Fleet still copied its names: owners 118 B
// a node, move 196, balance 118, balance over 2 rings with hrw 188; owners is
// 88 B since) and rounded up by about a fifth:
// - move, on top: the fleet after the change (a second Fleet: names and
//   initial list), the name index matching the two (about 56 B) and the four
//   node maps (16 B), less validate()'s set, gone by then (196 B measured, 240
//   budgeted in all);
inline constexpr uint64_t kMoveNodeBytes = 96;
// - balance, per ring: the counts kept in the report (kCountBytes a node)
//   and, for the ring scheme, the circle shares (8 B); each thread's counts
//   (up to 2^16 nodes; the threads share one array above) and the circle's
//   sums are freed before validate()'s peak is reached again;
inline constexpr uint64_t kCountBytes = 8;
inline constexpr uint64_t kBalanceNodeBytes = kCountBytes + 8;
// - balance over more than one ring: one replica fleet of names at a time.
inline constexpr uint64_t kReplicaNodeBytes = 64;

// Refuses a command whose tables would not fit in memory, before any is
// built: the registry's estimate of the table (table_bytes: the kernel's peak
// while building and holding it; move builds two), and the lab's own bytes a
// node (kNodeBytes and those above). A scenario's fleets are estimated as the
// fleet of --nodes (none is larger; its names were guarded when it was made).
// Also refuses --rings past kMaxRings first. Throws std::invalid_argument.
void check_tables_fit(const Setup& s, const Options& o);

// Refuses a job of counted keys estimated at hours unless --allow-long
// (check_time): K lookups (twice for move, once a ring for balance), each
// scoring every node for a scheme that does (SchemeInfo::scores_every_node).
// Throws std::invalid_argument.
void check_job_time(const Setup& s, const Options& o);

}  // namespace chbench::lab
