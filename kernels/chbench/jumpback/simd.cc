// jumpback/simd: JumpBackHash with the keys in lanes (jumpback/lanes-inl.h),
// for every Highway target: the dispatch of both schemes, over SplitMix64
// (this kernel, its registry entry below) and over XorshiftL7R9 (the kernel
// jumpback_xorshift/simd, whose file holds only its registry entry), one
// translation unit for both.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/jumpback/simd.cc"
#define CHBENCH_WANT_AVX512CD    // simd_ops-inl.h: LeadingZeros32 in LowMask (SplitMix64)
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "chbench/jumpback/lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

void JumpBackSplitMix64Keys(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t n,
                            uint32_t* HWY_RESTRICT out) {
  JumpBackLanes<SplitMix64Lanes>(keys, count, n, out);
}

void JumpBackXorshiftL7R9Keys(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t n,
                              uint32_t* HWY_RESTRICT out) {
  JumpBackLanes<XorshiftL7R9Lanes>(keys, count, n, out);
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include "chbench/jumpback/jumpback.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {

HWY_EXPORT(JumpBackSplitMix64Keys);
HWY_EXPORT(JumpBackXorshiftL7R9Keys);

void jumpback_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                     std::span<uint32_t> out) {
  check_jumpback_batch(key_hashes, num_buckets, out);
  HWY_DYNAMIC_DISPATCH(JumpBackSplitMix64Keys)
  (key_hashes.data(), key_hashes.size(), num_buckets, out.data());
}

void jumpback_xorshift_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                              std::span<uint32_t> out) {
  check_jumpback_batch(key_hashes, num_buckets, out);
  HWY_DYNAMIC_DISPATCH(JumpBackXorshiftL7R9Keys)
  (key_hashes.data(), key_hashes.size(), num_buckets, out.data());
}

}  // namespace simd

using JumpBackSimd = JumpBackTable<&simd::jumpback_owners>;

constinit const KernelInfo registry::jumpback_simd{
    .scheme = Scheme::kJumpBack,
    .name = "simd",
    .summary = "keys in lanes, buckets in 32-bit lanes, masked draws (Highway)",
    .simd = true,
    .rival = &registry::jumpback_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::jumpback_simd, JumpBackSimd, kJumpBackMaxBuckets>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench

#endif  // HWY_ONCE
