#include "chbench/scenario.h"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <unordered_set>
#include <utility>

#include "chbench/hash.h"

namespace chbench {

namespace {

// SplitMix64's next output (Steele, Lea and Flood 2014; the constants of
// java.util.SplittableRandom).
uint64_t splitmix64_next(uint64_t& state) noexcept {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// node-<i> of the default list, or the invalid_argument naming `name`.
uint32_t default_index(const std::string& name, uint32_t n) {
  const std::string_view prefix = "node-";
  const std::string_view digits =
      std::string_view(name).substr(std::min(name.size(), prefix.size()));
  bool ok = name.starts_with(prefix) && !digits.empty() && digits.size() <= 10 &&
            (digits.size() == 1 || digits[0] != '0');
  uint64_t i = 0;
  for (char c : digits) {
    ok = ok && c >= '0' && c <= '9';
    i = i * 10 + static_cast<uint64_t>(c - '0');
  }
  if (!ok || i >= n)
    throw std::invalid_argument("removed node '" + name + "' is not one of node-0 ... node-" +
                                std::to_string(n - 1));
  return static_cast<uint32_t>(i);
}

// The initial node count: N, or the size of the list given.
uint32_t initial_count(const Scenario& s) {
  if (s.names.empty()) return s.nodes;
  if (s.names.size() > 0xffffffffu)
    throw std::invalid_argument("more than 2^32 - 1 initial nodes cannot be indexed by uint32_t");
  return static_cast<uint32_t>(s.names.size());
}

// Name i of the initial list.
std::string initial_name(const Scenario& s, uint32_t i) {
  return s.names.empty() ? default_node_name(i) : s.names[i];
}

// The explicit removals checked against the initial list: members, each once.
void check_explicit(const Scenario& s, uint32_t n) {
  std::unordered_set<std::string_view> known(s.names.begin(), s.names.end());
  std::unordered_set<std::string_view> seen;
  for (const std::string& name : s.removed) {
    if (s.names.empty())
      default_index(name, n);
    else if (!known.contains(name))
      throw std::invalid_argument("removed node '" + name + "' is not in the initial node list");
    if (!seen.insert(name).second)
      throw std::invalid_argument("node '" + name + "' is removed twice");
  }
}

std::vector<std::string> explicit_list(const Scenario& s, uint32_t n) {
  check_explicit(s, n);
  if (s.removed.size() >= n)
    throw std::invalid_argument("the scenario removes every node; a fleet keeps at least one");
  return s.removed;
}

}  // namespace

std::string_view removal_order_name(RemovalOrder order) noexcept {
  switch (order) {
    case RemovalOrder::kLifo:
      return "lifo";
    case RemovalOrder::kFifo:
      return "fifo";
    case RemovalOrder::kRandom:
      return "random";
    case RemovalOrder::kExplicit:
      return "explicit";
  }
  return "lifo";
}

std::optional<RemovalOrder> parse_removal_order(std::string_view name) noexcept {
  for (RemovalOrder o : {RemovalOrder::kLifo, RemovalOrder::kFifo, RemovalOrder::kRandom})
    if (name == removal_order_name(o)) return o;
  return std::nullopt;
}

uint32_t fleet_capacity(const Fleet& fleet, uint32_t max) {
  const uint64_t initial = fleet.initial().size();
  const uint64_t a = fleet.nodes().capacity != 0 ? fleet.nodes().capacity : 10 * initial;
  if (a < initial)
    throw std::invalid_argument("capacity " + std::to_string(a) + " is below the " +
                                std::to_string(initial) + " nodes the fleet started with");
  if (a > max)
    throw std::invalid_argument("capacity " + std::to_string(a) + " is above the scheme's " +
                                std::to_string(max));
  return static_cast<uint32_t>(a);
}

uint32_t removal_count(double fraction, uint32_t n) {
  if (!(fraction >= 0 && fraction < 1))
    throw std::invalid_argument("the removed fraction must be at least 0 and below 1");
  const auto count = static_cast<uint64_t>(std::llround(fraction * n));
  return static_cast<uint32_t>(std::min<uint64_t>(count, n == 0 ? 0 : n - 1));
}

std::vector<uint32_t> random_removals(uint32_t n, uint32_t count, uint64_t seed) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  uint64_t state = seed;
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t r = splitmix64_next(state);
    const auto j = i + static_cast<uint32_t>((static_cast<unsigned __int128>(r) * (n - i)) >> 64);
    std::swap(order[i], order[j]);
  }
  order.resize(count);
  return order;
}

std::vector<std::string> removal_list(const Scenario& s) {
  const uint32_t n = initial_count(s);
  if (n == 0) throw std::invalid_argument("the node count must be at least 1 (N = 0)");
  if (s.order == RemovalOrder::kExplicit) return explicit_list(s, n);
  const uint32_t count = removal_count(s.remove_fraction, n);
  std::vector<std::string> out;
  out.reserve(count);
  if (s.order == RemovalOrder::kRandom) {
    for (uint32_t i : random_removals(n, count, s.seed)) out.push_back(initial_name(s, i));
  } else {
    for (uint32_t k = 0; k < count; ++k)
      out.push_back(initial_name(s, s.order == RemovalOrder::kFifo ? k : n - 1 - k));
  }
  return out;
}

void take_params(Scenario& s, const NodeSet& nodes) {
  s.vnodes = nodes.vnodes;
  s.table_size = nodes.table_size;
  s.capacity = nodes.capacity;
  s.probes = nodes.probes;
  s.counts = nodes.counts;
}

Fleet scenario_fleet(const Scenario& s) {
  const std::vector<std::string> removed = removal_list(s);
  if (s.readds > removed.size())
    throw std::invalid_argument(std::to_string(s.readds) + " re-adds, but the scenario removes " +
                                std::to_string(removed.size()) + " nodes");
  NodeSet nodes = s.names.empty() ? default_nodes(s.nodes, s.vnodes) : NodeSet{s.names, s.vnodes};
  nodes.table_size = s.table_size;
  nodes.capacity = s.capacity;
  nodes.probes = s.probes;
  nodes.counts = s.counts;
  Fleet fleet(std::move(nodes));
  fleet.leave_all(removed);
  const std::vector<std::string> back(removed.rbegin(), removed.rbegin() + s.readds);
  fleet.join_all(back);
  return fleet;
}

}  // namespace chbench
