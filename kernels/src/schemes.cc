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

constexpr std::array<Scheme, 5> kSchemes = {Scheme::kModN, Scheme::kRing, Scheme::kRendezvous,
                                            Scheme::kJump, Scheme::kMaglev};

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

const std::array<KernelInfo, 17> kKernels = {{
    {Scheme::kModN, "scalar", "h % N, one key at a time", &make<ModNScalar>},
    {Scheme::kModN, "simd", "exact reciprocal-multiply remainder, keys in lanes (Highway)",
     &simd::build_modn_simd},
    {Scheme::kRing, "lower_bound", "std::lower_bound over sorted tokens (the usual baseline)",
     &make<RingTable<RingLowerBound>>},
    {Scheme::kRing, "branchless", "branchless binary search (cmov halving)",
     &make<RingTable<RingBranchless>>},
    {Scheme::kRing, "eytzinger", "Eytzinger (BFS) layout, prefetch, 16 keys descending in lockstep",
     &make<RingTable<RingEytzinger>>},
    {Scheme::kRing, "simd_branchless", "branchless binary search, keys in lanes, gathers (Highway)",
     &simd::build_ring_simd_branchless},
    {Scheme::kRing, "simd_eytzinger", "Eytzinger descent, keys in lanes, gathers (Highway)",
     &simd::build_ring_simd_eytzinger},
    {Scheme::kRing, "stree",
     "S+ tree, 64-byte nodes compared with SIMD, 32-128 keys in lockstep with prefetch (Highway)",
     &make<RingTable<RingSTree>>},
    {Scheme::kRing, "bucketed",
     "bucket index on the key hash's top bits, one 64-byte token record per bucket (Highway)",
     &make<RingTable<RingBucketed>>},
    {Scheme::kRendezvous, "scalar", "scores every node, keeps the first maximum",
     &make<RendezvousScalar>},
    {Scheme::kRendezvous, "simd_nodes", "one key, node seeds in lanes, max-reduction (Highway)",
     &simd::build_hrw_simd_nodes},
    {Scheme::kRendezvous, "simd_keys", "keys in lanes, loop over nodes (Highway)",
     &simd::build_hrw_simd_keys},
    {Scheme::kJump, "scalar", "the paper's loop, one key at a time", &make<JumpScalar>},
    {Scheme::kJump, "interleaved", "the paper's loop, four keys interleaved",
     &make<JumpInterleaved>},
    {Scheme::kJump, "simd", "keys in lanes, per-lane masks, bit-identical steps (Highway)",
     &simd::build_jump_simd},
    {Scheme::kMaglev, "scalar", "lookup table entry[h % M], one key at a time",
     &build_maglev_scalar},
    {Scheme::kMaglev, "simd", "SIMD exact h % M, then 32-bit gathers from the table (Highway)",
     &build_maglev_simd},
}};

}  // namespace

std::string_view scheme_name(Scheme scheme) noexcept {
  switch (scheme) {
    case Scheme::kModN:
      return "modn";
    case Scheme::kRing:
      return "ring";
    case Scheme::kRendezvous:
      return "hrw";
    case Scheme::kJump:
      return "jump";
    case Scheme::kMaglev:
      return "maglev";
  }
  return "?";
}

Scheme parse_scheme(std::string_view name) {
  if (name == "rendezvous") return Scheme::kRendezvous;
  for (Scheme s : kSchemes)
    if (scheme_name(s) == name) return s;
  std::string known;
  for (Scheme s : kSchemes) known += (known.empty() ? "" : ", ") + std::string(scheme_name(s));
  throw std::invalid_argument("unknown scheme '" + std::string(name) + "' (known: " + known + ")");
}

std::span<const Scheme> all_schemes() noexcept { return kSchemes; }

std::string KernelInfo::full_name() const {
  return std::string(scheme_name(scheme)) + "/" + std::string(name);
}

std::span<const KernelInfo> all_kernels() noexcept { return kKernels; }

std::vector<const KernelInfo*> kernels_of(Scheme scheme) {
  std::vector<const KernelInfo*> out;
  for (const auto& k : kKernels)
    if (k.scheme == scheme) out.push_back(&k);
  return out;
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

std::unique_ptr<OwnerTable> build_reference(Scheme scheme, const NodeSet& nodes) {
  switch (scheme) {
    case Scheme::kModN:
      return make<ModNReference>(nodes);
    case Scheme::kRing:
      return make<RingReference>(nodes);
    case Scheme::kRendezvous:
      return make<RendezvousReference>(nodes);
    case Scheme::kJump:
      return make<JumpReference>(nodes);
    case Scheme::kMaglev:
      return make<MaglevReference>(nodes);
  }
  throw std::invalid_argument("unknown scheme");
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
                                              const SortedRing<uint64_t>& ring,
                                              unsigned in_flight) {
  const std::optional<unsigned> knob =
      in_flight == 0 ? std::nullopt : std::optional<unsigned>(in_flight);
  if (name == "lower_bound") return std::make_unique<RingTable<RingLowerBound>>(ring);
  if (name == "branchless") return std::make_unique<RingTable<RingBranchless>>(ring);
  if (name == "eytzinger") return std::make_unique<RingTable<RingEytzinger>>(ring);
  if (name == "stree") return std::make_unique<RingTable<RingSTree>>(ring, knob);
  if (name == "bucketed") return std::make_unique<RingTable<RingBucketed>>(ring, knob);
  if (name == "simd_branchless") return simd::build_ring_simd_branchless(ring);
  if (name == "simd_eytzinger") return simd::build_ring_simd_eytzinger(ring);
  // Names the registry has but this list lacks are a bug here, not bad input.
  find_kernel(Scheme::kRing, name);  // throws, naming the ring's kernels, for unknown names
  throw std::logic_error("build_ring_kernel: ring/" + std::string(name) + " is not wired up");
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
