// chbench_targets: prints the Highway targets the library was compiled for,
// those this CPU runs and the one dispatch picks, in one line, as the bench's
// --list does. scripts/test-arm.sh prints it for each emulated CPU, whose
// build has no bench. Takes no arguments; exit status 0.
#include <cstdio>

#include "chbench/simd.h"

int main() {
  std::printf("Highway targets: %s\n", chbench::simd::targets_summary().c_str());
  return 0;
}
