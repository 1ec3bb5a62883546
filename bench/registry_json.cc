#include "registry_json.h"

#include <nlohmann/json.hpp>

#include "chbench/scheme.h"
#include "config.h"

namespace chbench::bench {

namespace {

using nlohmann::json;

const char* removal_name(Removal r) {
  switch (r) {
    case Removal::kAnyNode:
      return "any";
    case Removal::kLastOnly:
      return "last";
    case Removal::kNone:
      return "none";
  }
  return "none";
}

json scheme_json(const SchemeInfo& s) {
  json aliases = json::array();
  for (auto a : s.aliases) aliases.push_back(std::string(a));
  json params = json::array();
  for (const ParamInfo& p : kParams)
    if (s.takes(p.param)) params.push_back(std::string(p.name));
  return {{"name", std::string(s.name)},
          {"title", std::string(s.title)},
          {"source", std::string(s.source)},
          {"aliases", aliases},
          {"params", params},
          {"removal", removal_name(s.removal)},
          {"max_nodes", s.max_nodes},
          {"buckets_only", s.buckets_only},
          {"scores_every_node", s.scores_every_node}};
}

// A parameter's kParams entry (chbench/params.h): what the scripts need to
// read it from names, counters and the lab's output.
json param_json(const ParamInfo& p) {
  return {{"name", std::string(p.name)},
          {"kind", std::string(param_kind_name(p.kind))},
          {"option", std::string(p.option)},
          {"symbol", std::string(p.symbol)},
          {"help", std::string(p.help)},
          {"min", p.min},
          {"max", p.max},
          {"default", p.default_value},
          {"segment", p.segment.empty() ? json(nullptr) : json(std::string(p.segment))},
          {"field", std::string(p.field)},
          {"counter", p.counter}};
}

json knob_json(const Knob* knob) {
  if (!knob) return nullptr;
  json sweep = json::array();
  for (unsigned v : knob->sweep) sweep.push_back(v);
  return {{"name", std::string(knob->name)},
          {"default", std::string(knob->default_rule)},
          {"min", knob->min},
          {"max", knob->max},
          {"sweep", sweep}};
}

json kernel_json(const KernelInfo& k) {
  const bool floor = !k.floor.empty();
  const std::string scheme(scheme_name(k.scheme));
  return {{"name", k.full_name()},
          {"scheme", scheme},
          {"kernel", std::string(k.name)},
          {"summary", std::string(k.summary)},
          {"simd", k.simd},
          {"rival", k.rival ? json(k.rival->full_name()) : json(nullptr)},
          {"baseline", k.baseline},
          {"rank", floor ? json(nullptr) : json(k.rank)},
          {"stream", k.floor == "stream"},
          {"floor", floor ? json(std::string(k.floor)) : json(nullptr)},
          {"knob", knob_json(k.knob)}};
}

}  // namespace

std::string registry_json() {
  json schemes = json::array(), kernels = json::array(), params = json::array();
  for (const ParamInfo& p : kParams) params.push_back(param_json(p));
  for (const SchemeInfo& s : all_scheme_infos()) schemes.push_back(scheme_json(s));
  for (const KernelInfo* k : all_kernels()) kernels.push_back(kernel_json(*k));
  for (const KernelInfo* k : floor_kernels()) kernels.push_back(kernel_json(*k));
  return json{{"schemes", schemes}, {"kernels", kernels}, {"params", params}}.dump();
}

}  // namespace chbench::bench
