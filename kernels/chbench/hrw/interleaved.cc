// hrw/interleaved: every node scored for four keys at once, the first maximum
// of each kept.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "chbench/hrw/hrw.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

// Four keys share each pass over the seeds: a seed is loaded once for four
// scores, and the four compare-and-keep chains are independent, so they
// overlap in the pipeline where the scalar kernel's one chain waits on each
// compare. Scores and the tie rule (strictly greater replaces) are
// rendezvous_owner's, key by key.
class RendezvousInterleaved final : public OwnerTable {
 public:
  explicit RendezvousInterleaved(const NodeSet& nodes) : seeds_(rendezvous_seeds(nodes)) {}
  explicit RendezvousInterleaved(std::span<const uint64_t> seeds) : seeds_(chosen_seeds(seeds)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    std::size_t i = 0;
    for (; i + 4 <= h.size(); i += 4) four_owners(&h[i], &out[i]);
    for (; i < h.size(); ++i) out[i] = rendezvous_owner(h[i], seeds_);
  }
  std::size_t memory_bytes() const noexcept override { return seeds_.size() * sizeof(uint64_t); }

 private:
  void four_owners(const uint64_t* h, uint32_t* out) const noexcept {
    std::array<uint64_t, 4> best;
    std::array<uint32_t, 4> owner = {0, 0, 0, 0};
    for (int k = 0; k < 4; ++k) best[k] = rendezvous_score(h[k], seeds_[0]);
    for (uint32_t n = 1; n < seeds_.size(); ++n) {
      const uint64_t seed = seeds_[n];
      for (int k = 0; k < 4; ++k) {
        const uint64_t w = rendezvous_score(h[k], seed);
        owner[k] = w > best[k] ? n : owner[k];
        best[k] = w > best[k] ? w : best[k];
      }
    }
    for (int k = 0; k < 4; ++k) out[k] = owner[k];
  }

  std::vector<uint64_t> seeds_;
};

}  // namespace

constinit const KernelInfo registry::hrw_interleaved{
    .scheme = Scheme::kRendezvous,
    .name = "interleaved",
    .summary = "scores every node for four keys at once, keeps each first maximum",
    .simd = false,
    .baseline = false,
    .rank = 30,
    .knob = nullptr,
    .make = &glue::make_plain<registry::hrw_interleaved, RendezvousInterleaved>,
    .table_bytes = &registry::hrw_reference_bytes,  // the seeds, as the reference holds them
    .make_over_seeds = &glue::make_over_seeds<RendezvousInterleaved>,
};

}  // namespace chbench
