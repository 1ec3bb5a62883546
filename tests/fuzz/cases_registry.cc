// The differential fuzzer's cases over the registry (differential.cc):
// registry, counts, history, tokens and seeds.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "chbench/hrw/hrw.h"
#include "chbench/jump/jump.h"
#include "chbench/ring/ring.h"
#include "harness.h"

namespace chbench_fuzz {

void run_registry(FuzzedDataProvider& in, Context& c) {
  const auto schemes = chbench::all_schemes();
  const Scheme scheme = schemes[in.ConsumeIntegralInRange<std::size_t>(0, schemes.size() - 1)];
  const NodeSet nodes = decode_nodes(in, scheme);
  c.what = "registry, scheme " + std::string(chbench::scheme_name(scheme)) +
           ", N = " + std::to_string(nodes.size()) + ", V = " + std::to_string(nodes.vnodes);
  check_over_nodes(in, c, scheme, nodes);
}

// ---- N beyond any node list: the bucket-count schemes ------------------------------

// The schemes that place by the bucket count alone (SchemeInfo::buckets_only).
void run_counts(FuzzedDataProvider& in, Context& c) {
  static const std::vector<Scheme> schemes =
      schemes_where([](const chbench::SchemeInfo& s) { return s.buckets_only; });
  const Scheme scheme = schemes[in.ConsumeIntegralInRange<std::size_t>(0, schemes.size() - 1)];
  const uint32_t n = in.PickValueInArray<uint32_t>(
      {1u, 2u, 3u, chbench::kJumpMaxBuckets, chbench::kJumpMaxBuckets + 1, 0xffffffffu,
       in.ConsumeIntegral<uint32_t>(), in.ConsumeIntegral<uint32_t>() >> 16,
       uint32_t{1} << in.ConsumeIntegralInRange<int>(0, 31),
       (uint32_t{1} << in.ConsumeIntegralInRange<int>(1, 31)) - 1,
       (uint32_t{1} << in.ConsumeIntegralInRange<int>(0, 30)) + 1});
  c.what = std::string(chbench::scheme_name(scheme)) + " over buckets, N = " + std::to_string(n);
  if (n == 0) {  // from an exhausted input: a fleet of no buckets must be refused
    try {
      (void)chbench::Fleet::of_buckets(0);
    } catch (const std::invalid_argument&) {
      return;
    }
    fail(c, "Fleet::of_buckets", "N = 0 was accepted");
  }
  const chbench::Fleet fleet = chbench::Fleet::of_buckets(n);
  std::string ref_error;
  const auto reference = build([&] { return chbench::build_reference(scheme, fleet); }, ref_error);
  Batch batch;
  Owners want;
  if (reference) {
    const Keys anchors = {uint64_t{n}, uint64_t{n} * 2, UINT64_MAX / n * n, uint64_t{n} << 32};
    batch = decode_batch(in, anchors);
    want.resize(batch.keys.size());
    reference->owners(batch.keys, want);
  }
  check_kernels(
      c, scheme, ref_error, batch, want,
      [&](const chbench::KernelInfo& kernel, unsigned knob) { return kernel.build(fleet, knob); },
      &in);
}

// ---- fleets with a history: the schemes that read it ------------------------------

namespace {

constexpr uint32_t kMaxHistoryNodes = 300;

// A fleet of default names, a capacity (below N included, which must be
// refused), then up to 64 decoded changes: a node leaving, the last or any
// removed node joining again, a new name joining.
Fleet decode_history(FuzzedDataProvider& in) {
  const auto n = in.ConsumeIntegralInRange<uint32_t>(1, kMaxHistoryNodes);
  NodeSet nodes = chbench::default_nodes(n);
  nodes.capacity = in.PickValueInArray<uint32_t>(
      {0u, n, n + 1, 2 * n, in.ConsumeIntegralInRange<uint32_t>(0, 4 * n)});
  Fleet fleet(std::move(nodes));
  const int changes = in.ConsumeIntegralInRange<int>(0, 64);
  for (int i = 0, fresh = 0; i < changes && in.remaining_bytes() > 0; ++i) {
    const std::vector<std::string> removed = fleet.removed();
    const std::size_t size = fleet.nodes().names.size();
    switch (in.ConsumeIntegralInRange<int>(0, 8)) {
      case 0:
      case 1:
        if (size > 1)
          fleet.leave(std::string(
              fleet.nodes().names[in.ConsumeIntegralInRange<std::size_t>(0, size - 1)]));
        break;
      case 2:
        if (!removed.empty()) fleet.join(removed.back());
        break;
      case 3:
        if (!removed.empty())
          fleet.join(removed[in.ConsumeIntegralInRange<std::size_t>(0, removed.size() - 1)]);
        break;
      default:
        fleet.join("new-" + std::to_string(fresh++));
        break;
    }
  }
  return fleet;
}

}  // namespace

// The schemes whose placement depends on which nodes left, in what order
// (SchemeInfo::reads_history).
void run_history(FuzzedDataProvider& in, Context& c) {
  static const std::vector<Scheme> schemes =
      schemes_where([](const chbench::SchemeInfo& s) { return s.reads_history; });
  if (schemes.empty()) return;
  const Scheme scheme = schemes[in.ConsumeIntegralInRange<std::size_t>(0, schemes.size() - 1)];
  const Fleet fleet = decode_history(in);
  c.what = std::string(chbench::scheme_name(scheme)) + " after " +
           std::to_string(fleet.history().size()) +
           " changes, N = " + std::to_string(fleet.size()) + ", capacity " +
           std::to_string(fleet.nodes().capacity);
  std::string ref_error;
  const auto reference = build([&] { return chbench::build_reference(scheme, fleet); }, ref_error);
  Batch batch;
  Owners want;
  if (reference) {
    const uint64_t n = fleet.size();
    batch = decode_batch(in, Keys{n, 2 * n, UINT64_MAX / n * n});
    want.resize(batch.keys.size());
    reference->owners(batch.keys, want);
  }
  check_kernels(
      c, scheme, ref_error, batch, want,
      [&](const chbench::KernelInfo& kernel, unsigned knob) { return kernel.build(fleet, knob); },
      &in);
}

// ---- rings of chosen tokens ----------------------------------------------------------

void run_tokens(FuzzedDataProvider& in, Context& c) {
  using Entry = chbench::RingEntry<uint64_t>;
  std::vector<Entry> entries;
  const auto count = in.ConsumeIntegralInRange<std::size_t>(1, 300);
  for (std::size_t i = 0; i < count; ++i) {
    uint64_t token = 0;
    switch (in.ConsumeIntegralInRange<int>(0, 8)) {
      case 0:  // the same value as an earlier token: a duplicate over nodes
        token = entries.empty()
                    ? 0
                    : entries[in.ConsumeIntegralInRange<std::size_t>(0, entries.size() - 1)].token;
        break;
      case 1:
        token = in.PickValueInArray<uint64_t>(
            {0, 1, (uint64_t{1} << 63) - 1, uint64_t{1} << 63, UINT64_MAX - 1, UINT64_MAX});
        break;
      default:
        token = in.ConsumeIntegral<uint64_t>();
        break;
    }
    entries.push_back({token, in.ConsumeIntegralInRange<uint32_t>(0, 9)});
  }
  std::sort(entries.begin(), entries.end());
  const auto ring = chbench::SortedRing<uint64_t>::from_entries(entries);
  c.what = "ring of " + std::to_string(entries.size()) + " chosen tokens (" +
           std::to_string(ring.tokens.size()) + " distinct)";
  const Batch batch = decode_batch(in, ring.tokens);
  Owners want(batch.keys.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    want[i] = chbench::ring_reference_owner<uint64_t>(entries, batch.keys[i]);

  check_kernels(
      c, Scheme::kRing, "", batch, want,
      [&](const chbench::KernelInfo& kernel, unsigned knob) {
        return kernel.make_over_ring(ring, knob);
      },
      &in);
}

// ---- rendezvous over chosen seeds -------------------------------------------------------

void run_seeds(FuzzedDataProvider& in, Context& c) {
  Keys seeds;
  const auto count = in.ConsumeIntegralInRange<std::size_t>(1, 600);
  for (std::size_t i = 0; i < count; ++i) {
    if (!seeds.empty() && in.ConsumeIntegralInRange<int>(0, 3) == 0)
      seeds.push_back(seeds[in.ConsumeIntegralInRange<std::size_t>(0, seeds.size() - 1)]);
    else
      seeds.push_back(in.ConsumeIntegral<uint64_t>());
  }
  c.what = "rendezvous over " + std::to_string(seeds.size()) + " chosen seeds";
  const Batch batch = decode_batch(in, seeds);
  Owners want(batch.keys.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    want[i] = chbench::rendezvous_owner(batch.keys[i], seeds);
  // Every kernel that takes chosen seeds (KernelInfo::make_over_seeds: the
  // rendezvous ones, a kernel added later included).
  for (const chbench::KernelInfo* kernel : chbench::all_kernels()) {
    if (kernel->make_over_seeds == nullptr) continue;
    const auto table = kernel->make_over_seeds(seeds);
    const Lookup lookup = [&](auto keys, auto out) { table->owners(keys, out); };
    check(c, kernel->full_name(), lookup, batch, want, table.get());
  }
}

}  // namespace chbench_fuzz
