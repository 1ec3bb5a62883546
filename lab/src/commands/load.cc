#include "commands/load.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include "chbench/profiles/envoy_bounded_load.h"
#include "chbench/profiles/ring_hash.h"
#include "commands/balance.h"

namespace chbench::lab {

namespace {

// Each key's owner without bounds, by the Setup's kernel.
std::vector<uint32_t> plain_owners(const Setup& s, const Fleet& fleet, const KeySet& keys) {
  const auto table = make_table(s.placement, fleet, s.kernel);
  std::vector<uint32_t> owners(keys.size());
  lookup_owners(*table, keys, 0, owners, s.placement.profile);
  return owners;
}

// The request stream: each request's key hash, in stream order (the
// profile's key hashes under a profile).
std::vector<uint64_t> stream_of(const Requests& r, const KeySet& keys,
                                std::optional<Profile> profile) {
  std::vector<uint64_t> key_hashes(keys.size());
  keys.hashes(0, key_hashes, profile);
  std::vector<uint64_t> stream;
  stream.reserve(r.total);
  for_each_request(r, [&](uint64_t k) { stream.push_back(key_hashes[k]); });
  return stream;
}

// Envoy's hash_balance_factor (factor = 100 c, rounded) over the
// envoy_ring_hash ring (c in [1, 1000], as the lab checks it). A host's capacity is the most it can
// end with: its slots when the last request arrives, plus that request.
BoundedAssignment envoy_bounded_over(const Placement& p, const Fleet& fleet,
                                     std::span<const uint64_t> stream, double c) {
  const ProfileCluster cluster = profile_cluster(p, fleet.nodes());
  const auto ring = ring_hash::build_ring(cluster, ring_hash::envoy_options(cluster.nodes));
  const auto weights = ring_hash::normalized_weights(cluster);
  const auto factor = static_cast<uint32_t>(std::lround(c * 100));
  auto a = ring_hash::envoy_bounded_assign(ring, weights, stream, factor);
  BoundedAssignment out;
  const auto last = static_cast<uint32_t>(stream.empty() ? 0 : stream.size() - 1);
  for (double w : weights) out.capacities.push_back(ring_hash::envoy_slots(last, factor, w) + 1);
  out.capacity = *std::max_element(out.capacities.begin(), out.capacities.end());
  out.node = std::move(a.host);
  out.load = std::move(a.load);
  out.walked = a.probed;
  return out;
}

// The bounded assignment of the stream over the fleet's ring (docs/spec.md §6's
// tokens), each node's capacity by its weight; Envoy's rule for envoy_ring_hash.
BoundedAssignment bounded_over(const Placement& p, const Fleet& fleet, const Requests& r,
                               const KeySet& keys, double c) {
  const auto stream = stream_of(r, keys, p.profile);
  if (p.profile == Profile::kEnvoyRingHash) return envoy_bounded_over(p, fleet, stream, c);
  const auto entries = ring_entries(fleet.nodes());
  const auto ring = SortedRing<uint64_t>::from_entries(entries);
  std::vector<uint32_t> weights(fleet.size());
  for (uint32_t n = 0; n < fleet.size(); ++n) weights[n] = fleet.nodes().weight(n);
  return bounded_assign(ring, weights, stream, c);
}

// The loads' summary, against the fair shares of a weighted fleet.
ShareStats stats_against(const std::vector<uint64_t>& loads, const std::vector<double>& fair) {
  const std::span<const uint64_t> l(loads);
  return fair.empty() ? share_stats(l) : fair_share_stats(l, fair);
}

// Node index of `before` -> index in `after` by name (UINT32_MAX: gone).
std::vector<uint32_t> match_by_name(const Fleet& before, const Fleet& after) {
  std::map<std::string, uint32_t, std::less<>> index;
  for (uint32_t i = 0; i < after.size(); ++i) index[owner_name(after, i)] = i;
  std::vector<uint32_t> out(before.size(), UINT32_MAX);
  for (uint32_t i = 0; i < before.size(); ++i) {
    const auto it = index.find(owner_name(before, i));
    if (it != index.end()) out[i] = it->second;
  }
  return out;
}

}  // namespace

Requests requests_of(const LoadOptions& o, const KeySet& keys) {
  if (o.popularity.empty()) {
    Requests r;
    r.per_key.assign(keys.size(), 1);
    r.total = keys.size();
    return r;
  }
  const PopularitySpec p = parse_popularity(o.popularity);
  if (p.kind == PopularitySpec::Kind::kFile) return requests_from_file(p.path, keys.size());
  return zipf_requests(keys.size(), p.s, o.requests.value_or(kDefaultRequests), o.seed.value_or(1));
}

void check_load_options(const Setup& s, const LoadOptions& o, uint32_t rings, bool list) {
  if ((o.requests || o.seed) && !o.popularity.starts_with("zipf:"))
    throw std::invalid_argument("--requests and --popularity-seed apply to --popularity zipf:S");
  if (list)
    throw std::invalid_argument(
        "move --list names moved keys; with --popularity or --bounded-load move reports counts");
  if (s.scenario)
    throw std::invalid_argument(
        "--popularity and --bounded-load do not combine with a removal scenario (use move "
        "--add / --remove)");
  if (rings != 1)
    throw std::invalid_argument("--popularity and --bounded-load measure one ring (no --rings)");
  if (o.bounded) bounded_capacity(*o.bounded, 1, 1);  // c's range
}

LoadBalanceReport run_load_balance(const Setup& s, const Requests& req, std::optional<double> c,
                                   const KeySet& keys) {
  LoadBalanceReport r;
  r.fleet = &s.fleet;
  r.keys = keys.size();
  r.requests = req.total;
  const std::vector<uint32_t> owners = plain_owners(s, s.fleet, keys);
  r.node_keys.assign(s.fleet.size(), 0);
  for (uint32_t n : owners) ++r.node_keys[n];
  r.node_requests = node_loads(req, owners, s.fleet.size());
  const std::vector<double> fair = fair_shares(s);
  r.key_stats = stats_against(r.node_keys, fair);
  r.request_stats = stats_against(r.node_requests, fair);
  r.hottest = hottest_share(req);
  if (c) {
    r.c = c;
    r.bounded = bounded_over(s.placement, s.fleet, req, keys, *c);
    r.bounded_stats = stats_against(r.bounded->load, fair);
  }
  return r;
}

LoadMoveReport run_load_move(const Setup& s, const MoveRequest& request, const Requests& req,
                             std::optional<double> c, const KeySet& keys) {
  if (request.add.empty() && request.remove.empty())
    throw std::invalid_argument("move --popularity / --bounded-load needs --add or --remove");
  const Fleet after = apply_change(s.scheme, s.fleet, request.add, request.remove);
  const std::vector<uint32_t> to = match_by_name(s.fleet, after);
  LoadMoveReport r;
  r.nodes_before = s.fleet.size();
  r.nodes_after = after.size();
  r.keys = keys.size();
  r.requests = req.total;
  const std::vector<uint32_t> a = plain_owners(s, s.fleet, keys);
  const std::vector<uint32_t> b = plain_owners(s, after, keys);
  for (uint64_t k = 0; k < keys.size(); ++k)
    if (to[a[k]] != b[k]) {
      ++r.plain.keys;
      r.plain.requests += req.per_key[k];
    }
  if (!c) return r;
  r.c = c;
  const BoundedAssignment x = bounded_over(s.placement, s.fleet, req, keys, *c);
  const BoundedAssignment y = bounded_over(s.placement, after, req, keys, *c);
  r.capacity_before = x.capacity;
  r.capacity_after = y.capacity;
  std::vector<bool> key_moved(keys.size(), false);
  LoadMoved m;
  uint64_t j = 0;
  for_each_request(req, [&](uint64_t k) {
    if (to[x.node[j]] != y.node[j]) {
      ++m.requests;
      key_moved[k] = true;
    }
    ++j;
  });
  for (const bool moved : key_moved) m.keys += moved;
  r.bounded = m;
  return r;
}

}  // namespace chbench::lab
