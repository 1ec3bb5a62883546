// maglev/simd: table lookups with SIMD gathers, entry[h mod M] for Maglev's
// lookup table and Redis Cluster's slot table (maglev.h), for every Highway
// target, and the kernel's registry entry.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/maglev/simd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// out[i] = table[slots[i]]: whole vectors of 32-bit indices gathered at once
// (two interleaved, so that their latencies overlap), the tail one by one.
void GatherOwners(const uint32_t* HWY_RESTRICT table, const uint32_t* HWY_RESTRICT slots,
                  std::size_t count, uint32_t* HWY_RESTRICT out) {
  const hn::ScalableTag<uint32_t> du;
  const hn::RebindToSigned<decltype(du)> di;
  const std::size_t lanes = hn::Lanes(du);
  std::size_t i = 0;
  for (; i + 2 * lanes <= count; i += 2 * lanes) {
    const auto a = hn::GatherIndex(du, table, hn::BitCast(di, hn::LoadU(du, slots + i)));
    const auto b = hn::GatherIndex(du, table, hn::BitCast(di, hn::LoadU(du, slots + i + lanes)));
    hn::StoreU(a, du, out + i);
    hn::StoreU(b, du, out + i + lanes);
  }
  for (; i < count; ++i) out[i] = table[slots[i]];
}

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "chbench/kernel_glue.h"
#include "chbench/maglev/maglev.h"
#include "chbench/memory.h"
#include "chbench/modn/modn.h"
#include "chbench/registry.h"

namespace chbench {

namespace simd {
HWY_EXPORT(GatherOwners);

// Dispatched from inside this namespace: where one target is compiled (AVX3
// in an x86-64-v4 build) HWY_DYNAMIC_DISPATCH is static dispatch,
// N_AVX3::FUNC, which only resolves here.
void gather_owners_dispatch(const uint32_t* table, std::span<const uint32_t> slots,
                            std::span<uint32_t> out) {
  HWY_DYNAMIC_DISPATCH(GatherOwners)(table, slots.data(), slots.size(), out.data());
}
}  // namespace simd

void gather_owners(const uint32_t* table, std::span<const uint32_t> slots,
                   std::span<uint32_t> out) {
  simd::gather_owners_dispatch(table, slots, out);
}

namespace {

// Gathers index the table with signed 32-bit lanes, so it holds below 2^31
// entries here (Maglev's limit too).
uint32_t checked_entries(const std::vector<uint32_t>& entries) {
  if (entries.empty() || entries.size() > 0x7fffffffu)
    throw std::invalid_argument("a SIMD lookup table needs 1 ... 2^31 - 1 entries");
  return static_cast<uint32_t>(entries.size());
}

class TableLookupSimd final : public OwnerTable {
 public:
  explicit TableLookupSimd(const std::vector<uint32_t>& entries)
      : m_(checked_entries(entries)), entries_(allocate_table<uint32_t>(m_)) {
    std::copy(entries.begin(), entries.end(), entries_.get());
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    if (h.size() != out.size())
      throw std::invalid_argument("key hashes and owners differ in length");
    constexpr std::size_t kBlock = 1024;
    uint32_t slots[kBlock];
    for (std::size_t begin = 0; begin < h.size(); begin += kBlock) {
      const std::size_t n = std::min(kBlock, h.size() - begin);
      simd::mod_n_owners(h.subspan(begin, n), m_, std::span<uint32_t>(slots, n));
      gather_owners(entries_.get(), std::span<const uint32_t>(slots, n), out.subspan(begin, n));
    }
  }
  std::size_t memory_bytes() const noexcept override { return std::size_t{m_} * sizeof(uint32_t); }

 private:
  uint32_t m_;
  TableArray<uint32_t> entries_;
};

}  // namespace

std::unique_ptr<OwnerTable> make_table_lookup_simd(const std::vector<uint32_t>& entries) {
  return std::make_unique<TableLookupSimd>(entries);
}

namespace {

std::unique_ptr<OwnerTable> over_table(std::vector<uint32_t> entries) {
  return make_table_lookup_simd(entries);
}

}  // namespace

namespace {

std::unique_ptr<OwnerTable> build_maglev_simd(const NodeSet& nodes) {
  return make_table_lookup_simd(maglev_table(nodes));
}

}  // namespace

constinit const KernelInfo registry::maglev_simd{
    .scheme = Scheme::kMaglev,
    .name = "simd",
    .summary = "SIMD exact h % M, then 32-bit gathers from the table (Highway)",
    .simd = true,
    .rival = &registry::maglev_scalar,
    .baseline = false,
    .rank = 10,
    .knob = nullptr,
    .make = &glue::make_with<registry::maglev_simd, build_maglev_simd>,
    .table_bytes =
        &registry::maglev_reference_bytes,  // the table and permutations, as the reference
    .make_over_table = &over_table,
};

}  // namespace chbench

#endif  // HWY_ONCE
