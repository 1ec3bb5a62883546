// chbench-lab: what each placement scheme does to the data. Three commands:
//   owners   each key's owner;
//   move     which keys change owner when nodes join or leave;
//   balance  how evenly keys (and, for the ring, the circle) spread.
// The measurements live in src/placement.{h,cc}, the commands in
// src/commands/ (each computes a result), the output formats in src/writers/
// (one writer per format renders every result); this file parses the command
// line, checks it and dispatches. Schemes, their parameters, what a leave
// means and their default kernels come from the registry (scheme.h). Exit
// status: 0 ok, 1 an internal failure (out of memory, a write error), 2 bad
// input, always with a one-line message on stderr and nothing on stdout for
// that error.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <exception>
#include <limits>
#include <map>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "commands/balance.h"
#include "commands/load.h"
#include "commands/move.h"
#include "commands/owners.h"
#include "commands/setup.h"
#include "param_options.h"
#include "placement.h"
#include "suggest.h"
#include "writers/load.h"
#include "writers/tokens.h"
#include "writers/writer.h"

namespace chbench::lab {
namespace {

constexpr const char* kProgram = "chbench-lab";

// ---- options -------------------------------------------------------------------

struct Options {
  std::string scheme;
  std::string profile;
  std::string nodes;
  std::string nodes_file;  // --nodes-file: one name per line, instead of --nodes
  std::string keys;
  std::string key_format = "text";
  bool allow_long = false;         // --allow-long: past the time estimate's bound
  bool keys_given = false;         // --keys on the command line (move and balance have a default)
  std::optional<uint32_t> vnodes;  // default 100 (ring), 256 (cassandra profile)
  std::string weights;             // schemes taking kParamWeights, ketama profile
  std::optional<uint32_t> table_size;  // Maglev (default kDefaultTableSize)
  std::string format = "text";
  std::string kernel;
  unsigned threads = 0;
  MoveRequest move;  // --add, --remove, --list
  uint32_t rings = 1;
  std::optional<uint32_t> capacity;  // kParamCapacity schemes
  std::optional<uint32_t> probes;    // kParamProbes schemes (multi-probe's k)
  std::optional<uint32_t> replicas;  // owners --replicas R
  // The removal scenario: --removed, or --remove-fraction with
  // --removal-order and --seed; --readd.
  std::vector<std::string> removed;
  std::string remove_fraction, removal_order;
  std::optional<uint64_t> seed;
  std::optional<uint32_t> readd;
  bool balance = false, move_command = false;  // which command was parsed
  LoadOptions load;  // --popularity, --requests, --popularity-seed, --bounded-load
};

Format parse_format(const std::string& s) {
  if (s == "text") return Format::kText;
  if (s == "csv") return Format::kCsv;
  if (s == "json") return Format::kJson;
  throw std::invalid_argument("unknown format '" + s + "' (known: text, csv, json)");
}

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

uint64_t saturating_add(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max()
                                                      : a + b;
}

uint64_t saturating_mul(uint64_t a, uint64_t b) {
  return b != 0 && a > std::numeric_limits<uint64_t>::max() / b
             ? std::numeric_limits<uint64_t>::max()
             : a * b;
}

// What the lab holds per node besides the tables (keys.h: kNodeBytes for
// every command), measured like kNodeBytes (peak RSS at N = 10^6 and 10^7,
// jump and hrw, 2 threads, while a Fleet still copied its names: owners 118 B
// a node, move 196, balance 118, balance over 2 rings with hrw 188; owners is
// 88 B since) and rounded up by about a fifth:
// - move, on top: the fleet after the change (a second Fleet: names and
//   initial list), the name index matching the two (about 56 B) and the four
//   node maps (16 B), less validate()'s set, gone by then (196 B measured, 240
//   budgeted in all);
constexpr uint64_t kMoveNodeBytes = 96;
// - balance, per ring: the counts kept in the report (kCountBytes a node)
//   and, for the ring scheme, the circle shares (8 B); each thread's counts
//   (up to 2^16 nodes; the threads share one array above) and the circle's
//   sums are freed before validate()'s peak is reached again;
constexpr uint64_t kCountBytes = 8;
constexpr uint64_t kBalanceNodeBytes = kCountBytes + 8;
// - balance over more than one ring: one replica fleet of names at a time.
constexpr uint64_t kReplicaNodeBytes = 64;

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
      !o.capacity) {
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
  nodes.table_size = o.table_size.value_or(kDefaultTableSize);
  nodes.capacity = o.capacity.value_or(0);
  if (o.probes) nodes.probes = *o.probes;
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
  if (r.fractions.size() > 1 && !o.balance)
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

// The schemes that take parameter `p`: "ring", "ring, maglev".
std::string schemes_taking(Param p);

// Refuses --capacity where no bucket capacity is read, naming the schemes
// that read one (the registry's kParamCapacity).
void check_capacity_option(const Setup& s, uint32_t capacity) {
  if (!uses_capacity(s)) {
    const std::string takers = schemes_taking(kParamCapacity);
    throw std::invalid_argument(
        "--capacity applies to the schemes that keep a bucket capacity above N" +
        (takers.empty() ? std::string(", and no scheme of this build does")
                        : " (" + takers + ") only, not to " + placement_name(s)));
  }
  if (capacity == 0)
    throw std::invalid_argument(
        "--capacity must be at least the node count (leave it out for the default, 10 x N)");
}

// With a removal scenario: the fleet of --nodes becomes s.initial and s.fleet
// the fleet after the scenario (at its first fraction; for move without its
// re-adds, which are move's change). Refuses what the scenario cannot take.
void apply_scenario_to(Setup& s, const Options& o, ScenarioRequest request) {
  if (s.placement.profile)
    throw std::invalid_argument(
        "the removal scenario options (--removed, --remove-fraction, --readd) apply to --scheme; "
        "a profile changes its cluster with move --add / --remove");
  if (o.rings != 1)
    throw std::invalid_argument(
        "--rings repeats over new node names and does not combine with a removal scenario");
  if (o.move_command && (!o.move.add.empty() || !o.move.remove.empty()) && request.readds != 0)
    throw std::invalid_argument(
        "--readd is move's change (the re-adds after the removals): it excludes --add and "
        "--remove");
  s.initial = std::move(s.fleet);
  const double first = request.fractions.empty() ? 0 : request.fractions[0];
  s.fleet =
      apply_scenario(s.scheme, s.initial, request, first, o.move_command ? 0 : request.readds);
  // A change after the scenario that names buckets: held by name, within the guard.
  if (o.move_command && !s.fleet.named() &&
      !bucket_change(s.scheme, s.fleet, o.move.add, o.move.remove))
    check_memory(saturating_mul(s.fleet.size(), kNodeBytes + kMoveNodeBytes),
                 "N = " + std::to_string(s.fleet.size()) +
                     " nodes held by name (this change names a bucket otherwise than node-<i>)");
  s.scenario = std::move(request);
}

// Refuses --vnodes and --table-size where the placement reads no such
// parameter (param_options.h), and M above the lab's bound.
void check_parameter_options(const Setup& s, const Options& o) {
  const std::string name =
      s.placement.profile ? "the " + placement_name(s) + " profile" : placement_name(s);
  if (o.vnodes) check_applies(s.placement, kParamVnodes, "--vnodes", name);
  if (o.table_size) {
    check_applies(s.placement, kParamTableSize, "--table-size", name);
    check_table_size_bound(*o.table_size);
  }
}

// --weights: by name for the ketama profile, on the fleet's nodes for a
// scheme that takes kParamWeights; refused, naming who takes them, elsewhere
// and with a removal scenario (a re-added node would weigh 1).
void apply_weights(Setup& s, const Options& o) {
  const std::string takers = schemes_taking(kParamWeights);
  if (s.placement.profile == Profile::kKetama) {
    s.placement.weights = parse_weights(o.weights, s.nodes());
    return;
  }
  if (s.placement.profile || !scheme_info(s.scheme).takes(kParamWeights))
    throw std::invalid_argument(
        "--weights applies to --profile ketama only among the profiles, "
        "and to the schemes " +
        takers + ", not to " + placement_name(s));
  if (s.scenario)
    throw std::invalid_argument(
        "--weights takes no removal scenario (--removed, --remove-fraction): the weights are "
        "those of --nodes");
  s.fleet.weigh(parse_weight_list(o.weights, s.nodes(), true));
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

// Everything a command needs, parsed and checked before anything is printed:
// the scheme's own limits (SchemeInfo::check) or the profile's.
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
  check_parameter_options(s, o);
  const uint32_t vnodes = o.vnodes.value_or(s.placement.profile == Profile::kCassandra ? 256 : 100);
  if (vnodes == 0) throw std::invalid_argument("--vnodes must be at least 1 (V = 0)");
  if (o.capacity) check_capacity_option(s, *o.capacity);
  if (o.probes && (s.placement.profile || !scheme_info(s.scheme).takes(kParamProbes)))
    throw std::invalid_argument("--probes applies to " + schemes_taking(kParamProbes) +
                                " only, not to " + placement_name(s));
  std::optional<ScenarioRequest> scenario = scenario_request(o);
  if (scenario) {
    s.fleet = fleet_from(s, o, vnodes, {}, {});
    apply_scenario_to(s, o, std::move(*scenario));
  } else {
    s.fleet = fleet_from(s, o, vnodes, o.move.add, o.move.remove);
  }
  if (!o.weights.empty()) apply_weights(s, o);
  s.kernel = kernel_option(s, o.kernel);
  if (o.replicas) {
    if (s.placement.profile)
      throw std::invalid_argument("--replicas applies to --scheme, not to a profile");
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

// A fleet of buckets (setup_from: a buckets_only scheme, --nodes N) holds no
// names, and a move keeps it one (bucket_change): its tables are the
// registry's estimate (none for today's such schemes) and a move matches
// buckets by index, its flows counted for the keys that move only. Only
// balance's key counts grow with N: kCountBytes a bucket.
void check_buckets_fit(const Setup& s, const Fleet& f, bool move, bool balance) {
  const uint64_t n = f.size();
  const uint64_t tables = saturating_mul(table_bytes(s.placement, f, s.kernel), move ? 2 : 1);
  const std::string scheme(scheme_name(s.scheme));
  check_memory(tables, "the " + scheme + " table(s) of N = " + std::to_string(n));
  if (balance)
    check_memory(saturating_add(tables, saturating_mul(n, kCountBytes)),
                 "balance's key count of every one of N = " + std::to_string(n) + " " + scheme +
                     " buckets (8 B a bucket)");
}

// Refuses a command whose tables would not fit in memory, before any is
// built: the registry's estimate of the table (table_bytes: the kernel's peak
// while building and holding it; move builds two), and the lab's own bytes a
// node (kNodeBytes and those above). A scenario's fleets are estimated as the
// fleet of --nodes (none is larger; its names were guarded when it was made).
void check_tables_fit(const Setup& s, const Options& o, bool move, bool balance) {
  const Fleet& f = nodes_fleet(s);
  if (!f.named()) return check_buckets_fit(s, f, move, balance);
  const uint64_t n = f.size();
  uint64_t bytes = saturating_mul(table_bytes(s.placement, f, s.kernel), move ? 2 : 1);
  bytes = saturating_add(bytes, saturating_mul(n, kNodeBytes + (move ? kMoveNodeBytes : 0)));
  if (s.scenario) bytes = saturating_add(bytes, saturating_mul(n, kScenarioNodeBytes));
  if (balance) {
    bytes = saturating_add(bytes, saturating_mul(uint64_t{o.rings} * n, kBalanceNodeBytes));
    if (o.rings > 1) bytes = saturating_add(bytes, saturating_mul(n, kReplicaNodeBytes));
  }
  check_memory(bytes, tables_label(s) + (balance && o.rings > 1
                                             ? " over " + std::to_string(o.rings) + " rings"
                                             : std::string()));
}

// Refuses a job of counted keys estimated at hours (check_time): K lookups
// (twice for move, once a ring for balance), each scoring every node for a
// scheme that does (SchemeInfo::scores_every_node).
void check_job_time(const Setup& s, const Options& o, bool move, bool balance) {
  uint64_t keys = 0;
  const auto [end, ec] = std::from_chars(o.keys.data(), o.keys.data() + o.keys.size(), keys);
  if (ec != std::errc() || end != o.keys.data() + o.keys.size()) return;  // a key file
  if (keys > kMaxKeys) return;  // refused with the lab's own limit when the keys are made
  const uint64_t lookups = saturating_mul(keys, move ? 2 : balance ? o.rings : 1);
  const bool scores = !s.placement.profile && scheme_info(s.scheme).scores_every_node;
  check_time(lookups, scores ? nodes_fleet(s).size() : 1,
             std::string(move      ? "move"
                         : balance ? "balance"
                                   : "owners") +
                 " of K = " + o.keys + " keys over N = " + std::to_string(nodes_fleet(s).size()),
             o.allow_long);
}

// ---- help, from the registry -------------------------------------------------------

// "modn, ring, hrw (rendezvous), jump, maglev": every scheme with its aliases.
std::string scheme_list() {
  std::string list;
  for (const SchemeInfo& info : all_scheme_infos()) {
    list += (list.empty() ? "" : ", ") + std::string(info.name);
    for (std::string_view alias : info.aliases) list += " (" + std::string(alias) + ")";
  }
  return list;
}

// The schemes that take parameter `p`: "ring", "ring, maglev".
std::string schemes_taking(Param p) {
  std::string list;
  for (const SchemeInfo& info : all_scheme_infos())
    if (info.takes(p)) list += (list.empty() ? "" : ", ") + std::string(info.name);
  return list;
}

// "modn simd, ring ...": each scheme's default kernel (the lowest rank).
std::string default_kernels() {
  std::string list;
  for (const SchemeInfo& info : all_scheme_infos())
    list += (list.empty() ? "" : ", ") + default_kernel(info.id).full_name();
  return list;
}

// One line per scheme: what a leave means for it (SchemeInfo::removal_note).
std::string removal_notes() {
  std::size_t width = 0;
  for (const SchemeInfo& info : all_scheme_infos()) width = std::max(width, info.name.size());
  std::string notes;
  for (const SchemeInfo& info : all_scheme_infos())
    notes += "\n  " + std::string(info.name) + std::string(width + 2 - info.name.size(), ' ') +
             std::string(info.removal_note);
  return notes;
}

// The schemes that place keys by the bucket count alone, with their limits:
// "modn (N <= 4294967295), jump (N <= 2147483647)".
std::string bucket_schemes() {
  std::string list;
  for (const SchemeInfo& info : all_scheme_infos())
    if (info.buckets_only)
      list += (list.empty() ? "" : ", ") + std::string(info.name) +
              " (N <= " + std::to_string(info.max_nodes) + ")";
  return list;
}

// The schemes whose nodes can only leave from the end: "jump: only the last ones".
std::string last_only_schemes() {
  const std::string list = schemes_removing(Removal::kLastOnly);
  return list.empty() ? list : " (" + list + ": only the last ones)";
}

// How every format prints a key so that its exact bytes can be read back.
std::string key_output_rules() {
  return "Keys are printed so that their exact bytes are recovered: text escapes a key's\n"
         "backslash, tab, LF and CR as \\\\, \\t, \\n, \\r and its other control bytes as\n"
         "\\xHH (every other byte as it is); csv quotes a field holding a comma, quote, CR or\n"
         "LF (RFC 4180, quotes doubled) and keeps every byte; json writes \"key\" for a UTF-8\n"
         "key (control bytes as JSON escapes) and \"key_hex\" (its bytes in hex) for any other.";
}

// ---- command line ---------------------------------------------------------------------------

void add_common(CLI::App* cmd, Options& o, bool keys_required) {
  cmd->add_option("--scheme", o.scheme, "placement scheme: " + scheme_list());
  cmd->add_option(
      "--profile", o.profile,
      "instead of --scheme, place keys as a real system does: ketama (libmemcached's "
      "weighted ketama), ketama_unweighted (libmemcached with MEMCACHED_BEHAVIOR_KETAMA "
      "alone: 100 points a server, keys and points hashed one-at-a-time; no --weights), "
      "redis (Cluster slots), kafka (default partitioner), cassandra "
      "(Murmur3Partitioner), maglev; see docs/profiles.md");
  cmd->add_option(
      "--weights", o.weights,
      "one weight per node, W1,W2,... (default: all 1): " + schemes_taking(kParamWeights) +
          " (0 ... 2^31, not all 0) and the ketama profile (1 ... 2^31)");
  cmd->add_option(
      "--table-size", o.table_size,
      "lookup table size M (" + takers_of(kParamTableSize) +
          "; refused elsewhere), a prime >= N and <= " + std::to_string(kLabMaxTableSize) +
          " (the lab's bound: the largest prime below 2^26, built in seconds; "
          "default 65537)");
  cmd->add_option("--nodes", o.nodes,
                  "N (nodes node-0 ... node-(N-1)) or a comma list of names A,B,C; the schemes "
                  "that place keys by the bucket count alone hold no names for N, so N is "
                  "bounded by the scheme only: " +
                      bucket_schemes() +
                      "; in a list, spaces around a name are dropped, and a name holds no comma "
                      "(use --nodes-file) and no tab or other control byte, and is UTF-8 "
                      "(refused otherwise: the text output is tab-separated, JSON is UTF-8)");
  cmd->add_option("--nodes-file", o.nodes_file,
                  "instead of --nodes, a file of node names, one per line, each taken exactly "
                  "(commas and spaces kept; LF or CRLF, a leading UTF-8 byte-order mark dropped; "
                  "an empty line or a control byte refused)");
  auto* keys = cmd->add_option(
      "--keys", o.keys,
      "K (keys user:1 ... user:K, K <= 10^10) or a file of one key per line ('-': standard "
      "input; a line is at most 65536 bytes, and the file holds no NUL byte: a key with NUL "
      "bytes is given in hex or base64)" +
          std::string(keys_required ? "" : "; default 100000"));
  cmd->add_option("--key-format", o.key_format,
                  "how the lines of --keys FILE are read: text, hex, base64 or hash. Every format: "
                  "a line ends at LF, one "
                  "CR before it is dropped (CRLF), the last line needs no LF, a UTF-8 "
                  "byte-order mark at the start of the file is dropped. text (default): the "
                  "line's bytes are the key, hashed by a scheme as docs/spec.md §2 says or by the "
                  "profile its own way; a blank line is skipped, not a key (pose the empty key "
                  "in hex or base64). hex: each line a key's bytes as hex digits (either case, "
                  "two a byte); base64: RFC 4648 (A-Z a-z 0-9 + /, '=' padding optional); in "
                  "both, spaces and tabs around the line are dropped, an empty line is the "
                  "empty key, and any byte, NUL included, can be given. hash: each line a "
                  "64-bit key hash, decimal or 0x hex, spaces around it allowed, empty lines "
                  "skipped, given to the scheme as it is (every scheme takes it, no profile "
                  "does; the key column prints it in decimal). Not with a count K, except "
                  "text");
  if (keys_required)
    keys->required();
  else
    o.keys = "100000";
  keys->each([&o](const std::string&) { o.keys_given = true; });
  cmd->add_flag("--allow-long", o.allow_long,
                "run a job estimated at more than an hour (refused otherwise, with the "
                "estimate: K lookups, each scoring every node for rendezvous, at about 5e9 "
                "node scores a second)");
  cmd->add_option("--vnodes", o.vnodes,
                  "tokens per node, for " + takers_of(kParamVnodes) +
                      " (refused elsewhere): the ring's V (default 100), the cassandra "
                      "profile's num_tokens (default 256)");
  cmd->add_option("--probes", o.probes,
                  "probes k per key: " + schemes_taking(kParamProbes) +
                      " (default 21; 1 to 4096; docs/schemes/multiprobe.md)");
  cmd->add_option("--format", o.format, "text (default), csv or json");
  cmd->add_option("--kernel", o.kernel,
                  "kernel of the scheme, by name or full name scheme/kernel, or 'reference' "
                  "(default: the scheme's fastest in the "
                  "registry: " +
                      default_kernels() + "; a profile's own default)");
  cmd->add_option("--threads", o.threads, "oneTBB threads (default 0: all cores)")
      ->check(CLI::Range(0u, 1024u));
}

// The bucket capacity and removal scenario options: every command takes them.
void add_scenario(CLI::App* cmd, Options& o, const std::string& fraction_help,
                  const std::string& readd_help) {
  const std::string capacity = schemes_taking(kParamCapacity);
  cmd->add_option("--capacity", o.capacity,
                  "bucket capacity A of the schemes that keep room for more buckets than "
                  "nodes (" +
                      (capacity.empty() ? std::string("no scheme of this build") : capacity) +
                      "; default 10 x N, as SUPSI's framework), at least N");
  const std::string lifo = schemes_removing(Removal::kLastOnly);
  auto* removed =
      cmd->add_option("--removed", o.removed,
                      "scenario: the nodes of --nodes removed, in this order: X[,Y...]" +
                          (lifo.empty() ? lifo : " (" + lifo + ": LIFO only, the last node first)"))
          ->delimiter(',');
  auto* fraction = cmd->add_option("--remove-fraction", o.remove_fraction, fraction_help);
  removed->excludes(fraction);
  cmd->add_option("--removal-order", o.removal_order,
                  "with --remove-fraction: lifo (default; the last of --nodes first), fifo (the "
                  "first first) or random (a seeded shuffle, scenario.h)");
  cmd->add_option("--seed", o.seed, "the seed of --removal-order random (default 0)");
  cmd->add_option("--readd", o.readd, readd_help)->check(CLI::Range(1u, 0xffffffffu));
}

// Request popularity and bounded loads (commands/load.h): balance and move.
void add_load_options(CLI::App* cmd, LoadOptions& o) {
  cmd->add_option("--popularity", o.popularity,
                  "requests over the keys: zipf:S (S in [0, 1.5], a seeded Zipf stream of "
                  "--requests draws) or file:PATH (one request count per key line); reports "
                  "each node's requests beside its keys");
  cmd->add_option("--requests", o.requests, "zipf: requests drawn (default 1000000)")
      ->check(CLI::Range(uint64_t{1}, kMaxRequests));
  cmd->add_option("--popularity-seed", o.seed, "zipf: the std::mt19937_64 seed (default 1)");
  cmd->add_option("--bounded-load", o.bounded,
                  "ring: consistent hashing with bounded loads, balance factor c in [1, 1000] "
                  "(capacity ceil(c x requests / N); a full node's requests walk on clockwise)");
}

// chbench-lab tokens: Cassandra's token allocation against random tokens
// (allocation.h), its own options.
struct TokensOptions {
  std::string scheme, profile, format = "text";
  uint32_t from = 3, to = 100, vnodes = 16;
  std::vector<uint32_t> rf{1, 3}, random{16, 256};
};

CLI::App* add_tokens(CLI::App& app, TokensOptions& t) {
  CLI::App* cmd = app.add_subcommand(
      "tokens", "replicated ownership spread of allocated tokens (Cassandra 4.0) vs random ones");
  cmd->add_option("--scheme", t.scheme, "ring: the tokens of docs/spec.md §6 for the random rings");
  cmd->add_option("--profile", t.profile, "cassandra: the profile's tokens for the random rings");
  cmd->add_option("--from", t.from, "first node count reported (default 3)");
  cmd->add_option("--to", t.to, "last node count, nodes joining one at a time (default 100)");
  cmd->add_option("--vnodes", t.vnodes, "allocated tokens per node (default 16)");
  cmd->add_option("--rf", t.rf, "replication factors (default 1,3)")->delimiter(',');
  cmd->add_option("--random", t.random, "random tokens per node compared (default 16,256)")
      ->delimiter(',');
  cmd->add_option("--format", t.format, "text (default), csv or json");
  return cmd;
}

int run_tokens(const TokensOptions& t) {
  if (t.scheme.empty() == t.profile.empty() || (!t.scheme.empty() && t.scheme != "ring") ||
      (!t.profile.empty() && t.profile != "cassandra"))
    throw std::invalid_argument("tokens takes --scheme ring or --profile cassandra");
  const Format format = parse_format(t.format);
  const auto rows =
      allocation_experiment(!t.profile.empty(), t.from, t.to, t.vnodes, t.random, t.rf);
  Out out;
  write_tokens(format, out, t.profile.empty() ? "ring" : "cassandra profile", rows);
  return 0;
}

// The long and short option names of `app` ("--scheme", "-h").
std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const auto& n : opt->get_lnames()) names.push_back("--" + n);
    for (const auto& n : opt->get_snames()) names.push_back("-" + n);
  }
  return names;
}

// An argument CLI11 left over, said plainly: the first word after the
// command that names no option of it (with the nearest that does), else the
// first stray value.
std::string extras_message(const CLI::App& app, int argc, char** argv) {
  const CLI::App* cmd = &app;
  int first = 1;
  if (!app.get_subcommands().empty()) {
    cmd = app.get_subcommands().front();
    for (; first < argc && argv[first] != cmd->get_name(); ++first) {
    }
    ++first;
  }
  const std::vector<std::string> known = option_names(*cmd);
  for (int i = first; i < argc; ++i) {
    std::string word = argv[i];
    if (word.size() < 2 || word[0] != '-' || word == "--") continue;
    word = word.substr(0, word.find('='));
    if (std::find(known.begin(), known.end(), word) != known.end()) continue;
    return "unknown option '" + word + "' for " + cmd->get_name() + did_you_mean(word, known);
  }
  const std::vector<std::string> rest = cmd->remaining();
  return "unexpected argument '" + (rest.empty() ? std::string("?") : rest.front()) + "' for " +
         cmd->get_name();
}

// CLI11's "Could not convert: --vnodes = 1,10,100" as "--vnodes takes one
// number, not '1,10,100'".
std::string conversion_message(const std::string& what) {
  const std::string head = "Could not convert: ";
  const std::size_t eq = what.find(" = ");
  if (!what.starts_with(head) || eq == std::string::npos) return what;
  const std::string option = what.substr(head.size(), eq - head.size());
  return option + " takes one number, not '" + what.substr(eq + 3) + "'";
}

// One plain line for a parse error of CLI11's.
std::string parse_error_message(const CLI::ParseError& e, const CLI::App& app, int argc,
                                char** argv) {
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) return extras_message(app, argc, argv);
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) return conversion_message(what);
  return what.empty() ? e.get_name() : what;
}

