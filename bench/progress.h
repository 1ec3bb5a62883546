// One progress line on stderr per comparison group timed: configurations
// done of all, elapsed time and the time left, from the plan's estimate
// scaled by how fast the run has gone so far.
#pragma once

#include <chrono>
#include <cstddef>

#include "plan.h"

namespace chbench::bench {

class Progress {
 public:
  // `plan` and `configs` outlive the progress.
  Progress(const Plan& plan, std::span<const Config> configs);
  // Group g's rounds are done.
  void done(GroupSpan g);

 private:
  const Plan& plan_;
  std::span<const Config> configs_;
  double estimated_total_ = 0, estimated_done_ = 0;
  std::size_t done_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace chbench::bench
