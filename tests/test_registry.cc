// The registry (scheme.h): what each scheme says it is, checked against what
// it does (its entry, parameters, names, removals). Every loop runs over
// all_scheme_infos(), so a scheme added later is checked without an edit
// here; the kernels' entries are test_registry_kernels.cc's, check() and the
// memory estimates test_registry_checks.cc's, the fleet test_fleet.cc's.

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <climits>
#include <cstdint>
#include <new>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/hash.h"
#include "chbench/hrw/hrw.h"
#include "chbench/jump/jump.h"
#include "chbench/maglev/maglev.h"
#include "chbench/nodes.h"
#include "chbench/params.h"
#include "chbench/ring/ring.h"
#include "chbench/scheme.h"
#include "support.h"

using Catch::Matchers::Contains;
using chbench::Fleet;
using chbench::KernelInfo;
using chbench::NodeSet;
using chbench::Scheme;
using chbench::SchemeInfo;
using chbench_test::first_mismatch;
using chbench_test::keys_for;
using chbench_test::kSeed;
using chbench_test::owners_of;

namespace {

// The owners' names, so that placements over different node lists compare.
std::vector<std::string> owner_names(const chbench::OwnerTable& table, const NodeSet& nodes,
                                     std::span<const uint64_t> keys) {
  std::vector<std::string> names;
  for (uint32_t o : owners_of(table, keys)) names.push_back(nodes.names.at(o));
  return names;
}

}  // namespace

// ---- schemes ---------------------------------------------------------------------

TEST_CASE("registry: every scheme has one entry, in the order of all_schemes()", "[registry]") {
  const auto infos = chbench::all_scheme_infos();
  const auto schemes = chbench::all_schemes();
  REQUIRE(infos.size() == schemes.size());
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const SchemeInfo& s = infos[i];
    INFO("scheme " << s.name);
    CHECK(s.id == schemes[i]);
    CHECK(&chbench::scheme_info(s.id) == &s);
    CHECK(chbench::scheme_name(s.id) == s.name);
    CHECK(!s.title.empty());
    CHECK(!s.source.empty());
    CHECK(!s.removal_note.empty());
    CHECK(s.max_nodes >= 1);
    CHECK(s.max_nodes <= 0xffffffffu);  // owners are uint32_t
    CHECK(s.reference != nullptr);
    CHECK(s.check != nullptr);
    CHECK(s.reference_bytes != nullptr);
    CHECK(names.insert(s.name).second);
    for (auto alias : s.aliases) CHECK(names.insert(alias).second);  // no name is taken twice
  }
  // The order of the plots and tables (schemes added later come after these),
  // and what each scheme reads.
  const Scheme first[] = {Scheme::kModN, Scheme::kRing, Scheme::kRendezvous, Scheme::kJump,
                          Scheme::kMaglev};
  REQUIRE(infos.size() >= std::size(first));
  for (std::size_t i = 0; i < std::size(first); ++i) CHECK(infos[i].id == first[i]);
  CHECK(chbench::scheme_info(Scheme::kRendezvous).name == "hrw");
  CHECK(chbench::scheme_info(Scheme::kRing).takes(chbench::kParamVnodes));
  CHECK(chbench::scheme_info(Scheme::kMaglev).takes(chbench::kParamTableSize));
  CHECK(chbench::scheme_info(Scheme::kJump).max_nodes == chbench::kJumpMaxBuckets);
  CHECK(chbench::scheme_info(Scheme::kMaglev).max_nodes <= chbench::kMaglevMaxTableSize);
  CHECK(chbench::scheme_info(Scheme::kJump).removal == chbench::Removal::kLastOnly);
  CHECK(chbench::scheme_info(Scheme::kModN).removal == chbench::Removal::kNone);
}

