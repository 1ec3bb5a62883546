// One progress line on stderr per comparison group timed: configurations
// done of all in the current visit (TimeModel::visits), elapsed time and the
// time left, from the plan's estimate scaled by how fast the run has gone so
// far; then one per visit timed again (revisits.h).
#pragma once

#include <chrono>
#include <cstddef>

#include "plan.h"

namespace chbench::bench {

class Progress {
 public:
  // `plan` and `configs` outlive the progress.
  Progress(const Plan& plan, std::span<const Config> configs);
  // Group g's rounds of visit `visit` (0-based, TimeModel::visits) are done.
  void done(GroupSpan g, unsigned visit);
  // Visit `visit` of group g, `slower` times as slow as its fastest, was
  // timed again: the n-th of `of` (revisits.h). The revisits come after
  // the plan's estimate runs out, a line each.
  void revisited(GroupSpan g, unsigned visit, double slower, std::size_t n, std::size_t of);
  // Seconds since the progress began (the run's first group).
  double elapsed_s() const;

 private:
  const Plan& plan_;
  std::span<const Config> configs_;
  double estimated_total_ = 0, estimated_done_ = 0;
  std::size_t done_ = 0;  // configurations done in the current visit
  unsigned visit_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace chbench::bench
