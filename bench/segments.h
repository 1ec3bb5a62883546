// The parameters a configuration's name carries: after
// "<family>/<scheme>/<kernel>", one "/<key>:<value>" segment each, in the
// order Config::name() writes them. The results describe them
// (chbench_families, families_json.h) and the plot scripts parse names by
// that description, so a new parameter needs no script's table.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chbench::bench {

// How a segment's value is written.
enum class SegmentKind {
  kInt,     // a whole number
  kNumber,  // a number that need not be whole, 6 significant digits (12.5, 1.05)
  kWord,    // a word (lifo, remove, 1-4)
};

struct SegmentInfo {
  std::string_view key;    // in the name: "N" of "/N:1000"
  std::string_view field;  // the parameter's name in the scripts ("nodes"); the
                           // counter of that name, where one is written, holds it too
  SegmentKind kind;
  std::string_view title;  // what it is, for a table's heading or a legend
};

// Every segment a name may carry, in name order: the bench's own and the
// parameters' (kParams' segments) where names have always carried them, then
// every other parameter with a segment, in kParams' order.
std::span<const SegmentInfo> all_segments() noexcept;

// The key's place in all_segments(); its size for a key not there.
std::size_t segment_rank(std::string_view key) noexcept;

// "int", "number" or "word".
std::string_view segment_kind_name(SegmentKind kind) noexcept;

// A configuration's segments, (key, value) in name order: what Config::name()
// joins after its first three parts.
using Segments = std::vector<std::pair<std::string_view, std::string>>;

}  // namespace chbench::bench
