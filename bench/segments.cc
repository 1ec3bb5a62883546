#include "segments.h"

#include <algorithm>
#include <array>
#include <iterator>

#include "chbench/params.h"

namespace chbench::bench {

namespace {

// A parameter's segment, from its kParams entry: a count is a whole number,
// per-node values a word (the weight pattern's "1-4").
constexpr SegmentInfo param_segment(const ParamInfo& info) {
  const SegmentKind kind = info.kind == ParamKind::kCount ? SegmentKind::kInt : SegmentKind::kWord;
  return {info.segment, info.field, kind, info.symbol};
}

// The order of a name's segments, as the committed runs and the scripts know
// it; a parameter not placed here follows it (all_segments).
constexpr SegmentInfo kPlaced[] = {
    {"N", "nodes", SegmentKind::kInt, "N"},
    param_segment(param_info(kParamVnodes)),
    {"K", "keys", SegmentKind::kInt, "K"},
    {"threads", "threads", SegmentKind::kInt, "threads"},
    {"inflight", "in_flight", SegmentKind::kInt, "in flight"},
    {"window", "window_bits", SegmentKind::kInt, "window bits"},
    param_segment(param_info(kParamTableSize)),
    {"c", "balance_factor", SegmentKind::kNumber, "c"},
    {"removed", "removed_pct", SegmentKind::kNumber, "removed %"},
    {"order", "removal_order", SegmentKind::kWord, "order"},
    param_segment(param_info(kParamCapacity)),
    {"change", "change", SegmentKind::kWord, "change"},
    param_segment(param_info(kParamWeights)),
    {"R", "replicas", SegmentKind::kInt, "R"},
};

constexpr bool placed(std::string_view key) {
  for (const SegmentInfo& s : kPlaced)
    if (s.key == key) return true;
  return false;
}

// kPlaced, then the segment of every parameter it does not place.
constexpr auto kSegments = [] {
  constexpr std::size_t more =
      std::count_if(std::begin(kParams), std::end(kParams),
                    [](const ParamInfo& p) { return !p.segment.empty() && !placed(p.segment); });
  std::array<SegmentInfo, std::size(kPlaced) + more> out{};
  std::size_t i = 0;
  for (const SegmentInfo& s : kPlaced) out[i++] = s;
  for (const ParamInfo& p : kParams)
    if (!p.segment.empty() && !placed(p.segment)) out[i++] = param_segment(p);
  return out;
}();

}  // namespace

std::span<const SegmentInfo> all_segments() noexcept { return kSegments; }

std::size_t segment_rank(std::string_view key) noexcept {
  std::size_t i = 0;
  while (i < kSegments.size() && kSegments[i].key != key) ++i;
  return i;
}

std::string_view segment_kind_name(SegmentKind kind) noexcept {
  switch (kind) {
    case SegmentKind::kInt:
      return "int";
    case SegmentKind::kNumber:
      return "number";
    case SegmentKind::kWord:
      return "word";
  }
  return "word";
}

}  // namespace chbench::bench
