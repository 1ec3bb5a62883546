// Family profiles: production placement profiles from key strings, key
// hashing included, one thread: our kernels beside the system's own lookup on
// the same keys (libmemcached for ketama, up to its 100 servers; the
// reproduced own search of each proxy and client), then ours alone
// (profiles.h).
#include "../profiles.h"

#include <algorithm>

#include "family.h"

namespace chbench::bench {

namespace {

struct ProfilePoint {
  Profile profile;
  uint32_t n, v;
  bool client;  // time the system's own lookup beside ours (own_lookup_name)
  int rank;
};
// Quick ranks: the original profiles first, then each proxy's profile at
// N = 100 (ranks 12 ...), then the proxies at N = 10 (full sweep mostly).
constexpr ProfilePoint kPoints[] = {
    {Profile::kKetama, 10, 1, true, 0},
    {Profile::kKetama, 100, 1, true, 1},
    {Profile::kKetama, 1000, 1, false, 6},
    {Profile::kKetama, 10000, 1, false, 11},
    {Profile::kRedis, 3, 1, false, 2},
    {Profile::kRedis, 100, 1, false, 7},
    {Profile::kKafka, 12, 1, false, 3},
    {Profile::kKafka, 1000, 1, false, 8},
    {Profile::kCassandra, 12, 256, false, 4},
    {Profile::kCassandra, 100, 256, false, 9},
    {Profile::kMaglev, 100, 1, false, 5},
    {Profile::kMaglev, 1000, 1, false, 10},
    {Profile::kHaproxyConsistent, 100, 1, true, 12},
    {Profile::kHaproxyMap, 100, 1, true, 13},
    {Profile::kTwemproxyKetama, 100, 1, true, 14},
    {Profile::kEnvoyMaglev, 100, 1, true, 15},
    {Profile::kGroupcache, 100, 50, true, 16},
    {Profile::kGoRedisRing, 100, 1, true, 17},
    {Profile::kEnvoyRingHash, 100, 1024, true, 18},
    {Profile::kGrpcRingHash, 100, 1024, true, 19},
    {Profile::kNginxConsistent, 100, 1, true, 20},
    {Profile::kNginxHash, 100, 1, true, 21},
    {Profile::kHaproxyConsistent, 10, 1, true, 24},
    {Profile::kHaproxyMap, 10, 1, true, 25},
    {Profile::kTwemproxyKetama, 10, 1, true, 26},
    {Profile::kEnvoyMaglev, 10, 1, true, 27},
    {Profile::kGroupcache, 10, 50, true, 28},
    {Profile::kGoRedisRing, 10, 1, true, 29},
    {Profile::kEnvoyRingHash, 10, 1024, true, 30},
    {Profile::kGrpcRingHash, 10, 1024, true, 31},
    {Profile::kNginxConsistent, 10, 1, true, 32},
    {Profile::kNginxHash, 10, 1, true, 33},
};

// The profiles whose table is their own lookup whatever kernel is named (no
// registry kernel computes their score: go-redis's mixer), timed by their
// own lookup alone.
bool own_lookup_only(Profile p) { return p == Profile::kGoRedisRing; }

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
    if (pp.client || own_lookup_only(pp.profile))
      p.configs.push_back(profile_config(pp, nullptr, keys));
    if (own_lookup_only(pp.profile)) {
      out.push_back(std::move(p));
      continue;
    }
    // The kernels a client would pick: the slow baselines are left out.
    for (const KernelInfo* k : kernels_of(profile_scheme(pp.profile)))
      if (!k->baseline) p.configs.push_back(profile_config(pp, k, keys));
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace chbench::bench
