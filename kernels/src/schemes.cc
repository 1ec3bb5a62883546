// The registry: every scheme's reference and kernels behind OwnerTable.
#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string>

#include "chbench/hash.h"
#include "chbench/jump.h"
#include "chbench/maglev.h"
#include "chbench/rendezvous.h"
#include "chbench/ring.h"
#include "chbench/ring_stree.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"

namespace chbench {

namespace {

// ---- mod-N ---------------------------------------------------------------

class ModNReference final : public OwnerTable {
 public:
  explicit ModNReference(const NodeSet& nodes) : n_((validate(nodes), nodes.size())) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = static_cast<uint32_t>(h[i] % n_);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint64_t n_;
};

// The scalar kernel divides by a 32-bit count held in a register; it is the
// reference's arithmetic, kept apart so SIMD kernels have a scalar rival.
class ModNScalar final : public OwnerTable {
 public:
  explicit ModNScalar(const NodeSet& nodes) : n_((validate(nodes), nodes.size())) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    const uint64_t n = n_;
    const uint64_t* in = h.data();
    uint32_t* o = out.data();
    for (std::size_t i = 0, size = h.size(); i < size; ++i) o[i] = static_cast<uint32_t>(in[i] % n);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

// ---- ring ----------------------------------------------------------------

class RingReference final : public OwnerTable {
 public:
  explicit RingReference(const NodeSet& nodes) : entries_(ring_entries(nodes)) {}
  explicit RingReference(std::vector<RingEntry<uint64_t>> entries) : entries_(std::move(entries)) {
    if (entries_.empty()) throw std::invalid_argument("ring: no tokens");
    if (!std::is_sorted(entries_.begin(), entries_.end()))
      throw std::invalid_argument("ring: entries are not sorted by (token, node)");
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i)
      out[i] = ring_reference_owner<uint64_t>(entries_, h[i]);
  }
  std::size_t memory_bytes() const noexcept override {
    return entries_.size() * sizeof(RingEntry<uint64_t>);
  }

 private:
  std::vector<RingEntry<uint64_t>> entries_;
};

// Adapts a 64-bit ring search kernel (ring.h, ring_stree.h) to OwnerTable.
template <template <class> class Search>
class RingTable final : public OwnerTable {
 public:
  explicit RingTable(const NodeSet& nodes)
      : search_(SortedRing<uint64_t>::from_entries(ring_entries(nodes))) {}
  template <class... Args>
  explicit RingTable(const SortedRing<uint64_t>& ring, Args... args) : search_(ring, args...) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    search_.owners(h, out);
  }
  uint32_t owner(uint64_t h) const override { return search_.owner(h); }
  std::size_t memory_bytes() const noexcept override { return search_.memory_bytes(); }

 private:
  Search<uint64_t> search_;
};

// ---- rendezvous ------------------------------------------------------------

// Scores each node from its own record, one node at a time.
class RendezvousReference final : public OwnerTable {
 public:
  explicit RendezvousReference(const NodeSet& nodes) {
    validate(nodes);
    for (const auto& name : nodes.names) seeds_.push_back(key_hash(name));
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) {
      uint32_t owner = 0;
      uint64_t best = rendezvous_score(h[i], seeds_[0]);
      for (uint32_t n = 1; n < seeds_.size(); ++n) {
        const uint64_t w = rendezvous_score(h[i], seeds_[n]);
        if (w > best) {  // a tie keeps the lower index
          best = w;
          owner = n;
        }
      }
      out[i] = owner;
    }
  }
  std::size_t memory_bytes() const noexcept override { return seeds_.size() * sizeof(uint64_t); }

 private:
  std::vector<uint64_t> seeds_;
};

class RendezvousScalar final : public OwnerTable {
 public:
  explicit RendezvousScalar(const NodeSet& nodes) : seeds_(rendezvous_seeds(nodes)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = rendezvous_owner(h[i], seeds_);
  }
  std::size_t memory_bytes() const noexcept override { return seeds_.size() * sizeof(uint64_t); }

 private:
  std::vector<uint64_t> seeds_;
};

// ---- jump --------------------------------------------------------------------

uint32_t jump_buckets(const NodeSet& nodes) {
  validate(nodes);
  if (nodes.size() > kJumpMaxBuckets)
    throw std::invalid_argument("jump hash takes at most 2^31 - 1 buckets (int32_t in the paper)");
  return nodes.size();
}

