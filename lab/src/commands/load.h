// chbench-lab balance and move with --popularity or --bounded-load: what the
// nodes serve (requests) beside what they store (keys), and for the ring with
// bounded loads (bounded.h) the load each node takes under its capacity.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bounded.h"
#include "commands/move.h"
#include "commands/setup.h"
#include "keys.h"
#include "placement.h"
#include "popularity.h"

namespace chbench::lab {

// The options as given: --popularity, --requests, --popularity-seed,
// --bounded-load.
struct LoadOptions {
  std::string popularity;            // "" = one request per key, in key order
  std::optional<uint64_t> requests;  // zipf: draws (default kDefaultRequests)
  std::optional<uint64_t> seed;      // zipf: std::mt19937_64 seed (default 1)
  std::optional<double> bounded;
  bool given() const { return !popularity.empty() || bounded || requests || seed; }
};

inline constexpr uint64_t kDefaultRequests = 1'000'000;

// The request stream of the options over `keys`: zipf_requests or
// requests_from_file, or without --popularity one request per key in key
// order. Throws std::invalid_argument as those do.
Requests requests_of(const LoadOptions& o, const KeySet& keys);

// Refuses what the load reports do not take: a removal scenario, --rings,
// move --list, --requests or --popularity-seed without --popularity zipf:S,
// c out of range (--bounded-load off the ring scheme is refused with the
// options that do not apply, cli/applies.h). Throws std::invalid_argument
// with one line.
void check_load_options(const Setup& s, const LoadOptions& o, uint32_t rings, bool list);

struct LoadBalanceReport {
  const Fleet* fleet = nullptr;  // the Setup's
  uint64_t keys = 0, requests = 0;
  std::vector<uint64_t> node_keys, node_requests;  // per node, without bounds
  ShareStats key_stats, request_stats;
  double hottest = 0;  // hottest_share()
  // With --bounded-load c: the capacity, each node's load and the requests
  // that walked past their owner.
  std::optional<double> c;
  std::optional<BoundedAssignment> bounded;
  ShareStats bounded_stats;
};

// Looks every key up once (the Setup's kernel), adds its requests (`req`,
// over `keys`) to its owner and, with a balance factor c, places the stream
// on the ring (bounded_assign). Throws like make_table and bounded_capacity.
LoadBalanceReport run_load_balance(const Setup& s, const Requests& req, std::optional<double> c,
                                   const KeySet& keys);

// Keys and requests whose node (by name) changes on the change of `request`.
// Plain: every key whose owner changes (what the nodes store), and its
// requests. Bounded: the requests placed elsewhere, and the keys with at
// least one of them (a key with no request is not placed at all).
struct LoadMoved {
  uint64_t keys = 0, requests = 0;
};
struct LoadMoveReport {
  uint32_t nodes_before = 0, nodes_after = 0;
  uint64_t keys = 0, requests = 0;
  LoadMoved plain;                   // each key on its owner
  std::optional<double> c;           // --bounded-load
  std::optional<LoadMoved> bounded;  // keys: those with any request on another node
  uint64_t capacity_before = 0, capacity_after = 0;
};

// Applies the change (apply_change; no scenario) and compares owners, and
// with a balance factor c the bounded assignments of the stream, before and
// after. Throws like apply_change and make_table, and std::invalid_argument
// for no change.
LoadMoveReport run_load_move(const Setup& s, const MoveRequest& request, const Requests& req,
                             std::optional<double> c, const KeySet& keys);

}  // namespace chbench::lab
