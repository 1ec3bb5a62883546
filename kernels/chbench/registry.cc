// The registry: one SchemeInfo entry per scheme, the kernels of kernels.def
// (each defined in its own file, chbench/<scheme>/<kernel>.cc), and the
// look-ups of scheme.h over them.
#include "chbench/registry.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/anchor/anchor.h"
#include "chbench/binomial/binomial.h"
#include "chbench/dx/dx.h"
#include "chbench/flip/flip.h"
#include "chbench/jump/jump.h"
#include "chbench/jumpback/jumpback.h"
#include "chbench/jumpback_anchor/jumpback_anchor.h"
#include "chbench/maglev/maglev.h"
#include "chbench/memento/memento.h"
#include "chbench/power/power.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

constexpr std::string_view kHrwAliases[] = {"rendezvous"};
constexpr std::string_view kPowerAliases[] = {"powerch"};
constexpr std::string_view kHrwWeightedAliases[] = {"weighted_rendezvous"};

// One entry per scheme, in the order of plots and tables; the functions are
// each scheme's reference.cc (registry.h).
constexpr SchemeInfo kSchemeInfos[] = {
    {.id = Scheme::kModN,
     .name = "modn",
     .aliases = {},
     .title = "mod-N",
     .source = "h % N; docs/spec.md §5",
     .params = 0,
     .removal = Removal::kNone,
     .removal_note = "any change of N moves most keys, between survivors too",
     .max_nodes = 0xffffffffu,
     .reference = &registry::modn_reference,
     .check = &registry::modn_check,
     .reference_bytes = &registry::modn_reference_bytes,
     .buckets_only = true},
    {.id = Scheme::kRing,
     .name = "ring",
     .aliases = {},
     .title = "ring (consistent hashing)",
     .source = "Karger et al., Consistent Hashing and Random Trees, STOC 1997, section 4; "
               "docs/spec.md §6",
     .params = kParamVnodes | kParamWeights,
     .removal = Removal::kAnyNode,
     .removal_note = "any node can leave: only its keys move",
     .max_nodes = 0xffffffffu,
     .reference = &registry::ring_reference,
     .check = &registry::ring_check,
     .reference_bytes = &registry::ring_reference_bytes,
     .replicas_reference = &registry::ring_replicas_reference,
     .replicas_note = "clockwise from the key, skipping tokens of nodes already chosen "
                      "(DeCandia et al., Dynamo, SOSP 2007, section 4.3)"},
    {.id = Scheme::kRendezvous,
     .name = "hrw",
     .aliases = kHrwAliases,
     .title = "rendezvous (HRW)",
     .source = "Thaler and Ravishankar, Using Name-Based Mappings to Increase Hit Rates, "
               "IEEE/ACM ToN 6(1), 1998, section 3; docs/spec.md §7",
     .params = 0,
     .removal = Removal::kAnyNode,
     .removal_note = "any node can leave: only its keys move",
     .max_nodes = 0xffffffffu,
     .reference = &registry::hrw_reference,
     .check = &registry::hrw_check,
     .reference_bytes = &registry::hrw_reference_bytes,
     .scores_every_node = true,
     .replicas_reference = &registry::hrw_replicas_reference,
     .replicas_note = "the R highest scores, highest first (Thaler and Ravishankar, section 3)"},
    {.id = Scheme::kJump,
     .name = "jump",
     .aliases = {},
     .title = "jump hash",
     .source = "Lamping and Veach, A Fast, Minimal Memory, Consistent Hash Algorithm, "
               "arXiv:1406.2294, figure 1; docs/spec.md §8",
     .params = 0,
     .removal = Removal::kLastOnly,
     .removal_note = "only the last bucket can leave (buckets are 0 ... N-1); any other leave "
                     "renumbers buckets",
     .max_nodes = kJumpMaxBuckets,
     .reference = &registry::jump_reference,
     .check = &registry::jump_check,
     .reference_bytes = &registry::jump_reference_bytes,
     .buckets_only = true,
     .replicas_note = "the paper's algorithm returns one bucket and defines no replicas "
                      "(arXiv:1406.2294)"},
    {.id = Scheme::kMaglev,
     .name = "maglev",
     .aliases = {},
     .title = "Maglev",
     .source = "Eisenbud et al., Maglev: A Fast and Reliable Software Network Load Balancer, "
               "NSDI 2016, section 3.4, pseudocode 1; docs/profiles.md",
     .params = kParamTableSize,
     .removal = Removal::kAnyNode,
     .removal_note = "any node can leave: its keys move, and a few between survivors (minimal "
                     "disruption, not zero)",
     .max_nodes = kMaglevMaxTableSize,
     .reference = &registry::maglev_reference,
     .check = &registry::maglev_check,
     .reference_bytes = &registry::maglev_reference_bytes,
     .replicas_note = "its lookup table names one backend per entry (NSDI 2016, section 3.4); "
                      "the paper defines no second choice"},
    {.id = Scheme::kPower,
     .name = "power",
     .aliases = kPowerAliases,
     .title = "PowerCH",
     .source = "Leu, Fast Consistent Hashing in Constant Time, arXiv:2307.12448 (its algorithm "
               "with f and g), as DXist/power-consistent-hash 25bd442210e3 computes it; "
               "docs/schemes/power.md",
     .params = 0,
     .removal = Removal::kLastOnly,
     .removal_note = "only the last bucket can leave (buckets are 0 ... N-1); any other leave "
                     "renumbers buckets",
     .max_nodes = kPowerMaxBuckets,
     .reference = &registry::power_reference,
     .check = &registry::power_check,
     .reference_bytes = &registry::power_reference_bytes,
     .buckets_only = true},
    {.id = Scheme::kFlip,
     .name = "flip",
     .aliases = {},
     .title = "FlipHash",
     .source = "Masson and Lee, FlipHash: A Constant-Time Consistent Range-Hashing Algorithm, "
               "arXiv:2402.17549; DataDog/fliphash-rs fliphash_64 (00c0ad03cf3c), seed 0; "
               "docs/schemes/flip.md",
     .params = 0,
     .removal = Removal::kLastOnly,
     .removal_note = "only the last bucket can leave (buckets are 0 ... N-1); any other leave "
                     "renumbers buckets",
     .max_nodes = kFlipMaxBuckets,
     .reference = &registry::flip_reference,
     .check = &registry::flip_check,
     .reference_bytes = &registry::flip_reference_bytes,
     .buckets_only = true},
    {.id = Scheme::kBinomial,
     .name = "binomial",
     .aliases = {},
     .title = "BinomialHash",
     .source = "Coluzzi, Brocco, Antonucci and Leidi, BinomialHash: A Constant Time, Minimal "
               "Memory Consistent Hash Algorithm, arXiv:2406.19836, as SUPSI's BinomialEngine "
               "computes it (java-consistent-hashing-algorithms 68803f8); docs/schemes/binomial.md",
     .params = 0,
     .removal = Removal::kLastOnly,
     .removal_note = "only the last bucket can leave (buckets are 0 ... N-1); any other leave "
                     "renumbers buckets",
     .max_nodes = kBinomialMaxBuckets,
     .reference = &registry::binomial_reference,
     .check = &registry::binomial_check,
     .reference_bytes = &registry::binomial_reference_bytes,
     .buckets_only = true},
    {.id = Scheme::kJumpBack,
     .name = "jumpback",
     .aliases = {},
     .title = "JumpBackHash (SplitMix64)",
     .source = "Ertl, JumpBackHash: Say Goodbye to the Modulo Operation to Distribute Keys "
               "Uniformly to Buckets, arXiv:2403.18682; hash4j 41d814f94c52, "
               "ConsistentHashing.jumpBackHashSplitMix64(); docs/schemes/jumpback.md",
     .params = 0,
     .removal = Removal::kLastOnly,
     .removal_note = "only the last bucket can leave (buckets are 0 ... N-1); any other leave "
                     "renumbers buckets",
     .max_nodes = kJumpBackMaxBuckets,
     .reference = &registry::jumpback_reference,
     .check = &registry::jumpback_check,
     .reference_bytes = &registry::jumpback_reference_bytes,
     .buckets_only = true},
    {.id = Scheme::kJumpBackXorshift,
     .name = "jumpback_xorshift",
     .aliases = {},
     .title = "JumpBackHash (XorshiftL7R9)",
     .source = "Ertl, JumpBackHash, arXiv:2403.18682; hash4j 41d814f94c52, "
               "ConsistentHashing.jumpBackHashXorshiftL7R9(); docs/schemes/jumpback.md",
     .params = 0,
     .removal = Removal::kLastOnly,
     .removal_note = "only the last bucket can leave (buckets are 0 ... N-1); any other leave "
                     "renumbers buckets",
     .max_nodes = kJumpBackMaxBuckets,
     .reference = &registry::jumpback_xorshift_reference,
     .check = &registry::jumpback_xorshift_check,
     .reference_bytes = &registry::jumpback_xorshift_reference_bytes,
     .buckets_only = true},
    {.id = Scheme::kDx,
     .name = "dx",
     .aliases = {},
     .title = "DxHash",
     .source = "Dong, Feng and Wang, DxHash: A Scalable Consistent Hash Based on the "
               "Pseudo-Random Sequence, arXiv:2107.07930; docs/schemes/dx.md",
     .params = kParamCapacity,
     .removal = Removal::kAnyNode,
     .removal_note = "any node can leave: only its keys move, and a re-add restores the last "
                     "removed bucket, bringing its keys back",
     .max_nodes = kDxMaxCapacity,
     .reference = &registry::dx_reference,
     .check = &registry::dx_check,
     .reference_bytes = &registry::dx_reference_bytes,
     .reads_history = true},
    {.id = Scheme::kAnchor,
     .name = "anchor",
     .aliases = {},
     .title = "AnchorHash",
     .source = "Mendelson et al., AnchorHash: A Scalable Consistent Hash, IEEE/ACM ToN 29(2), "
               "2021, section IV, algorithm 3; docs/schemes/anchor.md",
     .params = kParamCapacity,
     .removal = Removal::kAnyNode,
     .removal_note = "any node can leave: only its keys move, and a re-add (last removed first) "
                     "brings exactly them back; joins beyond the capacity are refused",
     .max_nodes = kAnchorMaxCapacity,
     .reference = &registry::anchor_reference,
     .check = &registry::anchor_check,
     .reference_bytes = &registry::anchor_reference_bytes,
     .reads_history = true},
    {.id = Scheme::kMemento,
     .name = "memento",
     .aliases = {},
     .title = "MementoHash",
     .source = "Coluzzi, Brocco, Antonucci and Leidi, MementoHash: A Stateful, Minimal Memory, "
               "Best Performing Consistent Hash Algorithm, IEEE/ACM ToN 2024 (arXiv:2306.09783), "
               "its lookup, remove and add algorithms; docs/schemes/memento.md",
     .params = 0,
     .removal = Removal::kAnyNode,
     .removal_note = "any node can leave, with no capacity fixed: only its keys move; a join "
                     "restores the last removed bucket, or adds a new one when none is removed",
     .max_nodes = kMementoMaxBuckets,
     .reference = &registry::memento_reference,
     .check = &registry::memento_check,
     .reference_bytes = &registry::memento_reference_bytes,
     .reads_history = true},
    {.id = Scheme::kJumpBackAnchor,
     .name = "jumpback_anchor",
     .aliases = {},
     .title = "JumpBackAnchor",
     .source = "hash4j 41d814f94c52, ConsistentHashing.jumpBackAnchorHash(splitMix64_V1()): "
               "JumpBackHash (Ertl, arXiv:2403.18682) over the historic maximum with AnchorHash's "
               "replacement (Mendelson et al., IEEE/ACM ToN 29(2), 2021, section IV); "
               "docs/schemes/jumpback_anchor.md",
     .params = 0,
     .removal = Removal::kAnyNode,
     .removal_note = "any node can leave, with no capacity fixed: only its keys move; a join "
                     "restores the last removed bucket, or adds a new one when none is removed",
     .max_nodes = kJumpBackAnchorMaxBuckets,
     .reference = &registry::jumpback_anchor_reference,
     .check = &registry::jumpback_anchor_check,
     .reference_bytes = &registry::jumpback_anchor_reference_bytes,
     .reads_history = true},
    {.id = Scheme::kWeightedRendezvous,
     .name = "hrw_weighted",
     .aliases = kHrwWeightedAliases,
     .title = "weighted rendezvous",
     .source = "Schindelhauer and Schomaker, Weighted Distributed Hash Tables, SPAA 2005, "
               "section 3 (the logarithmic method); docs/schemes/hrw_weighted.md",
     .params = kParamWeights,
     .removal = Removal::kAnyNode,
     .removal_note = "any node can leave, or change its weight: only its keys move",
     .max_nodes = 0xffffffffu,
     .reference = &registry::hrw_weighted_reference,
     .check = &registry::hrw_weighted_check,
     .reference_bytes = &registry::hrw_weighted_reference_bytes,
     .scores_every_node = true},
    {.id = Scheme::kMultiprobe,
     .name = "multiprobe",
     .aliases = {},
     .title = "multi-probe consistent hashing",
     .source = "Appleton and O'Reilly, Multi-probe consistent hashing, arXiv:1505.00062, 2015; "
               "probes by double hashing (Kirsch and Mitzenmacher, ESA 2006); "
               "docs/schemes/multiprobe.md",
     .params = kParamProbes,
     .removal = Removal::kAnyNode,
     .removal_note = "any node can leave: only its keys move (every other key's closest probe "
                     "keeps its token)",
     .max_nodes = 0xffffffffu,
     .reference = &registry::multiprobe_reference,
     .check = &registry::multiprobe_check,
     .reference_bytes = &registry::multiprobe_reference_bytes},
};

