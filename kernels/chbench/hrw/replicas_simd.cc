// The SIMD top-R rendezvous (hrw/replicas.h), for every Highway target: a
// vector of keys in lanes, each lane's R best scores and nodes in rows of a
// scratch array, highest first.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/hrw/replicas_simd.cc"
#include <hwy/aligned_allocator.h>
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "chbench/hrw/score-inl.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Inserts (w, node) into the `filled` rows best[0 .. filled) / chosen[0 ..
// filled) of each lane: the carried pair takes each row it beats strictly
// (an equal score keeps the earlier, lower index) and carries that row's
// pair on. Below `filled` rows < r the carried pair takes the first empty
// row; with all r rows filled the last row's pair falls off.
HWY_INLINE void InsertRows(int64_t* HWY_RESTRICT best, int64_t* HWY_RESTRICT chosen,
                           uint32_t filled, uint32_t r, VI64 w, VI64 node) {
  const DI64 di;
  const std::size_t lanes = hn::Lanes(di);
  for (uint32_t j = 0; j < filled; ++j) {
    const VI64 b = hn::Load(di, best + j * lanes), c = hn::Load(di, chosen + j * lanes);
    const auto above = hn::Gt(w, b);
    hn::Store(hn::IfThenElse(above, w, b), di, best + j * lanes);
    hn::Store(hn::IfThenElse(above, node, c), di, chosen + j * lanes);
    w = hn::IfThenElse(above, b, w);
    node = hn::IfThenElse(above, c, node);
  }
  if (filled < r) {
    hn::Store(w, di, best + filled * lanes);
    hn::Store(node, di, chosen + filled * lanes);
  }
}

// Keys key[0 .. Lanes) (pre-mixed by XorShift33); seeds `mixed` (n of them,
// pre-mixed); rows for r scores and r nodes per lane. Nodes 0 ... r-1 fill
// the rows (node j inserted into the j rows filled before it); afterwards a
// node is inserted only where a lane's score beats its R-th row.
HWY_INLINE void TopOfVector(V64 key, const uint64_t* HWY_RESTRICT mixed, uint32_t n, uint32_t r,
                            int64_t* HWY_RESTRICT best, int64_t* HWY_RESTRICT chosen) {
  const DI64 di;
  const std::size_t lanes = hn::Lanes(di);
  for (uint32_t node = 0; node < r; ++node)
    InsertRows(best, chosen, node, r, ScoreFromMixed(hn::Xor(key, hn::Set(D64(), mixed[node]))),
               hn::Set(di, static_cast<int64_t>(node)));
  const int64_t* const last = best + (r - 1) * lanes;
  VI64 floor = hn::Load(di, last);
  for (uint32_t node = r; node < n; ++node) {
    const VI64 w = ScoreFromMixed(hn::Xor(key, hn::Set(D64(), mixed[node])));
    if (hn::AllFalse(di, hn::Gt(w, floor))) continue;  // the usual case once rows are full
    InsertRows(best, chosen, r, r, w, hn::Set(di, static_cast<int64_t>(node)));
    floor = hn::Load(di, last);
  }
}

// Keys [0, count) in vectors, the last one padded with zeros; out[i * r + j]
// the j-th owner of key i.
void HrwTopKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                const uint64_t* HWY_RESTRICT mixed, uint32_t n, uint32_t r,
                uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const auto rows = hwy::AllocateAligned<int64_t>(std::size_t{2} * r * lanes);
  int64_t* const best = rows.get();
  int64_t* const chosen = rows.get() + std::size_t{r} * lanes;
  for (std::size_t i = 0; i < count; i += lanes) {
    const std::size_t valid = count - i < lanes ? count - i : lanes;
    HWY_ALIGN uint64_t pad[kMaxLanes64] = {};
    for (std::size_t l = 0; l < valid; ++l) pad[l] = keys[i + l];
    TopOfVector(XorShift33(hn::Load(d, pad)), mixed, n, r, best, chosen);
    for (std::size_t l = 0; l < valid; ++l)
      for (uint32_t j = 0; j < r; ++j)
        out[(i + l) * r + j] = static_cast<uint32_t>(chosen[j * lanes + l]);
  }
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <memory>
#include <span>
#include <vector>

#include "chbench/hrw/hrw.h"
#include "chbench/hrw/replicas.h"
#include "chbench/kernel_glue.h"
#include "chbench/simd.h"

namespace chbench {

namespace simd {
HWY_EXPORT(HrwTopKeys);
}  // namespace simd

namespace {

class RendezvousTopSimd final : public ReplicaTable {
 public:
  RendezvousTopSimd(const NodeSet& nodes, uint32_t r) : r_(r) {
    for (uint64_t s : rendezvous_seeds(nodes)) mixed_.push_back(s ^ (s >> 33));
  }
  void replicas(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    glue::check_replica_sizes(h, out, r_);
    HWY_DYNAMIC_DISPATCH(simd::HrwTopKeys)
    (h.data(), h.size(), mixed_.data(), static_cast<uint32_t>(mixed_.size()), r_, out.data());
  }
  uint32_t replica_count() const noexcept override { return r_; }
  std::size_t memory_bytes() const noexcept override { return mixed_.size() * sizeof(uint64_t); }

 private:
  std::vector<uint64_t> mixed_;  // seed ^ (seed >> 33), as RendezvousSimd keeps them
  uint32_t r_;
};

}  // namespace

std::unique_ptr<ReplicaTable> hrw_simd_replicas(const Fleet& f, uint32_t r) {
  validate(f.nodes());
  check_replica_count(f, r);
  return std::make_unique<RendezvousTopSimd>(f.nodes(), r);
}

}  // namespace chbench

#endif  // HWY_ONCE
