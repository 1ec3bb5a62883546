#include "allocation.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>

#include "chbench/profiles/profiles.h"

namespace chbench::lab {

namespace {

constexpr double kCircle = 0x1p64;
// The weight of the token-level term of the objective (the header).
constexpr double kTokenWeight = 0.25;

// Where the span of entry i of a circular sequence of m entries (at(k):
// entry k) begins: the token of the entry the header's back walk stops at;
// nullopt for the whole circle.
template <class At>
std::optional<uint64_t> span_start(const At& at, std::size_t m, std::size_t i, uint32_t rf) {
  const uint32_t self = at(i).node;
  uint32_t seen[8];
  uint32_t distinct = 0;
  for (std::size_t step = 1; step < m; ++step) {
    const RingEntry<uint64_t> e = at((i + m - step) % m);
    bool stop = e.node == self;
    if (!stop && std::find(seen, seen + distinct, e.node) == seen + distinct) {
      seen[distinct++] = e.node;
      stop = distinct == rf;
    }
    if (stop) return e.token;
  }
  return std::nullopt;
}

// The span of entry i as a fraction of the circle.
template <class At>
double span_at(const At& at, std::size_t m, std::size_t i, uint32_t rf) {
  const std::optional<uint64_t> start = span_start(at, m, i, rf);
  return start ? static_cast<double>(at(i).token - *start) / kCircle : 1.0;
}

std::vector<double> spans_of(const TokenRing& ring, uint32_t rf) {
  const auto at = [&ring](std::size_t k) { return ring[k]; };
  std::vector<double> out(ring.size());
  for (std::size_t i = 0; i < ring.size(); ++i) out[i] = span_at(at, ring.size(), i, rf);
  return out;
}

// Change of the objective from inserting `ins` before ring[p].
double candidate_delta(const TokenRing& ring, const std::vector<double>& spans,
                       const std::vector<double>& own, std::size_t p, RingEntry<uint64_t> ins,
                       uint32_t rf, double target, double newcomer_mult, uint32_t tokens_per_node) {
  const std::size_t m = ring.size();
  const auto at = [&](std::size_t v) { return v < p ? ring[v] : v == p ? ins : ring[v - 1]; };
  const double ideal = target / tokens_per_node;
  const double first = span_at(at, m + 1, p, rf);
  std::vector<std::pair<uint32_t, double>> d{{ins.node, first}};
  double token_term = (first - ideal) * (first - ideal);
  std::vector<uint32_t> between;  // the nodes of ring[p ... j - 1]
  for (std::size_t step = 0, j = p; step < m && between.size() < rf; ++step, j = (j + 1) % m) {
    const double now = span_at(at, m + 1, j < p ? j : j + 1, rf);
    if (now != spans[j]) {
      d.emplace_back(ring[j].node, now - spans[j]);
      token_term += (now - ideal) * (now - ideal) - (spans[j] - ideal) * (spans[j] - ideal);
    }
    if (std::find(between.begin(), between.end(), ring[j].node) == between.end())
      between.push_back(ring[j].node);
  }
  std::sort(d.begin(), d.end());
  double delta = 0;
  for (std::size_t a = 0; a < d.size();) {
    double sum = 0;
    std::size_t b = a;
    for (; b < d.size() && d[b].first == d[a].first; ++b) sum += d[b].second;
    const uint32_t n = d[a].first;
    if (n == ins.node) {  // the newcomer: its ownership as projected to all its tokens
      const double x = newcomer_mult * (own[n] + sum) - target;
      delta += x * x;
    } else {
      const double o = own[n] - target;
      delta += (o + sum) * (o + sum) - o * o;
    }
    a = b;
  }
  return delta + kTokenWeight * token_term;
}

// Adds token `placed` (0-based) of `count` of `node` at the best candidate.
void allocate_one(TokenRing& ring, uint32_t nodes, uint32_t node, uint32_t rf, uint32_t placed,
                  uint32_t count) {
  const std::vector<double> spans = spans_of(ring, rf);
  std::vector<double> own(nodes, 0.0);
  for (std::size_t i = 0; i < ring.size(); ++i) own[ring[i].node] += spans[i];
  const double target = static_cast<double>(std::min(rf, nodes)) / nodes;
  const double mult = static_cast<double>(count) / (placed + 1);
  const double ideal = target / count;  // the span each of the newcomer's tokens should have
  bool found = false;
  double best = 0;
  RingEntry<uint64_t> pick{};
  auto consider = [&](std::size_t p, RingEntry<uint64_t> ins) {
    const double delta = candidate_delta(ring, spans, own, p, ins, rf, target, mult, count);
    if (!found || delta < best) {
      found = true;
      best = delta;
      pick = ins;
    }
  };
  for (std::size_t p = 0; p < ring.size(); ++p) {
    const uint64_t lo = ring[(p + ring.size() - 1) % ring.size()].token, hi = ring[p].token;
    const uint64_t width = ring.size() == 1 ? 0 : hi - lo;  // one token: the whole circle
    if (ring.size() > 1 && width < 2) continue;
    const RingEntry<uint64_t> mid{lo + (ring.size() == 1 ? uint64_t{1} << 63 : width / 2), node};
    consider(p, mid);
    // The point of the range where the new token's span is `ideal`, if inside it.
    const auto at = [&](std::size_t v) { return v < p ? ring[v] : v == p ? mid : ring[v - 1]; };
    const std::optional<uint64_t> start = span_start(at, ring.size() + 1, p, rf);
    if (!start || ideal >= 1) continue;
    const uint64_t exact = *start + static_cast<uint64_t>(ideal * kCircle);
    if (exact - lo > 0 && (ring.size() == 1 || exact - lo < width) && exact != mid.token)
      consider(p, {exact, node});
  }
  if (!found) throw std::invalid_argument("token allocation: no range left to split");
  ring.insert(std::lower_bound(ring.begin(), ring.end(), pick), pick);
}

ShareStats spread_of_ownership(const TokenRing& ring, uint32_t nodes, uint32_t rf) {
  const std::vector<double> own = replicated_ownership(ring, nodes, rf);
  return share_stats(std::span<const double>(own));
}

TokenRing random_ring(bool cassandra, uint32_t nodes, uint32_t tokens) {
  const NodeSet set = default_nodes(nodes, tokens);
  return cassandra ? cassandra_ring(set) : ring_entries(set);
}

}  // namespace

std::vector<double> replicated_ownership(const TokenRing& ring, uint32_t nodes, uint32_t rf) {
  const std::vector<double> spans = spans_of(ring, rf);
  std::vector<double> own(nodes, 0.0);
  for (std::size_t i = 0; i < ring.size(); ++i) own[ring[i].node] += spans[i];
  return own;
}

void allocate_tokens(TokenRing& ring, uint32_t nodes, uint32_t node, uint32_t count, uint32_t rf) {
  for (uint32_t t = 0; t < count; ++t) allocate_one(ring, nodes, node, rf, t, count);
}

std::vector<AllocationRow> allocation_experiment(bool cassandra, uint32_t from, uint32_t to,
                                                 uint32_t allocated_tokens,
                                                 std::span<const uint32_t> random_tokens,
                                                 std::span<const uint32_t> rfs) {
  if (from < 2 || from > to || to > 1000)
    throw std::invalid_argument("tokens: --from and --to take 2 <= from <= to <= 1000 nodes");
  if (rfs.empty() || std::find(rfs.begin(), rfs.end(), 0u) != rfs.end() ||
      *std::max_element(rfs.begin(), rfs.end()) > 8)
    throw std::invalid_argument("tokens: --rf takes replication factors 1 ... 8");
  if (allocated_tokens == 0 || allocated_tokens > 1024)
    throw std::invalid_argument("tokens: --vnodes takes 1 ... 1024 allocated tokens");
  std::vector<AllocationRow> rows;
  for (const uint32_t rf : rfs) {
    TokenRing ring = random_ring(cassandra, 1, allocated_tokens);
    for (uint32_t n = 2; n <= to; ++n) {
      // Up to RF nodes every node replicates the whole circle: RF cannot tell
      // candidates apart, so those nodes spread their tokens as for RF = 1.
      allocate_tokens(ring, n, n - 1, allocated_tokens, n <= rf ? 1 : rf);
      if (n >= from)
        rows.push_back({n, rf, allocated_tokens, true, spread_of_ownership(ring, n, rf)});
    }
    for (const uint32_t v : random_tokens)
      for (uint32_t n = from; n <= to; ++n)
        rows.push_back({n, rf, v, false, spread_of_ownership(random_ring(cassandra, n, v), n, rf)});
  }
  return rows;
}

}  // namespace chbench::lab