// The commands, as parsed: which one ran.
struct Commands {
  CLI::App* owners;
  CLI::App* move;
  CLI::App* balance;
};

Commands add_commands(CLI::App& app, Options& o) {
  CLI::App* owners = app.add_subcommand("owners", "print each key's owner");
  owners->footer(
      "Prints key and owner name per line (text: tab-separated; csv: header key,owner; json: a\n"
      "header with node_count, nodes (the names; null for the schemes that hold none, whose\n"
      "node i is node-<i>), table_size (Maglev's M, else null) and key_format, then one object\n"
      "per key; a profile adds its key hash: ketama's point hash, redis's slot, kafka's positive\n"
      "murmur2, cassandra's Murmur3 token). With --key-format hash the\n"
      "key is the key hash in decimal, e.g. 'owners --scheme jump --nodes 2147483647\n"
      "--key-format hash --keys FILE' answers a vector row h,n,bucket as node-<bucket>.\n"
      "After a removal scenario (--removed, or --remove-fraction with --removal-order and\n"
      "--seed; --readd) the owners are those of the fleet it leaves: a row of a vector file\n"
      "with removed buckets is answered as 'owners --nodes N --removed node-3,node-7\n"
      "--key-format hash --keys FILE'.\n" +
      key_output_rules());
  add_common(owners, o, true);
  owners->add_option("--replicas", o.replicas,
                     "R owners a key in preference order (ring: clockwise past nodes already "
                     "chosen; hrw: the R highest scores; schemes whose sources define none "
                     "refuse it), R <= N");
  add_scenario(owners, o,
               "scenario: the share of --nodes removed, F in [0, 1) (round(F x N) nodes)",
               "scenario: after the removals, the last K removed join again, the last first");

  CLI::App* move = app.add_subcommand(
      "move", "keys whose owner changes when nodes join (--add) or leave (--remove)");
  add_common(move, o, false);
  add_scenario(move, o, "scenario: the share of --nodes removed, F in [0, 1) (round(F x N) nodes)",
               "scenario: the change is the last K removed joining again, the last first");
  auto* add =
      move->add_option("--add", o.move.add, "nodes that join, appended: X[,Y...]")->delimiter(',');
  auto* remove = move->add_option("--remove", o.move.remove,
                                  "nodes that leave: X[,Y...]" + last_only_schemes())
                     ->delimiter(',');
  add->excludes(remove);
  move->add_option("--replicas", o.replicas,
                   "also count the keys whose R-owner replica set changes, and its new members "
                   "(as owners --replicas)");
  move->add_flag("--list", o.move.list, "also name every moved key, with its old and new owner");
  move->footer(
      "Reports the keys whose owner (by name) changes: count and fraction; how many moved\n"
      "between two nodes present before and after (mod-N's waste); where each removed node's\n"
      "keys went and where each added node's came from. A removal a scheme cannot take is\n"
      "refused. What a leave means, per scheme:" +
      removal_notes() +
      "\nWith --format csv --list, prints the moved keys as key,from,to instead of the summary.\n"
      "The schemes that hold no names for --nodes N,\n  " +
      bucket_schemes() +
      ",\nkeep none through a change that removes the last buckets or adds node-<N>,\n"
      "node-<N+1>, ... in order; any other change names every bucket (within the memory guard).\n"
      "After a removal scenario (--removed, or --remove-fraction with --removal-order and\n"
      "--seed), --add / --remove change the fleet it leaves. Without them move measures the\n"
      "scenario's own last step, counts only (no flows), as SUPSI's monotonicity benchmark:\n"
      "  its removals (no --readd), from the nodes of --nodes: 'from removed nodes' are the\n"
      "    keys moved off removed nodes, 'between old nodes' those moved between survivors;\n"
      "  its re-adds (--readd K), after the removals: 'to added nodes' are the keys moved to\n"
      "    the re-added nodes, 'between old nodes' those moved between survivors, 'returned'\n"
      "    the keys back on the node that owned them before the removals (of all it owned),\n"
      "    'relocated' the keys on another node than before the removals.\n"
      "Survivors never trade keys in a consistent scheme; Maglev's table trades a few.\n"
      "With --list, " +
      key_output_rules());

  CLI::App* balance = app.add_subcommand(
      "balance", "each node's share of keys (ring: and of the circle), busiest / mean, std");
  add_common(balance, o, false);
  balance->footer(
      "The ketama profile adds each server's continuum points (160 scaled by its weight, as\n"
      "libmemcached scales them) to every node row, and the header names the continuum's size.\n"
      "Share std is the population standard deviation of the node shares in % of a fair share\n"
      "(1/N); with --rings, 'pooled' is that over all R * N shares. Theory: for the ring\n"
      "sqrt((N-1)/(N*V+1)) (random tokens), plus sqrt((N-1)/K) from sampling K keys.\n"
      "Balance counts every node's keys (8 B a node) and prints a row per node. The schemes\n"
      "that hold no names for --nodes N,\n  " +
      bucket_schemes() +
      ",\ntake N up to their limit when those counts fit in memory, and are refused otherwise.\n"
      "After a removal scenario, balance prints one row per removed fraction (--remove-fraction\n"
      "0,0.1,0.5,0.9; each from the fleet of --nodes) or for the --removed list: the nodes left,\n"
      "min, max and mean keys per node, busiest / mean and share std (not with --rings).");
  add_scenario(balance, o,
               "scenario: the shares of --nodes removed, F[,F...] each in [0, 1): a row per "
               "fraction, e.g. 0,0.1,0.5,0.9",
               "scenario: after the removals, the last K removed join again, the last first");
  balance->add_option("--rings", o.rings,
                      "repeat over R independent rings (names suffixed @1 ... @R-1); "
                      "reports the spread across them (default 1)");
  add_load_options(move, o.load);
  add_load_options(balance, o.load);
  return {owners, move, balance};
}

