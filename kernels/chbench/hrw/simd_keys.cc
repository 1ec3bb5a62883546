// SIMD rendezvous (HRW) kernels: across nodes and across keys (see
// chbench/simd.h). Highway compiles the HWY_NAMESPACE part once per target;
// the HWY_ONCE part holds the dispatch tables and the public classes.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/hrw/simd_keys.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>

#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Number of nodes HrwAcrossKeys scores before it compares with the running
// best: their maximum goes through one compare-and-select instead of four.
inline constexpr std::size_t kNodeGroup = 4;
static_assert(kNodeGroup == 4, "HrwAcrossKeysGrouped multiplies by it with ShiftLeft<2>");

// From this many nodes on, the groups save more than the rescoring of one
// group per key costs (on AVX3, this machine: equal near 128 nodes).
inline constexpr uint32_t kGroupsFrom = 128;
// The same for HrwAcrossNodes, whose rescoring is per key, not per vector of
// keys (equal near 512 nodes).
inline constexpr uint32_t kGroupsAcrossNodesFrom = 512;

// Across keys, one node at a time: each score is compared with the lane's
// best at once (strictly greater replaces, so the lower index keeps a tie).
// Cheaper than the groups below for small N, where their final rescoring of
// one group per key (with gathers) would cost more than it saves.
HWY_NOINLINE void HrwAcrossKeysEach(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                                    const uint64_t* HWY_RESTRICT mixed, uint32_t n,
                                    uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const DI64 di;
  const std::size_t lanes = hn::Lanes(d);
  ForEachBlock<4>(d, keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    CHBENCH_VECTORS(V64, key, U);
    CHBENCH_VECTORS(VI64, best, U);
    CHBENCH_VECTORS(VI64, owner, U);
    const V64 seed0 = hn::Set(d, mixed[0]);
    for (std::size_t u = 0; u < U; ++u) {
      key(u) = XorShift33(hn::LoadU(d, k + u * lanes));
      best(u) = ScoreFromMixed(hn::Xor(key(u), seed0));
      owner(u) = hn::Zero(di);
    }
    // The node index counted up in a register, so the select is a move.
    VI64 index = hn::Zero(di);
    const VI64 one = hn::Set(di, 1);
    for (uint32_t node = 1; node < n; ++node) {
      const V64 seed = hn::Set(d, mixed[node]);
      index = hn::Add(index, one);
      for (std::size_t u = 0; u < U; ++u) {
        const VI64 w = ScoreFromMixed(hn::Xor(key(u), seed));
        const auto better = hn::Gt(w, best(u));
        best(u) = hn::IfThenElse(better, w, best(u));
        owner(u) = hn::IfThenElse(better, index, owner(u));
      }
    }
    for (std::size_t u = 0; u < U; ++u) StoreLow32(owner(u), o + u * lanes);
  });
}

// Across keys in groups of nodes: as HrwAcrossKeysEach, but the nodes go in
// groups of kNodeGroup whose highest score (Max, one instruction each) meets
// the lane's best in one compare-and-select instead of four. The group
// replaces the best only if strictly greater, so the first group holding the
// maximum keeps it, and the lane remembers that group; afterwards the first
// node of the group reaching the maximum is the owner: the lowest index among
// equal scores, as SPEC.md asks. `mixed` holds n entries rounded up to a
// multiple of kNodeGroup (RendezvousSimd pads to 256), the padding repeating
// node 0: a padded node ties with node 0, whose earlier group keeps the key.
HWY_NOINLINE void HrwAcrossKeysGrouped(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                                       const uint64_t* HWY_RESTRICT mixed, uint32_t n,
                                       uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const DI64 di;
  const std::size_t lanes = hn::Lanes(d);
  const std::size_t groups = (n + kNodeGroup - 1) / kNodeGroup;
  ForEachBlock<4>(d, keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    CHBENCH_VECTORS(V64, key, U);
    CHBENCH_VECTORS(VI64, best, U);
    CHBENCH_VECTORS(VI64, group, U);
    const VI64 one = hn::Set(di, 1);
    VI64 index = hn::Zero(di);  // the group number, counted up in a register
    for (std::size_t u = 0; u < U; ++u) {
      key(u) = XorShift33(hn::LoadU(d, k + u * lanes));
      // Below every score but 0 (ordered to INT64_MIN): a group replaces it,
      // or every score is 0 and group 0 holds the first of them.
      best(u) = hn::Set(di, INT64_MIN);
      group(u) = index;
    }
    for (std::size_t g = 0; g < groups; ++g) {
      const uint64_t* seeds = mixed + g * kNodeGroup;
      const V64 s0 = hn::Set(d, seeds[0]), s1 = hn::Set(d, seeds[1]);
      const V64 s2 = hn::Set(d, seeds[2]), s3 = hn::Set(d, seeds[3]);
      for (std::size_t u = 0; u < U; ++u) {
        const VI64 top = TopScoreOfFour(key(u), s0, s1, s2, s3);
        // Strictly greater: an equal score keeps the earlier group.
        const auto better = hn::Gt(top, best(u));
        best(u) = hn::IfThenElse(better, top, best(u));
        group(u) = hn::IfThenElse(better, index, group(u));
      }
      index = hn::Add(index, one);
    }
    // Rescore the winning group per lane (its seeds gathered) and take its
    // first node that reaches the best score; the last one if none before.
    for (std::size_t u = 0; u < U; ++u) {
      const VI64 first = hn::ShiftLeft<2>(group(u));  // group * kNodeGroup
      VI64 owner = hn::Add(first, hn::Set(di, static_cast<int64_t>(kNodeGroup - 1)));
      for (std::size_t j = kNodeGroup - 1; j-- > 0;) {
        const VI64 node = hn::Add(first, hn::Set(di, static_cast<int64_t>(j)));
        const V64 seed = hn::GatherIndex(d, mixed, node);
        const auto hit = hn::Eq(ScoreFromMixed(hn::Xor(key(u), seed)), best(u));
        owner = hn::IfThenElse(hit, node, owner);
      }
      StoreLow32(owner, o + u * lanes);
    }
  });
}

