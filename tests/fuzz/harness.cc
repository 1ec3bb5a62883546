// The differential fuzzer's shared pieces (harness.h): decoding key hashes,
// batches and node lists, and comparing every kernel's owners with the
// reference's.
#include "harness.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include "chbench/hrw/hrw.h"
#include "chbench/parallel.h"
#include "chbench/ring/ring.h"

namespace chbench_fuzz {

namespace {

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

}  // namespace

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

std::string hex(uint64_t x) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, x);
  return buf;
}

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
           std::span<const uint32_t> want, const chbench::OwnerTable* table) {
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

// Builds every kernel of `scheme` in the registry with `make` (knobs decoded
// from `knobs`, or 0 without it) and checks it against the reference: the
// same exception type when building (none when ref_error is empty), then the
// same owners of the batch.
void check_kernels(const Context& c, Scheme scheme, const std::string& ref_error,
                   const Batch& batch, std::span<const uint32_t> want, const Make& make,
                   FuzzedDataProvider* knobs) {
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

std::vector<Scheme> schemes_where(bool (*pick)(const chbench::SchemeInfo&)) {
  std::vector<Scheme> out;
  for (const chbench::SchemeInfo& s : chbench::all_scheme_infos())
    if (pick(s)) out.push_back(s.id);
  return out;
}

}  // namespace chbench_fuzz
