#include "progress.h"

#include <algorithm>
#include <cstdio>

namespace chbench::bench {

ProgressReporter::ProgressReporter(const Plan& plan)
    : plan_(plan), estimated_total_(plan.seconds()), start_(std::chrono::steady_clock::now()) {}

void ProgressReporter::ReportRuns(const std::vector<Run>& runs) {
  ConsoleReporter::ReportRuns(runs);
  if (runs.empty()) return;
  const std::string name = runs.front().run_name.str();
  if (name == last_) return;  // aggregates of a configuration already counted
  last_ = name;
  if (done_ < plan_.size()) estimated_done_ += plan_.step(done_).seconds;
  ++done_;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double pace = estimated_done_ > 0 ? elapsed / estimated_done_ : 1;
  const double left = std::max(0.0, estimated_total_ - estimated_done_) * pace;
  std::fprintf(stderr, "[%4zu/%zu] %s elapsed, ~%s left  %s\n", done_, plan_.size(),
               clock_string(elapsed).c_str(), clock_string(left).c_str(), name.c_str());
  std::fflush(stderr);
}

}  // namespace chbench::bench
