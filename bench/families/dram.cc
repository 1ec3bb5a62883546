// Family dram: batches of K = 10^7 keys, the size the public implementations'
// own harnesses stream from memory, so that their published figures can be
// set beside ours from the bench alone. Each point times the stream baseline
// (read a key hash, write an owner: the memory floor at this K) beside its
// kernels: jump hash and its successors at N = 1,000, 10^6 and 2^20 + 1, with
// the compute floor (one multiply-xorshift and a multiply-shift a key) too,
// and the schemes that replay a fleet's history (SchemeInfo::reads_history)
// with half of 10^6 buckets removed in random order at a capacity of 10^6,
// the public implementations' setting. One thread.
#include <optional>

#include "family.h"

namespace chbench::bench {

namespace {

constexpr std::string_view kFamily = "dram";
constexpr uint64_t kKeys = 10'000'000;
constexpr uint32_t kRemovalNodes = 1'000'000;

bool bucket_count_scheme(const SchemeInfo& s) {
  return s.buckets_only && s.removal == Removal::kLastOnly;
}

// The kernels of the schemes `in` takes at N (each scheme's default kernel
// alone in the quick sweep), then the stream baseline and the compute floor;
// `removals` set for a fleet after removals, which the stream baseline takes
// too (its name then differs from the point's without removals at the same N
// and K) and the compute floor, a mod-N kernel that cannot lose a node, does
// not join.
template <class In>
Point dram_point(uint32_t n, In in, std::optional<Removals> removals, int rank,
                 const FamilyContext& context) {
  Point p;
  p.quick = quick_rank(context, rank);
  for (const SchemeInfo& s : all_scheme_infos()) {
    if (!in(s) || n > s.max_nodes) continue;
    for (const KernelInfo* k : kernels_of(s.id)) {
      if (!quick_kernel(context, k)) continue;
      p.configs.push_back(make_config(kFamily, k, n, 1, kKeys));
      p.configs.back().removals = removals;
    }
  }
  if (p.configs.empty()) return p;
  p.configs.push_back(make_config(kFamily, &stream_baseline(), n, 1, kKeys));
  p.configs.back().removals = removals;
  if (!removals) p.configs.push_back(make_config(kFamily, &compute_floor(), n, 1, kKeys));
  return p;
}

}  // namespace

// The quick sweep: N = 10^6, each scheme's default kernel; the history
// readers' point (a build replays 10^6 joins and half as many leaves, seconds
// a kernel) and the other N in the full sweep.
std::vector<Point> dram_points(const FamilyContext& context) {
  std::vector<Point> out;
  out.push_back(dram_point(1'000'000, bucket_count_scheme, std::nullopt, 0, context));
  out.push_back(dram_point(1000, bucket_count_scheme, std::nullopt, kFullOnly, context));
  out.push_back(dram_point((1u << 20) + 1, bucket_count_scheme, std::nullopt, kFullOnly, context));
  const Removals half{0.5, RemovalOrder::kRandom};
  out.push_back(dram_point(
      kRemovalNodes, [](const SchemeInfo& s) { return s.reads_history; }, half, kFullOnly,
      context));
  for (Config& c : out.back().configs)  // the history readers at a capacity of 10^6
    if (c.kernel->floor.empty()) c.counts[param_index(kParamCapacity)] = kRemovalNodes;
  std::erase_if(out, [](const Point& p) { return p.configs.empty(); });
  return out;
}

}  // namespace chbench::bench
