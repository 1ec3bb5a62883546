// Rendezvous' replica reference and the scalar top-R (hrw/replicas.h).
#include "chbench/hrw/replicas.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "chbench/hrw/hrw.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"

namespace chbench {

namespace {

// Every node scored, all of them sorted by (score descending, index
// ascending), the first R taken.
class RendezvousReplicaReference final : public ReplicaTable {
 public:
  RendezvousReplicaReference(const NodeSet& nodes, uint32_t r)
      : seeds_(rendezvous_seeds(nodes)), r_(r) {}
  void replicas(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    glue::check_replica_sizes(h, out, r_);
    std::vector<std::pair<uint64_t, uint32_t>> ranked(seeds_.size());
    for (std::size_t i = 0; i < h.size(); ++i) {
      for (uint32_t n = 0; n < seeds_.size(); ++n)
        ranked[n] = {rendezvous_score(h[i], seeds_[n]), n};
      std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
      for (uint32_t j = 0; j < r_; ++j) out[i * r_ + j] = ranked[j].second;
    }
  }
  uint32_t replica_count() const noexcept override { return r_; }
  std::size_t memory_bytes() const noexcept override { return seeds_.size() * sizeof(uint64_t); }

 private:
  std::vector<uint64_t> seeds_;
  uint32_t r_;
};

// One pass; `best` holds the c <= R best scores descending, `chosen` their
// nodes. A node enters when the list is short or it beats the R-th strictly
// (an equal score keeps the earlier, lower index), then moves up past every
// strictly lower score.
class RendezvousTopScalar final : public ReplicaTable {
 public:
  RendezvousTopScalar(const NodeSet& nodes, uint32_t r) : seeds_(rendezvous_seeds(nodes)), r_(r) {}
  void replicas(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    glue::check_replica_sizes(h, out, r_);
    std::vector<uint64_t> best(r_);
    for (std::size_t i = 0; i < h.size(); ++i) top(h[i], best.data(), out.data() + i * r_);
  }
  uint32_t replica_count() const noexcept override { return r_; }
  std::size_t memory_bytes() const noexcept override { return seeds_.size() * sizeof(uint64_t); }

 private:
  void top(uint64_t h, uint64_t* best, uint32_t* chosen) const noexcept {
    uint32_t c = 0;
    for (uint32_t n = 0; n < seeds_.size(); ++n) {
      const uint64_t w = rendezvous_score(h, seeds_[n]);
      if (c == r_ && w <= best[r_ - 1]) continue;
      uint32_t j = c < r_ ? c++ : r_ - 1;  // the free slot, or the R-th's, dropped
      for (; j > 0 && best[j - 1] < w; --j) {
        best[j] = best[j - 1];
        chosen[j] = chosen[j - 1];
      }
      best[j] = w;
      chosen[j] = n;
    }
  }

  std::vector<uint64_t> seeds_;
  uint32_t r_;
};

}  // namespace

std::unique_ptr<ReplicaTable> registry::hrw_replicas_reference(const Fleet& f, uint32_t r) {
  validate(f.nodes());
  check_replica_count(f, r);
  return std::make_unique<RendezvousReplicaReference>(f.nodes(), r);
}

std::unique_ptr<ReplicaTable> hrw_scalar_replicas(const Fleet& f, uint32_t r) {
  validate(f.nodes());
  check_replica_count(f, r);
  return std::make_unique<RendezvousTopScalar>(f.nodes(), r);
}

}  // namespace chbench
