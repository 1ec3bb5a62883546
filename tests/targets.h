// Running a test on each Highway target in turn: the targets to test and a
// guard that forces one of them (tests/test_simd_targets.cc and the schemes'
// vector tests).
#pragma once

#include <hwy/targets.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "per_target.h"

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

// The targets a per-target loop runs: every runnable target, best first
// (chbench::simd::runnable_targets()), or, when the environment variable
// CHBENCH_TEST_TARGETS is set and not empty, those of them it names (a comma
// list of Highway names, "SVE_256,SVE2,SVE"). The emulated runs use it to skip
// a target another emulated CPU covers already (CMakePresets.json). A name
// that is not a runnable target stops the test executable (exit status 2)
// with a message naming the variable and the runnable targets. Fails the
// running test case unless it carries the tag [targets] (per_target.h).
inline const std::vector<int64_t>& test_targets() {
  if (!current_test_is_per_target)
    FAIL("this test case loops over Highway targets: tag it [targets] (tests/per_target.h)");
  static const std::vector<int64_t> targets = [] {
    const std::vector<int64_t> runnable = chbench::simd::runnable_targets();
    const char* env = std::getenv("CHBENCH_TEST_TARGETS");
    if (env == nullptr || *env == '\0') return runnable;
    std::vector<int64_t> chosen;
    std::string_view list(env);
    while (!list.empty()) {
      const std::size_t comma = list.find(',');
      const std::string name(list.substr(0, comma));
      bool found = false;
      for (int64_t t : runnable)
        if (chbench::simd::target_name(t) == name) found = (chosen.push_back(t), true);
      if (!found) {
        std::fprintf(stderr,
                     "CHBENCH_TEST_TARGETS='%s': '%s' is not a runnable target (runnable: %s)\n",
                     env, name.c_str(), chbench::simd::target_names(runnable).c_str());
        std::exit(2);
      }
      list.remove_prefix(comma == std::string_view::npos ? list.size() : comma + 1);
    }
    return chosen;
  }();
  return targets;
}

// Whether a per-target loop checks `kernel` at the target in force: a SIMD
// kernel (KernelInfo::simd, the only ones that dispatch) at every target, any
// other once, at the first of test_targets(), since its code is the same at
// every target.
inline bool checks_at_this_target(const chbench::KernelInfo& kernel) {
  return kernel.simd || chbench::simd::dispatched_target() == test_targets().front();
}

}  // namespace chbench_test
