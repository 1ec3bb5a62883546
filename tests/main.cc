// The Catch2 main of every test executable, with one listener: it records
// whether the test case about to run carries the tag [targets]
// (tests/per_target.h).
#define CATCH_CONFIG_MAIN
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "per_target.h"

namespace {

class PerTargetListener : public Catch::TestEventListenerBase {
 public:
  using TestEventListenerBase::TestEventListenerBase;

  void testCaseStarting(const Catch::TestCaseInfo& info) override {
    chbench_test::current_test_is_per_target =
        std::find(info.tags.begin(), info.tags.end(), std::string("targets")) != info.tags.end();
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(PerTargetListener)
