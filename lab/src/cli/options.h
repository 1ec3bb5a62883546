// chbench-lab's command line: the options of every command as parsed by
// CLI11, before anything is checked against the scheme or profile
// (cli/setup.h does that). Help texts come from the registry (cli/help.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chbench/params.h"
#include "commands/load.h"
#include "commands/move.h"

namespace chbench::lab {

inline constexpr const char* kProgram = "chbench-lab";

enum class Command { kOwners, kMove, kBalance, kTokens };

// chbench-lab tokens: Cassandra's token allocation against random tokens
// (allocation.h), its own options.
struct TokensOptions {
  std::string scheme, profile, format = "text";
  uint32_t from = 3, to = 100, vnodes = 16;
  std::vector<uint32_t> rf{1, 3}, random{16, 256};
};

struct Options {
  std::string scheme;
  std::string profile;
  std::string nodes;
  std::string nodes_file;  // --nodes-file: one name per line, instead of --nodes
  std::string keys;
  std::string key_format = "text";
  bool allow_long = false;  // --allow-long: past the time estimate's bound
  bool keys_given = false;  // --keys on the command line (move and balance have a default)
  // The parameters' options (chbench/params.h), one per kParams entry: a
  // kCount parameter's value (--vnodes, --table-size, --capacity, --probes),
  // a kPerNode one's list as given (--weights W1,W2,...).
  std::array<std::optional<uint32_t>, kParamCount> counts;
  std::array<std::string, kParamCount> lists;
  std::string format = "text";
  std::string kernel;
  unsigned threads = 0;
  MoveRequest move;  // --add, --remove, --list
  uint32_t rings = 1;
  std::optional<uint32_t> replicas;  // owners --replicas R
  // The removal scenario: --removed, or --remove-fraction with
  // --removal-order and --seed; --readd.
  std::vector<std::string> removed;
  std::string remove_fraction, removal_order;
  std::optional<uint64_t> seed;
  std::optional<uint32_t> readd;
  Command command = Command::kOwners;  // which command was parsed
  TokensOptions tokens;                // the tokens command's own options
  LoadOptions load;  // --popularity, --requests, --popularity-seed, --bounded-load

  std::optional<uint32_t>& count(Param p) { return counts[param_index(p)]; }
  const std::optional<uint32_t>& count(Param p) const { return counts[param_index(p)]; }
  const std::string& list(Param p) const { return lists[param_index(p)]; }
  // Whether the parameter's option was given.
  bool given(const ParamInfo& p) const {
    return p.kind == ParamKind::kCount ? count(p.param).has_value() : !list(p.param).empty();
  }
};

// Parses argv into `o`. Returns nullopt when a command is to run, or the exit
// status when parsing ends the run: 0 after --help, 2 after a parse error
// (one line on stderr: an unknown option with the nearest known one, a value
// that does not convert, ...). Throws std::invalid_argument for an unknown
// command.
std::optional<int> parse_options(int argc, char** argv, Options& o);

}  // namespace chbench::lab