// Figure 1 of the paper transcribed with its own types (int32_t buckets,
// int64_t b and j), independent of the kernels' jump_hash().
class JumpReference final : public OwnerTable {
 public:
  explicit JumpReference(const NodeSet& nodes) : n_(static_cast<int32_t>(jump_buckets(nodes))) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) {
      uint64_t key = h[i];
      int64_t b = -1, j = 0;
      while (j < n_) {
        b = j;
        key = key * 2862933555777941757ULL + 1;
        j = static_cast<int64_t>((b + 1) * (double(1LL << 31) / double((key >> 33) + 1)));
      }
      out[i] = static_cast<uint32_t>(b);
    }
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  int32_t n_;
};

class JumpScalar final : public OwnerTable {
 public:
  explicit JumpScalar(const NodeSet& nodes) : n_(jump_buckets(nodes)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = jump_hash(h[i], n_);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

// Four independent keys per iteration: their dependency chains (an LCG step, a
// division, a compare) interleave in the pipeline instead of running back to
// back. Each key still takes exactly the paper's steps.
class JumpInterleaved final : public OwnerTable {
 public:
  explicit JumpInterleaved(const NodeSet& nodes) : n_(jump_buckets(nodes)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    std::size_t i = 0;
    for (; i + 4 <= h.size(); i += 4) {
      out[i] = jump_hash(h[i], n_);
      out[i + 1] = jump_hash(h[i + 1], n_);
      out[i + 2] = jump_hash(h[i + 2], n_);
      out[i + 3] = jump_hash(h[i + 3], n_);
    }
    for (; i < h.size(); ++i) out[i] = jump_hash(h[i], n_);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

// ---- Maglev --------------------------------------------------------------------

// Pseudocode 1 of the paper as written: permutation[i][j] = (offset + j * skip)
// mod M computed afresh for every probe, next[i] the position in it, backends
// taking turns; independent of maglev_table()'s incremental walk.
class MaglevReference final : public OwnerTable {
 public:
  explicit MaglevReference(const NodeSet& nodes)
      : entry_((validate_maglev(nodes), nodes.table_size)) {
    const uint64_t m = nodes.table_size;
    const uint32_t n = nodes.size();
    std::vector<MaglevPermutation> permutation;
    for (const auto& name : nodes.names) permutation.push_back(maglev_permutation(name, m));
    std::vector<uint64_t> next(n, 0);
    std::vector<int64_t> entry(m, -1);
    uint64_t filled = 0;
    while (filled < m) {
      for (uint32_t i = 0; i < n && filled < m; ++i) {
        uint64_t c = (permutation[i].offset + next[i] * permutation[i].skip) % m;
        while (entry[c] >= 0) {
          ++next[i];
          c = (permutation[i].offset + next[i] * permutation[i].skip) % m;
        }
        entry[c] = i;
        ++next[i];
        ++filled;
      }
    }
    for (uint64_t j = 0; j < m; ++j) entry_[j] = static_cast<uint32_t>(entry[j]);
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = entry_[h[i] % entry_.size()];
  }
  std::size_t memory_bytes() const noexcept override { return entry_.size() * sizeof(uint32_t); }

 private:
  std::vector<uint32_t> entry_;
};

std::unique_ptr<OwnerTable> build_maglev_scalar(const NodeSet& nodes) {
  return make_table_lookup_scalar(maglev_table(nodes));
}

std::unique_ptr<OwnerTable> build_maglev_simd(const NodeSet& nodes) {
  return make_table_lookup_simd(maglev_table(nodes));
}

template <class Table>
std::unique_ptr<OwnerTable> make(const NodeSet& nodes) {
  return std::make_unique<Table>(nodes);
}

// ---- registry glue ---------------------------------------------------------------

uint64_t saturating_mul(uint64_t a, uint64_t b) noexcept {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}
uint64_t saturating_add(uint64_t a, uint64_t b) noexcept {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t ring_tokens(const Fleet& f) { return saturating_mul(f.size(), f.nodes().vnodes); }

void no_knob(const KernelInfo& k, unsigned knob) {
  if (knob != 0)
    throw std::invalid_argument(k.full_name() + " has no knob (keys in flight); leave it unset");
}

void knob_in_range(const KernelInfo& k, unsigned knob) {
  if (knob != 0 && (knob < k.knob->min || knob > k.knob->max))
    throw std::invalid_argument(k.full_name() + "'s " + std::string(k.knob->name) + " must be " +
                                std::to_string(k.knob->min) + " to " + std::to_string(k.knob->max));
}

std::optional<unsigned> knob_or_default(unsigned knob) {
  return knob == 0 ? std::nullopt : std::optional<unsigned>(knob);
}

// check() per scheme.
void check_nodes(const Fleet& f) { validate(f.nodes()); }
void check_ring(const Fleet& f) {
  validate(f.nodes());
  if (ring_tokens(f) > 0xffffffffu)
    throw std::length_error("N * V = " + std::to_string(ring_tokens(f)) +
                            " tokens exceeds the 2^32 - 1 a ring indexes");
}
void check_jump(const Fleet& f) { jump_buckets(f.nodes()); }
void check_maglev(const Fleet& f) { validate_maglev(f.nodes()); }

// Reference bytes per scheme.
uint64_t no_bytes(const Fleet&) { return 0; }
uint64_t seed_bytes(const Fleet& f) { return saturating_mul(f.size(), 16); }
// The SIMD rendezvous kernels: the seeds, and a table of them padded to whole
// groups of 256 (simd::RendezvousSimd), at least 2 KiB.
uint64_t seed_simd_bytes(const Fleet& f) { return saturating_add(seed_bytes(f), 2048); }
uint64_t ring_entry_bytes(const Fleet& f) {
  return saturating_mul(ring_tokens(f), sizeof(RingEntry<uint64_t>));
}
// The reference's permutations and slot list beside the table.
uint64_t maglev_bytes(const Fleet& f) {
  return saturating_add(saturating_mul(f.nodes().table_size, 12), saturating_mul(f.size(), 40));
}

// A ring kernel's peak: the sorted entries (16 B/token) and the SortedRing (12
// B/token) alive while its own layout of `layout` B/token is built, and the
// layout's fixed part (whole 64-byte records and nodes, at least one of each,
// at least 4 buckets: 320 B for a ring of one token) within kLayoutBytes.
constexpr uint64_t kLayoutBytes = 4096;
template <unsigned Layout>
uint64_t ring_bytes(const Fleet& f) {
  return saturating_add(saturating_mul(ring_tokens(f), 16 + 12 + Layout), kLayoutBytes);
}
// The bucket index: up to 64 + 16 B/token, twice the buckets (2 * 64 + 16)
// for tables of up to 4 MiB.
uint64_t bucketed_bytes(const Fleet& f) {
  const uint64_t tokens = ring_tokens(f);
  return saturating_add(saturating_mul(tokens, 16 + 12 + (tokens <= 65536 ? 144 : 80)),
                        kLayoutBytes);
}

template <const KernelInfo& K, class Table>
std::unique_ptr<OwnerTable> make_plain(const Fleet& f, unsigned knob) {
  no_knob(K, knob);
  return std::make_unique<Table>(f.nodes());
}

template <const KernelInfo& K, std::unique_ptr<OwnerTable> (*Build)(const NodeSet&)>
std::unique_ptr<OwnerTable> make_with(const Fleet& f, unsigned knob) {
  no_knob(K, knob);
  return Build(f.nodes());
}

template <const KernelInfo& K, template <class> class Search>
std::unique_ptr<OwnerTable> ring_over(const SortedRing<uint64_t>& ring, unsigned knob) {
  no_knob(K, knob);
  return std::make_unique<RingTable<Search>>(ring);
}

// A ring kernel whose constructor takes its knob as std::optional<unsigned>.
template <const KernelInfo& K, template <class> class Search>
std::unique_ptr<OwnerTable> ring_over_knob(const SortedRing<uint64_t>& ring, unsigned knob) {
  knob_in_range(K, knob);
  return std::make_unique<RingTable<Search>>(ring, knob_or_default(knob));
}

template <const KernelInfo& K, template <class> class Search,
          std::unique_ptr<OwnerTable> (*Over)(const SortedRing<uint64_t>&, unsigned)>
std::unique_ptr<OwnerTable> ring_make(const Fleet& f, unsigned knob) {
  check_ring(f);
  return Over(SortedRing<uint64_t>::from_entries(ring_entries(f.nodes())), knob);
}

template <const KernelInfo& K, std::unique_ptr<OwnerTable> (*Build)(const SortedRing<uint64_t>&)>
std::unique_ptr<OwnerTable> ring_over_with(const SortedRing<uint64_t>& ring, unsigned knob) {
  no_knob(K, knob);
  return Build(ring);
}

template <const KernelInfo& K, std::unique_ptr<OwnerTable> (*Build)(const NodeSet&)>
std::unique_ptr<OwnerTable> ring_make_with(const Fleet& f, unsigned knob) {
  no_knob(K, knob);
  return Build(f.nodes());
}

template <class Table>
std::unique_ptr<OwnerTable> reference_of(const Fleet& f) {
  return std::make_unique<Table>(f.nodes());
}

// ---- the registry ------------------------------------------------------------------

constexpr std::string_view kHrwAliases[] = {"rendezvous"};

constinit const SchemeInfo kSchemeInfos[] = {
    {Scheme::kModN,
     "modn",
     {},
     "mod-N",
     "h % N; SPEC.md",
     0,
     Removal::kNone,
     "any change of N moves most keys, between survivors too",
     0xffffffffu,
     &reference_of<ModNReference>,
     &check_nodes,
     &no_bytes},
    {Scheme::kRing,
     "ring",
     {},
     "ring (consistent hashing)",
     "Karger et al., Consistent Hashing and Random Trees, STOC 1997, section 4; SPEC.md",
     kParamVnodes,
     Removal::kAnyNode,
     "any node can leave: only its keys move",
     0xffffffffu,
     &reference_of<RingReference>,
     &check_ring,
     &ring_entry_bytes},
    {Scheme::kRendezvous, "hrw", kHrwAliases, "rendezvous (HRW)",
     "Thaler and Ravishankar, Using Name-Based Mappings to Increase Hit Rates, IEEE/ACM ToN 6(1), "
     "1998, section 3; SPEC.md",
     0, Removal::kAnyNode, "any node can leave: only its keys move", 0xffffffffu,
     &reference_of<RendezvousReference>, &check_nodes, &seed_bytes},
    {Scheme::kJump,
     "jump",
     {},
     "jump hash",
     "Lamping and Veach, A Fast, Minimal Memory, Consistent Hash Algorithm, arXiv:1406.2294, "
     "figure 1; SPEC.md",
     0,
     Removal::kLastOnly,
     "only the last bucket can leave (buckets are 0 ... N-1); any other leave renumbers buckets",
     kJumpMaxBuckets,
     &reference_of<JumpReference>,
     &check_jump,
     &no_bytes},
    {Scheme::kMaglev,
     "maglev",
     {},
     "Maglev",
     "Eisenbud et al., Maglev: A Fast and Reliable Software Network Load Balancer, NSDI 2016, "
     "section 3.4, pseudocode 1; docs/profiles.md",
     kParamTableSize,
     Removal::kAnyNode,
     "any node can leave: its keys move, and a few between survivors (minimal disruption, not "
     "zero)",
     kMaglevMaxTableSize,
     &reference_of<MaglevReference>,
     &check_maglev,
     &maglev_bytes},
};

constexpr unsigned kGroupSweep[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
constexpr unsigned kDistanceSweep[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
constinit const Knob kSTreeGroup{"lockstep group", "32 up to a 16 MiB tree, 128 above", 1, 256,
                                 kGroupSweep};
constinit const Knob kBucketDistance{"prefetch distance",
                                     "none up to a 256 KiB table, 32 up to 16 MiB, 128 above", 1,
                                     1024, kDistanceSweep};

extern const KernelInfo kModNScalar, kModNSimd, kRingLowerBound, kRingBranchless, kRingEytzinger,
    kRingSimdBranchless, kRingSimdEytzinger, kRingSTree, kRingBucketed, kHrwScalar, kHrwSimdNodes,
    kHrwSimdKeys, kJumpScalar, kJumpInterleaved, kJumpSimd, kMaglevScalar, kMaglevSimd;

using simd::build_ring_simd_branchless;
using simd::build_ring_simd_eytzinger;

constinit const KernelInfo kModNScalar{Scheme::kModN,
                                       "scalar",
                                       "h % N, one key at a time",
                                       false,
                                       "",
                                       false,
                                       1,
                                       nullptr,
                                       &make_plain<kModNScalar, ModNScalar>,
                                       &no_bytes,
                                       nullptr};
constinit const KernelInfo kModNSimd{Scheme::kModN,
                                     "simd",
                                     "exact reciprocal-multiply remainder, keys in lanes (Highway)",
                                     true,
                                     "scalar",
                                     false,
                                     0,
                                     nullptr,
                                     &make_with<kModNSimd, simd::build_modn_simd>,
                                     &no_bytes,
                                     nullptr};
constinit const KernelInfo kRingLowerBound{
    Scheme::kRing,
    "lower_bound",
    "std::lower_bound over sorted tokens (the usual baseline)",
    false,
    "",
    true,
    6,
    nullptr,
    &ring_make<kRingLowerBound, RingLowerBound, ring_over<kRingLowerBound, RingLowerBound>>,
    &ring_bytes<12>,
    &ring_over<kRingLowerBound, RingLowerBound>};
constinit const KernelInfo kRingBranchless{
    Scheme::kRing,
    "branchless",
    "branchless binary search (cmov halving)",
    false,
    "",
    false,
    4,
    nullptr,
    &ring_make<kRingBranchless, RingBranchless, ring_over<kRingBranchless, RingBranchless>>,
    &ring_bytes<12>,
    &ring_over<kRingBranchless, RingBranchless>};
constinit const KernelInfo kRingEytzinger{
    Scheme::kRing,
    "eytzinger",
    "Eytzinger (BFS) layout, prefetch, 16 keys descending in lockstep",
    false,
    "",
    false,
    2,
    nullptr,
    &ring_make<kRingEytzinger, RingEytzinger, ring_over<kRingEytzinger, RingEytzinger>>,
    &ring_bytes<12>,
    &ring_over<kRingEytzinger, RingEytzinger>};
constinit const KernelInfo kRingSimdBranchless{
    Scheme::kRing,
    "simd_branchless",
    "branchless binary search, keys in lanes, gathers (Highway)",
    true,
    "branchless",
    true,
    5,
    nullptr,
    &ring_make_with<kRingSimdBranchless, build_ring_simd_branchless>,
    &ring_bytes<12>,
    &ring_over_with<kRingSimdBranchless, build_ring_simd_branchless>};
constinit const KernelInfo kRingSimdEytzinger{
    Scheme::kRing,
    "simd_eytzinger",
    "Eytzinger descent, keys in lanes, gathers (Highway)",
    true,
    "eytzinger",
    false,
    3,
    nullptr,
    &ring_make_with<kRingSimdEytzinger, build_ring_simd_eytzinger>,
    &ring_bytes<12>,
    &ring_over_with<kRingSimdEytzinger, build_ring_simd_eytzinger>};
constinit const KernelInfo kRingSTree{
    Scheme::kRing,
    "stree",
    "S+ tree, 64-byte nodes compared with SIMD, 32-128 keys in lockstep with prefetch (Highway)",
    true,
    "eytzinger",
    false,
    1,
    &kSTreeGroup,
    &ring_make<kRingSTree, RingSTree, ring_over_knob<kRingSTree, RingSTree>>,
    &ring_bytes<16>,
    &ring_over_knob<kRingSTree, RingSTree>};
constinit const KernelInfo kRingBucketed{
    Scheme::kRing,
    "bucketed",
    "bucket index on the key hash's top bits, one 64-byte token record per bucket (Highway)",
    true,
    "eytzinger",
    false,
    0,
    &kBucketDistance,
    &ring_make<kRingBucketed, RingBucketed, ring_over_knob<kRingBucketed, RingBucketed>>,
    &bucketed_bytes,
    &ring_over_knob<kRingBucketed, RingBucketed>};
constinit const KernelInfo kHrwScalar{Scheme::kRendezvous,
                                      "scalar",
                                      "scores every node, keeps the first maximum",
                                      false,
                                      "",
                                      false,
                                      2,
                                      nullptr,
                                      &make_plain<kHrwScalar, RendezvousScalar>,
                                      &seed_bytes,
                                      nullptr};
constinit const KernelInfo kHrwSimdNodes{Scheme::kRendezvous,
                                         "simd_nodes",
                                         "one key, node seeds in lanes, max-reduction (Highway)",
                                         true,
                                         "scalar",
                                         false,
                                         1,
                                         nullptr,
                                         &make_with<kHrwSimdNodes, simd::build_hrw_simd_nodes>,
                                         &seed_simd_bytes,
                                         nullptr};
constinit const KernelInfo kHrwSimdKeys{Scheme::kRendezvous,
                                        "simd_keys",
                                        "keys in lanes, loop over nodes (Highway)",
                                        true,
                                        "scalar",
                                        false,
                                        0,
                                        nullptr,
                                        &make_with<kHrwSimdKeys, simd::build_hrw_simd_keys>,
                                        &seed_simd_bytes,
                                        nullptr};
constinit const KernelInfo kJumpScalar{Scheme::kJump,
                                       "scalar",
                                       "the paper's loop, one key at a time",
                                       false,
                                       "",
                                       false,
                                       2,
                                       nullptr,
                                       &make_plain<kJumpScalar, JumpScalar>,
                                       &no_bytes,
                                       nullptr};
constinit const KernelInfo kJumpInterleaved{Scheme::kJump,
                                            "interleaved",
                                            "the paper's loop, four keys interleaved",
                                            false,
                                            "",
                                            false,
                                            1,
                                            nullptr,
                                            &make_plain<kJumpInterleaved, JumpInterleaved>,
                                            &no_bytes,
                                            nullptr};
constinit const KernelInfo kJumpSimd{Scheme::kJump,
                                     "simd",
                                     "keys in lanes, per-lane masks, bit-identical steps (Highway)",
                                     true,
                                     "scalar",
                                     false,
                                     0,
                                     nullptr,
                                     &make_with<kJumpSimd, simd::build_jump_simd>,
                                     &no_bytes,
                                     nullptr};
constinit const KernelInfo kMaglevScalar{Scheme::kMaglev,
                                         "scalar",
                                         "lookup table entry[h % M], one key at a time",
                                         false,
                                         "",
                                         false,
                                         1,
                                         nullptr,
                                         &make_with<kMaglevScalar, build_maglev_scalar>,
                                         &maglev_bytes,
                                         nullptr};
constinit const KernelInfo kMaglevSimd{
    Scheme::kMaglev,
    "simd",
    "SIMD exact h % M, then 32-bit gathers from the table (Highway)",
    true,
    "scalar",
    false,
    0,
    nullptr,
    &make_with<kMaglevSimd, build_maglev_simd>,
    &maglev_bytes,
    nullptr};

// One line per kernel, grouped by scheme in kSchemeInfos' order.
constinit const KernelInfo* const kKernels[] = {
    &kModNScalar,         &kModNSimd,          &kRingLowerBound, &kRingBranchless,  &kRingEytzinger,
    &kRingSimdBranchless, &kRingSimdEytzinger, &kRingSTree,      &kRingBucketed,    &kHrwScalar,
    &kHrwSimdNodes,       &kHrwSimdKeys,       &kJumpScalar,     &kJumpInterleaved, &kJumpSimd,
    &kMaglevScalar,       &kMaglevSimd,
};

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

std::vector<RingEntry<uint64_t>> ring_entries(const NodeSet& nodes) {
  validate(nodes);
  const uint64_t total = uint64_t{nodes.size()} * nodes.vnodes;
  if (total > 0xffffffffu)
    throw std::length_error("N * V = " + std::to_string(total) +
                            " tokens exceeds the 2^32 - 1 a ring indexes");
  std::vector<RingEntry<uint64_t>> entries;
  entries.reserve(total);
  std::string label;
  for (uint32_t n = 0; n < nodes.size(); ++n) {
    for (uint32_t i = 0; i < nodes.vnodes; ++i) {
      label = nodes.names[n];
      label += '#';
      label += std::to_string(i);
      entries.push_back({key_hash(label), n});
    }
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

std::unique_ptr<OwnerTable> build_ring_kernel(std::string_view name,
                                              const SortedRing<uint64_t>& ring, unsigned knob) {
  return find_kernel(Scheme::kRing, name).make_over_ring(ring, knob);
}

std::unique_ptr<OwnerTable> build_ring_reference(std::vector<RingEntry<uint64_t>> entries) {
  return std::make_unique<RingReference>(std::move(entries));
}

std::vector<RingEntry<uint64_t>> clustered_ring_entries(const NodeSet& nodes,
                                                        unsigned window_bits) {
  if (window_bits < 1 || window_bits > 63)
    throw std::invalid_argument("cluster window must be 1 to 63 bits");
  auto entries = ring_entries(nodes);
  for (auto& e : entries) e.token = into_cluster(e.token, window_bits);
  std::sort(entries.begin(), entries.end());
  return entries;
}

std::vector<uint64_t> rendezvous_seeds(const NodeSet& nodes) {
  validate(nodes);
  std::vector<uint64_t> seeds;
  seeds.reserve(nodes.size());
  for (const auto& name : nodes.names) seeds.push_back(key_hash(name));
  return seeds;
}

}  // namespace chbench
