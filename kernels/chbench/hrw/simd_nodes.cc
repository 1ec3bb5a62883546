// hrw/simd_nodes: rendezvous one key at a time with the node seeds in lanes
// and a max-reduction (RendezvousSimd::owners_across_nodes, rendezvous_simd.h), for
// every Highway target, and its registry entry.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/hrw/simd_nodes.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>

#include "chbench/hrw/score-inl.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// From this many nodes on, the groups of kNodeGroup vectors of seeds save
// more than the rescoring of the winning group costs; the rescoring is per
// key, not per vector of keys as in simd_keys.cc (on AVX3, this machine:
// equal near 512 nodes).
inline constexpr uint32_t kGroupsAcrossNodesFrom = 512;

// The score of pre-mixed key `a` at pre-mixed seed `t` in scalar code,
// ordered as ScoreFromMixed's lanes are (top bit flipped).
HWY_INLINE int64_t ScalarScore(uint64_t a, uint64_t t) {
  uint64_t k = (a ^ t) * 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return static_cast<int64_t>(k ^ (uint64_t{1} << 63));
}

// Across nodes: U keys at a time, each broadcast to all lanes, share every
// vector of seeds; lane i scores nodes i, i + Lanes, ... Each lane keeps its
// first maximum, then a reduction takes the highest score over the lanes and
// the lowest index holding it. With kGrouped, the lanes score kNodeGroup
// vectors of seeds before one compare-and-select (as HrwAcrossKeysGrouped),
// and the lanes holding the maximum rescore their group in scalar code.
// `mixed` holds n entries rounded up to a multiple of 256 (whole groups of
// vectors on any target), the padding repeating node 0: a padded node ties
// with node 0, which has the lower index.
template <bool kGrouped>
HWY_NOINLINE void HrwAcrossNodesImpl(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                                     const uint64_t* HWY_RESTRICT mixed, uint32_t n,
                                     uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const DI64 di;
  const std::size_t lanes = hn::Lanes(d);
  HWY_DASSERT(lanes <= 64);  // the padding of RendezvousSimd
  const std::size_t stride = kGrouped ? kNodeGroup * lanes : lanes;  // nodes per step
  const VI64 step = hn::Set(di, static_cast<int64_t>(kGrouped ? 1 : lanes));
  constexpr std::size_t kKeys = Unroll(4);
  auto block = [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    CHBENCH_VECTORS(V64, key, U);
    CHBENCH_VECTORS(VI64, best, U);
    CHBENCH_VECTORS(VI64, owner, U);  // owner: the node, or with kGrouped its group
    for (std::size_t u = 0; u < U; ++u) {
      key(u) = hn::Set(d, k[u] ^ (k[u] >> 33));
      // Below every score but the lowest (0): the first step replaces it, or
      // the owner is already right.
      best(u) = hn::Set(di, INT64_MIN);
      owner(u) = kGrouped ? hn::Zero(di) : hn::Iota(di, 0);
    }
    VI64 index = owner(0);
    for (std::size_t at = 0; at < n; at += stride) {
      if constexpr (kGrouped) {
        const V64 s0 = hn::LoadU(d, mixed + at), s1 = hn::LoadU(d, mixed + at + lanes);
        const V64 s2 = hn::LoadU(d, mixed + at + 2 * lanes);
        const V64 s3 = hn::LoadU(d, mixed + at + 3 * lanes);
        for (std::size_t u = 0; u < U; ++u) {
          const VI64 top = TopScoreOfFour(key(u), s0, s1, s2, s3);
          const auto better = hn::Gt(top, best(u));
          best(u) = hn::IfThenElse(better, top, best(u));
          owner(u) = hn::IfThenElse(better, index, owner(u));
        }
      } else {
        const V64 seeds = hn::LoadU(d, mixed + at);
        for (std::size_t u = 0; u < U; ++u) {
          const VI64 w = ScoreFromMixed(hn::Xor(key(u), seeds));
          const auto better = hn::Gt(w, best(u));
          best(u) = hn::IfThenElse(better, w, best(u));
          owner(u) = hn::IfThenElse(better, index, owner(u));
        }
      }
      index = hn::Add(index, step);
    }
    for (std::size_t u = 0; u < U; ++u) {
      const VI64 top_score = hn::MaxOfLanes(di, best(u));
      if constexpr (!kGrouped) {
        // The lowest index among the lanes holding the highest score.
        const VI64 candidates =
            hn::IfThenElse(hn::Eq(best(u), top_score), owner(u), hn::Set(di, INT64_MAX));
        o[u] = static_cast<uint32_t>(hn::GetLane(hn::MinOfLanes(di, candidates)));
      } else {
        // The lanes holding the maximum (one, unless seeds repeat): rescore
        // each one's group in scalar code, keep the lowest node reaching it.
        HWY_ALIGN int64_t group_of[kMaxLanes64];
        hn::Store(owner(u), di, group_of);
        uint8_t bytes[8] = {};
        hn::StoreMaskBits(di, hn::Eq(best(u), top_score), bytes);
        uint64_t at_top = 0;
        for (std::size_t b = 0; b < 8; ++b) at_top |= uint64_t{bytes[b]} << (8 * b);
        const int64_t top = hn::GetLane(top_score);
        const uint64_t a = k[u] ^ (k[u] >> 33);
        std::size_t found = SIZE_MAX;
        for (; at_top != 0; at_top &= at_top - 1) {
          const std::size_t i = static_cast<std::size_t>(__builtin_ctzll(at_top));
          const std::size_t first = static_cast<std::size_t>(group_of[i]) * stride + i;
          std::size_t node = first + (kNodeGroup - 1) * lanes;
          for (std::size_t j = kNodeGroup - 1; j-- > 0;)
            if (ScalarScore(a, mixed[first + j * lanes]) == top) node = first + j * lanes;
          found = std::min(found, node);
        }
        o[u] = static_cast<uint32_t>(found);
      }
    }
  };
  std::size_t i = 0;
  for (; count - i >= kKeys; i += kKeys) block.template operator()<kKeys>(keys + i, out + i);
  for (; i < count; ++i) block.template operator()<1>(keys + i, out + i);
}

