// The stream floor, listed as kernel "ring/stream": no lookup, it reads each
// key hash and writes its low 32 bits as the owner, the memory-bound floor
// under every ring kernel. A registry entry (stream_floor(), scheme.h) but
// not one of all_kernels(): it matches no reference, so nothing checks it
// against one; the bench times it beside the ring kernels and at K = 10^7.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>

#include "chbench/kernel_glue.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

class StreamTable final : public OwnerTable {
 public:
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    const uint64_t* in = h.data();
    uint32_t* o = out.data();
    for (std::size_t i = 0, n = h.size(); i < n; ++i) o[i] = static_cast<uint32_t>(in[i]);
  }
  uint32_t owner(uint64_t h) const override { return static_cast<uint32_t>(h); }
  std::size_t memory_bytes() const noexcept override { return 0; }
};

std::unique_ptr<OwnerTable> make_stream(const Fleet&, unsigned knob) {
  if (knob != 0) throw std::invalid_argument("ring/stream has no knob (keys in flight)");
  return std::make_unique<StreamTable>();
}

constinit const KernelInfo kStream{
    .scheme = Scheme::kRing,
    .name = "stream",
    .summary = "no lookup: reads each key hash, writes one owner (the stream floor)",
    .simd = false,
    .baseline = false,
    .rank = -1,
    .knob = nullptr,
    .make = &make_stream,
    .table_bytes = &glue::no_bytes,
    .floor = "stream",
};

}  // namespace

const KernelInfo& stream_floor() noexcept { return kStream; }

}  // namespace chbench
