// jump/simd: jump consistent hash with the keys in lanes (jump.h), for every
// Highway target, and its registry entry. Compiled with
// -ffp-contract=off (kernels/CMakeLists.txt): the jump length must be the
// paper's IEEE division and multiplication, never a fused multiply-add.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/jump/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// The paper's LCG step: key * 2862933555777941757 + 1 (mod 2^64).
HWY_INLINE V64 LcgStep(V64 key) {
  return hn::Add(MulConst64(key, 2862933555777941757ULL), hn::Set(D64(), 1));
}

// 2^31 / double((key >> 33) + 1), as the scalar code computes it. (key >> 33)
// < 2^31 goes into the mantissa of 2^52 (exact), and subtracting 2^52 - 1
// leaves (key >> 33) + 1 exactly: no 64-bit integer conversion needed, which
// AVX2 and older lack.
HWY_INLINE VF64 JumpQuotient(V64 key) {
  const D64 d;
  const DF64 df;
  const V64 bits = hn::Or(hn::ShiftRight<33>(key), hn::Set(d, 0x4330000000000000ULL));
  const VF64 divisor = hn::Sub(hn::BitCast(df, bits), hn::Set(df, 4503599627370495.0));
  return hn::Div(hn::Set(df, 2147483648.0), divisor);
}

// Each lane holds a key, its current bucket b and its next jump j, both as
// doubles: j < num_buckets <= 2^31 - 1 on every step that continues, so b =
// trunc(j) and b + 1 are exact, and comparing the double j with num_buckets
// decides as the scalar code's int64_t j does (truncation never crosses an
// integer). A lane whose j reaches num_buckets stops: its b and j stay put
// (masks) while the other lanes of the block go on.
void JumpKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t num_buckets,
              uint32_t* HWY_RESTRICT out) {
  const D64 d;
  const DF64 df;
  const std::size_t lanes = hn::Lanes(d);
  const VF64 limit = hn::Set(df, static_cast<double>(num_buckets));
  const VF64 one = hn::Set(df, 1.0);
  ForEachBlock<4>(d, keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    CHBENCH_VECTORS(V64, key, U);
    CHBENCH_VECTORS(VF64, b, U);
    CHBENCH_VECTORS(VF64, j, U);
    // The first step always runs (j = 0 < num_buckets): b = 0 and j = 1 * q.
    for (std::size_t u = 0; u < U; ++u) {
      key(u) = LcgStep(hn::LoadU(d, k + u * lanes));
      b(u) = hn::Zero(df);
      j(u) = JumpQuotient(key(u));
    }
    for (;;) {
      CHBENCH_VECTORS(hn::Mask<DF64>, going, U);
      auto any = hn::Lt(j(0), limit);
      going(0) = any;
      for (std::size_t u = 1; u < U; ++u) {
        going(u) = hn::Lt(j(u), limit);
        any = hn::Or(any, going(u));
      }
      if (hn::AllFalse(df, any)) break;
      for (std::size_t u = 0; u < U; ++u) {
        b(u) = hn::IfThenElse(going(u), hn::Trunc(j(u)), b(u));
        key(u) = LcgStep(key(u));
        const VF64 next = hn::Mul(hn::Add(b(u), one), JumpQuotient(key(u)));
        j(u) = hn::IfThenElse(going(u), next, j(u));
      }
    }
    // b < 2^31 is an integer: adding 2^52 puts it in the low mantissa bits.
    const VF64 shift = hn::Set(df, 4503599627370496.0);
    for (std::size_t u = 0; u < U; ++u)
      StoreLow32(hn::BitCast(d, hn::Add(b(u), shift)), o + u * lanes);
  });
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <memory>
#include <stdexcept>

#include "chbench/jump/jump.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {

HWY_EXPORT(JumpKeys);

void jump_owners(std::span<const uint64_t> key_hashes, uint32_t num_buckets,
                 std::span<uint32_t> out) {
  if (num_buckets == 0 || num_buckets > kJumpMaxBuckets)
    throw std::invalid_argument("jump hash takes 1 to 2^31 - 1 buckets");
  if (key_hashes.size() != out.size())
    throw std::invalid_argument("key hashes and owners differ in length");
  HWY_DYNAMIC_DISPATCH(JumpKeys)(key_hashes.data(), key_hashes.size(), num_buckets, out.data());
}

}  // namespace simd

namespace {

class JumpSimdTable final : public OwnerTable {
 public:
  explicit JumpSimdTable(uint32_t n) : n_(n) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    simd::jump_owners(h, n_, out);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

}  // namespace

constinit const KernelInfo registry::jump_simd{
    .scheme = Scheme::kJump,
    .name = "simd",
    .summary = "keys in lanes, per-lane masks, bit-identical steps (Highway)",
    .simd = true,
    .rival = "scalar",
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::jump_simd, JumpSimdTable, kJumpMaxBuckets>,
    .table_bytes = &glue::no_bytes,
    .make_over_ring = nullptr,
};

}  // namespace chbench

#endif  // HWY_ONCE
