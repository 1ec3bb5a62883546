// chbench-lab balance: each node's share of the keys (ring: and of the
// circle), repeated over independent rings, with the theory beside it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chbench/nodes.h"
#include "commands/setup.h"
#include "keys.h"
#include "placement.h"

namespace chbench::lab {

// Most repetitions balance takes.
inline constexpr uint32_t kMaxRings = 100000;

// Mean, standard deviation (n - 1), extremes and root mean square of one
// metric over the rings.
struct Spread {
  double mean = 0, sd = 0, min = 0, max = 0, rms = 0;
};
// Precondition: values non-empty.
Spread spread_of(const std::vector<double>& values);

// The result of a balance run, everything the writers print.
struct BalanceReport {
  uint32_t rings = 1;
  bool circle = false;  // the ring scheme: circle shares measured
  uint32_t nodes = 0;   // per ring
  uint64_t keys = 0;
  // Ring 0's nodes: the Setup's fleet (the report must not outlive it). Ring
  // r's names are replica_name(name, r), made when printed: no ring's names
  // are kept.
  const Fleet* base = nullptr;
  std::vector<Balance> results;                             // per ring
  std::vector<ShareStats> key_stats, circle_stats;          // per ring (circle: ring scheme only)
  Spread key_busiest, key_std, circle_busiest, circle_std;  // over the rings
  double theory_keys = 0;                                   // key_share_std_theory, % of fair
  double theory_circle = 0;              // ring_share_std_theory, % of fair (ring scheme only)
  std::optional<double> theory_busiest;  // H_N, for the ring at V = 1
  // The ketama profile: each server's continuum points (ketama_points), the
  // same in every ring; empty otherwise.
  std::vector<uint32_t> points;
  // With weights (a scheme's --weights, ketama's): node i's fair share w_i /
  // sum(w), and the stats above are of share_i / fair_i over the nodes of
  // weight above 0 (busiest: the highest share over its fair share), the
  // theory (equal shares) left out. Empty without weights.
  std::vector<double> fair;
  bool weighted() const noexcept { return !fair.empty(); }

  // The name of node i in ring `ring`.
  std::string name(uint32_t ring, uint32_t i) const {
    return replica_name(owner_name(*base, i), ring);
  }
};

// True for a placement that places keys by node position, not by name (a
// scheme that places by the bucket count alone, SchemeInfo::buckets_only:
// mod-N, jump, ...; the Kafka and Redis profiles): every repetition over new
// names is the same.
bool places_by_position(const Setup& s);

// Each node's fair share w_i / sum(w) under the setup's weights (a scheme's,
// or ketama's by name); empty without weights.
std::vector<double> fair_shares(const Setup& s);

// Checks `rings` (1 ... kMaxRings; 1 for a placement by position), measures
// every repetition (ketama weights follow their servers into the replicas)
// and summarises. Throws std::invalid_argument for refused rings, and like
// measure_balance.
BalanceReport run_balance(const Setup& s, uint32_t rings, const KeySet& keys);

// One row of balance after a removal scenario: the fleet left at one removed
// fraction (and the re-adds), its key counts summarised.
struct RemovalBalanceRow {
  double fraction = 0;  // as asked; for --removed, removed / N
  uint32_t removed = 0;
  uint32_t nodes = 0;  // in service: N - removed + re-adds
  uint64_t min = 0, max = 0;
  double mean = 0;  // keys / nodes
  ShareStats stats;
};

// The result of balance over a removal scenario: a row per fraction, in the
// order given.
struct RemovalBalanceReport {
  uint32_t initial_nodes = 0;
  uint64_t keys = 0;
  std::vector<RemovalBalanceRow> rows;
};

// Makes the fleet of every fraction of s.scenario in turn (apply_scenario,
// checked by the scheme), counts its keys and keeps only the row. Throws
// like apply_scenario, SchemeInfo::check and measure_balance, before any row
// is printed. Precondition: s.scenario.
RemovalBalanceReport run_balance_removals(const Setup& s, const KeySet& keys);

}  // namespace chbench::lab
