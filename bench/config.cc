#include "config.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "chbench/hash.h"
#include "chbench/simd.h"

namespace chbench::bench {

std::string removal_refusal(const SchemeInfo& s, RemovalOrder order) {
  const std::string title(s.title);
  switch (s.removal) {
    case Removal::kAnyNode:
      return "";
    case Removal::kLastOnly:
      if (order == RemovalOrder::kLifo) return "";
      return title + " lets only the last node leave: it takes --removal-order lifo, not " +
             std::string(removal_order_name(order));
    case Removal::kNone:
      break;
  }
  return title +
         " cannot lose a node without moving keys between survivors: no "
         "--removed-fraction for it";
}

namespace {

// A value as the name writes it: numbers to 6 significant digits (0.1 x 100
// is written 10).
template <typename T>
std::string text_of(const T& value) {
  std::ostringstream s;
  s << value;
  return s.str();
}

}  // namespace

Segments Config::segments() const {
  Segments out = {{"N", text_of(nodes)}, {"K", text_of(keys)}, {"threads", text_of(threads)}};
  if (in_flight != 0) out.emplace_back("inflight", text_of(in_flight));
  if (window_bits != 0) out.emplace_back("window", text_of(window_bits));
  if (path == Path::kBounded) out.emplace_back("c", text_of(balance_factor));
  if (removals) {
    out.emplace_back("removed", text_of(removals->fraction * 100));
    out.emplace_back("order", std::string(removal_order_name(removals->order)));
  }
  if (change != Change::kNone)
    out.emplace_back("change", change == Change::kRemoveOne ? "remove" : "readd");
  if (replicas != 0) out.emplace_back("R", text_of(replicas));
  for (const ParamInfo& p : kParams)
    if (std::optional<std::string> text = param_text(p)) out.emplace_back(p.segment, *text);
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return segment_rank(a.first) < segment_rank(b.first);
  });
  return out;
}

std::string Config::name() const {
  std::ostringstream s;
  if (profile)
    s << family << '/' << profile_name(*profile) << '/'
      << (client ? own_lookup_name(*profile) : kernel->name);
  else
    s << family << '/' << scheme_name(kernel->scheme) << '/' << kernel->name;
  if (target != 0) s << '@' << simd::target_name(target);
  for (const auto& [key, value] : segments()) s << '/' << key << ':' << value;
  return s.str();
}

bool Config::is_floor() const noexcept { return kernel && !kernel->floor.empty(); }

uint64_t Config::tokens() const {
  const bool vnodes_count = kernel && kernel->scheme_info().takes(kParamVnodes);
  return vnodes_count ? uint64_t{removals ? survivors() : nodes} * vnodes : 0;
}

uint64_t Config::pool() const noexcept { return keys * pool_windows(keys); }

uint64_t Config::checked() const noexcept {
  return std::min(pool(), keys * windows_of(keys, kMinChecked));
}

bool Config::scheme_takes(Param p) const noexcept {
  return kernel && !profile && kernel->scheme_info().takes(p);
}

uint32_t Config::count(Param p) const noexcept {
  return p == kParamVnodes ? vnodes : counts[param_index(p)];
}

std::optional<uint32_t> Config::named_count(const ParamInfo& p) const noexcept {
  const bool named = p.name_everywhere || scheme_takes(p.param);
  if (p.kind != ParamKind::kCount || !named || count(p.param) == 0) return std::nullopt;
  return count(p.param);
}

std::optional<std::string> Config::param_text(const ParamInfo& p) const {
  if (p.segment.empty()) return std::nullopt;
  if (p.kind == ParamKind::kPerNode)
    return scheme_weighted() ? std::optional<std::string>("1-4") : std::nullopt;
  const std::optional<uint32_t> v = named_count(p);
  return v ? std::optional(text_of(*v)) : std::nullopt;
}

ParamCounts Config::named_counts() const noexcept {
  ParamCounts out{};
  for (const ParamInfo& p : kParams)
    if (named_count(p)) out[param_index(p.param)] = counts[param_index(p.param)];
  return out;
}

bool Config::scheme_weighted() const noexcept { return weighted && scheme_takes(kParamWeights); }

std::vector<uint32_t> weight_pattern(uint32_t n) {
  std::vector<uint32_t> w(n);
  for (uint32_t i = 0; i < n; ++i) w[i] = 1 + i % 4;
  return w;
}

uint32_t Config::survivors() const {
  uint32_t n = nodes - (removals ? removal_count(removals->fraction, nodes) : 0);
  if (change == Change::kRemoveOne) --n;
  if (change == Change::kReaddOne) ++n;
  return n;
}

namespace {

// The parameters of a fleet of the configuration: V and the counts set (not 0).
NodeSet fleet_params(uint32_t vnodes, const ParamCounts& counts) {
  NodeSet out;
  out.vnodes = vnodes;
  for (const ParamInfo& p : kParams)
    if (p.param != kParamVnodes && counts[param_index(p.param)] != 0)
      set_count(p, out, counts[param_index(p.param)]);
  return out;
}

}  // namespace

