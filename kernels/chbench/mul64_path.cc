// How the kernels that can choose multiply 64-bit lanes (see chbench/simd.h):
// the CPU's path, and forcing one.
#include <atomic>

#include "chbench/simd.h"

namespace chbench::simd {

namespace {

// -1: nothing forced; else the Mul64Path in force.
std::atomic<int> forced_path{-1};

Mul64Path cpu_path() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  static const bool intel = __builtin_cpu_is("intel") != 0;
  return intel ? Mul64Path::kSplit : Mul64Path::kNative;
#else
  return Mul64Path::kNative;
#endif
}

}  // namespace

Mul64Path mul64_path() noexcept {
  const int forced = forced_path.load(std::memory_order_relaxed);
  return forced < 0 ? cpu_path() : static_cast<Mul64Path>(forced);
}

const char* mul64_path_name(Mul64Path path) noexcept {
  return path == Mul64Path::kNative ? "native" : "split";
}

ForcedMul64Path::ForcedMul64Path(Mul64Path path) {
  forced_path.store(static_cast<int>(path), std::memory_order_relaxed);
}

ForcedMul64Path::~ForcedMul64Path() { forced_path.store(-1, std::memory_order_relaxed); }

}  // namespace chbench::simd
