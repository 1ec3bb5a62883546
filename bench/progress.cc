#include "progress.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace chbench::bench {

Progress::Progress(const Plan& plan, std::span<const Config> configs)
    : plan_(plan),
      configs_(configs),
      estimated_total_(plan.seconds()),
      start_(std::chrono::steady_clock::now()) {}

void Progress::done(GroupSpan g, unsigned visit) {
  for (std::size_t i = g.first; i < g.last && i < plan_.size(); ++i) {
    const Step& s = plan_.step(i);
    estimated_done_ += visit == 0 ? s.seconds : s.later_seconds / std::max(1u, s.visits - 1);
  }
  if (visit != visit_) done_ = 0;
  visit_ = visit;
  done_ += g.last - g.first;
  const double elapsed = elapsed_s();
  const double pace = estimated_done_ > 0 ? elapsed / estimated_done_ : 1;
  const double left = std::max(0.0, estimated_total_ - estimated_done_) * pace;
  const std::size_t more = g.last - g.first - 1;
  const unsigned visits = g.first < plan_.size() ? plan_.step(g.first).visits : 1;
  const std::string visit_text =
      visits > 1 ? " visit " + std::to_string(visit + 1) + "/" + std::to_string(visits) : "";
  std::fprintf(stderr, "[%4zu/%zu%s] %s elapsed, ~%s left  %s%s\n", done_, configs_.size(),
               visit_text.c_str(), clock_string(elapsed).c_str(), clock_string(left).c_str(),
               configs_[g.first].name().c_str(),
               more ? (" and " + std::to_string(more) + " more").c_str() : "");
  std::fflush(stderr);
}

double Progress::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::revisited(GroupSpan g, unsigned visit, double slower, std::size_t n,
                         std::size_t of) {
  const double elapsed = elapsed_s();
  std::fprintf(stderr, "[revisit %zu/%zu] %s elapsed  %s: visit %u again (%.2fx its fastest)\n", n,
               of, clock_string(elapsed).c_str(), configs_[g.first].name().c_str(), visit + 1,
               slower);
  std::fflush(stderr);
}

}  // namespace chbench::bench
