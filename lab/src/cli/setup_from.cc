#include "cli/setup_from.h"

#include <charconv>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "chbench/profiles/profile_info.h"
#include "chbench/saturate.h"
#include "cli/applies.h"
#include "cli/guards.h"
#include "commands/owners.h"
#include "param_options.h"
#include "suggest.h"

namespace chbench::lab {

Format parse_format(const std::string& s) {
  if (s == "text") return Format::kText;
  if (s == "csv") return Format::kCsv;
  if (s == "json") return Format::kJson;
  throw std::invalid_argument("unknown format '" + s + "' (known: text, csv, json)");
}

namespace {

// "2,1,1" -> one weight per node of `nodes`, in node order: 1 ... 2^31, or 0
// ... 2^31 with `zero_allowed` (a scheme's weight 0 owns nothing).
std::vector<uint32_t> parse_weight_list(const std::string& spec, const NodeSet& nodes,
                                        bool zero_allowed) {
  std::vector<uint32_t> weights;
  std::size_t start = 0;
  const uint32_t least = zero_allowed ? 0 : 1;
  while (true) {
    const std::size_t comma = spec.find(',', start);
    const std::string item = spec.substr(start, comma - start);
    uint32_t w = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), w);
    if (ec != std::errc() || end != item.data() + item.size() || w < least || w > kMaxWeight)
      throw std::invalid_argument("--weights: '" + item + "' is not a weight " +
                                  std::to_string(least) + " ... 2^31");
    weights.push_back(w);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (weights.size() != nodes.size())
    throw std::invalid_argument("--weights gives " + std::to_string(weights.size()) +
                                " weights for " + std::to_string(nodes.size()) + " nodes");
  return weights;
}

// The ketama profile's weights, by server name.
std::map<std::string, uint32_t, std::less<>> parse_weights(const std::string& spec,
                                                           const NodeSet& nodes) {
  const std::vector<uint32_t> weights = parse_weight_list(spec, nodes, false);
  std::map<std::string, uint32_t, std::less<>> by_name;
  for (uint32_t i = 0; i < nodes.size(); ++i) by_name[nodes.names[i]] = weights[i];
  return by_name;
}

// --kernel as make_table takes it: "bucketed", or the full name
// "ring/bucketed" (or "ring/reference") when its scheme is the placement's
// (for a profile, profile_scheme()'s), the scheme named by name or alias.
// Throws std::invalid_argument for a full name of another scheme.
std::string kernel_option(const Setup& s, const std::string& kernel) {
  const std::size_t slash = kernel.find('/');
  if (slash == std::string::npos) return kernel;
  Scheme scheme{};
  try {
    scheme = parse_scheme(kernel.substr(0, slash));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("--kernel " + kernel + ": " + e.what());
  }
  if (scheme != s.scheme)
    throw std::invalid_argument("--kernel " + kernel + " is a kernel of scheme " +
                                std::string(scheme_name(scheme)) + ", not of " +
                                (s.placement.profile ? "the " + placement_name(s) + " profile's " +
                                                           std::string(scheme_name(s.scheme))
                                                     : std::string(scheme_name(s.scheme))));
  return kernel.substr(slash + 1);
}

// The fleet of --nodes. For a scheme that places keys by the bucket count
// alone (SchemeInfo::buckets_only) and a count N: Fleet::of_buckets(N), which
// holds no names (N up to the scheme's max_nodes costs no memory), unless a
// move's change (`add`, `remove`: none after a scenario, whose fleet the
// change applies to) names buckets otherwise than node-<i> (bucket_change(),
// which also refuses a bad change before any memory is estimated); every
// other fleet holds its names (parse_nodes, with its memory guard), with
// --capacity.
Fleet fleet_from(const Setup& s, const Options& o, uint32_t vnodes,
                 std::span<const std::string> add, std::span<const std::string> remove) {
  const std::optional<uint32_t> count = parse_node_count(o.nodes);
  if (count && *count > 0 && !s.placement.profile && scheme_info(s.scheme).buckets_only &&
      !o.count(kParamCapacity)) {
    Fleet buckets = Fleet::of_buckets(*count);
    if (bucket_change(s.scheme, buckets, add, remove)) return buckets;
    // The move names a bucket otherwise: every name is held, as for any
    // other scheme's move (parse_nodes' own guard would not say why).
    check_memory(saturating_mul(*count, kNodeBytes + kMoveNodeBytes),
                 "N = " + o.nodes +
                     " nodes held by name (this change names a bucket otherwise than node-<i>; "
                     "removing the last ones or adding node-" +
                     o.nodes + ", ... in order would not)");
  }
  NodeSet nodes =
      o.nodes_file.empty() ? parse_nodes(o.nodes, vnodes) : parse_node_file(o.nodes_file, vnodes);
  // V went into the names' NodeSet; every other count is set here, given or
  // its default (kParams).
  for (const ParamInfo& p : kParams)
    if (p.kind == ParamKind::kCount && p.param != kParamVnodes)
      set_count(p, nodes, o.count(p.param).value_or(p.default_value));
  return Fleet(std::move(nodes));  // the one fleet: every later use takes it by reference
}

// "--remove-fraction 0,0.1,0.5": each a fraction in [0, 1).
std::vector<double> parse_fractions(const std::string& spec) {
  std::vector<double> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = spec.find(',', start);
    const std::string item = spec.substr(start, comma - start);
    double f = -1;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), f);
    if (ec != std::errc() || end != item.data() + item.size() || !(f >= 0 && f < 1))
      throw std::invalid_argument("--remove-fraction: '" + item +
                                  "' is not a fraction of the nodes, at least 0 and below 1");
    out.push_back(f);
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