// Runs the parsed command on the keys, printing through the format's writer.
int dispatch(const Commands& c, const Setup& setup, const Options& o) {
  const KeySet keys = parse_keys(o.keys, setup.key_format);
  Out out;
  if (o.load.given()) {
    check_load_options(setup, o.load, o.rings, o.move.list);
    const Requests req = requests_of(o.load, keys);
    if (c.balance->parsed())
      write_load_balance(setup.format, out, setup,
                         run_load_balance(setup, req, o.load.bounded, keys));
    if (c.move->parsed())
      write_load_move(setup.format, out, setup,
                      run_load_move(setup, o.move, req, o.load.bounded, keys));
    return 0;
  }
  const auto writer = make_writer(setup.format, out);
  if (c.owners->parsed()) run_owners(setup, keys, *writer);
  if (c.move->parsed()) writer->move(setup, run_move(setup, o.move, keys));
  if (c.balance->parsed() && setup.scenario)
    writer->balance_removals(setup, run_balance_removals(setup, keys));
  else if (c.balance->parsed())
    writer->balance(setup, run_balance(setup, o.rings, keys));
  return 0;
}

int run(int argc, char** argv) {
  Options o;
  CLI::App app{
      "chbench-lab: what each consistent-hashing scheme does to the data: which keys move when "
      "nodes\njoin or leave, and how evenly keys spread. Placement: docs/spec.md, looked up with "
      "the\nlibrary's fast kernels on oneTBB. Exit status: 0 ok, 1 internal failure, 2 bad input.",
      kProgram};
  app.require_subcommand(1);
  app.footer(
      "Schemes: " + scheme_list() +
      "\nExamples:\n"
      "  chbench-lab owners --scheme ring --nodes 5 --keys 10 --format csv\n"
      "  chbench-lab move --scheme modn --nodes 4 --add node-4\n"
      "  chbench-lab move --scheme ring --vnodes 1 --nodes 10 --remove node-3\n"
      "  chbench-lab move --scheme maglev --nodes 100 --add node-100\n"
      "  chbench-lab balance --scheme ring --vnodes 16 --nodes 5 --rings 50\n"
      "  chbench-lab owners --profile redis --nodes 3 --keys 5\n"
      "  chbench-lab move --profile ketama --nodes a:11211,b:11211 --weights 1,2 --add c:11211\n"
      "  chbench-lab move --profile kafka --nodes 12 --add node-12\n"
      "  chbench-lab owners --scheme jump --nodes 2147483647 --key-format hash --keys hashes.txt\n"
      "  chbench-lab move --scheme hrw --nodes 100 --remove-fraction 0.3 --removal-order random\n"
      "  chbench-lab move --scheme maglev --nodes 100 --removed node-3,node-7 --readd 2\n"
      "  chbench-lab balance --scheme jump --nodes 1000 --remove-fraction 0,0.1,0.5,0.9");
  const Commands commands = add_commands(app, o);
  TokensOptions tokens;
  CLI::App* tokens_command = add_tokens(app, tokens);

  // CLI11 would call an unknown command a missing one; name it instead.
  const std::string first = argc > 1 ? argv[1] : "";
  if (!first.empty() && first[0] != '-' && first != "owners" && first != "move" &&
      first != "balance" && first != "tokens")
    throw std::invalid_argument("unknown command '" + first +
                                "' (known: owners, move, balance, tokens; see chbench-lab --help)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string what = parse_error_message(e, app, argc, argv);
    std::fprintf(stderr, "%s: error: %s (see %s --help)\n", kProgram, what.c_str(), kProgram);
    return 2;
  }

  // Input is checked here and at the top of each command, before the command
  // prints its first byte.
  if (tokens_command->parsed()) return run_tokens(tokens);
  o.balance = commands.balance->parsed();
  o.move_command = commands.move->parsed();
  const Setup setup = setup_from(o);
  const bool balance = o.balance;
  if (balance && o.rings > kMaxRings)  // before the memory estimate that uses it
    throw std::invalid_argument("--rings takes at most 100000 rings");
  check_tables_fit(setup, o, commands.move->parsed(), balance);
  check_job_time(setup, o, commands.move->parsed(), balance);

  int status = 0;
  if (o.threads == 0) {
    status = dispatch(commands, setup, o);
  } else {
    tbb::global_control control(tbb::global_control::max_allowed_parallelism, o.threads);
    tbb::task_arena arena(static_cast<int>(o.threads));
    status = arena.execute([&] { return dispatch(commands, setup, o); });
  }
  std::fflush(stdout);
  if (std::ferror(stdout)) {
    std::fprintf(stderr, "%s: error: cannot write the output\n", kProgram);
    return 1;
  }
  return status;
}

}  // namespace
}  // namespace chbench::lab

int main(int argc, char** argv) {
  using chbench::lab::kProgram;
  try {
    return chbench::lab::run(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: error: %s\n", kProgram, e.what());
    return 2;
  } catch (const std::length_error& e) {
    std::fprintf(stderr, "%s: error: %s\n", kProgram, e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: out of memory (try fewer keys or nodes)\n", kProgram);
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", kProgram, e.what());
    return 1;
  }
}
