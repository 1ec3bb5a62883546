// ring/simd_branchless: branchless binary search with a vector of keys in
// lanes and gathers (simd_branchless.h), for every Highway target, and its
// registry entry.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/ring/simd_branchless.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstdint>

#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// The search is bound by its gathers. Its first probes hit few distinct
// tokens, so it gains from AVX-512's 512-bit gathers (11.7 ns/key vs AVX2's
// 12.9 at 65,500 tokens on this AMD CPU) and searches the sorted tokens eight
// lanes at a time there (simd_eytzinger.cc descends four at a time).

// Position of the first token >= x, for U vectors of keys at once: the
// halvings depend only on n, so all lanes step together, and the U chains of
// gathers overlap their latencies. `tokens` are ToOrdered (top bit flipped).
// Owners are looked up per lane from the positions.
void RingBranchlessKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                        const int64_t* HWY_RESTRICT tokens, std::size_t n,
                        const uint32_t* HWY_RESTRICT owners, uint32_t* HWY_RESTRICT out) {
  const DI64 di;
  const hn::RebindToUnsigned<decltype(di)> d;
  const std::size_t lanes = hn::Lanes(di);
  ForEachBlock<4>(d, keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    CHBENCH_VECTORS(VI64, x, U);
    CHBENCH_VECTORS(VI64, base, U);
    for (std::size_t u = 0; u < U; ++u) {
      x(u) = ToOrdered(hn::LoadU(d, k + u * lanes));
      base(u) = hn::Zero(di);
    }
    for (std::size_t len = n; len > 1;) {
      const std::size_t half = len / 2;
      const VI64 probe_offset = hn::Set(di, static_cast<int64_t>(half - 1));
      const VI64 step = hn::Set(di, static_cast<int64_t>(half));
      for (std::size_t u = 0; u < U; ++u) {
        const VI64 probe = hn::GatherIndex(di, tokens, hn::Add(base(u), probe_offset));
        base(u) = hn::Add(base(u), hn::IfThenElseZero(hn::Lt(probe, x(u)), step));
      }
      len -= half;
    }
    HWY_ALIGN int64_t pos[U * kMaxLanes64];
    for (std::size_t u = 0; u < U; ++u) {
      const VI64 last = hn::GatherIndex(di, tokens, base(u));
      // A true mask is all ones (-1): subtracting it adds 1.
      hn::Store(hn::Sub(base(u), hn::VecFromMask(di, hn::Lt(last, x(u)))), di, pos + u * lanes);
    }
    for (std::size_t i = 0; i < U * lanes; ++i) o[i] = owners[pos[i]];
  });
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <memory>

#include "chbench/registry.h"
#include "chbench/ring/simd_branchless.h"
#include "chbench/ring/table.h"

namespace chbench {

namespace simd {

HWY_EXPORT(RingBranchlessKeys);

RingSimdBranchless::RingSimdBranchless(const SortedRing<uint64_t>& ring)
    : n_(glue::checked_size(ring)),
      biased_(allocate_table<int64_t>(n_)),
      owners_(allocate_table<uint32_t>(n_ + 1)) {
  for (std::size_t i = 0; i < n_; ++i) biased_[i] = glue::ordered(ring.tokens[i]);
  for (std::size_t i = 0; i <= n_; ++i) owners_[i] = ring.owners[i];
}

void RingSimdBranchless::owners(std::span<const uint64_t> key_hashes,
                                std::span<uint32_t> out) const {
  glue::check_sizes(key_hashes, out);
  HWY_DYNAMIC_DISPATCH(RingBranchlessKeys)
  (key_hashes.data(), key_hashes.size(), biased_.get(), n_, owners_.get(), out.data());
}

}  // namespace simd

namespace {

std::unique_ptr<OwnerTable> build(const NodeSet& nodes) {
  return std::make_unique<glue::RingSimdTable<simd::RingSimdBranchless>>(nodes);
}

std::unique_ptr<OwnerTable> build(const SortedRing<uint64_t>& ring) {
  return std::make_unique<glue::RingSimdTable<simd::RingSimdBranchless>>(ring);
}

}  // namespace

constinit const KernelInfo registry::ring_simd_branchless{
    .scheme = Scheme::kRing,
    .name = "simd_branchless",
    .summary = "branchless binary search, keys in lanes, gathers (Highway)",
    .simd = true,
    .rival = &registry::ring_branchless,
    .baseline = true,
    .rank = 60,
    .knob = nullptr,
    .make = &glue::ring_make_with<registry::ring_simd_branchless, build>,
    .table_bytes = &glue::ring_bytes<12>,
    .make_over_ring = &glue::ring_over_with<registry::ring_simd_branchless, build>,
};

}  // namespace chbench

#endif  // HWY_ONCE
