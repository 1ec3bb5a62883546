// Differential fuzzer (libFuzzer): every kernel against its scheme's reference.
//
// Each input is decoded (with LLVM's FuzzedDataProvider) into one of six
// cases, then run on one Highway target, also decoded: the best one
// (dispatch as usual) or any single target this build and CPU can run,
// forced with simd::ForcedTarget, the SCALAR/EMU128 fallback included.
//
//   registry   a scheme, a node list (default names node-0 ... node-(N-1), or
//              names taken from the input: empty, duplicate and arbitrary
//              bytes included) and V; every kernel of that scheme in
//              chbench::all_kernels() is built and compared with
//              build_reference(). Kernels added to the registry later are
//              covered without a change here. A kernel with a knob
//              (KernelInfo::knob: keys in flight) is built with a value from
//              the input: its default, an end of its range, a value of its
//              sweep or any value in range. A node list the reference
//              rejects must be rejected by every kernel with the same
//              exception type. Maglev's table size M comes from the input
//              (primes, non-primes and M below N included). Node weights
//              exist only in the ketama profile (see profiles).
//   counts     a scheme that places by the bucket count alone
//              (SchemeInfo::buckets_only: mod-N, jump and its successors)
//              over Fleet::of_buckets(N) at any 32-bit N, which no node list
//              of a test can reach, around powers of two too: every kernel
//              against the reference, a count past max_nodes refused alike.
//   tokens     a ring built from tokens taken from the input (duplicates over
//              nodes, 0, 2^63, UINT64_MAX), searched by every ring kernel of
//              the registry built over it (KernelInfo::make_over_ring), knobs
//              from the input as above, against ring_reference_owner().
//   seeds      rendezvous over node seeds taken from the input (equal seeds,
//              so equal scores at any lane): every registry kernel built
//              over them (KernelInfo::make_over_seeds) against
//              rendezvous_owner().
//   history    a scheme that reads the fleet's history (SchemeInfo::
//              reads_history: AnchorHash, DxHash, MementoHash, ...) over a
//              fleet changed by decoded leaves, re-joins (the last removed or
//              any) and new names, with a decoded capacity (below N and
//              joins past it included): every kernel against the reference,
//              a fleet the reference refuses refused alike.
//   profiles   a production profile (ketama with weights, Redis Cluster,
//              Kafka, Cassandra, Maglev; docs/profiles.md) over a decoded
//              cluster: every registry kernel of the profile's scheme, built
//              with build_profile_table(), against build_profile_reference(),
//              on key hashes in the profile's own domain.
//
//   weights    a scheme that takes node weights (SchemeInfo::takes
//              kParamWeights: the ring, weighted rendezvous) over weights of
//              kinds from the input: 0, 1, small, 2^31 and past it off the
//              ring, all 0 and one too few (refused): every kernel against
//              the reference, and no key on a node of weight 0.
//   replicas   a scheme with replica sets (SchemeInfo::replicas_reference)
//              with weights as above where it takes them and R from 1 to two
//              past the nodes of weight above 0: every replica kernel against
//              the reference's R-sets (the same refusal where R is too many),
//              each set R distinct nodes of weight above 0, its first the
//              scheme's owner.
//   bounded    bounded loads on a weighted ring (zeros included) over a
//              request stream with repeated keys and a balance factor from
//              the input: BoundedLoads::place and place_concurrent against
//              the plainest walk, every request placed once, no node over
//              its capacity, the capacities following the weights.
//
// Profiles' node names include spellings of one ketama server ("a",
// "a:11211", "a:011211"), which both ketama profiles must refuse.
//
// Key hashes come from the input: raw 64-bit values, 0, UINT64_MAX, values at
// and next to the case's anchors (ring tokens, node seeds, multiples of N),
// around 2^63 and around powers of two. Every batch lives in a heap buffer
// of exactly its size, so AddressSanitizer reports a kernel that reads a key
// or writes an owner past the end; the batch is run whole, in pieces of sizes
// taken from the input (tails shorter than any lane count or unroll), a
// registry table also one key at a time (OwnerTable::owner) and, when the
// input says so, through a ThreadTeam of two threads.
//
// On the first owner that differs, the harness prints the case, kernel,
// target, key and both owners on stderr and aborts, which libFuzzer reports
// as a crash and saves the input. Usage: scripts/fuzz.sh --help.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/hrw/hrw.h"
#include "chbench/jump/jump.h"
#include "chbench/nodes.h"
#include "chbench/parallel.h"
#include "chbench/profiles/go_redis_ring.h"
#include "chbench/profiles/groupcache.h"
#include "chbench/profiles/haproxy_lb.h"
#include "chbench/profiles/nginx.h"
#include "chbench/profiles/profiles.h"
#include "chbench/profiles/ring_hash.h"
#include "chbench/profiles/twemproxy_ketama.h"
#include "chbench/ring/bounded_loads.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"

