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
#include <vector>

#include "chbench/fleet.h"
#include "chbench/hrw/hrw.h"
#include "chbench/jump/jump.h"
#include "chbench/nodes.h"
#include "chbench/parallel.h"
#include "chbench/profiles/profiles.h"
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

// Builds a table; on an exception, returns null and its type in `error`.
std::unique_ptr<chbench::OwnerTable> build(
    const std::function<std::unique_ptr<chbench::OwnerTable>()>& make, std::string& error) {
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

void run_registry(FuzzedDataProvider& in, Context& c) {
  const auto schemes = chbench::all_schemes();
  const Scheme scheme = schemes[in.ConsumeIntegralInRange<std::size_t>(0, schemes.size() - 1)];
  const NodeSet nodes = decode_nodes(in, scheme);
  c.what = "registry, scheme " + std::string(chbench::scheme_name(scheme)) +
           ", N = " + std::to_string(nodes.size()) + ", V = " + std::to_string(nodes.vnodes);
  std::string ref_error;
  const auto reference = build([&] { return chbench::build_reference(scheme, nodes); }, ref_error);
  Batch batch;
  Owners want;
  if (reference) {
    batch = decode_batch(in, anchors_of(scheme, nodes));
    want.resize(batch.keys.size());
    reference->owners(batch.keys, want);
  }
  check_kernels(
      c, scheme, ref_error, batch, want,
      [&](const chbench::KernelInfo& kernel, unsigned knob) { return kernel.build(nodes, knob); },
      &in);
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
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
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
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
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
// them: ketama an MD5 word in the top 32 bits, redis a slot, kafka a
// non-negative 31-bit murmur2; cassandra and maglev take any 64-bit value.
uint64_t in_domain(chbench::Profile profile, uint64_t h) {
  switch (profile) {
    case chbench::Profile::kKetama:
    case chbench::Profile::kKetamaUnweighted:
      return h & 0xffffffff00000000u;
    case chbench::Profile::kRedis:
      return h % 16384;
    case chbench::Profile::kKafka:
      return h & 0x7fffffffu;
    default:
      return h;
  }
}

void run_profiles(FuzzedDataProvider& in, Context& c) {
  const auto profiles = chbench::all_profiles();
  const auto profile = profiles[in.ConsumeIntegralInRange<std::size_t>(0, profiles.size() - 1)];
  const Scheme scheme = chbench::profile_scheme(profile);
  chbench::ProfileCluster cluster;
  cluster.nodes = decode_nodes(in, scheme);
  if (cluster.nodes.names.size() > kMaxProfileNodes) cluster.nodes.names.resize(kMaxProfileNodes);
  if (profile == chbench::Profile::kKetama && in.ConsumeBool()) {
    // One weight per node (0 must be refused), or sometimes one too few.
    const std::size_t count = cluster.nodes.names.size() - (in.ConsumeBool() ? 0 : 1);
    for (std::size_t i = 0; i < count && count <= cluster.nodes.names.size(); ++i)
      cluster.weights.push_back(in.ConsumeIntegralInRange<uint32_t>(0, 5));
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
  if (reference) {
    Keys anchors;
    if (profile == chbench::Profile::kKetama)
      for (const auto& e : chbench::ketama_continuum(cluster))
        anchors.push_back(uint64_t{e.token} << 32);
    if (profile == chbench::Profile::kKetamaUnweighted)
      for (const auto& e : chbench::ketama_unweighted_continuum(cluster))
        anchors.push_back(uint64_t{e.token} << 32);
    if (profile == chbench::Profile::kCassandra)
      for (const auto& e : chbench::cassandra_ring(cluster.nodes)) anchors.push_back(e.token);
    if (profile == chbench::Profile::kMaglev) anchors = anchors_of(Scheme::kMaglev, cluster.nodes);
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
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
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
    default:
      run_profiles(in, c);
      break;
  }
  return 0;
}
