// The SIMD top-R rendezvous (hrw/replicas.h), for every Highway target: a
// vector of keys in lanes, each lane's R best scores and nodes in rows of a
// scratch array, highest first. Past a few groups per replica, the nodes go
// in groups of four: each lane keeps the R groups with the highest maximum,
// then rescores their nodes (HrwTopKeysGrouped).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/hrw/replicas_simd.cc"
#include <hwy/aligned_allocator.h>
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
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

#if !CHBENCH_SIZELESS_VECTORS
// The grouped top-R, for R = 2 ... kMaxGroupedR known at compile time, its
// rows in registers (so not on SVE, whose vectors no array may hold).

// Nodes per group: each group costs R row inserts per vector of keys and, at
// the end, kTopGroup rescored nodes per chosen group.
inline constexpr uint32_t kTopGroup = 4;
static_assert(kTopGroup == 4, "RescoreGroups multiplies by it with ShiftLeft<2>");
inline constexpr uint32_t kMaxGroupedR = 8;

// Group g's entry in the rows of TopGroups: its maximum score's high 32
// bits, then kLow32 - g, so that an equal high half ranks the earlier group
// first and one Max orders both.
inline constexpr int64_t kLow32 = 0xffffffff;

// The highest score per lane among nodes [first, first + count) for the
// pre-mixed keys `key`.
template <uint32_t kCount>
HWY_INLINE VI64 GroupTop(V64 key, const uint64_t* HWY_RESTRICT mixed, uint32_t first,
                         uint32_t count = kCount) {
  const D64 d;
  VI64 top = ScoreFromMixed(hn::Xor(key, hn::Set(d, mixed[first])));
  for (uint32_t j = 1; j < (kCount != 0 ? kCount : count); ++j)
    top = hn::Max(top, ScoreFromMixed(hn::Xor(key, hn::Set(d, mixed[first + j]))));
  return top;
}

// R (score, id) pairs per lane, ranked by score descending, then id
// ascending.
template <uint32_t R>
struct RankedRows {
  VI64 score[R];
  VI64 id[R];

  // Every row (INT64_MIN, INT64_MAX): a real pair, even one scoring
  // INT64_MIN, ranks above it by its lower id.
  RankedRows() {
    const DI64 di;
    for (uint32_t j = 0; j < R; ++j) {
      score[j] = hn::Set(di, INT64_MIN);
      id[j] = hn::Set(di, INT64_MAX);
    }
  }

  // Takes each row (w, i) ranks above and carries that row's pair on; the
  // last row's pair falls off.
  HWY_INLINE void Insert(VI64 w, VI64 i) {
    for (uint32_t j = 0; j < R; ++j) {
      const VI64 b = score[j], c = id[j];
      const auto above = hn::Or(hn::Gt(w, b), hn::And(hn::Eq(w, b), hn::Lt(i, c)));
      score[j] = hn::IfThenElse(above, w, b);
      id[j] = hn::IfThenElse(above, i, c);
      w = hn::IfThenElse(above, b, w);
      i = hn::IfThenElse(above, c, i);
    }
  }
};

// The nodes of each lane's R groups (seeds gathered), ranked. A node past n
// (the last group may be short) enters as (INT64_MIN, INT64_MAX): it ranks
// above no row.
template <uint32_t R>
HWY_INLINE RankedRows<R> RescoreGroups(V64 key, const uint64_t* HWY_RESTRICT mixed, uint32_t n,
                                       const VI64 (&groups)[R + 1]) {
  const D64 d;
  const DI64 di;
  const VI64 none_score = hn::Set(di, INT64_MIN), none_node = hn::Set(di, INT64_MAX);
  const VI64 count = hn::Set(di, n), last = hn::Set(di, int64_t{n} - 1);
  const VI64 low = hn::Set(di, kLow32);
  RankedRows<R> nodes;
  for (uint32_t j = 0; j < R; ++j) {
    const VI64 first = hn::ShiftLeft<2>(hn::Sub(low, hn::And(groups[j], low)));
    for (uint32_t t = 0; t < kTopGroup; ++t) {
      const VI64 node = hn::Add(first, hn::Set(di, t));
      const auto real = hn::Lt(node, count);
      const V64 seed = hn::GatherIndex(d, mixed, hn::Min(node, last));
      nodes.Insert(hn::IfThenElse(real, ScoreFromMixed(hn::Xor(key, seed)), none_score),
                   hn::IfThenElse(real, node, none_node));
    }
  }
  return nodes;
}

// Inserts a group's entry into R + 1 rows kept in descending order.
template <uint32_t R>
HWY_INLINE void InsertGroup(VI64 (&rows)[R + 1], VI64 top, uint32_t g) {
  const DI64 di;
  VI64 w = hn::Or(hn::AndNot(hn::Set(di, kLow32), top), hn::Set(di, kLow32 - g));
  for (uint32_t j = 0; j < R; ++j) {
    const VI64 b = rows[j];
    rows[j] = hn::Max(w, b);
    w = hn::Min(w, b);
  }
  rows[R] = hn::Max(w, rows[R]);
}

// The R + 1 best groups per lane of one vector of keys (pre-mixed), by the
// high half of their maximum, then the earlier group. The rows start at
// INT64_MIN, below every group's entry.
template <uint32_t R>
HWY_INLINE void TopGroups(V64 key, const uint64_t* HWY_RESTRICT mixed, uint32_t n,
                          VI64 (&rows)[R + 1]) {
  for (uint32_t j = 0; j <= R; ++j) rows[j] = hn::Set(DI64(), INT64_MIN);
  const uint32_t full = n / kTopGroup;
  for (uint32_t g = 0; g < full; ++g)
    InsertGroup<R>(rows, GroupTop<kTopGroup>(key, mixed, g * kTopGroup), g);
  if (n % kTopGroup != 0)
    InsertGroup<R>(rows, GroupTop<0>(key, mixed, full * kTopGroup, n % kTopGroup), full);
}