// Across keys (RendezvousSimd::owners_across_keys): node groups from
// kGroupsFrom nodes up, where they pay for their final rescoring.
void HrwAcrossKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                   const uint64_t* HWY_RESTRICT mixed, uint32_t n, uint32_t* HWY_RESTRICT out) {
  if (n >= kGroupsFrom)
    HrwAcrossKeysGrouped(keys, count, mixed, n, out);
  else
    HrwAcrossKeysEach(keys, count, mixed, n, out);
}

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

#include <stdexcept>

#include "chbench/hrw/hrw.h"
#include "chbench/simd.h"

namespace chbench::simd {

HWY_EXPORT(HrwAcrossKeys);
HWY_EXPORT(HrwAcrossNodes);

namespace {

// The padded table must cover whole vectors of every target, whichever one runs
// (HWY_MAX_BYTES here is only the static target's) in groups of 4 vectors:
// 4 x 64 lanes of 64 bits exceed any x86, NEON or SVE vector.
constexpr std::size_t kSeedPad = 256;

void check_sizes(std::span<const uint64_t> keys, std::span<uint32_t> out) {
  if (keys.size() != out.size())
    throw std::invalid_argument("key hashes and owners differ in length");
}

}  // namespace

RendezvousSimd::RendezvousSimd(std::span<const uint64_t> seeds)
    : n_(static_cast<uint32_t>(seeds.size())) {
  if (seeds.empty()) throw std::invalid_argument("rendezvous: no node seeds");
  if (seeds.size() > 0xffffffffu)
    throw std::invalid_argument("rendezvous: more than 2^32 - 1 node seeds");
  padded_ = (seeds.size() + kSeedPad - 1) / kSeedPad * kSeedPad;
  mixed_ = allocate_table<uint64_t>(padded_);
  for (std::size_t i = 0; i < padded_; ++i) {
    const uint64_t s = seeds[i < seeds.size() ? i : 0];
    mixed_[i] = s ^ (s >> 33);
  }
}

void RendezvousSimd::owners_across_nodes(std::span<const uint64_t> key_hashes,
                                         std::span<uint32_t> out) const {
  check_sizes(key_hashes, out);
  HWY_DYNAMIC_DISPATCH(HrwAcrossNodes)
  (key_hashes.data(), key_hashes.size(), mixed_.get(), n_, out.data());
}

void RendezvousSimd::owners_across_keys(std::span<const uint64_t> key_hashes,
                                        std::span<uint32_t> out) const {
  check_sizes(key_hashes, out);
  HWY_DYNAMIC_DISPATCH(HrwAcrossKeys)
  (key_hashes.data(), key_hashes.size(), mixed_.get(), n_, out.data());
}

namespace {

template <bool kAcrossNodes>
class RendezvousSimdTable final : public OwnerTable {
 public:
  explicit RendezvousSimdTable(const NodeSet& nodes) : simd_(rendezvous_seeds(nodes)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    if constexpr (kAcrossNodes)
      simd_.owners_across_nodes(h, out);
    else
      simd_.owners_across_keys(h, out);
  }
  std::size_t memory_bytes() const noexcept override { return simd_.memory_bytes(); }

 private:
  RendezvousSimd simd_;
};

}  // namespace

std::unique_ptr<OwnerTable> build_hrw_simd_nodes(const NodeSet& nodes) {
  return std::make_unique<RendezvousSimdTable<true>>(nodes);
}

std::unique_ptr<OwnerTable> build_hrw_simd_keys(const NodeSet& nodes) {
  return std::make_unique<RendezvousSimdTable<false>>(nodes);
}

}  // namespace chbench::simd

#endif  // HWY_ONCE
