// Family removals: lookups after a share of the fleet left, 0, 10, 50 and 90%
// of N = 1,000 and 10^6 nodes. Every scheme that lets any node leave
// (SchemeInfo::removal kAnyNode: the schemes that replay the fleet's history,
// AnchorHash, DxHash, MementoHash, JumpBackAnchor; ring, rendezvous and Maglev
// rebuilt from the survivors) loses its nodes in a seeded random order
// (kRemovalSeed); the schemes that let only the last node leave (kLastOnly:
// jump hash and its successors) lose them last first (LIFO) beside them, and
// say so in their names (/order:lifo); mod-N (kNone) is left out. Every
// configuration also times the table rebuilt after one more removal and after
// one re-add (remove_us, readd_us; plan.h, change_builds). Then all hardware
// threads at 50% removed.
#include <algorithm>
#include <utility>

#include "../sweep.h"
#include "family.h"

namespace chbench::bench {

namespace {

constexpr std::string_view kFamily = "removals";
// The removed percentages, in listing order.
constexpr uint32_t kPercents[] = {0, 10, 50, 90};
// Half removed is the quick sweep's first point at either N.
constexpr uint32_t kFirstPercent = 50;
// A point at N = 10^6 estimated above this is left to the full sweep, so
// that it cannot stop the quick budget from taking the cheaper points ranked
// after it: the ring of 10^7 tokens, built three times a configuration (about
// 4 s by the estimate at half removed, 1.1 s at 90 %), and
// every scheme built from the 10^6 named nodes of a random-order scenario
// (DxHash, AnchorHash, MementoHash, JumpBackAnchor, multi-probe: each build
// replays the fleet's history, 4-9 s a point by the estimate, as measured);
// the schemes of bucket counts alone (jump hash and its successors, LIFO)
// stay.
constexpr double kQuickPointSeconds = 3;

// The fleets, and what one scheme's cost forces at each.
struct Size {
  uint32_t n;
  // Ring tokens per node: at N = 10^6, V = 10 (10^7 tokens at 0% removed);
  // V = 100 would make a ring of 10^8 tokens, some 5 GiB for the ring kernels
  // alone, built three times a configuration.
  uint32_t vnodes;
  // Maglev's M, a prime of at least N (maglev.h): the default 65537 at
  // 1,000 (65 slots a node, as in every other family); 10,000,019, the first
  // prime past 10^7, at 10^6 (10 slots a node: the table is 40 MB).
  uint32_t table_size;
};
constexpr Size kSmall{1000, 100, 0};
constexpr Size kLarge{1'000'000, 10, 10'000'019};

bool in_family(const SchemeInfo& s) { return s.removal != Removal::kNone; }

// Rendezvous (weighted too) scores every node for every key: at N = 1,000 it gets a fifth of
// the keys (as in family targets); at 10^6 it is left out, since each key
// would cost about a millisecond, and the check over its 100,003 checked keys
// (plan.h) minutes for each of its kernels.
bool measured_at(const SchemeInfo& s, const Size& size) {
  if (size.n > s.max_nodes) return false;
  return !(scores_every_node(s.id) && size.n > kSmall.n);
}
uint64_t keys_for(const SchemeInfo& s, uint64_t keys) {
  return scores_every_node(s.id) ? keys / 5 : keys;
}

// Maglev (the schemes with a table size M) fills 10^7 slots at N = 10^6:
// about 3 s a build on the 2-core machine, four builds a configuration (its
// reference, its table, the remove and re-add builds), which the estimate,
// by bytes, does not see. Full sweep only.
bool quick_at(const SchemeInfo& s, const Size& size) {
  return size.n == kSmall.n || !s.takes(kParamTableSize);
}

Config removal_config(const KernelInfo* k, const Size& size, uint32_t percent, uint64_t keys,
                      unsigned threads) {
  const SchemeInfo& s = k->scheme_info();
  Config c = make_config(kFamily, k, size.n, size.vnodes, keys_for(s, keys), threads);
  c.counts[param_index(kParamTableSize)] = size.table_size;
  const bool any = s.removal == Removal::kAnyNode;
  c.removals = Removals{percent / 100.0, any ? RemovalOrder::kRandom : RemovalOrder::kLifo};
  return c;
}

// Every kernel of the schemes given at one size and share removed (the
// quick sweep: each scheme's default kernel unless kernels are chosen, so that
// its budget takes several shares removed); kFullOnly until ranked
// (rank_quick).
Point removal_point(const std::vector<const SchemeInfo*>& schemes, const Size& size,
                    uint32_t percent, uint64_t keys, unsigned threads,
                    const FamilyContext& context) {
  Point p;
  for (const SchemeInfo* s : schemes)
    for (const KernelInfo* k : kernels_of(s->id))
      if (quick_kernel(context, k))
        p.configs.push_back(removal_config(k, size, percent, keys, threads));
  return p;
}

// A point and what its quick rank goes by: its group (the order below), then
// `cost` within the group.
struct Candidate {
  int group;
  double cost;
};

// The quick ranks, in this order of groups: N = 1,000 at half removed; the
// other percentages at 1,000 (a tenth, none, most: the quick sweep draws a
// curve over at least three shares removed); the points at 10^6 at half
// removed; the other points at 10^6; all threads. Within the groups at
// 10^6 (one point per scheme and percentage, so that the budget can take
// the cheap ones without the ring), the cheapest by the estimate first; a
// point there that the quick sweep leaves out (quick_at, kQuickPointSeconds)
// stays kFullOnly.
void rank_quick(std::vector<Point>& points, const std::vector<Candidate>& candidates) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (candidates[i].group >= 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::pair(candidates[a].group, candidates[a].cost) <
           std::pair(candidates[b].group, candidates[b].cost);
  });
  for (std::size_t r = 0; r < order.size(); ++r) points[order[r]].quick = static_cast<int>(r);
}