// Every kernel, in kernels.def's order.
#define CHBENCH_KERNEL(scheme, kernel) &registry::scheme##_##kernel,
constinit const KernelInfo* const kKernels[] = {
#include "chbench/kernels.def"
};

// The scheme lines of kernels.def, and the scheme of each kernel line, by
// name, for the check below.
#define CHBENCH_SCHEME(scheme) std::string_view(#scheme),
constexpr std::string_view kSchemeLines[] = {
#include "chbench/kernels.def"
};
#define CHBENCH_KERNEL(scheme, kernel) std::string_view(#scheme),
constexpr std::string_view kKernelLines[] = {
#include "chbench/kernels.def"
};

// True when kernels.def has one CHBENCH_SCHEME line per entry of
// kSchemeInfos, in its order, and lists the kernels grouped by scheme in that
// order, every scheme with at least one kernel (default_kernel() relies on
// it).
constexpr bool kernels_def_matches_schemes() {
  if (std::size(kSchemeLines) != std::size(kSchemeInfos)) return false;
  std::size_t k = 0;
  for (std::size_t i = 0; i < std::size(kSchemeInfos); ++i) {
    if (kSchemeLines[i] != kSchemeInfos[i].name) return false;
    const std::size_t first = k;
    while (k < std::size(kKernelLines) && kKernelLines[k] == kSchemeInfos[i].name) ++k;
    if (k == first) return false;
  }
  return k == std::size(kKernelLines);
}
static_assert(kernels_def_matches_schemes(),
              "kernels.def: one CHBENCH_SCHEME line per SchemeInfo entry of registry.cc, in its "
              "order, and the kernels grouped by scheme in that order, each scheme with a kernel");

}  // namespace

