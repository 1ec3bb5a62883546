// hrw/simd_keys: rendezvous with vectors of keys in lanes and a loop over the
// nodes (RendezvousSimd::owners_across_keys, rendezvous_simd.h), for every Highway
// target, and its registry entry.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/hrw/simd_keys.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>

#include "chbench/hrw/score-inl.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// From this many nodes on, the groups of kNodeGroup nodes save more than the
// rescoring of one group per key costs (on AVX3, this machine: equal near 128
// nodes).
inline constexpr uint32_t kGroupsFrom = 128;

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
// equal scores, as docs/spec.md §7 asks. `mixed` holds n entries rounded up to a
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

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <memory>

#include "chbench/hrw/hrw.h"
#include "chbench/hrw/rendezvous_simd.h"
#include "chbench/hrw/replicas.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {

HWY_EXPORT(HrwAcrossKeys);

void RendezvousSimd::owners_across_keys(std::span<const uint64_t> key_hashes,
                                        std::span<uint32_t> out) const {
  glue::check_sizes(key_hashes, out);
  HWY_DYNAMIC_DISPATCH(HrwAcrossKeys)
  (key_hashes.data(), key_hashes.size(), mixed_.get(), n_, out.data());
}

}  // namespace simd

namespace {

class SimdKeysTable final : public OwnerTable {
 public:
  explicit SimdKeysTable(const NodeSet& nodes) : simd_(rendezvous_seeds(nodes)) {}
  explicit SimdKeysTable(std::span<const uint64_t> seeds) : simd_(seeds) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    simd_.owners_across_keys(h, out);
  }
  std::size_t memory_bytes() const noexcept override { return simd_.memory_bytes(); }

 private:
  simd::RendezvousSimd simd_;
};

std::unique_ptr<OwnerTable> build(const NodeSet& nodes) {
  return std::make_unique<SimdKeysTable>(nodes);
}

}  // namespace

constinit const KernelInfo registry::hrw_simd_keys{
    .scheme = Scheme::kRendezvous,
    .name = "simd_keys",
    .summary = "keys in lanes, loop over nodes (Highway)",
    .simd = true,
    .rival = &registry::hrw_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &glue::make_with<registry::hrw_simd_keys, build>,
    .table_bytes = &simd::rendezvous_simd_bytes,
    .make_over_seeds = &glue::make_over_seeds<SimdKeysTable>,
    .make_replicas = &hrw_simd_replicas,
};

}  // namespace chbench

#endif  // HWY_ONCE