TEST_CASE("registry: each scheme's entry is its kernels.def line's, at its enumerator",
          "[registry]") {
  // The scheme lines, expanded here as scheme.h expands them for the enum.
#define CHBENCH_SCHEME(scheme, enumerator, ...) \
  std::pair{std::string_view(#scheme), Scheme::k##enumerator},
  const std::pair<std::string_view, Scheme> lines[] = {
#include "chbench/kernels.def"
  };
  const auto infos = chbench::all_scheme_infos();
  REQUIRE(infos.size() == std::size(lines));
  for (std::size_t i = 0; i < infos.size(); ++i) {
    INFO("kernels.def's scheme line " << i << ": " << lines[i].first);
    CHECK(infos[i].name == lines[i].first);
    CHECK(infos[i].id == lines[i].second);
    CHECK(static_cast<std::size_t>(infos[i].id) == i);
  }
}

TEST_CASE("registry: kParams names every parameter a scheme reads, once", "[registry]") {
  unsigned named = 0;
  std::set<std::string_view> names, options, symbols, segments, fields;
  for (std::size_t i = 0; i < chbench::kParamCount; ++i) {
    const chbench::ParamInfo& p = chbench::kParams[i];
    INFO("parameter " << p.name);
    CHECK(p.param == 1u << i);  // its bit is its place
    CHECK(chbench::param_index(p.param) == i);
    CHECK(&chbench::param_info(p.param) == &p);
    CHECK(names.insert(p.name).second);
    CHECK(options.insert(p.option).second);
    CHECK(symbols.insert(p.symbol).second);
    CHECK(fields.insert(p.field).second);
    if (!p.segment.empty()) CHECK(segments.insert(p.segment).second);
    // The option is the name's: "table_size", "--table-size".
    std::string option = "--" + std::string(p.name);
    std::replace(option.begin(), option.end(), '_', '-');
    CHECK(p.option == option);
    CHECK(!p.help.empty());
    CHECK(!p.field.empty());
    CHECK((!p.counter || !p.segment.empty()));  // a counter only for a parameter names carry
    named |= p.param;
  }
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    INFO("scheme " << s.name);
    CHECK((s.params & ~named) == 0);
  }
  CHECK(chbench::scheme_info(Scheme::kMultiprobe).takes(chbench::kParamProbes));
  CHECK(chbench::scheme_info(Scheme::kAnchor).takes(chbench::kParamCapacity));
}

TEST_CASE("registry: each parameter has a place in NodeSet and a default in its range",
          "[registry]") {
  const NodeSet fresh;
  for (const chbench::ParamInfo& p : chbench::kParams) {
    INFO("parameter " << p.name);
    CHECK(p.min <= p.max);
    if (p.kind == chbench::ParamKind::kPerNode) {
      // Its own member, one value per node; none (all default_value) at first.
      CHECK(p.per_node != nullptr);
      CHECK(p.count == nullptr);
      CHECK((fresh.*p.per_node).empty());
      CHECK(p.default_value >= p.min);
      CHECK(p.default_value <= p.max);
      CHECK_FALSE(chbench::count_of(p, fresh).has_value());
      continue;
    }
    CHECK(p.per_node == nullptr);
    // 0: the scheme's own rule (the capacity's 10 x N); else within the range.
    if (p.default_value != 0) {
      CHECK(p.default_value >= p.min);
      CHECK(p.default_value <= p.max);
    }
    // A member of its own, or NodeSet::counts at its place, which starts at
    // the default.
    if (p.count == nullptr)
      CHECK(chbench::count_of(p, fresh) == p.default_value);
    else
      CHECK(chbench::count_of(p, fresh) == fresh.*p.count);
    CHECK(fresh.counts[chbench::param_index(p.param)] == p.default_value);
    // Set and read back, every other parameter left as it was.
    NodeSet set = fresh;
    chbench::set_count(p, set, p.max);
    for (const chbench::ParamInfo& q : chbench::kParams)
      CHECK(chbench::count_of(q, set) ==
            (&q == &p ? std::optional(p.max) : chbench::count_of(q, fresh)));
    CHECK(chbench::count_of(p.param, set) == p.max);
  }
  for (std::size_t i = chbench::kParamCount; i < chbench::kMaxCountParams; ++i)
    CHECK(fresh.counts[i] == 0);
}

TEST_CASE("registry: a count parameter a scheme does not take moves no key", "[registry]") {
  // Each at its least and its greatest value: the schemes that do not take it
  // place every key as at the default, their kernels as their reference.
  std::mt19937_64 rng(kSeed + 81);
  const NodeSet base = chbench::default_nodes(12, 4);
  const auto keys = keys_for(base, 1000, rng);
  for (const chbench::ParamInfo& p : chbench::kParams) {
    if (p.kind != chbench::ParamKind::kCount) continue;
    for (const SchemeInfo& s : chbench::all_scheme_infos()) {
      if (s.takes(p.param)) continue;
      INFO("parameter " << p.name << ", scheme " << s.name);
      const auto before = owners_of(*s.reference(base), keys);
      for (const uint32_t value : {p.min, p.max}) {
        NodeSet changed = base;
        chbench::set_count(p, changed, value);
        CHECK(owners_of(*s.reference(changed), keys) == before);
        for (const KernelInfo* k : chbench::kernels_of(s.id))
          CHECK(first_mismatch<uint64_t>(keys, before, owners_of(*k->build(changed), keys)) == "");
      }
    }
  }
}

TEST_CASE("registry: the stream floor is ring/stream, apart from the kernels", "[registry]") {
  const KernelInfo& floor = chbench::stream_floor();
  CHECK(floor.full_name() == "ring/stream");
  CHECK(floor.rank == -1);
  CHECK(floor.rival == nullptr);
  CHECK_FALSE(floor.simd);
  const auto all = chbench::all_kernels();
  CHECK(std::find(all.begin(), all.end(), &floor) == all.end());
  CHECK_THROWS_AS(chbench::find_kernel("ring/stream"), std::invalid_argument);
  const auto table = floor.build(chbench::default_nodes(3));
  const std::vector<uint64_t> keys = {0, 7, 0x1234567800000009u, UINT64_MAX};
  CHECK(owners_of(*table, keys) == std::vector<uint32_t>{0, 7, 9, 0xffffffffu});
  CHECK(table->memory_bytes() == 0);
  CHECK(floor.table_bytes(chbench::default_nodes(3)) == 0);
  CHECK_THROWS_AS(floor.build(chbench::default_nodes(3), 1), std::invalid_argument);
}

TEST_CASE("registry: parse_scheme takes names and aliases, and lists the schemes otherwise",
          "[registry][errors]") {
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    INFO("scheme " << s.name);
    CHECK(chbench::parse_scheme(s.name) == s.id);
    for (auto alias : s.aliases) CHECK(chbench::parse_scheme(alias) == s.id);
  }
  CHECK(chbench::parse_scheme("rendezvous") == Scheme::kRendezvous);
  for (const char* unknown :
       {"", "anchorhash", "RING", "ring ", "mod-n", "ketama", "ring/eytzinger"}) {
    INFO("'" << unknown << "'");
    CHECK_THROWS_AS(chbench::parse_scheme(unknown), std::invalid_argument);
    CHECK_THROWS_WITH(chbench::parse_scheme(unknown),
                      Contains("unknown scheme '" + std::string(unknown) + "'"));
    for (const SchemeInfo& s : chbench::all_scheme_infos())
      CHECK_THROWS_WITH(chbench::parse_scheme(unknown), Contains(std::string(s.name)));
  }
}