// The removal scenario of the command line, its options checked together;
// nullopt without one.
std::optional<ScenarioRequest> scenario_request(const Options& o) {
  const bool by_fraction = !o.remove_fraction.empty();
  if (!o.removal_order.empty() && !by_fraction)
    throw std::invalid_argument(
        "--removal-order needs --remove-fraction F (an order by name is --removed X,Y,...)");
  if (o.seed && o.removal_order != "random")
    throw std::invalid_argument("--seed applies to --removal-order random only");
  if (o.removed.empty() && !by_fraction) {
    if (o.readd)
      throw std::invalid_argument(
          "--readd needs a removal scenario: --removed X,Y,... or --remove-fraction F");
    return std::nullopt;
  }
  ScenarioRequest r;
  r.readds = o.readd.value_or(0);
  if (!by_fraction) {
    r.removed = o.removed;
    r.order = RemovalOrder::kExplicit;
    return r;
  }
  r.fractions = parse_fractions(o.remove_fraction);
  if (r.fractions.size() > 1 && o.command != Command::kBalance)
    throw std::invalid_argument(
        "--remove-fraction takes one fraction here (balance takes a list: a row per fraction)");
  if (!o.removal_order.empty()) {
    const std::optional<RemovalOrder> order = parse_removal_order(o.removal_order);
    if (!order)
      throw std::invalid_argument("unknown removal order '" + o.removal_order +
                                  "' (known: lifo, fifo, random; an order by name is --removed "
                                  "X,Y,...)");
    r.order = *order;
  }
  r.seed = o.seed.value_or(0);
  return r;
}

// With a removal scenario: the fleet of --nodes becomes s.initial and s.fleet
// the fleet after the scenario (at its first fraction; for move without its
// re-adds, which are move's change). Refuses what the scenario cannot take.
void apply_scenario_to(Setup& s, const Options& o, ScenarioRequest request) {
  const bool move = o.command == Command::kMove;
  if (o.rings != 1)
    throw std::invalid_argument(
        "--rings repeats over new node names and does not combine with a removal scenario");
  if (move && (!o.move.add.empty() || !o.move.remove.empty()) && request.readds != 0)
    throw std::invalid_argument(
        "--readd is move's change (the re-adds after the removals): it excludes --add and "
        "--remove");
  s.initial = std::move(s.fleet);
  const double first = request.fractions.empty() ? 0 : request.fractions[0];
  s.fleet = apply_scenario(s.scheme, s.initial, request, first, move ? 0 : request.readds);
  // A change after the scenario that names buckets: held by name, within the guard.
  if (move && !s.fleet.named() && !bucket_change(s.scheme, s.fleet, o.move.add, o.move.remove))
    check_memory(saturating_mul(s.fleet.size(), kNodeBytes + kMoveNodeBytes),
                 "N = " + std::to_string(s.fleet.size()) +
                     " nodes held by name (this change names a bucket otherwise than node-<i>)");
  s.scenario = std::move(request);
}

