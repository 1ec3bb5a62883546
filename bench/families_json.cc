#include "families_json.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>

#include "segments.h"

namespace chbench::bench {

namespace {

using nlohmann::json;

json segments_json() {
  json out = json::array();
  for (const SegmentInfo& s : all_segments())
    out.push_back({{"key", std::string(s.key)},
                   {"field", std::string(s.field)},
                   {"kind", std::string(segment_kind_name(s.kind))},
                   {"title", std::string(s.title)}});
  return out;
}

// Every configuration of the family's quick and full points.
std::vector<Config> all_configs(const Family& f, FamilyContext context) {
  std::vector<Config> out;
  for (const bool full : {false, true}) {
    context.full = full;
    for (const Point& p : f.points(context))
      out.insert(out.end(), p.configs.begin(), p.configs.end());
  }
  return out;
}

}  // namespace

std::vector<std::string> segment_keys(const std::vector<Config>& configs) {
  std::set<std::string_view> seen;
  for (const Config& c : configs)
    for (const auto& segment : c.segments()) seen.insert(segment.first);
  std::vector<std::string> out;
  for (const SegmentInfo& s : all_segments())
    if (seen.count(s.key)) out.emplace_back(s.key);
  return out;
}

std::string families_json(const FamilyContext& context) {
  json families = json::array();
  for (const Family& f : all_families())
    families.push_back({{"name", std::string(f.name)},
                        {"title", std::string(f.title)},
                        {"quick_budget_s", f.quick_budget_s},
                        {"params", segment_keys(all_configs(f, context))}});
  return json{{"segments", segments_json()}, {"families", families}}.dump();
}

}  // namespace chbench::bench