TEST_CASE("registry: a scheme reads only the parameters it says it takes", "[registry]") {
  // V, M, k and the weights changed one at a time: a scheme that does not take
  // the parameter places every key as before, one that takes it moves some.
  std::mt19937_64 rng(kSeed + 80);
  const NodeSet base{chbench::default_nodes(12, 4).names, 4, 4093};
  const auto keys = keys_for(base, 3000, rng);
  NodeSet more_vnodes = base, other_size = base, fewer_probes = base, weighted = base;
  more_vnodes.vnodes = 9;
  other_size.table_size = 65537;
  fewer_probes.probes = 3;
  weighted.weights = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    INFO("scheme " << s.name);
    const auto before = owners_of(*s.reference(base), keys);
    const auto v = owners_of(*s.reference(more_vnodes), keys);
    const auto m = owners_of(*s.reference(other_size), keys);
    const auto p = owners_of(*s.reference(fewer_probes), keys);
    CHECK((v != before) == s.takes(chbench::kParamVnodes));
    CHECK((m != before) == s.takes(chbench::kParamTableSize));
    const auto w = owners_of(*s.reference(weighted), keys);
    CHECK((w != before) == s.takes(chbench::kParamWeights));
    CHECK((p != before) == s.takes(chbench::kParamProbes));
    for (const KernelInfo* k : chbench::kernels_of(s.id)) {
      INFO("kernel " << k->full_name());
      CHECK(first_mismatch<uint64_t>(keys, v, owners_of(*k->build(more_vnodes), keys)) == "");
      CHECK(first_mismatch<uint64_t>(keys, m, owners_of(*k->build(other_size), keys)) == "");
      CHECK(first_mismatch<uint64_t>(keys, w, owners_of(*k->build(weighted), keys)) == "");
      CHECK(first_mismatch<uint64_t>(keys, p, owners_of(*k->build(fewer_probes), keys)) == "");
    }
  }
}

TEST_CASE("registry: removal says which leaves keep the survivors' keys in place", "[registry]") {
  // The keys that move between two survivors when one node leaves: none for
  // a ring or rendezvous, a few for Maglev (kAnyNode), none for jump's last
  // bucket but many for any other (kLastOnly), some for any leave (kNone;
  // many for mod-N). How many a kNone scheme moves is its own tests' matter.
  const NodeSet nodes = chbench::default_nodes(20, 40);
  const auto keys = chbench::default_key_hashes(20'000);
  for (const SchemeInfo& s : chbench::all_scheme_infos()) {
    const auto before = owner_names(*s.reference(nodes), nodes, keys);
    for (const std::string& gone : {nodes.names[7], nodes.names.back()}) {
      Fleet fleet(nodes);
      fleet.leave(gone);
      const auto after = owner_names(*s.reference(fleet), fleet.nodes(), keys);
      std::size_t moved = 0;
      for (std::size_t i = 0; i < keys.size(); ++i)
        moved += before[i] != gone && after[i] != before[i];
      INFO("scheme " << s.name << ", " << gone << " leaves: " << moved << " of " << keys.size()
                     << " keys move between survivors");
      const bool last = gone == nodes.names.back();
      switch (s.removal) {
        case chbench::Removal::kAnyNode:
          CHECK(moved <= keys.size() / 50);
          if (s.id == Scheme::kRing || s.id == Scheme::kRendezvous) CHECK(moved == 0);
          break;
        case chbench::Removal::kLastOnly:
          CHECK((last ? moved == 0 : moved > keys.size() / 4));
          break;
        case chbench::Removal::kNone:
          CHECK(moved > keys.size() / 100);
          if (s.id == Scheme::kModN) CHECK(moved > keys.size() / 4);
          break;
      }
    }
  }
}
