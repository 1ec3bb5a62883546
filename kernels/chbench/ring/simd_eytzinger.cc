// ring/simd_eytzinger: Eytzinger descent with a vector of keys in lanes and
// gathers (simd_eytzinger.h), for every Highway target, and its registry
// entry.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/ring/simd_eytzinger.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <bit>
#include <cstdint>

#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Both SIMD ring searches (this one and simd_branchless.cc) are bound by
// their gathers. On this AMD CPU the Eytzinger descent ran slower with
// 512-bit gathers than with 256-bit ones (AVX3 11.8 ns/key, AVX2 9.7 ns/key
// at 65,500 tokens), while the binary search, whose first probes hit few
// distinct tokens, gained from them (11.7 vs 12.9). So AVX-512 targets
// descend the Eytzinger tree four 64-bit lanes at a time (keeping AVX-512's
// compares and masks) and search the sorted tokens eight at a time. The
// descent also keeps 8 vectors of keys in flight and prefetches each lane's
// descendants, as the scalar RingEytzinger does: at 1M tokens and more the
// searches wait on memory, not on instructions.
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
using DEytzinger = hn::CappedTag<int64_t, 4>;
#else
using DEytzinger = DI64;
#endif
using VEytzinger = hn::Vec<DEytzinger>;

// Prefetches the 64-byte line holding the descendants of node k three levels
// down (slots 8k ... 8k + 7 of a 64-byte aligned table, as allocate_table
// gives), so that it is in L1 when the descent reaches them: the scalar
// RingEytzinger's prefetch, one per lane. Lines past the table's end are
// never prefetched (the caller clamps k to n / 8, in vectors): a prefetch does not
// fault, but where memory is mapped past the end it fetches real lines and
// evicts the table (see RingEytzinger::prefetch). The address is formed as an
// integer, keeping the pointer arithmetic in range.
HWY_INLINE void PrefetchDescendants(const int64_t* tokens, int64_t line) {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(tokens) +
                                                   static_cast<std::uintptr_t>(line) * 64));
}

// Eytzinger descent for U vectors of keys over `tokens` (ToOrdered, BFS order,
// slots 1 ... n). The complete levels never leave the tree. On the last,
// partial level a path already past n reads slot n instead (a clamp, so the
// gather stays inside the array) and takes the right branch whatever it read:
// 2k + 1 then drops one more trailing 1 and leaves the same answer as
// stopping at k, as the scalar RingEytzinger does.
void RingEytzingerKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count,
                       const int64_t* HWY_RESTRICT tokens, std::size_t n, unsigned levels,
                       const uint32_t* HWY_RESTRICT owners, uint32_t* HWY_RESTRICT out) {
  const DEytzinger di;
  const hn::RebindToUnsigned<decltype(di)> d;
  const std::size_t lanes = hn::Lanes(di);
  const VEytzinger size = hn::Set(di, static_cast<int64_t>(n));
  const VEytzinger last_line = hn::Set(di, static_cast<int64_t>(n / 8));
  ForEachBlock<8>(d, keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    CHBENCH_VECTORS(VEytzinger, x, U);
    CHBENCH_VECTORS(VEytzinger, node, U);
    for (std::size_t u = 0; u < U; ++u) {
      x(u) = ToOrdered(hn::LoadU(d, k + u * lanes));
      node(u) = hn::Set(di, 1);
    }
    for (unsigned level = 0; level < levels; ++level) {
      HWY_ALIGN int64_t next[U * kMaxLanes64];
      for (std::size_t u = 0; u < U; ++u) {
        const VEytzinger t = hn::GatherIndex(di, tokens, node(u));
        // 2k + (t < x): the mask is -1 where true.
        node(u) = hn::Sub(hn::Add(node(u), node(u)), hn::VecFromMask(di, hn::Lt(t, x(u))));
        hn::Store(hn::Min(node(u), last_line), di, next + u * lanes);
      }
      for (std::size_t i = 0; i < U * lanes; ++i) PrefetchDescendants(tokens, next[i]);
    }
    HWY_ALIGN int64_t path[U * kMaxLanes64];
    for (std::size_t u = 0; u < U; ++u) {
      const VEytzinger t = hn::GatherIndex(di, tokens, hn::Min(node(u), size));
      const auto right = hn::Or(hn::Lt(t, x(u)), hn::Gt(node(u), size));
      hn::Store(hn::Sub(hn::Add(node(u), node(u)), hn::VecFromMask(di, right)), di,
                path + u * lanes);
    }
    for (std::size_t i = 0; i < U * lanes; ++i) {
      const uint64_t p = static_cast<uint64_t>(path[i]);
      // Drop the trailing ones and the zero above them: the last left turn.
      o[i] = owners[p >> (std::countr_one(p) + 1)];
    }
  });
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <bit>
#include <memory>
#include <vector>

#include "chbench/registry.h"
#include "chbench/ring/simd_eytzinger.h"
#include "chbench/ring/table.h"

namespace chbench {

namespace simd {

HWY_EXPORT(RingEytzingerKeys);

RingSimdEytzinger::RingSimdEytzinger(const SortedRing<uint64_t>& ring)
    : n_(glue::checked_size(ring)),
      levels_(static_cast<unsigned>(std::bit_width(n_ + 1) - 1)),
      biased_(allocate_table<int64_t>(n_ + 1)),
      owners_(allocate_table<uint32_t>(n_ + 1)) {
  biased_[0] = 0;  // never read
  owners_[0] = ring.owners.front();
  // In-order walk of the implicit tree (children 2k, 2k + 1) hands out the
  // sorted positions; an explicit stack, as the tree can be 2^32 nodes.
  std::vector<std::size_t> stack;
  std::size_t next = 0;
  for (std::size_t k = 1; k <= n_ || !stack.empty();) {
    if (k <= n_) {
      stack.push_back(k);
      k = 2 * k;
      continue;
    }
    k = stack.back();
    stack.pop_back();
    biased_[k] = glue::ordered(ring.tokens[next]);
    owners_[k] = ring.owners[next];
    ++next;
    k = 2 * k + 1;
  }
}

void RingSimdEytzinger::owners(std::span<const uint64_t> key_hashes,
                               std::span<uint32_t> out) const {
  glue::check_sizes(key_hashes, out);
  HWY_DYNAMIC_DISPATCH(RingEytzingerKeys)
  (key_hashes.data(), key_hashes.size(), biased_.get(), n_, levels_, owners_.get(), out.data());
}

}  // namespace simd

namespace {

std::unique_ptr<OwnerTable> build(const NodeSet& nodes) {
  return std::make_unique<glue::RingSimdTable<simd::RingSimdEytzinger>>(nodes);
}

std::unique_ptr<OwnerTable> build(const SortedRing<uint64_t>& ring) {
  return std::make_unique<glue::RingSimdTable<simd::RingSimdEytzinger>>(ring);
}

}  // namespace

constinit const KernelInfo registry::ring_simd_eytzinger{
    .scheme = Scheme::kRing,
    .name = "simd_eytzinger",
    .summary = "Eytzinger descent, keys in lanes, gathers (Highway)",
    .simd = true,
    .rival = &registry::ring_eytzinger,
    .baseline = false,
    .rank = 40,
    .knob = nullptr,
    .make = &glue::ring_make_with<registry::ring_simd_eytzinger, build>,
    .table_bytes = &glue::ring_bytes<12>,
    .make_over_ring = &glue::ring_over_with<registry::ring_simd_eytzinger, build>,
};

}  // namespace chbench

#endif  // HWY_ONCE