std::shared_ptr<const Fleet> default_fleet(uint32_t n, uint32_t vnodes, const ParamCounts& counts,
                                           bool weighted) {
  // Families run fleet after fleet: the last few cover every repeat.
  static std::map<std::tuple<uint32_t, uint32_t, ParamCounts, bool>, std::shared_ptr<const Fleet>>
      cache;
  static uint64_t names = 0;
  const auto key = std::tuple{n, vnodes, counts, weighted};
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  if (names + n > 4'000'000) {
    cache.clear();
    names = 0;
  }
  NodeSet nodes = fleet_params(vnodes, counts);
  nodes.names = default_nodes(n, vnodes).names;
  if (weighted) nodes.weights = weight_pattern(n);
  auto fleet = std::make_shared<const Fleet>(std::move(nodes));
  cache.emplace(key, fleet);
  names += n;
  return fleet;
}

bool config_named(const Config& c) {
  // Buckets 0 ... N-1 stand for the survivors only after LIFO removals.
  const bool lifo = !c.removals || c.removals->order == RemovalOrder::kLifo;
  return c.profile || c.kernel == nullptr || !c.kernel->scheme_info().buckets_only || !lifo;
}

namespace {

// The scenario's fleet before any change, shared like default_fleet's.
std::shared_ptr<const Fleet> scenario_config_fleet(const Config& c) {
  using Key = std::tuple<uint32_t, uint32_t, ParamCounts, Removals>;
  static std::map<Key, std::shared_ptr<const Fleet>> cache;
  static uint64_t names = 0;  // strings held: the names in service, the initial ones, the history
  const Key key{c.nodes, c.vnodes, c.counts, *c.removals};
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  if (names + 3 * uint64_t{c.nodes} > 8'000'000) {
    cache.clear();
    names = 0;
  }
  Scenario s;
  s.nodes = c.nodes;
  take_params(s, fleet_params(c.vnodes, c.counts));
  s.order = c.removals->order;
  s.remove_fraction = c.removals->fraction;
  s.seed = kRemovalSeed;
  auto fleet = std::make_shared<const Fleet>(scenario_fleet(s));
  cache.emplace(key, fleet);
  names += 3 * uint64_t{c.nodes};
  return fleet;
}

// The node Change::kRemoveOne removes: the next of the scenario's order.
std::string next_removal(const Config& c) {
  const uint32_t n = c.nodes, count = removal_count(c.removals->fraction, n);
  switch (c.removals->order) {
    case RemovalOrder::kLifo:
      return default_node_name(n - 1 - count);
    case RemovalOrder::kFifo:
      return default_node_name(count);
    case RemovalOrder::kRandom:
    case RemovalOrder::kExplicit:
      break;
  }
  return default_node_name(random_removals(n, count + 1, kRemovalSeed).back());
}

// The scenario's fleet with the configuration's change applied: a copy,
// shared only while a caller holds it (a change build asks twice: for the
// kernel's estimate and for its ring's entries).
std::shared_ptr<const Fleet> changed_fleet(const Config& c, const Fleet& base) {
  using Key = std::tuple<uint32_t, uint32_t, ParamCounts, Removals, Change>;
  static Key last_key;
  static std::weak_ptr<const Fleet> last;
  const Key key{c.nodes, c.vnodes, c.counts, *c.removals, c.change};
  if (auto held = last.lock(); held && key == last_key) return held;
  Fleet fleet = base;
  if (c.change == Change::kRemoveOne) {
    fleet.leave(next_removal(c));
  } else {
    const std::vector<std::string> removed = fleet.removed();
    fleet.join(removed.empty() ? default_node_name(c.nodes) : removed.back());
  }
  auto out = std::make_shared<const Fleet>(std::move(fleet));
  last_key = key;
  last = out;
  return out;
}

}  // namespace

std::shared_ptr<const Fleet> config_fleet(const Config& c) {
  if (c.removals && c.kernel && !c.profile) {
    const std::string why = removal_refusal(c.kernel->scheme_info(), c.removals->order);
    if (!why.empty()) throw std::invalid_argument(why);
  }
  if (config_named(c)) {
    if (!c.removals) return default_fleet(c.nodes, c.vnodes, c.counts, c.scheme_weighted());
    auto base = scenario_config_fleet(c);
    return c.change == Change::kNone ? base : changed_fleet(c, *base);
  }
  // No names: under LIFO removal the survivors are buckets 0 ... survivors - 1.
  static std::map<uint32_t, std::shared_ptr<const Fleet>> cache;  // no names: bytes each
  auto& fleet = cache[c.survivors()];
  if (!fleet) fleet = std::make_shared<const Fleet>(Fleet::of_buckets(c.survivors()));
  return fleet;
}

const KernelInfo& stream_baseline() noexcept { return stream_floor(); }

}  // namespace chbench::bench
