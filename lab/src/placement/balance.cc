#include "placement/balance.h"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>

#include "chbench/ring/ring.h"
#include "placement/blocks.h"

namespace chbench::lab {

namespace {

// Up to this many nodes each thread counts its keys apart; above, the
// threads add into the one array (per-thread copies would cost 8 B a node
// each: 16 GiB at 2^31 buckets).
constexpr uint32_t kThreadCountsMax = 1u << 16;

}  // namespace

Balance measure_balance(Scheme scheme, const Fleet& fleet, const KeySet& keys,
                        std::string_view kernel) {
  return measure_balance(Placement{scheme, std::nullopt, {}}, fleet, keys, kernel);
}

Balance measure_balance(const Placement& placement, const Fleet& fleet, const KeySet& keys,
                        std::string_view kernel) {
  const auto table = make_table(placement, fleet, kernel);
  const uint32_t n = fleet.size();
  Balance balance;
  balance.keys = keys.size();
  balance.node_keys.assign(n, 0);
  auto count_blocks = [&](const auto& count) {
    for_each_block(keys, 0, keys.size(), placement.profile,
                   [&](uint64_t, std::span<const uint64_t> hashes) {
                     std::array<uint32_t, kBlock> owner_buf;
                     const std::span<uint32_t> owners(owner_buf.data(), hashes.size());
                     table->owners(hashes, owners);
                     count(std::span<const uint32_t>(owners));
                   });
  };
  if (n <= kThreadCountsMax) {
    tbb::enumerable_thread_specific<std::vector<uint64_t>> counts(
        [&] { return std::vector<uint64_t>(n, 0); });
    count_blocks([&](std::span<const uint32_t> owners) {
      auto& c = counts.local();
      for (uint32_t o : owners) ++c[o];
    });
    for (const auto& c : counts)
      for (std::size_t i = 0; i < c.size(); ++i) balance.node_keys[i] += c[i];
  } else {
    static_assert(std::atomic_ref<uint64_t>::required_alignment == alignof(uint64_t));
    count_blocks([&](std::span<const uint32_t> owners) {
      for (uint32_t o : owners)
        std::atomic_ref<uint64_t>(balance.node_keys[o]).fetch_add(1, std::memory_order_relaxed);
    });
  }
  if (!placement.profile && placement.scheme == Scheme::kRing)
    balance.circle = circle_shares(fleet.nodes());
  return balance;
}

std::vector<double> circle_shares(const NodeSet& nodes) {
  const auto entries = ring_entries(nodes);
  const auto ring = SortedRing<uint64_t>::from_entries(entries);
  std::vector<double> shares(nodes.size(), 0.0);
  const std::size_t n = ring.tokens.size();
  if (n == 1) {
    shares[ring.owners[0]] = 1.0;
    return shares;
  }
  // Arc lengths are exact in uint64_t (unsigned wrap gives the first token's
  // arc across 2^64); summing per node in long double keeps 64 bits of them.
  std::vector<long double> sum(nodes.size(), 0.0L);
  sum[ring.owners[0]] += static_cast<long double>(ring.tokens[0] - ring.tokens[n - 1]);
  for (std::size_t i = 1; i < n; ++i)
    sum[ring.owners[i]] += static_cast<long double>(ring.tokens[i] - ring.tokens[i - 1]);
  const long double circle = 18446744073709551616.0L;  // 2^64
  for (std::size_t i = 0; i < shares.size(); ++i) shares[i] = static_cast<double>(sum[i] / circle);
  return shares;
}

namespace {

// share_stats over shares or counts, each taken as a double.
template <class T>
ShareStats stats_of(std::span<const T> shares) {
  const double n = static_cast<double>(shares.size());
  double total = 0, busiest = 0;
  for (T v : shares) {
    const double s = static_cast<double>(v);
    total += s;
    busiest = std::max(busiest, s);
  }
  const double mean = total / n;
  double squares = 0;
  for (T v : shares) squares += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
  return {busiest / mean, 100.0 * std::sqrt(squares / n) / mean};
}

}  // namespace

ShareStats share_stats(std::span<const double> shares) { return stats_of(shares); }

ShareStats share_stats(std::span<const uint64_t> counts) { return stats_of(counts); }

ShareStats fair_share_stats(std::span<const double> shares, std::span<const double> fair) {
  double busiest = 0, squares = 0, weight = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    if (!(fair[i] > 0)) continue;
    const double ratio = shares[i] / fair[i];
    busiest = std::max(busiest, ratio);
    squares += fair[i] * (ratio - 1) * (ratio - 1);
    weight += fair[i];
  }
  return {busiest, 100.0 * std::sqrt(squares / weight)};
}

ShareStats fair_share_stats(std::span<const uint64_t> counts, std::span<const double> fair) {
  double total = 0;
  for (const uint64_t c : counts) total += static_cast<double>(c);
  std::vector<double> shares;
  shares.reserve(counts.size());
  for (const uint64_t c : counts) shares.push_back(total > 0 ? static_cast<double>(c) / total : 0);
  return fair_share_stats(std::span<const double>(shares), fair);
}

NodeSet replica_nodes(const NodeSet& nodes, uint32_t r) {
  NodeSet out = nodes;  // every parameter, and a scheme's weights follow their nodes
  for (auto& name : out.names) name = replica_name(name, r);
  return out;
}

std::string replica_name(std::string_view name, uint32_t r) {
  std::string out(name);
  if (r == 0) return out;
  // Built by appending: GCC 12 warns falsely (-Wrestrict) on "@" + to_string().
  out += '@';
  out += std::to_string(r);
  return out;
}

}  // namespace chbench::lab