namespace {

using chbench::Fleet;
using chbench::NodeSet;
using chbench::Scheme;
using Keys = std::vector<uint64_t>;
using Owners = std::vector<uint32_t>;
// Runs one kernel over a batch: keys in, owners out, same length.
using Lookup = std::function<void(std::span<const uint64_t>, std::span<uint32_t>)>;

// Bounds that keep one input to a few milliseconds under the sanitizers.
constexpr uint32_t kMaxRingNodes = 256;
constexpr uint32_t kMaxVnodes = 64;
constexpr uint32_t kMaxHrwNodes = 1100;  // past 512: the grouped HRW loops
constexpr uint32_t kMaxOtherNodes = 5000;
constexpr uint32_t kMaxNamedNodes = 40;
constexpr uint32_t kMaxMaglevNodes = 300;
constexpr uint32_t kMaxProfileNodes = 64;  // ketama: 160 MD5 points per unit of weight
constexpr std::size_t kMaxKeys = 700;
constexpr std::size_t kMaxPiece = 70;

// What the run was doing, for the report on a mismatch.
struct Context {
  std::string what;  // case and parameters
  std::string target = "dispatched";
};

[[noreturn]] void fail(const Context& c, const std::string& kernel, const std::string& detail) {
  std::fprintf(stderr, "chbench_fuzz: MISMATCH: %s, kernel %s, target %s: %s\n", c.what.c_str(),
               kernel.c_str(), c.target.c_str(), detail.c_str());
  std::abort();
}

// ---- key hashes ----------------------------------------------------------------

// `count` key hashes (count from the input, at most kMaxKeys), each of a kind
// the input picks; `anchors` are the values the case is sensitive to.
Keys decode_keys(FuzzedDataProvider& in, std::span<const uint64_t> anchors) {
  const std::size_t count = in.ConsumeIntegralInRange<std::size_t>(0, kMaxKeys);
  Keys keys;
  keys.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto delta = static_cast<uint64_t>(in.ConsumeIntegralInRange<int64_t>(-2, 2));
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
      case 0:
        keys.push_back(0);
        break;
      case 1:
        keys.push_back(UINT64_MAX);
        break;
      case 2:
      case 3:
        if (anchors.empty()) {
          keys.push_back(in.ConsumeIntegral<uint64_t>());
        } else {
          const auto at = in.ConsumeIntegralInRange<std::size_t>(0, anchors.size() - 1);
          keys.push_back(anchors[at] + delta);  // the anchor itself when delta == 0
        }
        break;
      case 4:
        keys.push_back((uint64_t{1} << 63) + delta);
        break;
      case 5:
        keys.push_back((uint64_t{1} << in.ConsumeIntegralInRange<int>(0, 63)) + delta);
        break;
      default:
        keys.push_back(in.ConsumeIntegral<uint64_t>());
        break;
    }
  }
  keys.shrink_to_fit();  // capacity == size: a read past the end hits a redzone
  return keys;
}

// ---- running and comparing -----------------------------------------------------

std::string hex(uint64_t x) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, x);
  return buf;
}

void compare(const Context& c, const std::string& kernel, const std::string& how,
             std::span<const uint64_t> keys, std::span<const uint32_t> want,
             std::span<const uint32_t> got) {
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (got[i] != want[i])
      fail(c, kernel,
           how + ": key [" + std::to_string(i) + "] of " + std::to_string(keys.size()) + " = " +
               hex(keys[i]) + ": reference owner " + std::to_string(want[i]) + ", kernel owner " +
               std::to_string(got[i]));
}

