#include "progress.h"

#include <algorithm>
#include <cstdio>

namespace chbench::bench {

Progress::Progress(const Plan& plan, std::span<const Config> configs)
    : plan_(plan),
      configs_(configs),
      estimated_total_(plan.seconds()),
      start_(std::chrono::steady_clock::now()) {}

void Progress::done(GroupSpan g) {
  for (std::size_t i = g.first; i < g.last && i < plan_.size(); ++i)
    estimated_done_ += plan_.step(i).seconds;
  done_ += g.last - g.first;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double pace = estimated_done_ > 0 ? elapsed / estimated_done_ : 1;
  const double left = std::max(0.0, estimated_total_ - estimated_done_) * pace;
  const std::size_t more = g.last - g.first - 1;
  std::fprintf(stderr, "[%4zu/%zu] %s elapsed, ~%s left  %s%s\n", done_, configs_.size(),
               clock_string(elapsed).c_str(), clock_string(left).c_str(),
               configs_[g.first].name().c_str(),
               more ? (" and " + std::to_string(more) + " more").c_str() : "");
  std::fflush(stderr);
}

}  // namespace chbench::bench
