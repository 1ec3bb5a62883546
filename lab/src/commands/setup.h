// What every command of chbench-lab starts from: the command line parsed and
// checked (cli/setup_from.cc builds it) before the command computes or prints anything.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "chbench/fleet.h"
#include "chbench/nodes.h"
#include "chbench/scheme.h"
#include "keys.h"
#include "placement.h"
#include "removals.h"

namespace chbench::lab {

enum class Format { kText, kCsv, kJson };

struct Setup {
  Scheme scheme{};  // for a profile, the scheme whose kernels it uses
  Placement placement;
  Format format{};
  KeyFormat key_format{};  // how --keys FILE is read (keys.h)
  // The fleet the command starts from (V and M included), made once by moving
  // the parsed NodeSet in, or Fleet::of_buckets(N) for a scheme that places
  // keys by the bucket count alone (names not held: print them with
  // owner_name()); every command and estimate reads it by reference (a copy
  // would hold every name again: 32 B/node and more).
  Fleet fleet;
  // With a removal scenario (--removed, --remove-fraction): what was asked,
  // and `initial`, the fleet of --nodes it starts from; `fleet` is then the
  // fleet after the scenario at its first fraction, re-adds included except
  // for move (whose change they are). Without one, `initial` is empty.
  std::optional<ScenarioRequest> scenario;
  Fleet initial;
  std::string kernel;       // as given to make_table ("" = the default)
  std::string kernel_name;  // "scheme/kernel" for reports (kernel_full_name)
  // owners --replicas R: R owners a key in preference order (ReplicaTable),
  // 0 for the owner alone.
  uint32_t replicas = 0;

  // The fleet's names, V and M; empty names for a fleet of buckets.
  const NodeSet& nodes() const noexcept { return fleet.nodes(); }
};

// True where --vnodes means something: a scheme that takes kParamVnodes (the
// ring), the cassandra profile (num_tokens).
bool uses_vnodes(const Setup& s);

// The fleet of --nodes: `initial` with a scenario, else `fleet`.
inline const Fleet& nodes_fleet(const Setup& s) noexcept {
  return s.scenario ? s.initial : s.fleet;
}

// True where --capacity means something: a scheme that takes kParamCapacity.
bool uses_capacity(const Setup& s);

// The bucket capacity A the fleet gives such a scheme: --capacity, or by
// default 10 times the nodes of --nodes (fleet_capacity's rule).
uint64_t capacity_of(const Setup& s);

// The value of a kCount parameter the placement takes, as its fleet holds it
// (the capacity: capacity_of); nullopt for one it does not take and for a
// kPerNode parameter.
std::optional<uint64_t> param_value(const Setup& s, const ParamInfo& p);

// The scheme's name, or the profile's: "ring", "ketama".
std::string placement_name(const Setup& s);

// What the memory guard calls the tables of the fleet of --nodes, from what
// is actually built: "the ring table(s) of N = 3, V = 100", "the cassandra
// profile's table(s) of N = 3, num_tokens = 256", "the ketama profile's
// continuum of 480 points over N = 3 servers" (ketama_point_count: no V, which
// ketama does not have).
std::string tables_label(const Setup& s);

// For report headers: "ring (V = 100)", "hrw", "maglev (M = 65537)",
// "cassandra profile (num_tokens = 256)", "ketama profile (continuum of 480
// points)". Every kCount parameter the placement takes is shown by its
// symbol (param_value), V of a profile as num_tokens.
std::string scheme_label(const Setup& s, uint32_t vnodes);

}  // namespace chbench::lab
