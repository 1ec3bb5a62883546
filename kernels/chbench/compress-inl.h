// CompressLanes: the lanes of a mask moved to the front of a vector, in
// order (the other lanes unspecified), for 64-bit lanes and for 32-bit lanes
// (twice as many in a vector of the same size), per Highway target. Included
// from inside a kernel file after <hwy/foreach_target.h>, like simd_ops-inl.h.
//
// Highway 1.0.3's own Compress keeps its index tables in function-local
// constexpr arrays (64-bit lanes on AVX2 and AVX3, 32-bit lanes on AVX2 and
// the 128-bit targets), and GCC copies such a table onto the stack at every
// call: up to 2 KiB for one compressed vector. Here the tables are at
// namespace scope, built at compile time, and read in place. AVX3 uses the
// register form of vpcompressd / vpcompressq (the memory form is microcoded
// on Zen 4); SVE its own compact; the one-lane target moves nothing.
#ifndef CHBENCH_COMPRESS_TABLES_
#define CHBENCH_COMPRESS_TABLES_
#include <cstddef>
#include <cstdint>

namespace chbench::simd {

// For each mask of N lanes (bit i: lane i), the lanes set and then the others,
// in order: a permutation that TableLookupLanes applies.
template <class Index, std::size_t N>
struct CompressIndices {
  Index lane[std::size_t{1} << N][N];
};

template <class Index, std::size_t N>
constexpr CompressIndices<Index, N> MakeCompressIndices() {
  CompressIndices<Index, N> t{};
  for (std::size_t bits = 0; bits < (std::size_t{1} << N); ++bits) {
    std::size_t k = 0;
    for (std::size_t i = 0; i < N; ++i)
      if (bits >> i & 1) t.lane[bits][k++] = static_cast<Index>(i);
    for (std::size_t i = 0; i < N; ++i)
      if (!(bits >> i & 1)) t.lane[bits][k++] = static_cast<Index>(i);
  }
  return t;
}

template <class Index, std::size_t N>
inline constexpr CompressIndices<Index, N> kCompressIndices = MakeCompressIndices<Index, N>();

}  // namespace chbench::simd
#endif  // CHBENCH_COMPRESS_TABLES_

#if defined(CHBENCH_COMPRESS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CHBENCH_COMPRESS_INL_H_
#undef CHBENCH_COMPRESS_INL_H_
#else
#define CHBENCH_COMPRESS_INL_H_
#endif

#include <hwy/highway.h>

#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// The lanes of v where m is set, first and in order, through a table of
// permutations for the fixed-size targets with up to 8 lanes.
template <class D>
HWY_INLINE hn::Vec<D> CompressByTable(D d, hn::Vec<D> v, hn::Mask<D> m) {
  using Index = hwy::MakeSigned<hn::TFromD<D>>;
  constexpr std::size_t kLanes = hn::MaxLanes(D());
  static_assert(kLanes >= 2 && kLanes <= 8, "fixed-size targets of 2 to 8 lanes");
  uint8_t bits[8] = {};
  hn::StoreMaskBits(d, m, bits);
  const Index* index = kCompressIndices<Index, kLanes>.lane[bits[0] & ((1u << kLanes) - 1)];
  return hn::TableLookupLanes(v, hn::SetTableIndices(d, index));
}

// The lanes of v (64-bit) where m is set, first and in order.
HWY_INLINE V64 CompressLanes(V64 v, hn::Mask<D64> m) {
#if HWY_TARGET == HWY_SCALAR
  (void)m;
  return v;
#elif HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return V64{_mm512_maskz_compress_epi64(m.raw, v.raw)};
#elif CHBENCH_SIZELESS_VECTORS
  return hn::Compress(v, m);
#else
  return CompressByTable(D64(), v, m);
#endif
}

// The lanes of v (32-bit, as many as fit the vector of D64) where m is set,
// first and in order. Not on the one-lane target, which has no such vector.
#if HWY_TARGET != HWY_SCALAR
using DCompress32 = hn::Repartition<uint32_t, D64>;
HWY_INLINE hn::Vec<DCompress32> CompressLanes(hn::Vec<DCompress32> v, hn::Mask<DCompress32> m) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return hn::Vec<DCompress32>{_mm512_maskz_compress_epi32(m.raw, v.raw)};
#elif CHBENCH_SIZELESS_VECTORS
  return hn::Compress(v, m);
#else
  return CompressByTable(DCompress32(), v, m);
#endif
}
#endif

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // CHBENCH_COMPRESS_INL_H_