// Piece sizes for one input: taken from it, 0 to kMaxPiece each, so that the
// pieces end at every offset modulo the lane counts and unroll factors.
std::vector<std::size_t> decode_pieces(FuzzedDataProvider& in, std::size_t total) {
  std::vector<std::size_t> sizes;
  for (std::size_t at = 0; at < total;) {
    std::size_t size = in.ConsumeIntegralInRange<std::size_t>(0, kMaxPiece);
    // An exhausted input gives 0 forever: the rest is one piece.
    if (size == 0 && in.remaining_bytes() == 0) size = total - at;
    size = std::min(size, total - at);
    sizes.push_back(size);
    at += size;
  }
  return sizes;
}

struct Batch {
  Keys keys;
  std::vector<std::size_t> pieces;
  bool threads = false;  // also through a ThreadTeam of 2
};

Batch decode_batch(FuzzedDataProvider& in, std::span<const uint64_t> anchors) {
  Batch b;
  b.keys = decode_keys(in, anchors);
  b.threads = in.ConsumeBool();
  b.pieces = decode_pieces(in, b.keys.size());
  return b;
}

// Runs `lookup` over the batch whole, piece by piece (each piece copied into
// its own exact-size buffers) and, given the OwnerTable itself, one key at a
// time and, if asked, through a ThreadTeam (as the bench runs it), and
// compares every owner with `want`.
void check(const Context& c, const std::string& kernel, const Lookup& lookup, const Batch& b,
           std::span<const uint32_t> want, const chbench::OwnerTable* table = nullptr) {
  Owners whole(b.keys.size());
  lookup(b.keys, whole);
  compare(c, kernel, "whole batch", b.keys, want, whole);
  std::size_t at = 0;
  for (const std::size_t size : b.pieces) {
    const Keys piece(b.keys.begin() + at, b.keys.begin() + at + size);
    Owners out(size);
    lookup(piece, out);
    compare(c, kernel, "piece at " + std::to_string(at), piece, want.subspan(at, size), out);
    at += size;
  }
  if (!table) return;
  for (std::size_t i = 0; i < b.keys.size(); ++i) {
    const uint32_t got = table->owner(b.keys[i]);
    if (got != want[i])
      fail(c, kernel,
           "one key at a time: key [" + std::to_string(i) + "] = " + hex(b.keys[i]) +
               ": reference owner " + std::to_string(want[i]) + ", kernel owner " +
               std::to_string(got));
  }
  if (b.threads) {
    static chbench::ThreadTeam team(2);
    Owners out(b.keys.size());
    team.owners(*table, b.keys, out);
    compare(c, kernel, "2 threads", b.keys, want, out);
  }
}

// ---- the registry ----------------------------------------------------------------

NodeSet decode_nodes(FuzzedDataProvider& in, Scheme scheme) {
  NodeSet nodes;
  if (in.ConsumeBool()) {
    // Names from the input: any bytes, possibly empty or repeated.
    const auto count = in.ConsumeIntegralInRange<uint32_t>(0, kMaxNamedNodes);
    for (uint32_t i = 0; i < count; ++i) {
      if (!nodes.names.empty() && in.ConsumeIntegralInRange<int>(0, 15) == 0)
        nodes.names.push_back(nodes.names[in.ConsumeIntegralInRange<std::size_t>(
            0, nodes.names.size() - 1)]);  // a duplicate
      else
        nodes.names.push_back(in.ConsumeRandomLengthString(24));
    }
  } else {
    const uint32_t max = scheme == Scheme::kRing                          ? kMaxRingNodes
                         : chbench::scheme_info(scheme).scores_every_node ? kMaxHrwNodes
                         : scheme == Scheme::kMaglev                      ? kMaxMaglevNodes
                                                                          : kMaxOtherNodes;
    const auto n = in.ConsumeIntegralInRange<uint32_t>(1, max);
    for (uint32_t i = 0; i < n; ++i) nodes.names.push_back(chbench::default_node_name(i));
  }
  nodes.vnodes = in.ConsumeIntegralInRange<uint32_t>(0, kMaxVnodes);  // 0 must be refused
  // Maglev's M: primes (small ones below N too), non-primes, 0 and 1.
  nodes.table_size =
      in.PickValueInArray<uint32_t>({65537, 2, 3, 5, 7, 13, 251, 257, 4093, 0, 1, 9, 65536,
                                     in.ConsumeIntegralInRange<uint32_t>(0, 70000)});
  return nodes;
}