std::span<const SchemeInfo> all_scheme_infos() noexcept { return kSchemeInfos; }

const SchemeInfo& scheme_info(Scheme scheme) noexcept {
  for (const auto& s : kSchemeInfos)
    if (s.id == scheme) return s;
  return kSchemeInfos[0];  // unreachable: every Scheme has an entry
}

std::string_view scheme_name(Scheme scheme) noexcept { return scheme_info(scheme).name; }

std::vector<Scheme> all_schemes() {
  std::vector<Scheme> out;
  for (const auto& s : kSchemeInfos) out.push_back(s.id);
  return out;
}

Scheme parse_scheme(std::string_view name) {
  std::string known;
  for (const auto& s : kSchemeInfos) {
    if (s.name == name || std::find(s.aliases.begin(), s.aliases.end(), name) != s.aliases.end())
      return s.id;
    known += (known.empty() ? "" : ", ") + std::string(s.name);
  }
  throw std::invalid_argument("unknown scheme '" + std::string(name) + "' (known: " + known + ")");
}

std::string KernelInfo::full_name() const {
  return std::string(scheme_name(scheme)) + "/" + std::string(name);
}

std::span<const KernelInfo* const> all_kernels() noexcept { return kKernels; }

std::vector<const KernelInfo*> kernels_of(Scheme scheme) {
  std::vector<const KernelInfo*> out;
  for (const KernelInfo* k : kKernels)
    if (k->scheme == scheme) out.push_back(k);
  return out;
}

