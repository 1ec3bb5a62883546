#include "config.h"

#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

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

uint64_t Config::tokens() const noexcept {
  const bool vnodes_count = kernel && kernel->scheme_info().takes(kParamVnodes);
  return vnodes_count ? uint64_t{nodes} * vnodes : 0;
}

uint64_t Config::pool() const noexcept { return keys * pool_windows(keys); }

std::shared_ptr<const Fleet> default_fleet(uint32_t n, uint32_t vnodes) {
  // Families run fleet after fleet: the last few cover every repeat.
  static std::map<std::pair<uint32_t, uint32_t>, std::shared_ptr<const Fleet>> cache;
  static uint64_t names = 0;
  const auto key = std::pair{n, vnodes};
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  if (names + n > 4'000'000) {
    cache.clear();
    names = 0;
  }
  auto fleet = std::make_shared<const Fleet>(default_nodes(n, vnodes));
  cache.emplace(key, fleet);
  names += n;
  return fleet;
}

bool config_named(const Config& c) {
  return c.profile || c.kernel == nullptr || !c.kernel->scheme_info().buckets_only;
}

std::shared_ptr<const Fleet> config_fleet(const Config& c) {
  if (config_named(c)) return default_fleet(c.nodes, c.vnodes);
  static std::map<uint32_t, std::shared_ptr<const Fleet>> cache;  // no names: bytes each
  auto& fleet = cache[c.nodes];
  if (!fleet) fleet = std::make_shared<const Fleet>(Fleet::of_buckets(c.nodes));
  return fleet;
}

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

std::unique_ptr<OwnerTable> make_stream(const Fleet&, unsigned knob) {
  if (knob != 0) throw std::invalid_argument("ring/stream has no knob (keys in flight)");
  return std::make_unique<StreamTable>();
}

uint64_t no_bytes(const Fleet&) { return 0; }

constinit const KernelInfo kStream{
    Scheme::kRing,
    "stream",
    "no lookup: reads each key hash, writes one owner (the memory floor)",
    false,
    "",
    false,
    -1,
    nullptr,
    &make_stream,
    &no_bytes,
    nullptr};

}  // namespace

const KernelInfo& stream_baseline() noexcept { return kStream; }

}  // namespace chbench::bench
