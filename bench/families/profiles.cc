// Family profiles: production placement profiles from key strings, key
// hashing included, one thread: our kernels beside libmemcached on the same
// keys (ketama, up to its 100 servers), then ours alone (profiles.h).
#include "../profiles.h"

#include <algorithm>

#include "family.h"

namespace chbench::bench {

namespace {

struct ProfilePoint {
  Profile profile;
  uint32_t n, v;
  bool client;  // time libmemcached's own lookup beside ours
  int rank;
};
constexpr ProfilePoint kPoints[] = {
    {Profile::kKetama, 10, 1, true, 0},       {Profile::kKetama, 100, 1, true, 1},
    {Profile::kKetama, 1000, 1, false, 6},    {Profile::kKetama, 10000, 1, false, 11},
    {Profile::kRedis, 3, 1, false, 2},        {Profile::kRedis, 100, 1, false, 7},
    {Profile::kKafka, 12, 1, false, 3},       {Profile::kKafka, 1000, 1, false, 8},
    {Profile::kCassandra, 12, 256, false, 4}, {Profile::kCassandra, 100, 256, false, 9},
    {Profile::kMaglev, 100, 1, false, 5},     {Profile::kMaglev, 1000, 1, false, 10},
};

Config profile_config(const ProfilePoint& p, const KernelInfo* k, uint64_t keys) {
  Config c = make_config("profiles", k, p.n, p.v, keys, 1, Path::kProfile);
  c.profile = p.profile;
  c.client = k == nullptr;
  return c;
}

}  // namespace

std::vector<Point> profiles_points(const FamilyContext& context) {
  const uint64_t keys = context.full ? 300'000 : 100'000;
  std::vector<Point> out;
  for (const ProfilePoint& pp : kPoints) {
    Point p;
    p.quick = quick_rank(context, pp.rank);
    if (pp.client) p.configs.push_back(profile_config(pp, nullptr, keys));
    // The kernels a client would pick: the slow baselines are left out.
    for (const KernelInfo* k : kernels_of(profile_scheme(pp.profile)))
      if (!k->baseline) p.configs.push_back(profile_config(pp, k, keys));
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace chbench::bench
