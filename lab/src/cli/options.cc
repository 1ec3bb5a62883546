#include "cli/options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "cli/help.h"
#include "param_options.h"
#include "removals.h"
#include "suggest.h"

namespace chbench::lab {

namespace {

void add_common(CLI::App* cmd, Options& o, bool keys_required) {
  cmd->add_option("--scheme", o.scheme, "placement scheme: " + scheme_list());
  cmd->add_option(
      "--profile", o.profile,
      "instead of --scheme, place keys as a real system does: ketama (libmemcached's "
      "weighted ketama), ketama_unweighted (libmemcached with MEMCACHED_BEHAVIOR_KETAMA "
      "alone: 100 points a server, keys and points hashed one-at-a-time; no --weights), "
      "redis (Cluster slots), kafka (default partitioner), cassandra "
      "(Murmur3Partitioner), maglev, haproxy_consistent (HAProxy 2.6 hash-type consistent), "
      "haproxy_map (HAProxy 2.6 hash-type map-based), envoy_maglev (Envoy's Maglev load "
      "balancer: host addresses ip:port or hostnames, --weights, --table-size), go_redis_ring "
      "(go-redis Ring's rendezvous over shard names), groupcache (golang/groupcache's peer "
      "ring: --vnodes replicas, default 50), twemproxy_ketama (nutcracker 0.5.0's ketama with "
      "fnv1a_64: host:port servers, --weights), envoy_ring_hash (Envoy's ring_hash: ip:port "
      "hosts, --weights, --vnodes the minimum ring size, default 1024, --bounded-load for "
      "hash_balance_factor), grpc_ring_hash (gRPC's xDS ring hash: ring size capped at "
      "4096), nginx_consistent (nginx's hash $key consistent: servers as written, --weights), "
      "nginx_hash (nginx's plain hash $key, --weights); see docs/profiles.md");
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
  cmd->add_option("--format", o.format, "text (default), csv or json");
  cmd->add_option("--kernel", o.kernel,
                  "kernel of the scheme, by name or full name scheme/kernel, or 'reference' "
                  "(default: the scheme's fastest in the "
                  "registry: " +
                      default_kernels() + "; a profile's own default)");
  cmd->add_option("--threads", o.threads, "oneTBB threads (default 0: all cores)")
      ->check(CLI::Range(0u, 1024u));
}

// The parameters' options, one per kParams entry (param_options.h's help).
void add_params(CLI::App* cmd, Options& o) {
  for (const ParamInfo& p : kParams) {
    const std::size_t i = param_index(p.param);
    if (p.kind == ParamKind::kCount)
      cmd->add_option(std::string(p.option), o.counts[i], param_help(p));
    else
      cmd->add_option(std::string(p.option), o.lists[i], param_help(p));
  }
}

// The parameters' and the removal scenario's options: every command takes them.
void add_scenario(CLI::App* cmd, Options& o, const std::string& fraction_help,
                  const std::string& readd_help) {
  add_params(cmd, o);
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

// The program's description and examples (--help).
void describe(CLI::App& app) {
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
}

}  // namespace

std::optional<int> parse_options(int argc, char** argv, Options& o) {
  CLI::App app{
      "chbench-lab: what each consistent-hashing scheme does to the data: which keys move when "
      "nodes\njoin or leave, and how evenly keys spread. Placement: docs/spec.md, looked up with "
      "the\nlibrary's fast kernels on oneTBB. Exit status: 0 ok, 1 internal failure, 2 bad input.",
      kProgram};
  describe(app);
  const Commands commands = add_commands(app, o);
  CLI::App* tokens_command = add_tokens(app, o.tokens);

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

  if (tokens_command->parsed()) o.command = Command::kTokens;
  if (commands.move->parsed()) o.command = Command::kMove;
  if (commands.balance->parsed()) o.command = Command::kBalance;
  return std::nullopt;
}

}  // namespace chbench::lab