void HrwAcrossNodes(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                    const uint64_t* HWY_RESTRICT mixed, uint32_t n, uint32_t* HWY_RESTRICT out) {
  if (n >= kGroupsAcrossNodesFrom)
    HrwAcrossNodesImpl<true>(keys, count, mixed, n, out);
  else
    HrwAcrossNodesImpl<false>(keys, count, mixed, n, out);
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <memory>

#include "chbench/hrw/hrw.h"
#include "chbench/hrw/rendezvous_simd.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {

HWY_EXPORT(HrwAcrossNodes);

void RendezvousSimd::owners_across_nodes(std::span<const uint64_t> key_hashes,
                                         std::span<uint32_t> out) const {
  glue::check_sizes(key_hashes, out);
  HWY_DYNAMIC_DISPATCH(HrwAcrossNodes)
  (key_hashes.data(), key_hashes.size(), mixed_.get(), n_, out.data());
}

}  // namespace simd

namespace {

class SimdNodesTable final : public OwnerTable {
 public:
  explicit SimdNodesTable(const NodeSet& nodes) : simd_(rendezvous_seeds(nodes)) {}
  explicit SimdNodesTable(std::span<const uint64_t> seeds) : simd_(seeds) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    simd_.owners_across_nodes(h, out);
  }
  std::size_t memory_bytes() const noexcept override { return simd_.memory_bytes(); }

 private:
  simd::RendezvousSimd simd_;
};

std::unique_ptr<OwnerTable> build(const NodeSet& nodes) {
  return std::make_unique<SimdNodesTable>(nodes);
}

}  // namespace

constinit const KernelInfo registry::hrw_simd_nodes{
    .scheme = Scheme::kRendezvous,
    .name = "simd_nodes",
    .summary = "one key, node seeds in lanes, max-reduction (Highway)",
    .simd = true,
    .rival = &registry::hrw_scalar,
    .baseline = false,
    .rank = 20,
    .knob = nullptr,
    .make = &glue::make_with<registry::hrw_simd_nodes, build>,
    .table_bytes = &simd::rendezvous_simd_bytes,
    .make_over_seeds = &glue::make_over_seeds<SimdNodesTable>,
};

}  // namespace chbench

#endif  // HWY_ONCE