// Keys [0, count) in vectors, the last one padded with zeros; out[i * R + j]
// the j-th owner of key i. The first R rows of TopGroups are rescored.
// Exact where the R-th row's high half is above the (R+1)-th's: then these
// R groups are the R best by their exact maxima, and a node of the R best
// lies in one of them (else their R maxima would be R distinct nodes ranked
// above it). A vector where some lane's two halves are equal goes through
// TopOfVector; rows: scratch for it.
template <uint32_t R>
void HrwTopKeysGrouped(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                       const uint64_t* HWY_RESTRICT mixed, uint32_t n, int64_t* HWY_RESTRICT rows,
                       uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const DI64 di;
  const std::size_t lanes = hn::Lanes(d);
  const int64_t* const ids = rows + R * lanes;
  for (std::size_t i = 0; i < count; i += lanes) {
    const std::size_t valid = count - i < lanes ? count - i : lanes;
    HWY_ALIGN uint64_t pad[kMaxLanes64] = {};
    for (std::size_t l = 0; l < valid; ++l) pad[l] = keys[i + l];
    const V64 key = XorShift33(hn::Load(d, pad));
    VI64 groups[R + 1];
    TopGroups<R>(key, mixed, n, groups);
    const auto tied = hn::Eq(hn::ShiftRight<32>(groups[R - 1]), hn::ShiftRight<32>(groups[R]));
    if (HWY_LIKELY(hn::AllFalse(di, tied))) {
      const RankedRows<R> top = RescoreGroups<R>(key, mixed, n, groups);
      for (uint32_t j = 0; j < R; ++j) hn::Store(top.id[j], di, rows + (R + j) * lanes);
    } else {
      TopOfVector(key, mixed, n, R, rows, rows + R * lanes);
    }
    for (std::size_t l = 0; l < valid; ++l)
      for (uint32_t j = 0; j < R; ++j)
        out[(i + l) * R + j] = static_cast<uint32_t>(ids[j * lanes + l]);
  }
}

// HrwTopKeysGrouped<r> for r = 2 ... kMaxGroupedR; false for any other r.
template <uint32_t R = 2>
bool TopKeysGroupedFor(uint32_t r, const uint64_t* HWY_RESTRICT keys, std::size_t count,
                       const uint64_t* HWY_RESTRICT mixed, uint32_t n, int64_t* HWY_RESTRICT rows,
                       uint32_t* HWY_RESTRICT out) {
  if (r == R) {
    HrwTopKeysGrouped<R>(keys, count, mixed, n, rows, out);
    return true;
  }
  if constexpr (R < kMaxGroupedR)
    return TopKeysGroupedFor<R + 1>(r, keys, count, mixed, n, rows, out);
  return false;
}
#endif  // !CHBENCH_SIZELESS_VECTORS

// Keys [0, count) in vectors, the last one padded with zeros; out[i * r + j]
// the j-th owner of key i. The grouped loop from kGroupsPerReplica groups per
// replica on, for R = 2 ... kMaxGroupedR, and not on SVE; else per node.
void HrwTopKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                const uint64_t* HWY_RESTRICT mixed, uint32_t n, uint32_t r,
                uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const std::size_t lanes = hn::Lanes(d);
  const auto rows = hwy::AllocateAligned<int64_t>(std::size_t{2} * r * lanes);
#if !CHBENCH_SIZELESS_VECTORS
  constexpr uint32_t kGroupsPerReplica = 2;
  if (n / kTopGroup >= kGroupsPerReplica * r &&
      TopKeysGroupedFor(r, keys, count, mixed, n, rows.get(), out))
    return;
#endif
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
#include <optional>
#include <span>
#include <vector>

#include "chbench/hrw/hrw.h"
#include "chbench/hrw/rendezvous_simd.h"
#include "chbench/hrw/replicas.h"
#include "chbench/kernel_glue.h"
#include "chbench/simd.h"

namespace chbench {

namespace simd {
HWY_EXPORT(HrwTopKeys);
}  // namespace simd

namespace {

// R = 1 is the owner: hrw/simd_keys' owners (RendezvousSimd), the fastest
// top-1. Above, HrwTopKeys.
class RendezvousTopSimd final : public ReplicaTable {
 public:
  RendezvousTopSimd(const NodeSet& nodes, uint32_t r) : r_(r) {
    const std::vector<uint64_t> seeds = rendezvous_seeds(nodes);
    if (r == 1) top1_.emplace(seeds);
    for (uint64_t s : seeds) mixed_.push_back(s ^ (s >> 33));
  }
  void replicas(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    glue::check_replica_sizes(h, out, r_);
    if (top1_) return top1_->owners_across_keys(h, out);
    HWY_DYNAMIC_DISPATCH(simd::HrwTopKeys)
    (h.data(), h.size(), mixed_.data(), static_cast<uint32_t>(mixed_.size()), r_, out.data());
  }
  uint32_t replica_count() const noexcept override { return r_; }
  std::size_t memory_bytes() const noexcept override {
    return top1_ ? top1_->memory_bytes() : mixed_.size() * sizeof(uint64_t);
  }

 private:
  std::optional<simd::RendezvousSimd> top1_;
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
