// multiprobe/simd: multi-probe with a vector of keys in lanes, each probe
// located through the bucket index with gathers (MultiprobeIndex,
// multiprobe.h), for every Highway target, and its registry entry.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/multiprobe/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "chbench/multiprobe/multiprobe.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Keys [0, count), U vectors of keys at a time, probe j of every lane in
// step (probe 0 is the key, probe j the fmix64 of key + j * gamma). A probe gathers its
// bucket's start and the token there, then every lane whose token is still
// below its probe moves one position on and gathers again, until none is
// (the sentinel stops a lane at n), all U vectors in step. The lane's best distance is replaced
// only by a strictly smaller one: the earlier probe keeps a tie. Distances are compared through
// ToOrdered (unsigned order).
void MultiprobeKeys(const MultiprobeIndex& x, const uint64_t* HWY_RESTRICT keys, std::size_t count,
                    uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const DI64 di;
  const std::size_t lanes = hn::Lanes(d);
  const VI64 past_last = hn::Set(di, static_cast<int64_t>(x.n));
  const V64 first = hn::Set(d, x.first);
  const V64 gamma = hn::Set(d, kMultiprobeGamma);
  const int shift = static_cast<int>(x.shift);
  ForEachBlock<4>(d, keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    CHBENCH_VECTORS(V64, probe, U);
    CHBENCH_VECTORS(V64, input, U);
    CHBENCH_VECTORS(VI64, pos, U);
    CHBENCH_VECTORS(V64, token, U);
    CHBENCH_VECTORS(VI64, best, U);
    CHBENCH_VECTORS(VI64, best_pos, U);
    for (std::size_t u = 0; u < U; ++u) {
      probe(u) = hn::LoadU(d, k + u * lanes);
      input(u) = probe(u);
      best(u) = hn::Zero(di);  // probe 0 replaces both
      best_pos(u) = hn::Zero(di);
    }
    for (uint32_t j = 0; j < x.probes; ++j) {
      for (std::size_t u = 0; u < U; ++u) {
        pos(u) = hn::GatherIndex(di, x.start.get(),
                                 hn::BitCast(di, hn::ShiftRightSame(probe(u), shift)));
        token(u) = hn::GatherIndex(d, x.scan.get(), pos(u));
      }
      // The U vectors step on together, so that their gathers are in
      // flight at once; one branch a step for all of them.
      for (bool more = true; more;) {
        more = false;
        for (std::size_t u = 0; u < U; ++u) {
          const auto below = hn::Lt(ToOrdered(token(u)), ToOrdered(probe(u)));
          more |= !hn::AllFalse(di, below);
          pos(u) = hn::Sub(pos(u), hn::VecFromMask(di, below));  // + 1 where below
        }
        if (!more) break;
        for (std::size_t u = 0; u < U; ++u) token(u) = hn::GatherIndex(d, x.scan.get(), pos(u));
      }
      for (std::size_t u = 0; u < U; ++u) {
        const V64 succ =
            hn::IfThenElse(hn::RebindMask(d, hn::Eq(pos(u), past_last)), first, token(u));
        const VI64 distance = ToOrdered(hn::Sub(succ, probe(u)));
        const auto closer = j == 0 ? hn::FirstN(di, lanes) : hn::Lt(distance, best(u));
        best(u) = hn::IfThenElse(closer, distance, best(u));
        best_pos(u) = hn::IfThenElse(closer, pos(u), best_pos(u));
        input(u) = hn::Add(input(u), gamma);
        probe(u) = Fmix64(input(u));
      }
    }
    HWY_ALIGN int64_t at[kMaxLanes64];
    for (std::size_t u = 0; u < U; ++u) {
      hn::Store(best_pos(u), di, at);
      for (std::size_t i = 0; i < lanes; ++i)
        o[u * lanes + i] = x.owners[static_cast<std::size_t>(at[i])];
    }
  });
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <span>

#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {

HWY_EXPORT(MultiprobeKeys);

// multiprobe/simd's batch (MultiprobeBatch) on the dispatched target.
void multiprobe_owners(const MultiprobeIndex& index, std::span<const uint64_t> h,
                       std::span<uint32_t> out) {
  glue::check_sizes(h, out);
  HWY_DYNAMIC_DISPATCH(MultiprobeKeys)(index, h.data(), h.size(), out.data());
}

}  // namespace simd

constinit const KernelInfo registry::multiprobe_simd{
    .scheme = Scheme::kMultiprobe,
    .name = "simd",
    .summary = "keys in lanes, each probe through the bucket index with gathers (Highway)",
    .simd = true,
    .rival = "scalar",
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &multiprobe_make<registry::multiprobe_simd, &simd::multiprobe_owners>,
    .table_bytes = &multiprobe_index_bytes,
    .make_over_ring = nullptr,
};

}  // namespace chbench

#endif  // HWY_ONCE
