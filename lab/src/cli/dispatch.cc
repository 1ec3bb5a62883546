#include "cli/dispatch.h"

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "allocation.h"
#include "chbench/params.h"
#include "chbench/scheme.h"
#include "cli/guards.h"
#include "cli/setup_from.h"
#include "commands/balance.h"
#include "commands/load.h"
#include "commands/move.h"
#include "commands/owners.h"
#include "writers/writer.h"

namespace chbench::lab {

namespace {

// The scheme whose tokens the allocation experiment draws for its random rings: the one
// that takes virtual nodes (the ring of docs/spec.md §6).
const SchemeInfo& token_scheme() {
  for (const SchemeInfo& s : all_scheme_infos())
    if (s.takes(kParamVnodes)) return s;
  throw std::logic_error("no scheme of the registry takes virtual nodes");
}

// chbench-lab tokens: Cassandra's token allocation against random tokens.
void run_tokens(const TokensOptions& t) {
  const std::string ring(token_scheme().name);
  if (t.scheme.empty() == t.profile.empty() || (!t.scheme.empty() && t.scheme != ring) ||
      (!t.profile.empty() && t.profile != "cassandra"))
    throw std::invalid_argument("tokens takes --scheme " + ring + " or --profile cassandra");
  const Format format = parse_format(t.format);
  const auto rows =
      allocation_experiment(!t.profile.empty(), t.from, t.to, t.vnodes, t.random, t.rf);
  Out out;
  make_writer(format, out)->tokens(t.profile.empty() ? ring : "cassandra profile", rows);
}

// balance / move with --popularity or --bounded-load: requests beside keys.
void run_load(const Setup& setup, const Options& o, const KeySet& keys, Writer& writer) {
  check_load_options(setup, o.load, o.rings, o.move.list);
  const Requests req = requests_of(o.load, keys);
  if (o.command == Command::kBalance)
    writer.load_balance(setup, run_load_balance(setup, req, o.load.bounded, keys));
  if (o.command == Command::kMove)
    writer.load_move(setup, run_load_move(setup, o.move, req, o.load.bounded, keys));
}

// Runs the parsed command on the keys, printing through the format's writer.
void dispatch(const Setup& setup, const Options& o) {
  const KeySet keys = parse_keys(o.keys, setup.key_format);
  Out out;
  const auto writer = make_writer(setup.format, out);
  if (o.load.given()) return run_load(setup, o, keys, *writer);
  switch (o.command) {
    case Command::kOwners:
      return run_owners(setup, keys, *writer);
    case Command::kMove:
      return writer->move(setup, run_move(setup, o.move, keys));
    case Command::kBalance:
      if (setup.scenario) return writer->balance_removals(setup, run_balance_removals(setup, keys));
      return writer->balance(setup, run_balance(setup, o.rings, keys));
    case Command::kTokens:
      break;
  }
}

}  // namespace

int run_command(const Options& o) {
  if (o.command == Command::kTokens) {
    run_tokens(o.tokens);
  } else {
    const Setup setup = setup_from(o);
    check_tables_fit(setup, o);
    check_job_time(setup, o);
    if (o.threads == 0) {
      dispatch(setup, o);
    } else {
      tbb::global_control control(tbb::global_control::max_allowed_parallelism, o.threads);
      tbb::task_arena arena(static_cast<int>(o.threads));
      arena.execute([&] { dispatch(setup, o); });
    }
  }
  std::fflush(stdout);
  if (std::ferror(stdout)) {
    std::fprintf(stderr, "%s: error: cannot write the output\n", kProgram);
    return 1;
  }
  return 0;
}

}  // namespace chbench::lab
