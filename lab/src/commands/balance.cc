#include "commands/balance.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>

#include "chbench/profiles/profile_info.h"

namespace chbench::lab {

Spread spread_of(const std::vector<double>& values) {
  Spread s;
  const double n = static_cast<double>(values.size());
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  double sum = 0, squares = 0;
  for (double v : values) {
    sum += v;
    squares += v * v;
  }
  s.mean = sum / n;
  s.rms = std::sqrt(squares / n);
  double dev = 0;
  for (double v : values) dev += (v - s.mean) * (v - s.mean);
  s.sd = values.size() > 1 ? std::sqrt(dev / (n - 1)) : 0.0;
  return s;
}

bool places_by_position(const Setup& s) {
  if (s.placement.profile) return profile_info(*s.placement.profile).places_by_position;
  return scheme_info(s.scheme).buckets_only;
}

namespace {

void check_rings(const Setup& s, uint32_t rings) {
  if (rings == 0) throw std::invalid_argument("--rings must be at least 1");
  if (rings > kMaxRings) throw std::invalid_argument("--rings takes at most 100000 rings");
  if (rings == 1 || !places_by_position(s)) return;
  // The schemes where a repetition differs, in the registry's order.
  std::vector<std::string> by_name;
  for (const SchemeInfo& info : all_scheme_infos()) {
    Setup other;
    other.scheme = info.id;
    if (!places_by_position(other)) by_name.emplace_back(info.name);
  }
  std::string list;
  for (std::size_t i = 0; i < by_name.size(); ++i)
    list += (i == 0 ? "" : i + 1 == by_name.size() ? " or " : ", ") + by_name[i];
  throw std::invalid_argument("--rings repeats over new node names, but " + placement_name(s) +
                              " places keys by node position only: every repetition would be "
                              "the same; use --scheme " +
                              list);
}

// Spread of one ShareStats field over the rings.
Spread spread(const std::vector<ShareStats>& stats, double ShareStats::*field) {
  std::vector<double> v;
  for (const auto& st : stats) v.push_back(st.*field);
  return spread_of(v);
}

// ShareStats of ring i's keys (and circle), against the fair shares if any.
void add_stats(BalanceReport& r, uint32_t i) {
  const Balance& b = r.results[i];
  if (!r.weighted()) {
    r.key_stats.push_back(share_stats(std::span<const uint64_t>(b.node_keys)));
    if (r.circle) r.circle_stats.push_back(share_stats(std::span<const double>(b.circle)));
    return;
  }
  r.key_stats.push_back(fair_share_stats(std::span<const uint64_t>(b.node_keys), r.fair));
  if (r.circle)
    r.circle_stats.push_back(fair_share_stats(std::span<const double>(b.circle), r.fair));
}

}  // namespace

std::vector<double> fair_shares(const Setup& s) {
  const NodeSet& nodes = s.nodes();
  std::vector<double> w;
  if (!nodes.weights.empty()) {
    w.assign(nodes.weights.begin(), nodes.weights.end());
  } else if (!s.placement.weights.empty()) {
    for (const auto& name : nodes.names) {
      const auto it = s.placement.weights.find(name);
      w.push_back(it == s.placement.weights.end() ? 1.0 : it->second);
    }
  }
  double sum = 0;
  for (double x : w) sum += x;
  for (double& x : w) x /= sum;
  return w;
}

BalanceReport run_balance(const Setup& s, uint32_t rings, const KeySet& keys) {
  check_rings(s, rings);
  BalanceReport r;
  r.rings = rings;
  r.circle = !s.placement.profile && s.scheme == Scheme::kRing;
  r.nodes = s.fleet.size();
  r.keys = keys.size();
  r.base = &s.fleet;
  if (is_ketama(s.placement)) r.points = ketama_points(s.placement, s.nodes());
  r.results.push_back(measure_balance(s.placement, s.fleet, keys, s.kernel));
  for (uint32_t i = 1; i < rings; ++i) {
    // One replica at a time, dropped once measured: only its counts are kept.
    const Fleet replica(replica_nodes(s.nodes(), i));
    // Ketama weights follow their servers into the replica ("@r" names).
    Placement placement = s.placement;
    placement.weights.clear();
    for (const auto& [name, weight] : s.placement.weights)
      placement.weights[replica_name(name, i)] = weight;
    r.results.push_back(measure_balance(placement, replica, keys, s.kernel));
  }
  r.fair = fair_shares(s);
  for (uint32_t i = 0; i < rings; ++i) add_stats(r, i);
  r.key_busiest = spread(r.key_stats, &ShareStats::busiest_over_mean);
  r.key_std = spread(r.key_stats, &ShareStats::std_pct);
  if (r.circle) {
    r.circle_busiest = spread(r.circle_stats, &ShareStats::busiest_over_mean);
    r.circle_std = spread(r.circle_stats, &ShareStats::std_pct);
  }
  const uint64_t v = r.circle ? s.nodes().vnodes : 0;
  r.theory_keys = 100.0 * key_share_std_theory(r.nodes, v, r.keys);
  if (r.circle) r.theory_circle = 100.0 * ring_share_std_theory(r.nodes, v);
  if (r.circle && v == 1) r.theory_busiest = ring_busiest_theory_v1(r.nodes);
  return r;
}

namespace {

RemovalBalanceRow removal_row(const Setup& s, const Fleet& fleet, double fraction,
                              const KeySet& keys) {
  scheme_info(s.scheme).check(fleet);
  const Balance b = measure_balance(s.placement, fleet, keys, s.kernel);
  RemovalBalanceRow row;
  row.removed = removed_count(s.initial, *s.scenario, fraction);
  row.fraction = s.scenario->is_explicit()
                     ? static_cast<double>(row.removed) / static_cast<double>(s.initial.size())
                     : fraction;
  row.nodes = fleet.size();
  row.min = *std::min_element(b.node_keys.begin(), b.node_keys.end());
  row.max = *std::max_element(b.node_keys.begin(), b.node_keys.end());
  row.mean = static_cast<double>(keys.size()) / row.nodes;
  row.stats = share_stats(std::span<const uint64_t>(b.node_keys));
  return row;
}

}  // namespace

RemovalBalanceReport run_balance_removals(const Setup& s, const KeySet& keys) {
  const ScenarioRequest& r = *s.scenario;
  RemovalBalanceReport report;
  report.initial_nodes = s.initial.size();
  report.keys = keys.size();
  if (r.is_explicit()) {
    report.rows.push_back(removal_row(s, s.fleet, 0, keys));
    return report;
  }
  // The first fraction's fleet is the Setup's; the others are made in turn.
  report.rows.push_back(removal_row(s, s.fleet, r.fractions[0], keys));
  for (std::size_t i = 1; i < r.fractions.size(); ++i) {
    const Fleet fleet = apply_scenario(s.scheme, s.initial, r, r.fractions[i], r.readds);
    report.rows.push_back(removal_row(s, fleet, r.fractions[i], keys));
  }
  return report;
}

}  // namespace chbench::lab
