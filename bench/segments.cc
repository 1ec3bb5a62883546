#include "segments.h"

namespace chbench::bench {

namespace {

constinit const SegmentInfo kSegments[] = {
    {"N", "nodes", SegmentKind::kInt, "N"},
    {"V", "vnodes", SegmentKind::kInt, "V"},
    {"K", "keys", SegmentKind::kInt, "K"},
    {"threads", "threads", SegmentKind::kInt, "threads"},
    {"inflight", "in_flight", SegmentKind::kInt, "in flight"},
    {"window", "window_bits", SegmentKind::kInt, "window bits"},
    {"M", "table_size", SegmentKind::kInt, "M"},
    {"c", "balance_factor", SegmentKind::kNumber, "c"},
    {"removed", "removed_pct", SegmentKind::kNumber, "removed %"},
    {"order", "removal_order", SegmentKind::kWord, "order"},
    {"capacity", "fleet_capacity", SegmentKind::kInt, "capacity"},
    {"change", "change", SegmentKind::kWord, "change"},
    {"weights", "weights", SegmentKind::kWord, "weights"},
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
