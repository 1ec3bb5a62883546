// RendezvousSimd's table (rendezvous_simd.h): the pre-mixed seeds both SIMD rendezvous
// kernels (simd_nodes.cc, simd_keys.cc) read, padded for every target.
#include "chbench/hrw/rendezvous_simd.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "chbench/kernel_glue.h"
#include "chbench/memory.h"
#include "chbench/registry.h"

namespace chbench::simd {

namespace {

// The padded table must cover whole vectors of every target, whichever one runs
// (HWY_MAX_BYTES here is only the static target's) in groups of 4 vectors:
// 4 x 64 lanes of 64 bits exceed any x86, NEON or SVE vector.
constexpr std::size_t kSeedPad = 256;

}  // namespace

RendezvousSimd::RendezvousSimd(std::span<const uint64_t> seeds)
    : n_(static_cast<uint32_t>(seeds.size())) {
  if (seeds.empty()) throw std::invalid_argument("rendezvous: no node seeds");
  if (seeds.size() > 0xffffffffu)
    throw std::invalid_argument("rendezvous: more than 2^32 - 1 node seeds");
  padded_ = (seeds.size() + kSeedPad - 1) / kSeedPad * kSeedPad;
  mixed_ = allocate_table<uint64_t>(padded_);
  for (std::size_t i = 0; i < padded_; ++i) {
    const uint64_t s = seeds[i < seeds.size() ? i : 0];
    mixed_[i] = s ^ (s >> 33);
  }
}

uint64_t rendezvous_simd_bytes(const Fleet& f) {
  return glue::saturating_add(registry::hrw_reference_bytes(f), 2048);
}

}  // namespace chbench::simd
