#include "sweep.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include "chbench/simd.h"

namespace chbench::bench {

std::string Config::name() const {
  std::ostringstream s;
  if (profile)
    s << family << '/' << profile_name(*profile) << '/' << (client ? "libmemcached" : kernel->name);
  else
    s << family << '/' << scheme_name(kernel->scheme) << '/' << kernel->name;
  if (target != 0) s << '@' << simd::target_name(target);
  s << "/N:" << nodes << "/V:" << vnodes << "/K:" << keys << "/threads:" << threads;
  if (in_flight != 0) s << "/inflight:" << in_flight;
  if (window_bits != 0) s << "/window:" << window_bits;
  return s.str();
}

bool Config::is_stream() const noexcept { return kernel == &stream_baseline(); }

namespace {

class StreamTable final : public OwnerTable {
 public:
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    const uint64_t* in = h.data();
    uint32_t* o = out.data();
    for (std::size_t i = 0, n = h.size(); i < n; ++i) o[i] = static_cast<uint32_t>(in[i]);
  }
  uint32_t owner(uint64_t h) const override { return static_cast<uint32_t>(h); }
  std::size_t memory_bytes() const noexcept override { return 0; }
};

std::unique_ptr<OwnerTable> build_stream(const NodeSet&) { return std::make_unique<StreamTable>(); }

const KernelInfo kStream{Scheme::kRing, "stream",
                         "no lookup: reads each key hash, writes one owner (the memory floor)",
                         &build_stream};

}  // namespace

const KernelInfo& stream_baseline() noexcept { return kStream; }

uint64_t Config::peak_bytes() const {
  // Key hashes, kernel output and reference output; key strings for "hashed".
  const uint64_t pool = keys * pool_windows(keys);
  uint64_t bytes = pool * (8 + 4 + 4);
  if (family == "hashed") bytes += pool * 24;
  if (profile) {
    // Key strings and their views; a ring (cassandra, ketama: 160 points per
    // node) or a table as large as Maglev's, in the reference and the kernel.
    bytes += pool * (24 + 16);
    bytes += uint64_t{nodes} * std::max<uint64_t>(vnodes, 160) * 56 + 65537 * 16;
  } else if (is_stream()) {
    // No table, no reference.
  } else if (kernel->scheme == Scheme::kRing) {
    // Reference entries (16 B/token) stay alive while a kernel builds from a
    // second copy of the entries, a sorted ring (12 B) and its own layout: 12
    // B/token for most, 16 for the S-tree, up to 64 + 16 for the bucket index
    // (2 * 64 + 16 for tables of up to 4 MiB, which get twice the buckets).
    const uint64_t tokens = uint64_t{nodes} * vnodes;
    const uint64_t layout = kernel->name == "bucketed" ? (tokens <= 65536 ? 144 : 80)
                            : kernel->name == "stree"  ? 16
                                                       : 12;
    bytes += tokens * (16 + 16 + 12 + layout);
  } else {
    bytes += uint64_t{nodes} * 16;
  }
  return bytes;
}

namespace {

bool wanted(const SweepOptions& o, const std::string& family) {
  return o.families.empty() ||
         std::find(o.families.begin(), o.families.end(), family) != o.families.end();
}

std::vector<const KernelInfo*> selected(const SweepOptions& o, Scheme scheme) {
  std::vector<const KernelInfo*> out;
  for (const auto* k : kernels_of(scheme))
    if (o.kernels.empty() || std::find(o.kernels.begin(), o.kernels.end(), k) != o.kernels.end())
      out.push_back(k);
  return out;
}

void add(std::vector<Config>& out, const std::string& family, const KernelInfo* k, uint32_t n,
         uint32_t v, uint64_t keys, unsigned threads, int64_t target = 0) {
  out.push_back(Config{family, k, n, v, keys, threads, target, 0, 0, std::nullopt, false});
}

// The stream baseline goes with the ring kernels unless a kernel list leaves
// it out.
bool stream_wanted(const SweepOptions& o) {
  return o.kernels.empty() ||
         std::find(o.kernels.begin(), o.kernels.end(), &stream_baseline()) != o.kernels.end();
}

struct Ring {
  uint32_t n, v;
};

}  // namespace

