// modn/simd: an exact h % N by a reciprocal multiply, keys in lanes (modn.h),
// for every Highway target, and its registry entry.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/modn/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Remainder of the two-word number hi * 2^32 + lo by the normalised divisor d
// (2^31 <= d < 2^32), given hi < d and v = floor((2^64 - 1) / d) - 2^32: Moller
// & Granlund 2011, algorithm 4, with 32-bit words held in 64-bit lanes. The
// quotient estimate q1 is off by at most one either way; the two corrections
// fix the remainder (the first is the likely one, both are selects here).
HWY_INLINE V64 Rem2By1(V64 hi, V64 lo, V64 d, V64 v) {
  const D64 du;
  const DI64 di;
  const V64 low32 = hn::Set(du, 0xffffffffu);
  // (q1, q0) = v * hi + (hi, lo), a two-word sum taken mod 2^64.
  const V64 q = hn::Add(Mul32x32(v, hi), hn::Or(hn::ShiftLeft<32>(hi), lo));
  const V64 q1 = hn::And(hn::Add(hn::ShiftRight<32>(q), hn::Set(du, 1)), low32);
  const V64 q0 = hn::And(q, low32);
  // r = (lo - q1 * d) mod 2^32. Every value below is < 2^32, so the signed
  // 64-bit compare orders them as unsigned words.
  V64 r = hn::And(hn::Sub(lo, Mul32x32(q1, d)), low32);
  const auto over = hn::Gt(hn::BitCast(di, r), hn::BitCast(di, q0));
  r = hn::IfThenElse(hn::RebindMask(du, over), hn::And(hn::Add(r, d), low32), r);
  const auto small = hn::Lt(hn::BitCast(di, r), hn::BitCast(di, d));
  return hn::IfThenElse(hn::RebindMask(du, small), r, hn::Sub(r, d));
}

// h % n for every lane: shift = number of leading zeros of n as a 32-bit word,
// d = n << shift, v its reciprocal (Rem2By1). The dividend h << shift has three
// words (top, mid, low); two 2-by-1 steps give (h << shift) mod d, which is
// (h mod n) << shift.
void ModNKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t divisor_d,
              uint32_t reciprocal, int shift, uint32_t* HWY_RESTRICT out) {
  const D64 du;
  const std::size_t lanes = hn::Lanes(du);
  const V64 d = hn::Set(du, divisor_d);
  const V64 v = hn::Set(du, reciprocal);
  const V64 low32 = hn::Set(du, 0xffffffffu);
  // top = h >> (64 - shift), written so that shift == 0 gives 0.
  const int top_shift = 63 - shift;
  ForEachBlock<2>(du, keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    for (std::size_t u = 0; u < U; ++u) {
      const V64 h = hn::LoadU(du, k + u * lanes);
      const V64 top = hn::ShiftRightSame(hn::ShiftRight<1>(h), top_shift);
      const V64 shifted = hn::ShiftLeftSame(h, shift);
      const V64 r = Rem2By1(top, hn::ShiftRight<32>(shifted), d, v);
      const V64 rem = Rem2By1(r, hn::And(shifted, low32), d, v);
      StoreLow32(hn::ShiftRightSame(rem, shift), o + u * lanes);
    }
  });
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <bit>
#include <memory>
#include <stdexcept>

#include "chbench/kernel_glue.h"
#include "chbench/modn/modn.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace simd {

HWY_EXPORT(ModNKeys);

void mod_n_owners(std::span<const uint64_t> key_hashes, uint32_t n, std::span<uint32_t> out) {
  if (n == 0) throw std::invalid_argument("mod-N needs N >= 1");
  if (key_hashes.size() != out.size())
    throw std::invalid_argument("key hashes and owners differ in length");
  const int shift = std::countl_zero(n);
  const uint32_t d = n << shift;
  const auto reciprocal = static_cast<uint32_t>(~uint64_t{0} / d - (uint64_t{1} << 32));
  HWY_DYNAMIC_DISPATCH(ModNKeys)
  (key_hashes.data(), key_hashes.size(), d, reciprocal, shift, out.data());
}

}  // namespace simd

namespace {

class ModNSimdTable final : public OwnerTable {
 public:
  explicit ModNSimdTable(uint32_t n) : n_(n) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    simd::mod_n_owners(h, n_, out);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t n_;
};

}  // namespace

constinit const KernelInfo registry::modn_simd{
    .scheme = Scheme::kModN,
    .name = "simd",
    .summary = "exact reciprocal-multiply remainder, keys in lanes (Highway)",
    .simd = true,
    .rival = &registry::modn_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::modn_simd, ModNSimdTable, 0xffffffffu>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench

#endif  // HWY_ONCE
