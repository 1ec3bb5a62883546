// What a sweep shares between configurations, by key (plan.h): the sorted
// ring, the reference's owners, a built table and its check. Two
// configurations share one when their keys are equal; every key holds what
// makes the thing it names differ.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <vector>

#include "config.h"

namespace chbench::bench {

// Every key holds the configuration's removals (Config::removals), so that
// rings, references and tables of different fleets are never shared, and
// the count parameters the scheme takes (Maglev's M, the capacity, ...).
struct RingKey {
  uint32_t n = 0, v = 0;
  unsigned window = 0;
  std::optional<Removals> removals;
  Change change = Change::kNone;  // the rings of the remove_us / readd_us builds
  friend auto operator<=>(const RingKey&, const RingKey&) = default;
};

struct ReferenceKey {
  int scheme = -1, profile = -1;  // Scheme or Profile as int; -1 for none
  uint32_t n = 0, v = 0;          // v is 0 for schemes that take no virtual nodes
  unsigned window = 0;
  std::optional<Removals> removals;
  ParamCounts counts{};   // Config::named_counts()
  bool weighted = false;  // Config::scheme_weighted()
  friend auto operator<=>(const ReferenceKey&, const ReferenceKey&) = default;
};

struct TableKey {
  std::uintptr_t kernel = 0;  // the KernelInfo's address; 0 for a profile's client
  int profile = -1;
  uint32_t n = 0, v = 0;
  unsigned window = 0, knob = 0;
  int64_t target = 0;
  std::optional<Removals> removals;
  ParamCounts counts{};   // Config::named_counts()
  bool weighted = false;  // Config::scheme_weighted()
  uint32_t replicas = 0;  // Config::replicas
  friend auto operator<=>(const TableKey&, const TableKey&) = default;
};

struct CheckKey {
  TableKey table;
  Path path = Path::kThroughput;
  unsigned threads = 1;  // 1 on the single-threaded paths
  friend auto operator<=>(const CheckKey&, const CheckKey&) = default;
};

// The sorted ring a configuration's table is built over, or none (a kernel
// without make_over_ring, the stream baseline, a profile).
std::optional<RingKey> ring_key(const Config& c);
// The change builds a configuration makes before it is timed (remove_us,
// readd_us): with removals, the fleet with one more removal (unless one node
// is left) and with one re-add; none otherwise, nor for the stream baseline
// or a profile. Each is `c` with Config::change set.
std::vector<Config> change_builds(const Config& c);
// The reference a configuration is checked against, or none (the stream
// baseline).
std::optional<ReferenceKey> reference_key(const Config& c);
TableKey table_key(const Config& c);
CheckKey check_key(const Config& c);

}  // namespace chbench::bench