// Builds a table (an OwnerTable, or a ReplicaTable); on an exception,
// returns null and its type in `error`.
template <class Make>
auto build(const Make& make, std::string& error) -> decltype(make()) {
  try {
    error.clear();
    return make();
  } catch (const std::invalid_argument&) {
    error = "std::invalid_argument";
  } catch (const std::length_error&) {
    error = "std::length_error";
  } catch (const std::bad_alloc&) {
    error = "std::bad_alloc";
  }
  return nullptr;
}

// A value for the kernel's knob (0, its default, for a kernel without one):
// the default, an end of its range, a value of its sweep, or any in range.
unsigned decode_knob(FuzzedDataProvider& in, const chbench::KernelInfo& kernel) {
  if (!kernel.knob) return 0;
  const chbench::Knob& knob = *kernel.knob;
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      return 0;
    case 1:
      return in.ConsumeBool() ? knob.min : knob.max;
    case 2:
      return knob.sweep.empty()
                 ? knob.min
                 : knob.sweep[in.ConsumeIntegralInRange<std::size_t>(0, knob.sweep.size() - 1)];
    default:
      return in.ConsumeIntegralInRange<unsigned>(knob.min, knob.max);
  }
}

using Make =
    std::function<std::unique_ptr<chbench::OwnerTable>(const chbench::KernelInfo&, unsigned knob)>;

// Builds every kernel of `scheme` in the registry with `make` (knobs decoded
// from `knobs`, or 0 without it) and checks it against the reference: the
// same exception type when building (none when ref_error is empty), then the
// same owners of the batch.
void check_kernels(const Context& c, Scheme scheme, const std::string& ref_error,
                   const Batch& batch, std::span<const uint32_t> want, const Make& make,
                   FuzzedDataProvider* knobs = nullptr) {
  for (const chbench::KernelInfo* kernel : chbench::kernels_of(scheme)) {
    const unsigned knob = knobs ? decode_knob(*knobs, *kernel) : 0;
    const std::string name = kernel->full_name() + (knob ? " knob " + std::to_string(knob) : "");
    std::string error;
    const auto table = build([&] { return make(*kernel, knob); }, error);
    if (error != ref_error)
      fail(c, name,
           "building: reference " + (ref_error.empty() ? "succeeded" : "threw " + ref_error) +
               ", kernel " + (error.empty() ? "succeeded" : "threw " + error));
    if (!table) continue;
    const Lookup lookup = [&](auto keys, auto out) { table->owners(keys, out); };
    check(c, name, lookup, batch, want, table.get());
  }
}

// Values a scheme's owners are sensitive to: ring tokens, node seeds, or
// multiples of N.
Keys anchors_of(Scheme scheme, const NodeSet& nodes) {
  Keys anchors;
  switch (scheme) {
    case Scheme::kRing:
      for (const auto& e : chbench::ring_entries(nodes)) anchors.push_back(e.token);
      break;
    case Scheme::kRendezvous:
      anchors = chbench::rendezvous_seeds(nodes);
      break;
    default: {
      // Where h % N (Maglev: h % M) wraps; multiples of N for the
      // bucket-count schemes too.
      const uint64_t d = scheme == Scheme::kMaglev ? nodes.table_size : nodes.size();
      for (uint64_t m : {uint64_t{1}, uint64_t{2}, UINT64_MAX / d}) anchors.push_back(m * d);
      break;
    }
  }
  return anchors;
}

