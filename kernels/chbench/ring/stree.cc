// ring/stree: the S-tree's batch loop (stree.h, per-target code in
// stree-inl.h) dispatched for every Highway target, and its registry entry.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/ring/stree.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "chbench/ring/stree-inl.h"

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

void STreeOwners64(const STreeView<uint64_t>& tree, const uint64_t* keys, std::size_t count,
                   uint32_t* out) {
  STreeOwnersT(tree, keys, count, out);
}
void STreeOwners32(const STreeView<uint32_t>& tree, const uint32_t* keys, std::size_t count,
                   uint32_t* out) {
  STreeOwnersT(tree, keys, count, out);
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include "chbench/registry.h"
#include "chbench/ring/table.h"

namespace chbench {

namespace simd {

HWY_EXPORT(STreeOwners64);
HWY_EXPORT(STreeOwners32);

void stree_owners(const STreeView<uint64_t>& tree, std::span<const uint64_t> keys,
                  std::span<uint32_t> out) noexcept {
  HWY_DYNAMIC_DISPATCH(STreeOwners64)(tree, keys.data(), keys.size(), out.data());
}
void stree_owners(const STreeView<uint32_t>& tree, std::span<const uint32_t> keys,
                  std::span<uint32_t> out) noexcept {
  HWY_DYNAMIC_DISPATCH(STreeOwners32)(tree, keys.data(), keys.size(), out.data());
}

}  // namespace simd

namespace {
constexpr unsigned kGroupSweep[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
constinit const Knob kSTreeGroup{"lockstep group", "32 up to a 16 MiB tree, 128 above", 1, 256,
                                 kGroupSweep};
}  // namespace

constinit const KernelInfo registry::ring_stree{
    .scheme = Scheme::kRing,
    .name = "stree",
    .summary =
        "S+ tree, 64-byte nodes compared with SIMD, 32-128 keys in lockstep with prefetch "
        "(Highway)",
    .simd = true,
    .rival = &registry::ring_eytzinger,
    .baseline = false,
    .rank = 20,
    .knob = &kSTreeGroup,
    .make = &glue::ring_make<registry::ring_stree, RingSTree,
                             glue::ring_over_knob<registry::ring_stree, RingSTree>>,
    .table_bytes = &glue::ring_bytes<16>,
    .make_over_ring = &glue::ring_over_knob<registry::ring_stree, RingSTree>,
};

}  // namespace chbench

#endif  // HWY_ONCE
