// DxHash's reference and the scheme's registry functions. The lookup is the
// paper's (arXiv:2107.07930, the lookup over the NSArray): walk the key's
// pseudo-random sequence of bucket numbers until a bucket is active. Each
// profile's sequence is written here plainly, from its definition: the LCG
// of dx.h, the SSE4.2 crc32q instruction bit by bit, java.util.Random as
// Java 17 specifies it. The buckets themselves come from dx_state (dx.cc).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "chbench/dx/dx.h"
#include "chbench/hash.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

// crc32q(data, crc) as the instruction defines it: the 8 bytes of data, the
// lowest first, into the reflected CRC-32C register; no inversion.
uint32_t crc32q(uint64_t data, uint32_t crc) {
  for (int byte = 0; byte < 8; ++byte) {
    crc ^= static_cast<uint32_t>((data >> (8 * byte)) & 0xff);
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
  }
  return crc;
}

// java.util.Random's legacy generator (Java 17 API documentation: the 48-bit
// LCG, next(bits), nextInt(bound)); draws() counts the calls of next.
class JavaRandom {
 public:
  explicit JavaRandom(uint64_t seed) : seed_((seed ^ 0x5DEECE66DULL) & kMask) {}
  int32_t next(int bits) {
    ++draws_;
    seed_ = (seed_ * 0x5DEECE66DULL + 0xBULL) & kMask;
    return static_cast<int32_t>(seed_ >> (48 - bits));
  }
  int32_t next_int(int32_t bound) {
    int32_t r = next(31);
    const int32_t m = bound - 1;
    if ((bound & m) == 0) return static_cast<int32_t>((int64_t{bound} * r) >> 31);
    // Java's loop rejects u while u - u % bound + m overflows an int.
    int32_t u = r;
    while (int64_t{u} - (r = u % bound) + m > INT32_MAX) u = next(31);
    return r;
  }
  uint32_t draws() const { return draws_; }

 private:
  static constexpr uint64_t kMask = (uint64_t{1} << 48) - 1;
  uint64_t seed_;
  uint32_t draws_ = 0;
};

uint32_t lcg_bucket(const DxState& s, uint64_t h, uint32_t* probes) {
  uint64_t x = fmix64(h);
  for (uint32_t n = 1;; ++n) {
    const auto b = static_cast<uint32_t>(((x >> 32) * s.capacity) >> 32);
    if (s.is_active(b)) {
      *probes = n;
      return b;
    }
    x = x * kDxLcgMultiplier + kDxLcgIncrement;
  }
}

// ChaosD's getNodeID, without its cap of 4A probes.
uint32_t chaosd_bucket(const DxState& s, uint64_t h, uint32_t* probes) {
  const auto key = static_cast<uint32_t>(h);
  const uint32_t key2 = key * 421757u + 1u;
  uint32_t bs = crc32q(key, key2);
  for (uint32_t n = 1;; ++n) {
    if (s.is_active(bs % s.capacity)) {
      *probes = n;
      return bs % s.capacity;
    }
    bs = crc32q(bs, key2);
  }
}

// SUPSI's DxEngine.getBucket on an injected hash.
uint32_t supsi_bucket(const DxState& s, uint64_t h, uint32_t* probes) {
  JavaRandom r(h);
  auto b = static_cast<uint32_t>(r.next_int(static_cast<int32_t>(s.capacity)));
  while (!s.is_active(b)) b = static_cast<uint32_t>(r.next_int(static_cast<int32_t>(s.capacity)));
  *probes = r.draws();
  return b;
}

class DxReference final : public OwnerTable {
 public:
  DxReference(const Fleet& f, DxProfile profile)
      : profile_(profile), state_(dx_state(f, profile)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    uint32_t probes = 0;
    for (std::size_t i = 0; i < h.size(); ++i)
      out[i] = state_.owner[dx_reference_bucket(state_, profile_, h[i], &probes)];
  }
  std::size_t memory_bytes() const noexcept override { return state_.bytes(); }

 private:
  DxProfile profile_;
  DxState state_;
};

}  // namespace

uint32_t dx_reference_bucket(const DxState& s, DxProfile profile, uint64_t h, uint32_t* probes) {
  switch (profile) {
    case DxProfile::kChaosD:
      return chaosd_bucket(s, h, probes);
    case DxProfile::kSupsi:
      return supsi_bucket(s, h, probes);
    case DxProfile::kChbench:
      break;
  }
  return lcg_bucket(s, h, probes);
}

std::unique_ptr<OwnerTable> make_dx_reference(const Fleet& f, DxProfile profile) {
  return std::make_unique<DxReference>(f, profile);
}

std::unique_ptr<OwnerTable> registry::dx_reference(const Fleet& f) {
  return make_dx_reference(f, DxProfile::kChbench);
}

void registry::dx_check(const Fleet& f) { validate_dx(f); }

uint64_t registry::dx_reference_bytes(const Fleet& f) { return dx_state_bytes(f); }

constinit const SchemeInfo registry::dx_scheme{
    .id = Scheme::kDx,
    .name = "dx",
    .aliases = {},
    .title = "DxHash",
    .source =
        "Dong, Feng and Wang, DxHash: A Scalable Consistent Hash Based on the "
        "Pseudo-Random Sequence, arXiv:2107.07930; docs/schemes/dx.md",
    .params = kParamCapacity,
    .removal = Removal::kAnyNode,
    .removal_note =
        "any node can leave: only its keys move, and a re-add restores the last "
        "removed bucket, bringing its keys back",
    .max_nodes = kDxMaxCapacity,
    .reference = &registry::dx_reference,
    .check = &registry::dx_check,
    .reference_bytes = &registry::dx_reference_bytes,
    .reads_history = true,
    .growth = &minimal_growth};

}  // namespace chbench
