// Console output as usual on stdout; one progress line per finished
// configuration on stderr: count, elapsed time and the time left, from the
// plan's estimate scaled by how fast the run has gone so far.
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "plan.h"

namespace chbench::bench {

class ProgressReporter : public benchmark::ConsoleReporter {
 public:
  explicit ProgressReporter(const Plan& plan);
  void ReportRuns(const std::vector<Run>& runs) override;

 private:
  const Plan& plan_;
  double estimated_total_ = 0, estimated_done_ = 0;
  std::size_t done_ = 0;
  std::string last_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace chbench::bench
