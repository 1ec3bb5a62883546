#include "param_options.h"

#include <stdexcept>

#include "chbench/maglev/maglev.h"
#include "chbench/profiles/profile_info.h"

namespace chbench::lab {

bool placement_takes(const Placement& placement, Param p) {
  if (placement.profile) return (profile_params(*placement.profile) & p) != 0;
  return scheme_info(placement.scheme).takes(p);
}

namespace {

// The schemes and the profiles that read p, each a comma-separated list.
struct Takers {
  std::string schemes, profiles;
  unsigned scheme_count = 0, profile_count = 0;
};

Takers takers(Param p) {
  Takers t;
  for (const SchemeInfo& info : all_scheme_infos())
    if (info.takes(p)) {
      t.schemes += (t.schemes.empty() ? "" : ", ") + std::string(info.name);
      ++t.scheme_count;
    }
  for (Profile profile : all_profiles())
    if ((profile_params(profile) & p) != 0) {
      t.profiles += (t.profiles.empty() ? "" : ", ") + std::string(profile_name(profile));
      ++t.profile_count;
    }
  return t;
}

// "jump hash" of a scheme (its title, as the bench names it), "the kafka
// profile" of a profile.
std::string placement_title(const Placement& placement) {
  if (placement.profile) return "the " + std::string(profile_name(*placement.profile)) + " profile";
  return std::string(scheme_info(placement.scheme).title);
}

}  // namespace

std::string takers_of(Param p) {
  const Takers t = takers(p);
  std::string out;
  if (t.scheme_count != 0) out = (t.scheme_count == 1 ? "the scheme " : "the schemes ") + t.schemes;
  if (t.profile_count != 0)
    out += (out.empty() ? "" : "; ") +
           std::string(t.profile_count == 1 ? "the profile " : "the profiles ") + t.profiles;
  return out.empty() ? "nothing" : out;
}

void check_applies(const Placement& placement, const ParamInfo& p) {
  if (placement_takes(placement, p.param)) return;
  const Takers t = takers(p.param);
  std::string who;
  if (t.scheme_count != 0) who = "the schemes that take it: " + t.schemes;
  if (t.profile_count != 0)
    who += (who.empty() ? "" : "; ") + std::string("the profiles that take it: ") + t.profiles;
  throw std::invalid_argument(std::string(p.option) + ": " + placement_title(placement) +
                              " takes no " + std::string(p.symbol) + " (" +
                              (who.empty() ? "nothing takes it" : who) + ")");
}

namespace {

// The profiles' own V where they have one: "cassandra 256, groupcache 50".
std::string profile_vnodes() {
  std::string list;
  for (Profile profile : all_profiles())
    if (const uint32_t v = profile_info(profile).default_vnodes; v != 0)
      list +=
          (list.empty() ? "" : ", ") + std::string(profile_name(profile)) + " " + std::to_string(v);
  return list;
}

// What the lab adds to p's help line.
std::string lab_note(const ParamInfo& p) {
  switch (p.param) {
    case kParamVnodes:
      return "; a profile's own default: " + profile_vnodes();
    case kParamTableSize:
      return "; at most " + std::to_string(kLabMaxTableSize) +
             " in the lab, the largest prime below 2^26, built in seconds";
    case kParamWeights:
      return "; the profiles' ranges: ketama and twemproxy_ketama 1 ... 2^31, envoy_maglev "
             "1 ... 2^31 summing to at most 2^32 - 1, envoy_ring_hash and grpc_ring_hash at "
             "least 1, the haproxy and nginx profiles 1 ... 256 and at least 1 "
             "(docs/profiles.md)";
    default:
      return "";
  }
}

std::string range_of(const ParamInfo& p) {
  const auto text = [](uint32_t v) {
    return v == kMaxWeight ? std::string("2^31") : std::to_string(v);
  };
  if (p.max == 0xffffffffu)
    return p.kind == ParamKind::kPerNode ? "; each at least " + text(p.min) : "";
  return std::string(p.kind == ParamKind::kPerNode ? "; each " : "; ") + text(p.min) + " to " +
         text(p.max);
}

}  // namespace

std::string param_help(const ParamInfo& p) {
  std::string text = std::string(p.help) + ", for " + takers_of(p.param) + " (refused elsewhere";
  if (p.kind == ParamKind::kPerNode)
    text += "; default: all " + std::to_string(p.default_value);
  else if (p.default_value != 0)
    text += "; default " + std::to_string(p.default_value);
  return text + range_of(p) + lab_note(p) + ")";
}

void check_table_size_bound(uint64_t m) {
  if (m <= kLabMaxTableSize && !is_prime(static_cast<uint32_t>(m)))
    throw std::invalid_argument("--table-size must be a prime, 2 ... " +
                                std::to_string(kLabMaxTableSize) + " in the lab (got " +
                                std::to_string(m) + "; the default is " +
                                std::to_string(kDefaultTableSize) + ")");
  if (m <= kLabMaxTableSize) return;
  throw std::invalid_argument(
      "--table-size " + std::to_string(m) +
      " is above the lab's bound, M <= " + std::to_string(kLabMaxTableSize) +
      " (the largest prime below 2^26: about 0.5 GB and 2 s to build; a larger table "
      "takes minutes and gigabytes)");
}

}  // namespace chbench::lab
