// Which Highway target the SIMD kernels run on, and forcing one (see
// chbench/simd.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "chbench/simd_targets.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace chbench::simd::HWY_NAMESPACE {

// Dispatched like every kernel, so it reports the table entry they use.
int64_t ThisTarget() { return HWY_TARGET; }

}  // namespace chbench::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <stdexcept>
#include <string>

#include "chbench/simd.h"

namespace chbench::simd {

HWY_EXPORT(ThisTarget);

int64_t dispatched_target() noexcept { return HWY_DYNAMIC_DISPATCH(ThisTarget)(); }

std::string dispatched_target_name() { return target_name(dispatched_target()); }

std::vector<int64_t> compiled_targets() {
  std::vector<int64_t> out;
  for (int64_t bits = HWY_TARGETS; bits != 0; bits &= bits - 1) out.push_back(bits & -bits);
  return out;
}

std::vector<int64_t> runnable_targets() {
  // hwy::SupportedTargets() reflects a forced target: ask with the forcing
  // lifted, once, and put back what was in force (the CPU cannot change).
  static const int64_t detected = [] {
    const int64_t in_force = hwy::SupportedTargets();
    hwy::SetSupportedTargetsForTest(0);
    const int64_t cpu = hwy::SupportedTargets();
    if (in_force != cpu) {
      hwy::SetSupportedTargetsForTest(in_force);
    } else {
      // Highway 1.0.3's SupportedTargets() sets the dispatch table before it
      // adds the vector-length-specific SVE2_128 and SVE_256, so the kernels
      // would run SVE2 on a CPU with 128- or 256-bit SVE2 vectors. Reset, the
      // next dispatch chooses from every supported target.
      hwy::GetChosenTarget().DeInit();
    }
    return cpu;
  }();
  std::vector<int64_t> out;
  for (int64_t t : compiled_targets())
    if (detected & t) out.push_back(t);
  return out;
}

std::string target_name(int64_t target) { return hwy::TargetName(target); }

std::string target_names(int64_t targets) {
  std::string out;
  for (int64_t bits = targets; bits != 0; bits &= bits - 1) {
    if (!out.empty()) out += ',';
    out += hwy::TargetName(bits & -bits);
  }
  return out;
}

std::string target_names(const std::vector<int64_t>& targets) {
  std::string out;
  for (int64_t t : targets) {
    if (!out.empty()) out += ',';
    out += target_name(t);
  }
  return out;
}

std::string targets_summary() {
  return "compiled " + target_names(compiled_targets()) + "; this CPU runs " +
         target_names(runnable_targets()) + "; dispatch picks " + dispatched_target_name();
}

ForcedTarget::ForcedTarget(int64_t target) : active_(target != 0) {
  if (!active_) return;
  bool runnable = false;
  for (int64_t t : runnable_targets()) runnable |= t == target;
  if (!runnable)
    throw std::invalid_argument("Highway target " + target_names(target) +
                                " is not one target this build and CPU can run");
  hwy::SetSupportedTargetsForTest(target);
}

ForcedTarget::~ForcedTarget() {
  if (active_) hwy::SetSupportedTargetsForTest(0);
}

}  // namespace chbench::simd

#endif  // HWY_ONCE