// Every kernel of `scheme` over `nodes` against the reference: the same
// refusal, or the same owners of a decoded batch, none on a node of weight 0.
void check_over_nodes(FuzzedDataProvider& in, const Context& c, Scheme scheme,
                      const NodeSet& nodes) {
  std::string ref_error;
  const auto reference = build([&] { return chbench::build_reference(scheme, nodes); }, ref_error);
  Batch batch;
  Owners want;
  if (reference) {
    batch = decode_batch(in, anchors_of(scheme, nodes));
    want.resize(batch.keys.size());
    reference->owners(batch.keys, want);
    for (std::size_t i = 0; i < want.size(); ++i)
      if (nodes.weight(want[i]) == 0)
        fail(c, "reference",
             "key " + hex(batch.keys[i]) + " on node " + std::to_string(want[i]) + " of weight 0");
  }
  check_kernels(
      c, scheme, ref_error, batch, want,
      [&](const chbench::KernelInfo& kernel, unsigned knob) { return kernel.build(nodes, knob); },
      &in);
}

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
std::vector<Scheme> bucket_schemes() {
  std::vector<Scheme> out;
  for (const chbench::SchemeInfo& s : chbench::all_scheme_infos())
    if (s.buckets_only) out.push_back(s.id);
  return out;
}

