// Running a test on each Highway target in turn: the targets to test and a
// guard that forces one of them (tests/test_simd_targets.cc and the schemes'
// vector tests).
#pragma once

#include <hwy/targets.h>

#include <cstdint>
#include <vector>

namespace chbench_test {

// Forces one Highway target for its lifetime and always restores normal
// dispatch, also when a check throws. Process-global: tests run on one thread.
class TargetGuard {
 public:
  explicit TargetGuard(int64_t target) { hwy::SetSupportedTargetsForTest(target); }
  ~TargetGuard() { hwy::SetSupportedTargetsForTest(0); }
  TargetGuard(const TargetGuard&) = delete;
  TargetGuard& operator=(const TargetGuard&) = delete;
};

// Every target compiled and supported by this CPU, best first.
// hwy::SupportedTargets() (called by SupportedAndGeneratedTargets) sets
// Highway 1.0.3's dispatch table without SVE2_128 and SVE_256; lifting the
// forcing again afterwards lets the next call choose from every target, as
// chbench::simd::runnable_targets() does.
inline std::vector<int64_t> targets_to_test() {
  hwy::SetSupportedTargetsForTest(0);
  auto targets = hwy::SupportedAndGeneratedTargets();
  hwy::SetSupportedTargetsForTest(0);
  return targets;
}

}  // namespace chbench_test