// --weights (where they apply: cli/applies.h): by name for the profiles that
// take kParamWeights, on the fleet's nodes for a scheme that takes them;
// refused with a removal scenario (a re-added node would weigh 1).
void apply_weights(Setup& s, const Options& o) {
  if (s.placement.profile) {
    s.placement.weights = parse_weights(o.list(kParamWeights), s.nodes());
    return;
  }
  if (s.scenario)
    throw std::invalid_argument(
        "--weights takes no removal scenario (--removed, --remove-fraction): the weights are "
        "those of --nodes");
  s.fleet.weigh(parse_weight_list(o.list(kParamWeights), s.nodes(), true));
}

// The scheme named `name` (or an alias); an unknown one's message names the
// nearest known name.
Scheme scheme_named(const std::string& name) {
  std::vector<std::string> known;
  for (const SchemeInfo& info : all_scheme_infos()) {
    known.emplace_back(info.name);
    for (const auto alias : info.aliases) known.emplace_back(alias);
  }
  try {
    return parse_scheme(name);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(e.what() + did_you_mean(name, known));
  }
}

// The same for a profile.
Profile profile_named(const std::string& name) {
  std::vector<std::string> known;
  for (const Profile p : all_profiles()) known.emplace_back(profile_name(p));
  try {
    return parse_profile(name);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(e.what() + did_you_mean(name, known));
  }
}

}  // namespace

Setup setup_from(const Options& o) {
  Setup s;
  if (o.scheme.empty() == o.profile.empty())
    throw std::invalid_argument("give --scheme or --profile (one of them)");
  if (!o.profile.empty()) {
    s.placement.profile = profile_named(o.profile);
    s.scheme = profile_scheme(*s.placement.profile);
  } else {
    s.scheme = scheme_named(o.scheme);
  }
  if (o.nodes.empty() == o.nodes_file.empty())
    throw std::invalid_argument(
        "give --nodes N, --nodes A,B,... or --nodes-file FILE (one of them)");
  s.placement.scheme = s.scheme;
  s.format = parse_format(o.format);
  s.key_format = parse_key_format(o.key_format);
  if (s.key_format == KeyFormat::kHash && !o.keys_given)
    throw std::invalid_argument(
        "--key-format hash needs --keys FILE or '-': the default, 100000, counts the keys "
        "user:1 ... user:100000, strings to be hashed");
  if (s.key_format == KeyFormat::kHash && s.placement.profile)
    throw std::invalid_argument(
        "--key-format hash gives key hashes, but the " + placement_name(s) +
        " profile hashes each key string its own way: give the keys as text, or use --scheme "
        "(every scheme takes key hashes)");
  refuse_inapplicable(s, o);
  const uint32_t profile_vnodes =
      s.placement.profile ? profile_info(*s.placement.profile).default_vnodes : 0;
  const uint32_t vnodes =
      o.count(kParamVnodes)
          .value_or(profile_vnodes != 0 ? profile_vnodes : param_info(kParamVnodes).default_value);
  if (vnodes == 0) throw std::invalid_argument("--vnodes must be at least 1 (V = 0)");
  std::optional<ScenarioRequest> scenario = scenario_request(o);
  if (scenario) {
    s.fleet = fleet_from(s, o, vnodes, {}, {});
    apply_scenario_to(s, o, std::move(*scenario));
  } else {
    s.fleet = fleet_from(s, o, vnodes, o.move.add, o.move.remove);
  }
  if (!o.list(kParamWeights).empty()) apply_weights(s, o);
  s.kernel = kernel_option(s, o.kernel);
  if (o.replicas) {
    s.replicas = *o.replicas;
    scheme_info(s.scheme).check(s.fleet);
    make_replica_table(s);  // throws: no replica sets, no replica lookup, R above N
  }
  s.kernel_name = kernel_full_name(s.placement, s.kernel);  // throws for an unknown kernel
  if (s.replicas != 0 && s.kernel.empty())
    s.kernel_name = default_replica_kernel(s.scheme)->full_name();
  if (s.placement.profile)
    profile_cluster(s.placement, s.nodes());  // throws for a cluster the profile refuses
  else
    scheme_info(s.scheme).check(s.fleet);
  return s;
}

}  // namespace chbench::lab
