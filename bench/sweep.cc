#include "sweep.h"

#include <algorithm>
#include <numeric>

#include "chbench/saturate.h"
#include "chbench/simd.h"

namespace chbench::bench {

namespace {

std::vector<Config> concat(const std::vector<Point>& points,
                           const std::vector<std::size_t>& which) {
  std::vector<Config> out;
  for (std::size_t i : which)
    out.insert(out.end(), points[i].configs.begin(), points[i].configs.end());
  return out;
}

// The quick points that fit the budget, taken by rank; in listing order.
// Points marked kFullOnly are never taken.
std::vector<std::size_t> within_budget(const std::vector<Point>& points, double budget_s) {
  std::vector<std::size_t> by_rank;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (points[i].quick != kFullOnly) by_rank.push_back(i);
  std::stable_sort(by_rank.begin(), by_rank.end(),
                   [&](std::size_t a, std::size_t b) { return points[a].quick < points[b].quick; });
  std::vector<std::size_t> chosen;
  for (std::size_t i : by_rank) {
    std::vector<std::size_t> trial = chosen;
    trial.insert(std::upper_bound(trial.begin(), trial.end(), i), i);
    if (!chosen.empty() && Plan(concat(points, trial), kQuickPointsModel).seconds() > budget_s)
      break;
    chosen = std::move(trial);
  }
  return chosen;
}

bool selected(const SweepOptions& o, const KernelInfo* k) {
  return o.kernels.empty() || std::find(o.kernels.begin(), o.kernels.end(), k) != o.kernels.end();
}

// The point's configurations of the selected kernels; a profile's client
// stays when one of the profile's kernels does, or when no kernel was chosen
// (a profile timed by its own lookup alone has no kernel configuration).
std::vector<Config> narrowed(const SweepOptions& o, const Point& p) {
  std::vector<Config> out;
  bool kernel_left = o.kernels.empty();
  for (const Config& c : p.configs)
    if (!c.client && selected(o, c.kernel)) kernel_left = true;
  for (const Config& c : p.configs)
    if (c.client ? kernel_left : selected(o, c.kernel)) out.push_back(c);
  return out;
}

// The quick sweep leaves out a configuration whose one batch the time model
// puts over this, unless --kernels or --schemes chose its kernel: weighted
// rendezvous' scalar kernel at 1,000 nodes (1.85 s a batch of 10^5 keys on a
// Zen 3 VM, ten rounds of it a third of family nodes' time; 0.4 s a batch of
// 2 x 10^4 in hashed). Its scheme's faster kernels stay, and the full sweep
// times it.
constexpr double kQuickMaxBatchSeconds = 0.2;

void drop_slow_batches(std::vector<Config>& configs) {
  std::erase_if(configs, [](const Config& c) {
    return !c.client && batch_seconds(c) > kQuickMaxBatchSeconds;
  });
}

}  // namespace

void assign_groups(std::vector<Config>& configs, uint32_t& next) {
  uint64_t held = 0;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const uint64_t bytes = group_member_bytes(configs[i]);
    if (i != 0 && bytes > kMaxGroupBytes - std::min(held, kMaxGroupBytes)) {
      ++next;
      held = 0;
    }
    held = saturating_add(held, bytes);
    configs[i].group = next;
  }
  ++next;
}

std::vector<FamilySweep> make_sweep(const SweepOptions& o) {
  FamilyContext context;
  context.full = o.full;
  context.max_threads = o.max_threads;
  context.kernels_chosen = !o.kernels.empty();
  context.targets = simd::runnable_targets();
  std::vector<FamilySweep> out;
  uint32_t group = 0;
  for (const Family& f : all_families()) {
    if (!o.families.empty() &&
        std::find(o.families.begin(), o.families.end(), &f) == o.families.end())
      continue;
    const auto points = f.points(context);
    auto fast = points;  // the points the quick sweep chooses from, and times unless --kernels
    if (!o.full)
      for (Point& p : fast) drop_slow_batches(p.configs);
    std::vector<std::size_t> which(points.size());
    std::iota(which.begin(), which.end(), 0);
    if (!o.full) which = within_budget(fast, f.quick_budget_s);
    FamilySweep sweep{&f, {}};
    if (!o.full) {
      sweep.points_kept = which.size();
      sweep.points_quick = std::count_if(points.begin(), points.end(),
                                         [](const Point& p) { return p.quick != kFullOnly; });
    }
    for (std::size_t i : which) {
      auto configs = narrowed(o, o.kernels.empty() ? fast[i] : points[i]);
      if (!o.family_groups) assign_groups(configs, group);
      sweep.configs.insert(sweep.configs.end(), configs.begin(), configs.end());
    }
    if (o.family_groups) assign_groups(sweep.configs, group);
    if (!sweep.configs.empty()) out.push_back(std::move(sweep));
  }
  return out;
}

}  // namespace chbench::bench
