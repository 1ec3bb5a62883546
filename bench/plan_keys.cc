#include "plan_keys.h"

namespace chbench::bench {

std::optional<RingKey> ring_key(const Config& c) {
  if (c.profile || !c.kernel || !c.kernel->make_over_ring) return std::nullopt;
  return RingKey{c.nodes, c.vnodes, c.window_bits, c.removals, c.change};
}

std::vector<Config> change_builds(const Config& c) {
  if (!c.removals || c.profile || c.is_floor()) return {};
  std::vector<Config> out;
  // With none removed, the re-add is a new node: no room for it in a
  // capacity of exactly N.
  const uint32_t capacity = c.count(kParamCapacity);
  const bool full = c.survivors() == c.nodes && capacity != 0 && capacity <= c.nodes;
  for (Change change : {Change::kRemoveOne, Change::kReaddOne}) {
    if (change == Change::kRemoveOne && c.survivors() < 2) continue;
    if (change == Change::kReaddOne && full) continue;
    out.push_back(c);
    out.back().change = change;
  }
  return out;
}

std::optional<ReferenceKey> reference_key(const Config& c) {
  if (c.profile)
    return ReferenceKey{-1, static_cast<int>(*c.profile), c.nodes, c.vnodes, 0, std::nullopt, {}};
  if (c.is_floor()) return std::nullopt;
  const bool vnodes = c.kernel->scheme_info().takes(kParamVnodes);
  return ReferenceKey{static_cast<int>(c.kernel->scheme),
                      -1,
                      c.nodes,
                      vnodes ? c.vnodes : 0,
                      c.window_bits,
                      c.removals,
                      c.named_counts(),
                      c.scheme_weighted()};
}

TableKey table_key(const Config& c) {
  return TableKey{c.client ? 0 : reinterpret_cast<std::uintptr_t>(c.kernel),
                  c.profile ? static_cast<int>(*c.profile) : -1,
                  c.nodes,
                  c.vnodes,
                  c.window_bits,
                  c.in_flight,
                  c.target,
                  c.removals,
                  c.named_counts(),
                  c.scheme_weighted(),
                  c.replicas};
}

CheckKey check_key(const Config& c) {
  return CheckKey{table_key(c), c.path, c.path == Path::kThroughput ? c.threads : 1};
}

}  // namespace chbench::bench
