// The differential fuzzer's cases of weights, replica sets and bounded loads
// (differential.cc).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "chbench/parallel.h"
#include "chbench/ring/bounded_loads.h"
#include "chbench/ring/ring.h"
#include "harness.h"

namespace chbench_fuzz {

namespace {

constexpr uint32_t kMaxRingWeight = 8;  // the ring holds w * V tokens a node
constexpr uint32_t kMaxWeightedRingNodes = 48;
constexpr uint32_t kMaxWeightedNodes = 300;

// One weight a node, of a kind the input picks: 0, 1, the largest (on the
// ring kMaxRingWeight, else 2^31, or 2^31 + 1, which must be refused) or any
// up to it; sometimes one too few weights, or all 0 (refused).
std::vector<uint32_t> decode_weights(FuzzedDataProvider& in, std::size_t n, bool ring) {
  const uint32_t top = ring ? kMaxRingWeight : chbench::kMaxWeight;
  std::size_t count = n;
  if (n > 0 && in.ConsumeIntegralInRange<int>(0, 31) == 0) --count;
  const bool zeros = in.ConsumeIntegralInRange<int>(0, 31) == 0;
  std::vector<uint32_t> w;
  for (std::size_t i = 0; i < count; ++i) {
    switch (zeros ? 0 : in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0:
        w.push_back(0);
        break;
      case 1:
        w.push_back(1);
        break;
      case 2:
        w.push_back(top + (!ring && in.ConsumeIntegralInRange<int>(0, 15) == 0 ? 1 : 0));
        break;
      default:
        w.push_back(in.ConsumeIntegralInRange<uint32_t>(0, top));
        break;
    }
  }
  return w;
}

// A node list of default names for a weighted case, with weights decoded
// when `weighted`.
NodeSet decode_weighted_nodes(FuzzedDataProvider& in, Scheme scheme, bool weighted) {
  const bool ring = scheme == Scheme::kRing;
  const auto n =
      in.ConsumeIntegralInRange<uint32_t>(1, ring ? kMaxWeightedRingNodes : kMaxWeightedNodes);
  NodeSet nodes = chbench::default_nodes(n, in.ConsumeIntegralInRange<uint32_t>(1, ring ? 16 : 1));
  if (weighted) nodes.weights = decode_weights(in, n, ring);
  return nodes;
}

std::string weights_text(const NodeSet& nodes) {
  std::string s;
  for (std::size_t i = 0; i < nodes.weights.size() && i < 12; ++i)
    s += (i ? "," : "") + std::to_string(nodes.weights[i]);
  return nodes.weights.size() > 12 ? s + ",..." : s;
}

}  // namespace

void run_weights(FuzzedDataProvider& in, Context& c) {
  static const std::vector<Scheme> schemes =
      schemes_where([](const chbench::SchemeInfo& s) { return s.takes(chbench::kParamWeights); });
  const Scheme scheme = schemes[in.ConsumeIntegralInRange<std::size_t>(0, schemes.size() - 1)];
  const NodeSet nodes = decode_weighted_nodes(in, scheme, true);
  c.what = "weights, scheme " + std::string(chbench::scheme_name(scheme)) +
           ", N = " + std::to_string(nodes.size()) + ", V = " + std::to_string(nodes.vnodes) +
           ", weights " + weights_text(nodes);
  check_over_nodes(in, c, scheme, nodes);
}

namespace {

// Each R-set: R distinct nodes of weight above 0, the first the scheme's owner.
void check_sets(const Context& c, const NodeSet& nodes, uint32_t r, const Batch& b,
                std::span<const uint32_t> sets, std::span<const uint32_t> owners) {
  for (std::size_t i = 0; i < b.keys.size(); ++i) {
    std::vector<uint32_t> set(sets.begin() + i * r, sets.begin() + (i + 1) * r);
    if (set[0] != owners[i])
      fail(c, "reference",
           "key " + hex(b.keys[i]) + ": first replica " + std::to_string(set[0]) + ", owner " +
               std::to_string(owners[i]));
    for (const uint32_t n : set)
      if (n >= nodes.size() || nodes.weight(n) == 0)
        fail(c, "reference",
             "key " + hex(b.keys[i]) + ": replica " + std::to_string(n) +
                 " is no node of weight above 0");
    std::sort(set.begin(), set.end());
    if (std::adjacent_find(set.begin(), set.end()) != set.end())
      fail(c, "reference", "key " + hex(b.keys[i]) + ": a node twice in its replica set");
  }
}

}  // namespace

void run_replicas(FuzzedDataProvider& in, Context& c) {
  static const std::vector<Scheme> schemes =
      schemes_where([](const chbench::SchemeInfo& s) { return s.replicas_reference != nullptr; });
  const Scheme scheme = schemes[in.ConsumeIntegralInRange<std::size_t>(0, schemes.size() - 1)];
  const bool weighted =
      chbench::scheme_info(scheme).takes(chbench::kParamWeights) && in.ConsumeBool();
  const NodeSet nodes = decode_weighted_nodes(in, scheme, weighted);
  uint32_t holders = 0;
  for (uint32_t n = 0; n < nodes.size() && nodes.weights.size() == nodes.size(); ++n)
    holders += nodes.weight(n) > 0;
  if (nodes.weights.empty()) holders = nodes.size();
  const auto r = in.ConsumeIntegralInRange<uint32_t>(0, holders + 2);
  c.what = "replicas, scheme " + std::string(chbench::scheme_name(scheme)) +
           ", N = " + std::to_string(nodes.size()) + ", R = " + std::to_string(r) + ", weights " +
           weights_text(nodes);
  std::string ref_error;
  const auto reference =
      build([&] { return chbench::build_replica_reference(scheme, Fleet(nodes), r); }, ref_error);
  if (reference == nullptr && ref_error.empty()) fail(c, "reference", "no table, no error");
  if (ref_error.empty() && (r == 0 || r > holders))
    fail(c, "reference",
         "R = " + std::to_string(r) + " accepted with " + std::to_string(holders) +
             " nodes of weight above 0");
  Batch batch;
  Owners want;
  if (reference) {
    batch = decode_batch(in, anchors_of(scheme, nodes));
    want.resize(batch.keys.size() * r);
    reference->replicas(batch.keys, want);
    Owners owners(batch.keys.size());
    chbench::build_reference(scheme, nodes)->owners(batch.keys, owners);
    check_sets(c, nodes, r, batch, want, owners);
  }
  for (const chbench::KernelInfo* kernel : chbench::replica_kernels_of(scheme)) {
    std::string error;
    const auto table =
        build([&] { return chbench::build_replicas(*kernel, Fleet(nodes), r); }, error);
    if (error != ref_error)
      fail(c, kernel->full_name(),
           "building: reference " + (ref_error.empty() ? "succeeded" : ref_error) + ", kernel " +
               (error.empty() ? "succeeded" : error));
    if (!table) continue;
    Owners got(batch.keys.size() * r);
    table->replicas(batch.keys, got);
    for (std::size_t i = 0; i < got.size(); ++i)
      if (got[i] != want[i])
        fail(c, kernel->full_name(),
             "key " + hex(batch.keys[i / r]) + " replica " + std::to_string(i % r) +
                 ": reference " + std::to_string(want[i]) + ", kernel " + std::to_string(got[i]));
  }
}

namespace {

// The plainest bounded walk: from the first token >= h (wrapping), the first
// node below its capacity; UINT32_MAX when none has room.
uint32_t bounded_model(const chbench::SortedRing<uint64_t>& ring, std::vector<uint64_t>& loads,
                       std::span<const uint64_t> caps, uint64_t h) {
  const std::size_t n = ring.tokens.size();
  const auto first = static_cast<std::size_t>(
      std::lower_bound(ring.tokens.begin(), ring.tokens.end(), h) - ring.tokens.begin());
  for (std::size_t step = 0; step < n; ++step) {
    const uint32_t node = ring.owners[(first + step) % n];
    if (loads[node] < caps[node]) {
      ++loads[node];
      return node;
    }
  }
  return UINT32_MAX;
}

// A stream of requests: each decoded key asked 1 to 8 times, in runs or spread.
Keys decode_stream(FuzzedDataProvider& in, const Keys& keys) {
  Keys stream;
  for (const uint64_t k : keys) {
    const auto times = in.ConsumeIntegralInRange<int>(1, 8);
    for (int t = 0; t < times; ++t) stream.push_back(k);
  }
  if (in.ConsumeBool() && !stream.empty())
    for (std::size_t i = stream.size() - 1; i > 0; --i)
      std::swap(stream[i], stream[in.ConsumeIntegralInRange<std::size_t>(0, i)]);
  return stream;
}

void check_bounded(const Context& c, const NodeSet& nodes, std::span<const uint64_t> caps,
                   uint64_t requests, double factor) {
  uint64_t total = 0, weights = 0;
  for (const uint64_t cap : caps) total += cap;
  for (uint32_t n = 0; n < nodes.size(); ++n) weights += nodes.weight(n);
  if (total < requests)
    fail(c, "bounded_capacities",
         "capacities sum to " + std::to_string(total) + " for " + std::to_string(requests) +
             " requests");
  for (uint32_t n = 0; n < nodes.size(); ++n) {
    const long double exact =
        static_cast<long double>(factor) * requests * nodes.weight(n) / weights;
    if (caps[n] < exact || caps[n] >= exact + 1)
      fail(c, "bounded_capacities",
           "node " + std::to_string(n) + " capacity " + std::to_string(caps[n]) +
               " is not the ceiling");
  }
}

}  // namespace

void run_bounded(FuzzedDataProvider& in, Context& c) {
  const NodeSet nodes = decode_weighted_nodes(in, Scheme::kRing, in.ConsumeBool());
  std::vector<chbench::RingEntry<uint64_t>> entries;
  try {
    entries = chbench::ring_entries(nodes);
  } catch (const std::invalid_argument&) {
    return;  // weights the ring refuses: the weights case covers them
  }
  const auto ring = chbench::SortedRing<uint64_t>::from_entries(entries);
  const double factor = in.PickValueInArray<double>(
      {1.0, 1.0 + 1e-9, 1.25, 1.5, 2.0, 1.0 + in.ConsumeIntegralInRange<int>(0, 64) / 16.0});
  const Keys stream = decode_stream(in, decode_keys(in, ring.tokens));
  c.what = "bounded, N = " + std::to_string(nodes.size()) +
           ", V = " + std::to_string(nodes.vnodes) + ", weights " + weights_text(nodes) +
           ", c = " + std::to_string(factor) + ", " + std::to_string(stream.size()) + " requests";
  std::vector<uint32_t> weights(nodes.size());
  for (uint32_t n = 0; n < nodes.size(); ++n) weights[n] = nodes.weight(n);
  const auto caps = chbench::bounded_capacities(factor, stream.size(), weights);
  check_bounded(c, nodes, caps, stream.size(), factor);
  chbench::BoundedLoads one(ring, caps), many(ring, caps);
  std::vector<uint64_t> model(nodes.size(), 0);
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const uint64_t h = stream[i];
    const uint32_t owner = ring.owners[chbench::ring_position(ring, h)];
    const uint32_t want = bounded_model(ring, model, caps, h);
    const uint32_t got = one.place(h, owner), got_many = many.place_concurrent(h, owner);
    if (want == UINT32_MAX || nodes.weight(want) == 0)
      fail(c, "model", "request " + std::to_string(i) + " found no node of weight above 0");
    if (got != want || got_many != want)
      fail(c, "BoundedLoads",
           "request " + std::to_string(i) + " = " + hex(h) + ": model node " +
               std::to_string(want) + ", place " + std::to_string(got) + ", place_concurrent " +
               std::to_string(got_many));
  }
  for (uint32_t n = 0; n < nodes.size(); ++n)
    if (one.load(n) != model[n] || many.load(n) != model[n] || model[n] > caps[n])
      fail(c, "BoundedLoads",
           "node " + std::to_string(n) + " load " + std::to_string(one.load(n)) + ", model " +
               std::to_string(model[n]) + ", capacity " + std::to_string(caps[n]));
}

}  // namespace chbench_fuzz