void run_counts(FuzzedDataProvider& in, Context& c) {
  static const std::vector<Scheme> schemes = bucket_schemes();
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

constexpr uint32_t kMaxHistoryNodes = 300;

// The schemes whose placement depends on which nodes left, in what order
// (SchemeInfo::reads_history).
std::vector<Scheme> history_schemes() {
  std::vector<Scheme> out;
  for (const chbench::SchemeInfo& s : chbench::all_scheme_infos())
    if (s.reads_history) out.push_back(s.id);
  return out;
}

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

void run_history(FuzzedDataProvider& in, Context& c) {
  static const std::vector<Scheme> schemes = history_schemes();
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

// ---- production profiles ----------------------------------------------------------

// A key hash moved into the profile's domain, as profile_key_hash() makes
// them: ketama an MD5 word, groupcache a CRC-32 and haproxy_consistent a
// 32-bit hash in the top 32 bits, haproxy_map one in the low 32, redis a slot,
// kafka a non-negative 31-bit murmur2; cassandra, maglev, envoy_maglev and
// go_redis_ring take any 64-bit value.
uint64_t in_domain(chbench::Profile profile, uint64_t h) {
  switch (profile) {
    case chbench::Profile::kKetama:
    case chbench::Profile::kKetamaUnweighted:
    case chbench::Profile::kGroupcache:
    case chbench::Profile::kTwemproxyKetama:
    case chbench::Profile::kNginxConsistent:
      return h & 0xffffffff00000000u;
    case chbench::Profile::kNginxHash:
      return h & 0x7fffu;
    case chbench::Profile::kRedis:
      return h % 16384;
    case chbench::Profile::kKafka:
      return h & 0x7fffffffu;
    case chbench::Profile::kHaproxyConsistent:
      return h & 0xffffffff00000000u;
    case chbench::Profile::kHaproxyMap:
      return h & 0xffffffffu;
    default:
      return h;
  }
}

// Sometimes another spelling of a name's ketama server: "host" as
// "host:11211", "host:port" as "host:0port" or "host" alone at 11211.
void add_server_spellings(FuzzedDataProvider& in, std::vector<std::string>& names) {
  if (names.empty() || in.ConsumeIntegralInRange<int>(0, 3) != 0) return;
  const auto server =
      chbench::ketama_server(names[in.ConsumeIntegralInRange<std::size_t>(0, names.size() - 1)]);
  const std::string port = std::to_string(server.port);
  switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0:
      names.push_back(server.host + ":" + port);
      break;
    case 1:
      names.push_back(server.host + ":0" + port);
      break;
    default:
      names.push_back(server.port == 11211 ? server.host : server.host + ":00" + port);
      break;
  }
}

// Mostly the host:port servers nutcracker needs: each name gets port 11211
// (nutcracker leaves it out of the point strings) or 11212 + its index; the
// names as decoded otherwise (refused unless they end in a port).
void add_twemproxy_ports(FuzzedDataProvider& in, std::vector<std::string>& names) {
  if (in.ConsumeIntegralInRange<int>(0, 3) == 0) return;
  for (std::size_t i = 0; i < names.size(); ++i)
    names[i] += in.ConsumeBool() ? ":11211" : ":" + std::to_string(11212 + i);
}

// An accepted ketama cluster has no two names of one server.
void check_distinct_servers(const Context& c, chbench::Profile profile,
                            const chbench::ProfileCluster& cluster) {
  if (profile != chbench::Profile::kKetama && profile != chbench::Profile::kKetamaUnweighted)
    return;
  std::vector<std::pair<std::string, uint32_t>> servers;
  for (const auto& name : cluster.nodes.names) {
    const auto server = chbench::ketama_server(name);
    servers.emplace_back(server.host, server.port);
  }
  std::sort(servers.begin(), servers.end());
  if (std::adjacent_find(servers.begin(), servers.end()) != servers.end())
    fail(c, "validate_profile", "two names of one server were accepted");
}

void run_profiles(FuzzedDataProvider& in, Context& c) {
  const auto profiles = chbench::all_profiles();
  const auto profile = profiles[in.ConsumeIntegralInRange<std::size_t>(0, profiles.size() - 1)];
  const Scheme scheme = chbench::profile_scheme(profile);
  chbench::ProfileCluster cluster;
  cluster.nodes = decode_nodes(in, scheme);
  if (cluster.nodes.names.size() > kMaxProfileNodes) cluster.nodes.names.resize(kMaxProfileNodes);
  add_server_spellings(in, cluster.nodes.names);
  if (profile == chbench::Profile::kTwemproxyKetama) add_twemproxy_ports(in, cluster.nodes.names);
  if ((chbench::profile_params(profile) & chbench::kParamWeights) && in.ConsumeBool()) {
    // One weight per node (0 must be refused), or sometimes one too few.
    const std::size_t count = cluster.nodes.names.size() - (in.ConsumeBool() ? 0 : 1);
    for (std::size_t i = 0; i < count && count <= cluster.nodes.names.size(); ++i)
      cluster.weights.push_back(in.ConsumeIntegralInRange<uint32_t>(0, 5));
  }
  if ((profile == chbench::Profile::kHaproxyConsistent ||
       profile == chbench::Profile::kHaproxyMap) &&
      in.ConsumeBool()) {
    // One weight per node, 0 and 257 to be refused; sometimes one too few.
    const std::size_t count = cluster.nodes.names.size() - (in.ConsumeBool() ? 0 : 1);
    for (std::size_t i = 0; i < count && count <= cluster.nodes.names.size(); ++i)
      cluster.weights.push_back(in.ConsumeBool() ? in.ConsumeIntegralInRange<uint32_t>(1, 4)
                                                 : in.ConsumeIntegralInRange<uint32_t>(0, 257));
  }
  c.what = "profile " + std::string(chbench::profile_name(profile)) +
           ", N = " + std::to_string(cluster.nodes.size()) +
           ", V = " + std::to_string(cluster.nodes.vnodes) +
           ", M = " + std::to_string(cluster.nodes.table_size) + ", " +
           std::to_string(cluster.weights.size()) + " weights";
  std::string ref_error;
  const auto reference =
      build([&] { return chbench::build_profile_reference(profile, cluster); }, ref_error);
  Batch batch;
  Owners want;
  if (reference) check_distinct_servers(c, profile, cluster);
  if (reference) {
    Keys anchors;
    if (profile == chbench::Profile::kKetama)
      for (const auto& e : chbench::ketama_continuum(cluster))
        anchors.push_back(uint64_t{e.token} << 32);
    if (profile == chbench::Profile::kKetamaUnweighted)
      for (const auto& e : chbench::ketama_unweighted_continuum(cluster))
        anchors.push_back(uint64_t{e.token} << 32);
    if (profile == chbench::Profile::kTwemproxyKetama)
      for (const auto& e : chbench::twemproxy_continuum(cluster))
        anchors.push_back(uint64_t{e.token} << 32);
    if (profile == chbench::Profile::kCassandra)
      for (const auto& e : chbench::cassandra_ring(cluster.nodes)) anchors.push_back(e.token);
    if (profile == chbench::Profile::kMaglev || profile == chbench::Profile::kEnvoyMaglev)
      anchors = anchors_of(Scheme::kMaglev, cluster.nodes);
    if (profile == chbench::Profile::kGoRedisRing)
      anchors = chbench::go_redis_shard_hashes(cluster.nodes);
    if (profile == chbench::Profile::kGroupcache)
      for (const auto& e : chbench::groupcache_ring(cluster.nodes.names, cluster.nodes.vnodes))
        anchors.push_back(uint64_t{e.token} << 32);
    if (profile == chbench::Profile::kHaproxyConsistent)
      for (const auto& e :
           chbench::haproxy_chash_entries_64(chbench::haproxy_chash_points(cluster)))
        for (uint64_t d : {uint64_t{0}, uint64_t{1} << 32, uint64_t{0} - (uint64_t{1} << 32)})
          anchors.push_back(e.token + d);  // each point and midpoint, and its neighbours
    if (profile == chbench::Profile::kHaproxyMap) {
      const uint64_t t = chbench::haproxy_server_map(cluster).size();
      for (uint64_t m : {uint64_t{1}, uint64_t{2}, 0xffffffffu / t}) anchors.push_back(m * t);
    }
    if (profile == chbench::Profile::kNginxConsistent)
      for (const auto& e : chbench::nginx_chash_points(cluster))
        anchors.push_back(uint64_t{e.token} << 32);
    if (profile == chbench::Profile::kEnvoyRingHash || profile == chbench::Profile::kGrpcRingHash) {
      const auto options = profile == chbench::Profile::kEnvoyRingHash
                               ? chbench::ring_hash::envoy_options(cluster.nodes)
                               : chbench::ring_hash::grpc_options(cluster.nodes);
      for (const auto& e : chbench::ring_hash::build_ring(cluster, options))
        anchors.push_back(e.token);
    }
    batch = decode_batch(in, anchors);
    for (auto& h : batch.keys) h = in_domain(profile, h);
    want.resize(batch.keys.size());
    reference->owners(batch.keys, want);
  }
  check_kernels(c, scheme, ref_error, batch, want,
                [&](const chbench::KernelInfo& kernel, unsigned) {
                  return chbench::build_profile_table(profile, cluster, kernel.name);
                });
}

// ---- weights, replica sets, bounded loads ---------------------------------------------

constexpr uint32_t kMaxRingWeight = 8;  // the ring holds w * V tokens a node
constexpr uint32_t kMaxWeightedRingNodes = 48;
constexpr uint32_t kMaxWeightedNodes = 300;

// The schemes whose SchemeInfo says `pick`.
std::vector<Scheme> schemes_where(bool (*pick)(const chbench::SchemeInfo&)) {
  std::vector<Scheme> out;
  for (const chbench::SchemeInfo& s : chbench::all_scheme_infos())
    if (pick(s)) out.push_back(s.id);
  return out;
}

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  static const std::vector<int64_t> targets = chbench::simd::runnable_targets();
  // 0: dispatch as usual; otherwise force one runnable target.
  const auto pick = in.ConsumeIntegralInRange<std::size_t>(0, targets.size());
  Context c;
  std::optional<chbench::simd::ForcedTarget> forced;
  if (pick > 0) {
    forced.emplace(targets[pick - 1]);
    c.target = chbench::simd::target_name(targets[pick - 1]);
  }
  switch (in.ConsumeIntegralInRange<int>(0, 8)) {
    case 0:
      run_registry(in, c);
      break;
    case 1:
      run_counts(in, c);
      break;
    case 2:
      run_tokens(in, c);
      break;
    case 3:
      run_seeds(in, c);
      break;
    case 4:
      run_history(in, c);
      break;
    case 5:
      run_profiles(in, c);
      break;
    case 6:
      run_weights(in, c);
      break;
    case 7:
      run_replicas(in, c);
      break;
    default:
      run_bounded(in, c);
      break;
  }
  return 0;
}