// The quick sweep's order of the percentages at N = 1,000 after the first.
double small_cost(uint32_t percent) { return percent == 10 ? 0 : percent == 0 ? 1 : 2; }

}  // namespace

std::vector<Point> removals_points(const FamilyContext& context) {
  const uint64_t keys = context.full ? 300'000 : 100'000;
  std::vector<const SchemeInfo*> small, large;
  for (const SchemeInfo& s : all_scheme_infos()) {
    if (!in_family(s)) continue;
    if (measured_at(s, kSmall)) small.push_back(&s);
    if (measured_at(s, kLarge)) large.push_back(&s);
  }
  std::vector<Point> out;
  std::vector<Candidate> candidates;  // one per point of `out`
  for (uint32_t percent : kPercents) {
    out.push_back(removal_point(small, kSmall, percent, keys, 1, context));
    const bool first = percent == kFirstPercent;
    candidates.push_back({first ? 0 : 1, first ? 0 : small_cost(percent)});
  }
  for (uint32_t percent : kPercents)
    for (const SchemeInfo* s : large) {
      out.push_back(removal_point({s}, kLarge, percent, keys, 1, context));
      const double seconds =
          context.full ? 0 : Plan(out.back().configs, kQuickPointsModel).seconds();
      const bool quick = quick_at(*s, kLarge) && seconds <= kQuickPointSeconds;
      candidates.push_back({!quick ? -1 : percent == kFirstPercent ? 2 : 3, seconds});
    }
  if (context.max_threads > 1) {
    out.push_back(removal_point(small, kSmall, kFirstPercent, keys, context.max_threads, context));
    candidates.push_back({4, 0});
    if (context.full)
      for (const SchemeInfo* s : large)
        out.push_back(
            removal_point({s}, kLarge, kFirstPercent, keys, context.max_threads, context));
  }
  if (!context.full) rank_quick(out, candidates);
  std::erase_if(out, [](const Point& p) { return p.configs.empty(); });
  return out;
}

}  // namespace chbench::bench
