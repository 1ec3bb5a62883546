#include "removals.h"

#include <stdexcept>

#include "chbench/hash.h"
#include "keys.h"

namespace chbench::lab {

namespace {

std::string lifo_only(Scheme scheme) {
  return std::string(scheme_info(scheme).title) +
         " takes LIFO removal only (its buckets are 0 ... N-1: only the last can leave)";
}

// Name i of the initial fleet (a fleet of buckets names none).
std::string initial_name(const Fleet& initial, uint32_t i) {
  return initial.named() ? initial.nodes().names[i] : default_node_name(i);
}

// True when the explicit list removes the last node in service at each step.
// Names no bucket of a fleet of buckets.
bool explicit_is_lifo(const Fleet& initial, const ScenarioRequest& r) {
  const uint32_t n = initial.size();
  if (r.removed.size() >= n) return false;
  for (uint32_t k = 0; k < r.removed.size(); ++k)
    if (r.removed[k] != initial_name(initial, n - 1 - k)) return false;
  return true;
}

// True for node-0 ... node-(N-1), the list of --nodes N.
bool default_names(const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] != default_node_name(i)) return false;
  return true;
}

// The scenario over the initial fleet's names (node-0 ... node-(N-1) given
// by count, no copy, for the default list and a fleet of buckets), with its
// parameters (take_params).
Scenario scenario_over(const Fleet& initial, const ScenarioRequest& r, double fraction,
                       uint32_t readds) {
  Scenario s;
  s.nodes = initial.size();
  if (initial.named() && !default_names(initial.nodes().names)) s.names = initial.nodes().names;
  take_params(s, initial.nodes());
  s.order = r.order;
  s.remove_fraction = fraction;
  s.seed = r.seed;
  s.removed = r.removed;
  s.readds = readds;
  return s;
}

}  // namespace

void check_removal_order(Scheme scheme, const Fleet& initial, const ScenarioRequest& r) {
  if (scheme_info(scheme).removal != Removal::kLastOnly) return;
  const std::string any = "; any order: " + schemes_removing(Removal::kAnyNode);
  if (!r.is_explicit()) {
    if (r.order == RemovalOrder::kLifo) return;
    throw std::invalid_argument(lifo_only(scheme) + ", not --removal-order " +
                                std::string(removal_order_name(r.order)) + any);
  }
  const uint32_t n = initial.size();
  for (uint32_t k = 0; k < r.removed.size() && k + 1 < n; ++k) {
    const std::string last = initial_name(initial, n - 1 - k);
    if (r.removed[k] != last)
      throw std::invalid_argument(lifo_only(scheme) + ": removal " + std::to_string(k + 1) +
                                  " of --removed must be '" + last +
                                  "', the last node in service, not '" + r.removed[k] + "'" + any);
  }
}

uint32_t removed_count(const Fleet& initial, const ScenarioRequest& r, double fraction) {
  return r.is_explicit() ? static_cast<uint32_t>(r.removed.size())
                         : removal_count(fraction, initial.size());
}

Fleet apply_scenario(Scheme scheme, const Fleet& initial, const ScenarioRequest& r, double fraction,
                     uint32_t readds) {
  check_removal_order(scheme, initial, r);
  const uint64_t n = initial.size();
  if (r.removed.size() >= n)
    throw std::invalid_argument("the scenario removes every node; a fleet keeps at least one");
  const bool lifo = r.is_explicit() ? explicit_is_lifo(initial, r) : r.order == RemovalOrder::kLifo;
  if (initial.named() || !lifo) {
    const std::string what = "the removal scenario over N = " + std::to_string(n) + " nodes";
    if (initial.named())
      check_memory(n * kScenarioNodeBytes, what);
    else  // only a LIFO removal keeps a fleet of buckets nameless
      check_memory(n * (kNodeBytes + kScenarioNodeBytes),
                   what + " (" + order_label(r) + " names every bucket; LIFO would not)");
    return scenario_fleet(scenario_over(initial, r, fraction, readds));
  }
  const uint32_t removed = removed_count(initial, r, fraction);
  if (readds > removed)
    throw std::invalid_argument(std::to_string(readds) + " re-adds, but the scenario removes " +
                                std::to_string(removed) + " nodes");
  return Fleet::of_buckets(initial.size() - removed + readds);
}

std::vector<std::string> rejoining(const Fleet& removed, uint32_t initial_size, uint32_t readds) {
  std::vector<std::string> gone;
  if (removed.named()) gone = removed.removed();
  const std::size_t count = removed.named() ? gone.size() : initial_size - removed.size();
  if (readds > count)
    throw std::invalid_argument(std::to_string(readds) + " re-adds, but the scenario removes " +
                                std::to_string(count) + " nodes");
  std::vector<std::string> out;
  out.reserve(readds);
  for (uint32_t k = 0; k < readds; ++k)
    out.push_back(removed.named() ? gone[gone.size() - 1 - k]
                                  : default_node_name(removed.size() + k));
  return out;
}

std::string schemes_removing(Removal removal) {
  std::string list;
  for (const SchemeInfo& info : all_scheme_infos())
    if (info.removal == removal) list += (list.empty() ? "" : ", ") + std::string(info.name);
  return list;
}

std::string order_label(const ScenarioRequest& r) {
  switch (r.order) {
    case RemovalOrder::kRandom:
      return "random order, seed " + std::to_string(r.seed);
    case RemovalOrder::kExplicit:
      return "the order given";
    case RemovalOrder::kLifo:
      return "LIFO order (the last first)";
    case RemovalOrder::kFifo:
      break;
  }
  return "FIFO order (the first first)";
}

}  // namespace chbench::lab
