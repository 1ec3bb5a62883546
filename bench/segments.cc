#include "segments.h"

#include "chbench/params.h"

namespace chbench::bench {

namespace {

// A parameter's segment, from its kParams entry.
constexpr SegmentInfo param_segment(Param p, SegmentKind kind) {
  const ParamInfo& info = param_info(p);
  return {info.segment, info.field, kind, info.symbol};
}

constinit const SegmentInfo kSegments[] = {
    {"N", "nodes", SegmentKind::kInt, "N"},
    param_segment(kParamVnodes, SegmentKind::kInt),
    {"K", "keys", SegmentKind::kInt, "K"},
    {"threads", "threads", SegmentKind::kInt, "threads"},
    {"inflight", "in_flight", SegmentKind::kInt, "in flight"},
    {"window", "window_bits", SegmentKind::kInt, "window bits"},
    param_segment(kParamTableSize, SegmentKind::kInt),
    {"c", "balance_factor", SegmentKind::kNumber, "c"},
    {"removed", "removed_pct", SegmentKind::kNumber, "removed %"},
    {"order", "removal_order", SegmentKind::kWord, "order"},
    param_segment(kParamCapacity, SegmentKind::kInt),
    {"change", "change", SegmentKind::kWord, "change"},
    param_segment(kParamWeights, SegmentKind::kWord),
    {"R", "replicas", SegmentKind::kInt, "R"},
};

}  // namespace

std::span<const SegmentInfo> all_segments() noexcept { return kSegments; }

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
