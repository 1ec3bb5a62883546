// Saturating byte arithmetic for memory estimates: a * b and a + b give
// UINT64_MAX when the result would not fit, so an estimate for a fleet too
// large to build says "too much" and never wraps around to little. Used by
// the kernels' estimates (KernelInfo::table_bytes), the bench's plan and the
// lab's memory guard.
#pragma once

#include <cstdint>

namespace chbench {

constexpr uint64_t saturating_mul(uint64_t a, uint64_t b) noexcept {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

constexpr uint64_t saturating_add(uint64_t a, uint64_t b) noexcept {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

}  // namespace chbench
