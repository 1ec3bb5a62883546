// FlipHash's reference and the scheme's registry functions. The reference is
// DataDog/fliphash-rs at commit 00c0ad03cf3c transcribed with its own names
// and u64 types (src/lib.rs: the fliphash! and fliphash_pow2! macros and
// fliphash_64_with_seed's hash, seed 0), independent of flip.h. The crate is
// the paper's algorithm (Masson and Lee, arXiv:2402.17549: the power-of-two
// case, then the general case's draws over 2^r with its fallback to 2^(r-1)),
// its hash family made concrete and its draws capped at 64; see
// docs/schemes/flip.md.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "chbench/flip/flip.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

uint32_t flip_buckets(const Fleet& fleet) {
  return glue::bucket_count(fleet, kFlipMaxBuckets, "FlipHash (uint32_t buckets)");
}

namespace {

// fliphash_64_with_seed's inner hash, with seed 0 (key ^ seed = key).
uint64_t crate_hash(uint64_t key, uint32_t bit_len, uint32_t iteration_index) {
  uint64_t k = key;
  k = k * (uint64_t{bit_len} * 2 + 1);
  k = (k ^ (k >> 27)) * 0x3C79AC492BA7B653ULL;
  k = k * (uint64_t{iteration_index} * 2 + 1);
  k = (k ^ (k >> 33)) * 0x1C69B3F74AC4AE35ULL;
  return k ^ (k >> 27);
}

uint32_t ilog2(uint64_t x) { return 63 - static_cast<uint32_t>(std::countl_zero(x)); }

// fliphash_pow2!: the masked hash with the bits below its top bit flipped.
uint64_t crate_pow2(uint64_t key, uint64_t hash, uint64_t pow2_mask) {
  const uint64_t masked_hash = hash & pow2_mask;
  if (masked_hash == 0) return 0;
  const uint64_t flipper = crate_hash(key, ilog2(masked_hash), 0) &
                           ((~uint64_t{0} >> std::countl_zero(masked_hash)) >> 1);
  return masked_hash ^ flipper;
}

// fliphash!: the power-of-two step over 2^r > range_end; if it lands above
// range_end, up to 64 draws over 2^r, each ending the search below 2^(r-1)
// (then the step over 2^(r-1)) or in [2^(r-1), range_end] (that draw).
uint64_t crate_fliphash_64(uint64_t key, uint64_t range_end) {
  if (range_end == 0) return 0;
  const uint64_t pow2_mask = ~uint64_t{0} >> std::countl_zero(range_end);
  const uint64_t hash = crate_hash(key, 0, 0);
  const uint64_t first = crate_pow2(key, hash, pow2_mask);
  if (first <= range_end) return first;
  constexpr uint32_t kMaxNumIterations = 64;
  for (uint32_t iteration_index = 1; iteration_index <= kMaxNumIterations; ++iteration_index) {
    const uint64_t draw = crate_hash(key, ilog2(range_end), iteration_index) & pow2_mask;
    if (draw <= pow2_mask >> 1) break;
    if (draw <= range_end) return draw;
  }
  return crate_pow2(key, hash, pow2_mask >> 1);
}

class FlipReference final : public OwnerTable {
 public:
  explicit FlipReference(const Fleet& f) : range_end_(uint64_t{flip_buckets(f)} - 1) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i)
      out[i] = static_cast<uint32_t>(crate_fliphash_64(h[i], range_end_));
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint64_t range_end_;
};

}  // namespace

std::unique_ptr<OwnerTable> registry::flip_reference(const Fleet& f) {
  return std::make_unique<FlipReference>(f);
}

void registry::flip_check(const Fleet& f) { flip_buckets(f); }

uint64_t registry::flip_reference_bytes(const Fleet& f) { return glue::no_bytes(f); }

constinit const SchemeInfo registry::flip_scheme{
    .id = Scheme::kFlip,
    .name = "flip",
    .aliases = {},
    .title = "FlipHash",
    .source =
        "Masson and Lee, FlipHash: A Constant-Time Consistent Range-Hashing Algorithm, "
        "arXiv:2402.17549; DataDog/fliphash-rs fliphash_64 (00c0ad03cf3c), seed 0; "
        "docs/schemes/flip.md",
    .params = 0,
    .removal = Removal::kLastOnly,
    .removal_note =
        "only the last bucket can leave (buckets are 0 ... N-1); any other leave "
        "renumbers buckets",
    .max_nodes = kFlipMaxBuckets,
    .reference = &registry::flip_reference,
    .check = &registry::flip_check,
    .reference_bytes = &registry::flip_reference_bytes,
    .buckets_only = true,
    .growth = &minimal_growth};

}  // namespace chbench