const KernelInfo& default_kernel(Scheme scheme) noexcept {
  const KernelInfo* best = nullptr;
  for (const KernelInfo* k : kKernels)
    if (k->scheme == scheme && (best == nullptr || k->rank < best->rank)) best = k;
  return *best;
}

const KernelInfo& find_kernel(Scheme scheme, std::string_view name) {
  std::string known;
  for (const auto* k : kernels_of(scheme)) {
    if (k->name == name) return *k;
    known += (known.empty() ? "" : ", ") + std::string(k->name);
  }
  throw std::invalid_argument("unknown kernel '" + std::string(name) + "' for scheme " +
                              std::string(scheme_name(scheme)) + " (known: " + known + ")");
}

const KernelInfo& find_kernel(std::string_view full_name) {
  const auto slash = full_name.find('/');
  if (slash == std::string_view::npos)
    throw std::invalid_argument("kernel '" + std::string(full_name) +
                                "' must be written scheme/kernel, e.g. " +
                                default_kernel(kSchemeInfos[0].id).full_name());
  return find_kernel(parse_scheme(full_name.substr(0, slash)), full_name.substr(slash + 1));
}

std::unique_ptr<OwnerTable> build_reference(Scheme scheme, const Fleet& fleet) {
  return scheme_info(scheme).reference(fleet);
}

