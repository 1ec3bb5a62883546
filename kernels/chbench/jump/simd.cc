// jump/simd: jump consistent hash with the keys in lanes (jump.h), for every
// Highway target, and its registry entry. Compiled with -ffp-contract=off
// (kernels/CMakeLists.txt), as jump/lanes-inl.h requires.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/jump/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "chbench/jump/lanes-inl.h"
#include "chbench/simd_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// The keys of each block in lanes (jump/lanes-inl.h), their buckets stored
// as 32-bit owners.
void JumpKeys(const uint64_t* HWY_RESTRICT keys, std::size_t count, uint32_t num_buckets,
              uint32_t* HWY_RESTRICT out) {
  const std::size_t lanes = hn::Lanes(D64());
  ForEachBlock<4>(D64(), keys, count, out, [&]<std::size_t U>(const uint64_t* k, uint32_t* o) {
    JumpLanes<U>(k, num_buckets, [&](std::size_t u, V64 bits) { StoreLow32(bits, o + u * lanes); });
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
    .rival = &registry::jump_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &glue::make_over_count<registry::jump_simd, JumpSimdTable, kJumpMaxBuckets>,
    .table_bytes = &glue::no_bytes,
};

}  // namespace chbench

#endif  // HWY_ONCE