std::vector<Config> make_sweep(const SweepOptions& o) {
  std::vector<Config> out;
  const uint64_t k_default = o.full ? 1'000'000 : 300'000;

  // Ring kernels against total tokens N*V. V = 100 virtual nodes throughout,
  // except the smallest rings; token counts step by ~3x and avoid 2^k.
  if (wanted(o, "tokens")) {
    std::vector<Ring> rings = {{10, 1},      {30, 1},       {10, 10},     {30, 10},
                               {10, 100},    {30, 100},     {100, 100},   {300, 100},
                               {655, 100},   {1000, 100},   {3000, 100},  {10000, 100},
                               {30000, 100}, {100000, 100}, {160000, 100}};
    if (!o.full) {
      // Quick: every other point, keeping 64k, 1M and 16M tokens.
      rings = {{10, 1},     {10, 10},     {10, 100},    {100, 100},    {655, 100},
               {3000, 100}, {10000, 100}, {30000, 100}, {100000, 100}, {160000, 100}};
    }
    for (auto [n, v] : rings) {
      for (const auto* k : selected(o, Scheme::kRing)) add(out, "tokens", k, n, v, k_default, 1);
      if (stream_wanted(o)) add(out, "tokens", &stream_baseline(), n, v, k_default, 1);
    }
  }

  // Latency: each lookup waits for the previous owner (one key at a time), the
  // same rings as "tokens" (quick: fewer of them).
  if (wanted(o, "latency")) {
    const std::vector<Ring> rings =
        o.full ? std::vector<Ring>{{10, 1},       {10, 10},     {10, 100},    {100, 100},
                                   {655, 100},    {3000, 100},  {10000, 100}, {30000, 100},
                                   {100000, 100}, {160000, 100}}
               : std::vector<Ring>{{10, 1}, {10, 100}, {655, 100}, {10000, 100}, {160000, 100}};
    const uint64_t keys = o.full ? 300'000 : 100'003;
    for (auto [n, v] : rings) {
      for (const auto* k : selected(o, Scheme::kRing)) add(out, "latency", k, n, v, keys, 1);
      if (stream_wanted(o)) add(out, "latency", &stream_baseline(), n, v, keys, 1);
    }
  }

  // Keys in flight: the S-tree's lockstep group and the bucket index's
  // prefetch distance, on a ring in the caches and two far larger.
  if (wanted(o, "inflight")) {
    const std::vector<Ring> rings = {{655, 100}, {10000, 100}, {160000, 100}};
    const std::vector<unsigned> groups = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    const std::vector<unsigned> distances = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
    for (auto [n, v] : rings)
      for (const auto* k : selected(o, Scheme::kRing)) {
        const auto& knobs = k->name == "stree" ? groups : distances;
        if (k->name != "stree" && k->name != "bucketed") continue;
        for (unsigned g : knobs) {
          add(out, "inflight", k, n, v, k_default, 1);
          out.back().in_flight = g;
        }
      }
  }

  // Clustered tokens: every token and key in one window of 2^36 hash values
  // (one bucket of any bucket index up to 2^28 buckets), the adversary's or a
  // bad hash's ring.
  if (wanted(o, "clustered")) {
    const std::vector<Ring> rings = {{655, 100}, {10000, 100}, {160000, 100}};
    for (auto [n, v] : rings)
      for (const auto* k : selected(o, Scheme::kRing)) {
        add(out, "clustered", k, n, v, k_default, 1);
        out.back().window_bits = 36;
      }
  }

  // Every scheme against node count at a fixed V = 100 for the ring.
  if (wanted(o, "nodes")) {
    std::vector<uint32_t> ns =
        o.full ? std::vector<uint32_t>{2,   3,   5,   7,   10,  20,   30,   50,   70,
                                       100, 200, 300, 500, 700, 1000, 2000, 3000, 4096}
               : std::vector<uint32_t>{2, 5, 10, 20, 50, 100, 200, 500, 1000, 4096};
    const uint64_t keys = o.full ? 300'000 : 100'000;
    for (uint32_t n : ns)
      for (Scheme s : all_schemes())
        for (const auto* k : selected(o, s)) add(out, "nodes", k, n, 100, keys, 1);
    // Jump and mod-N need no table: carry on to a million buckets.
    for (uint32_t n : {10'000u, 100'000u, 1'000'000u})
      for (Scheme s : {Scheme::kJump, Scheme::kModN})
        for (const auto* k : selected(o, s)) add(out, "nodes", k, n, 100, keys, 1);
  }

  // Batch size K from 10^3 to 10^7 at a mid-size fleet.
  if (wanted(o, "batch")) {
    std::vector<uint64_t> ks = {1'000,   3'000,     10'000,    30'000,    100'000,
                                300'000, 1'000'000, 3'000'000, 10'000'000};
    if (o.full)
      ks = {1'000,   2'000,   5'000,     10'000,    20'000,    50'000,    100'000,
            200'000, 500'000, 1'000'000, 2'000'000, 5'000'000, 10'000'000};
    for (uint64_t keys : ks)
      for (Scheme s : {Scheme::kRing, Scheme::kJump, Scheme::kModN})
        for (const auto* k : selected(o, s)) add(out, "batch", k, 1000, 100, keys, 1);
  }

  // Threads 1 ... max on a ring of ~64k tokens and the other schemes.
  if (wanted(o, "threads")) {
    const uint64_t keys = 1'000'000;
    for (Scheme s : all_schemes())
      for (const auto* k : selected(o, s))
        for (unsigned t = 1; t <= o.max_threads; ++t) {
          const uint32_t n = s == Scheme::kRing ? 655 : s == Scheme::kRendezvous ? 64 : 1000;
          add(out, "threads", k, n, 100, s == Scheme::kRendezvous ? keys / 4 : keys, t);
        }
  }

  // SIMD kernels at dispatch and forced to each target the CPU runs (SCALAR,
  // one lane, included), after the scalar kernels they are measured against,
  // at the sizes the speed-up figures quote. One thread, so that the ratios
  // come from one run on one core.
  if (wanted(o, "targets")) {
    struct Point {
      Scheme scheme;
      uint32_t n, v;
      uint64_t keys;
      std::vector<std::string_view> scalar;  // the counterparts to time once
    };
    const uint64_t keys = o.full ? 300'000 : 100'000;
    const std::vector<Point> points = {
        {Scheme::kRendezvous, 64, 100, keys, {"scalar"}},
        {Scheme::kRendezvous, 1000, 100, keys / 5, {"scalar"}},
        {Scheme::kJump, 1000, 100, keys, {"scalar", "interleaved"}},
        {Scheme::kJump, 1'000'000, 100, keys, {"scalar", "interleaved"}},
        {Scheme::kRing, 655, 100, keys, {"branchless", "eytzinger"}},
        {Scheme::kModN, 1000, 100, keys, {"scalar"}},
    };
    const auto targets = simd::runnable_targets();
    for (const auto& p : points) {
      const auto kernels = selected(o, p.scheme);
      for (const auto* k : kernels)
        if (std::find(p.scalar.begin(), p.scalar.end(), k->name) != p.scalar.end())
          add(out, "targets", k, p.n, p.v, p.keys, 1);
      for (const auto* k : kernels) {
        if (!simd::is_simd_kernel(*k)) continue;
        add(out, "targets", k, p.n, p.v, p.keys, 1);
        for (int64_t t : targets) add(out, "targets", k, p.n, p.v, p.keys, 1, t);
      }
    }
  }

  // Production profiles from key strings: our kernels beside libmemcached on
  // the same keys (ketama, up to its 100 servers), then ours alone.
  if (wanted(o, "profiles")) {
    struct Point {
      Profile profile;
      uint32_t n, v;
      bool client;
    };
    const std::vector<Point> points = {
        {Profile::kKetama, 10, 1, true},       {Profile::kKetama, 100, 1, true},
        {Profile::kKetama, 1000, 1, false},    {Profile::kKetama, 10000, 1, false},
        {Profile::kRedis, 3, 1, false},        {Profile::kRedis, 100, 1, false},
        {Profile::kKafka, 12, 1, false},       {Profile::kKafka, 1000, 1, false},
        {Profile::kCassandra, 12, 256, false}, {Profile::kCassandra, 100, 256, false},
        {Profile::kMaglev, 100, 1, false},     {Profile::kMaglev, 1000, 1, false},
    };
    const uint64_t keys = o.full ? 300'000 : 100'000;
    for (const auto& p : points) {
      auto kernels = selected(o, profile_scheme(p.profile));
      // The ring's binary searches are its slow baselines; the profiles time
      // the kernels a client would pick.
      std::erase_if(kernels, [](const KernelInfo* k) {
        return k->name == "lower_bound" || k->name == "simd_branchless";
      });
      if (kernels.empty()) continue;
      if (p.client) {
        out.push_back(Config{"profiles", nullptr, p.n, p.v, keys, 1, 0, 0, 0, p.profile, true});
      }
      for (const auto* k : kernels)
        out.push_back(Config{"profiles", k, p.n, p.v, keys, 1, 0, 0, 0, p.profile, false});
    }
  }

  // Lookups including XXH3 of the key strings, one thread.
  if (wanted(o, "hashed")) {
    for (Scheme s : all_schemes())
      for (const auto* k : selected(o, s)) add(out, "hashed", k, 1000, 100, k_default, 1);
  }
  return out;
}

uint64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

}  // namespace chbench::bench
