// PowerCH's reference and the scheme's registry functions. The reference is
// the paper's algorithm (Leu, arXiv:2307.12448: r1 = f(k, m); r2 =
// g(k, n, m/2 - 1); f(k, m/2)) with the choices the crate
// DXist/power-consistent-hash (25bd442210e3) makes for f, g and their random
// numbers, written out step by step and independent of power.h's functions.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "chbench/kernel_glue.h"
#include "chbench/power/power.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

uint32_t power_bucket_count(const Fleet& fleet) {
  return glue::bucket_count(fleet, kPowerMaxBuckets, "PowerCH (u32 arithmetic, m <= 2^31)");
}

namespace {

// PCG32 as rand_pcg's Lcg64Xsh32: a 64-bit LCG with an odd increment
// 2 * stream + 1, started by adding the increment and stepping once; the
// output is XSH RR of the current state and does not advance it.
class Pcg32 {
 public:
  Pcg32(uint64_t seed, uint64_t stream) : increment_((stream << 1) | 1) {
    state_ = seed + increment_;
    step();
  }
  void step() { state_ = state_ * 6364136223846793005ULL + increment_; }
  uint32_t next_u32() const {
    const uint32_t rotate = static_cast<uint32_t>(state_ >> 59);
    const uint32_t xorshifted = static_cast<uint32_t>(((state_ >> 18) ^ state_) >> 27);
    return (xorshifted >> rotate) | (xorshifted << ((32 - rotate) & 31));
  }

 private:
  uint64_t state_ = 0;
  uint64_t increment_;
};

// f(key, m - 1): a uniform choice in [0, m) for m a power of two, from the
// key's own low bits: 0, or the highest power of two t <= key & (m - 1) plus
// a PCG32 draw within [t, 2t). The generator is handed back for g.
std::pair<uint32_t, std::optional<Pcg32>> first_choice(uint64_t key, uint32_t m_minus_one) {
  const auto low_bits = static_cast<uint32_t>(key & m_minus_one);
  if (low_bits == 0) return {0, std::nullopt};
  const uint32_t msb = 31 - static_cast<uint32_t>(std::countl_zero(low_bits));  // x86's bsr
  Pcg32 rng(key, msb);
  const uint32_t t = uint32_t{1} << msb;
  return {t + (rng.next_u32() & (t - 1)), rng};
}

// g(n, s): the jumps from s with U = (1 + r) / (2^32 - 1), r a PCG32 output:
// the next candidate is floor((x + 1) (2^32 - 1) / (1 + r)) while it is
// below n (n (1 + r) > (x + 1)(2^32 - 1)), the last x is the answer.
uint32_t jump_from(uint32_t n, uint32_t s, Pcg32 rng) {
  uint32_t x = s;
  for (;;) {
    const uint64_t scaled_x = (uint64_t{x} + 1) * uint64_t{0xffffffffu};
    const uint64_t rnd_plus_one = uint64_t{rng.next_u32()} + 1;
    if (uint64_t{n} * rnd_plus_one <= scaled_x) break;
    rng.step();
    x = static_cast<uint32_t>(scaled_x / rnd_plus_one);
  }
  return x;
}

// PowerConsistentHasher::try_new(n) and hash_u64 (n = 1: 0, our extension).
class PowerReference final : public OwnerTable {
 public:
  explicit PowerReference(const Fleet& f) : n_(power_bucket_count(f)) {
    uint32_t m = n_ - 1;  // round up to a power of two, as the crate does
    m |= m >> 1;
    m |= m >> 2;
    m |= m >> 4;
    m |= m >> 8;
    m |= m >> 16;
    m_minus_one_ = m;
    m_half_minus_one_ = m == 0 ? 0 : ((m + 1) >> 1) - 1;
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = hash_u64(h[i]);
  }
  std::size_t memory_bytes() const noexcept override { return 0; }

 private:
  uint32_t hash_u64(uint64_t key) const {
    auto [r1, rng] = first_choice(key, m_minus_one_);
    if (r1 < n_) return r1;
    rng->step();  // r1 >= n >= 2 came from a draw: the generator exists
    const uint32_t r2 = jump_from(n_, m_half_minus_one_, *rng);
    if (r2 > m_half_minus_one_) return r2;
    return first_choice(key, m_half_minus_one_).first;
  }

  uint32_t n_;
  uint32_t m_minus_one_ = 0;
  uint32_t m_half_minus_one_ = 0;
};

}  // namespace

std::unique_ptr<OwnerTable> registry::power_reference(const Fleet& f) {
  return std::make_unique<PowerReference>(f);
}

void registry::power_check(const Fleet& f) { power_bucket_count(f); }

uint64_t registry::power_reference_bytes(const Fleet& f) { return glue::no_bytes(f); }

namespace {
constexpr std::string_view kAliases[] = {"powerch"};
}  // namespace

constinit const SchemeInfo registry::power_scheme{
    .id = Scheme::kPower,
    .name = "power",
    .aliases = kAliases,
    .title = "PowerCH",
    .source =
        "Leu, Fast Consistent Hashing in Constant Time, arXiv:2307.12448 (its algorithm "
        "with f and g), as DXist/power-consistent-hash 25bd442210e3 computes it; "
        "docs/schemes/power.md",
    .params = 0,
    .removal = Removal::kLastOnly,
    .removal_note =
        "only the last bucket can leave (buckets are 0 ... N-1); any other leave "
        "renumbers buckets",
    .max_nodes = kPowerMaxBuckets,
    .reference = &registry::power_reference,
    .check = &registry::power_check,
    .reference_bytes = &registry::power_reference_bytes,
    .buckets_only = true,
    .growth = &minimal_growth};

}  // namespace chbench
