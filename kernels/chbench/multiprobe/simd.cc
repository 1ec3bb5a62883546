// multiprobe/simd: multi-probe with a vector of keys in lanes, each probe
// one gather of its bucket's token offsets (MultiprobeIndex::fields,
// multiprobe.h) and approximate distances, exact owners (a lane the
// approximation cannot decide goes through MultiprobeIndex::owner), for
// every Highway target, and its registry entry.
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

// The smallest of (f - op) mod 2^16 over the four 16-bit fields f of each
// lane's word, in the lane's low 16 bits (op < 2^16 in every lane).
HWY_INLINE V64 NearestField(V64 word, V64 op) {
  const D64 d;
#if HWY_TARGET == HWY_SCALAR
  V64 nearest = hn::Set(d, 0xffff);
  for (int s = 0; s < 64; s += 16)
    nearest =
        hn::Min(nearest, hn::And(hn::Sub(hn::ShiftRightSame(word, s), op), hn::Set(d, 0xffff)));
  return nearest;
#else
  const hn::Repartition<uint16_t, D64> d16;
  auto x = hn::Sub(hn::BitCast(d16, word), hn::BitCast(d16, MulConst64(op, 0x0001000100010001ULL)));
  x = hn::Min(x, hn::BitCast(d16, hn::ShiftRight<16>(hn::BitCast(d, x))));
  x = hn::Min(x, hn::BitCast(d16, hn::ShiftRight<32>(hn::BitCast(d, x))));
  return hn::And(hn::BitCast(d, x), hn::Set(d, 0xffff));
#endif
}

// Keys [0, count), two vectors in step (one on SVE). Probe p, in bucket i with fine
// offset op (its bits unit_shift and up, below the bucket's), gathers the
// bucket's fields word. Its token is the first field f >= op, and a = f - op
// is its distance in units: the exact D has a - 1 < D / 2^unit_shift < a + 1.
// Each lane keeps the two smallest a (m1 <= m2) and the code of the m1 probe.
// A lane is sure of its owner, the m1 probe's token's (field_position), when
// over all its probes
// - no field equalled op (a = 0: the order of token and probe unknown),
// - each token was among the four and within reach (a < 2^16 - 2^11: a field
//   below op wraps to at least that, a saturated one too),
// - and m2 - m1 >= 3 (then the m1 probe's D is the smallest; equal D give
//   a within 1 of each other, so a tie is never sure).
// Any other lane is resolved by MultiprobeIndex::owner, exactly: at k = 21,
// about 1.7% of keys. Two vectors: on the Zen 5 at N = 1,000 they took
// 16.6 ns/key against 18.6 for one and 17.6 for three.
void MultiprobeKeys(const MultiprobeIndex& x, const uint64_t* HWY_RESTRICT keys, std::size_t count,
                    uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const DI64 di;
  const std::size_t lanes = hn::Lanes(d);
  const V64 gamma = hn::Set(d, kMultiprobeGamma);
  const V64 fine = hn::Set(d, (uint64_t{1} << kFieldFineBits) - 1);
  const V64 one = hn::Set(d, 1);
  const VI64 near = hn::Set(di, 3);
  const int fine_bits = static_cast<int>(kFieldFineBits);
  const int unit_shift = static_cast<int>(x.unit_shift);
  const uint64_t unsure_from = 0x10000 - (uint64_t{1} << kFieldFineBits) - 1;
  ForEachBlock<2>(d, keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    CHBENCH_VECTORS(V64, probe, U);
    CHBENCH_VECTORS(V64, input, U);
    CHBENCH_VECTORS(VI64, m1, U);
    CHBENCH_VECTORS(VI64, m2, U);
    CHBENCH_VECTORS(V64, best_code, U);
    CHBENCH_VECTORS(V64, unsure, U);
    for (std::size_t u = 0; u < U; ++u) {
      probe(u) = hn::LoadU(d, k + u * lanes);
      input(u) = probe(u);
      m1(u) = hn::Set(di, INT64_MAX);
      m2(u) = m1(u);
      best_code(u) = hn::Zero(d);
      unsure(u) = hn::Zero(d);
    }
    for (uint32_t j = 0; j < x.probes; ++j) {
      for (std::size_t u = 0; u < U; ++u) {
        const V64 code = hn::ShiftRightSame(probe(u), unit_shift);  // bucket << fine_bits | op
        const VI64 bucket = hn::BitCast(di, hn::ShiftRightSame(code, fine_bits));
        const V64 word = hn::GatherIndex(d, x.fields.get(), bucket);
        const V64 a = NearestField(word, hn::And(code, fine));
        unsure(u) = hn::Max(unsure(u), hn::Sub(a, one));
        const VI64 ai = hn::BitCast(di, a);
        m2(u) = hn::Min(m2(u), hn::Max(m1(u), ai));
        const auto closer = hn::Lt(ai, m1(u));
        m1(u) = hn::IfThenElse(closer, ai, m1(u));
        best_code(u) = hn::IfThenElse(hn::RebindMask(d, closer), code, best_code(u));
        input(u) = hn::Add(input(u), gamma);
        probe(u) = Fmix64(input(u));
      }
    }
    HWY_ALIGN uint64_t codes[kMaxLanes64];
    HWY_ALIGN uint64_t flags[kMaxLanes64];
    for (std::size_t u = 0; u < U; ++u) {
      const auto tie = hn::RebindMask(d, hn::Lt(hn::Sub(m2(u), m1(u)), near));
      hn::Store(best_code(u), d, codes);
      hn::Store(hn::IfThenElse(tie, hn::Set(d, UINT64_MAX), unsure(u)), d, flags);
      for (std::size_t i = 0; i < lanes; ++i) {
        const std::size_t at = u * lanes + i;
        o[at] = flags[i] >= unsure_from ? x.owner(k[at]) : x.owners[x.field_position(codes[i])];
      }
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
    .summary =
        "keys in lanes, one gather of 16-bit token offsets a probe, approximate distances, "
        "unsure lanes exact (Highway)",
    .simd = true,
    .rival = &registry::multiprobe_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &multiprobe_make<registry::multiprobe_simd, &simd::multiprobe_owners>,
    .table_bytes = &multiprobe_index_bytes,
};

}  // namespace chbench

#endif  // HWY_ONCE
