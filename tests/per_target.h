// Which test cases iterate Highway targets, shared by the tests' main
// (tests/main.cc, whose listener records the running test case's tags) and
// tests/targets.h (test_targets(), which every per-target loop calls).
//
// A test case that loops over targets carries the tag [targets]: a cross
// build registers only those test cases (tests/CMakeLists.txt), so that the
// emulated runs check every kernel on every emulated target and nothing else.
// test_targets() fails a test case that loops without the tag, so none is
// left out of the emulated runs unnoticed.
#pragma once

namespace chbench_test {

// True while the running test case carries the tag [targets]; set by the
// listener in tests/main.cc before each test case starts. Test executables
// without that listener leave it true.
inline bool current_test_is_per_target = true;

}  // namespace chbench_test
