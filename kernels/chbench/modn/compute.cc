// The compute floor, listed as kernel "modn/compute" (scheme.h:
// compute_floor()): per key one multiply-xorshift round and a multiply-shift
// into [0, N), keys in lanes for every Highway target (floors.h has the scalar
// formula every target matches). It lives beside mod-N because it is mod-N's
// kind of placement, hash then bucket by N alone, with the division replaced
// by the cheapest reduction: the bound under the schemes that place keys by
// the bucket count, and, like them, built from the bucket count alone.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/modn/compute.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "chbench/floors.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// out[i] = floors::compute_owner(keys[i], n), four vectors a block.
void ComputeFloorKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t n,
                      uint32_t* HWY_RESTRICT out) {
  const D64 du;
  const std::size_t lanes = hn::Lanes(du);
  const V64 buckets = hn::Set(du, n);
  const V64 low32 = hn::Set(du, 0xffffffffu);
  ForEachBlock<4>(du, keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    for (std::size_t u = 0; u < U; ++u) {
      V64 h = MulConst64(hn::LoadU(du, k + u * lanes), floors::kComputeMultiplier);
      h = hn::Xor(h, hn::ShiftRight<32>(h));
      StoreLow32(hn::ShiftRight<32>(Mul32x32(hn::And(h, low32), buckets)), o + u * lanes);
    }
  });
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <memory>
#include <span>

#include "chbench/kernel_glue.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {
HWY_EXPORT(ComputeFloorKeys);
}  // namespace simd

namespace {

class ComputeFloorTable final : public OwnerTable {
 public:
  explicit ComputeFloorTable(uint32_t n) : n_(n) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    glue::check_sizes(h, out);
    HWY_DYNAMIC_DISPATCH(simd::ComputeFloorKeys)(h.data(), h.size(), n_, out.data());
  }
  uint32_t owner(uint64_t h) const override { return floors::compute_owner(h, n_); }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

constinit const KernelInfo kCompute{
    .scheme = Scheme::kModN,
    .name = "compute",
    .summary =
        "no lookup: one multiply-xorshift and a multiply-shift into [0, N) a key, keys in "
        "lanes (the compute floor)",
    .simd = true,
    .baseline = false,
    .rank = -1,
    .knob = nullptr,
    .make = &glue::make_over_count<kCompute, ComputeFloorTable, 0xffffffffu>,
    .table_bytes = &glue::no_bytes,
    .floor = "compute",
};

}  // namespace

const KernelInfo& compute_floor() noexcept { return kCompute; }

}  // namespace chbench

#endif  // HWY_ONCE