std::vector<const KernelInfo*> replica_kernels_of(Scheme scheme) {
  std::vector<const KernelInfo*> out;
  for (const KernelInfo* k : kKernels)
    if (k->scheme == scheme && k->make_replicas != nullptr) out.push_back(k);
  return out;
}

uint32_t replica_candidates(const Fleet& fleet) noexcept {
  uint32_t holders = 0;
  for (uint32_t n = 0; n < fleet.size(); ++n) holders += fleet.nodes().weight(n) > 0;
  return holders;
}

void check_replica_count(const Fleet& fleet, uint32_t r) {
  if (r == 0) throw std::invalid_argument("R = 0 replicas: give at least 1");
  const uint32_t holders = replica_candidates(fleet);
  if (r <= holders) return;
  std::string msg =
      "R = " + std::to_string(r) + " replicas need at least " + std::to_string(r) + " nodes";
  if (holders == fleet.size())
    msg += " (the fleet has " + std::to_string(fleet.size()) + ")";
  else
    msg += " of weight above 0 (the fleet has " + std::to_string(holders) + " of its " +
           std::to_string(fleet.size()) + " nodes)";
  throw std::invalid_argument(msg);
}

namespace {

// Throws std::invalid_argument where the scheme defines no replica sets.
const SchemeInfo& with_replicas(Scheme scheme) {
  const SchemeInfo& s = scheme_info(scheme);
  if (s.replicas_reference == nullptr)
    throw std::invalid_argument(std::string(s.title) +
                                " has no replica sets: " + std::string(s.replicas_note));
  return s;
}

}  // namespace

std::unique_ptr<ReplicaTable> build_replica_reference(Scheme scheme, const Fleet& fleet,
                                                      uint32_t r) {
  return with_replicas(scheme).replicas_reference(fleet, r);
}

std::unique_ptr<ReplicaTable> build_replicas(const KernelInfo& k, const Fleet& fleet, uint32_t r) {
  if (k.make_replicas != nullptr) return k.make_replicas(fleet, r);
  with_replicas(k.scheme);
  std::string known;
  for (const KernelInfo* other : replica_kernels_of(k.scheme))
    known += (known.empty() ? "" : ", ") + other->full_name();
  throw std::invalid_argument(k.full_name() + " has no replica lookup (the scheme's: " + known +
                              ", or reference)");
}

std::unique_ptr<OwnerTable> build_ring_kernel(std::string_view name,
                                              const SortedRing<uint64_t>& ring, unsigned knob) {
  return find_kernel(Scheme::kRing, name).make_over_ring(ring, knob);
}

}  // namespace chbench
